#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot a soak's samples (scripts/soak.sh's CSV, tests/e2e/soak_run.py's
columns) over time into one PNG:

  top     the responder's memory: RSS (MiB), and on a second axis the mbufs
          out of its pools and its open file descriptors
  bottom  per-interval throughput (Mbit/s, what the clients' tests moved
          between two samples) and, on a second axis, sessions served

    nbench_plot_soak.py SOAK.csv OUT.png

Prints a summary line (sessions, RSS first/after warm-up/last) on stdout.
Exit status 0, 2 on a usage error or an empty CSV."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in
                csv.DictReader(f)]
    if not rows:
        print("%s: no samples" % argv[1], file=sys.stderr)
        return 2
    t = [r["t"] / 60.0 for r in rows]
    fig, (mem, thr) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    mem.plot(t, [r["rss_kb"] / 1024.0 for r in rows], color="tab:blue",
             label="RSS (MiB)")
    mem.set_ylabel("RSS (MiB)")
    lo = min(r["rss_kb"] for r in rows) / 1024.0
    hi = max(r["rss_kb"] for r in rows) / 1024.0
    mem.set_ylim(lo * 0.9, hi * 1.1)
    m2 = mem.twinx()
    m2.plot(t, [r["mbufs_in_use"] for r in rows], color="tab:orange",
            label="mbufs in use")
    m2.plot(t, [r["fds"] for r in rows], color="tab:green",
            label="open fds")
    m2.set_ylabel("mbufs in use / open fds")
    m2.set_ylim(bottom=0)
    lines = mem.get_lines() + m2.get_lines()
    mem.legend(lines, [x.get_label() for x in lines], loc="lower right")
    mem.set_title("dpdk-nbench responder soak: %d sessions, %d clients "
                  "(%d killed mid-test)"
                  % (rows[-1]["sessions_ended"], rows[-1]["clients"],
                     rows[-1]["killed"]))
    mem.grid(True, alpha=0.3)
    thr.plot(t[1:], [r["mbit_s"] for r in rows[1:]], color="tab:purple",
             label="throughput (Mbit/s, per interval)")
    thr.set_ylabel("Mbit/s")
    thr.set_ylim(bottom=0)
    t2 = thr.twinx()
    t2.plot(t, [r["sessions_ended"] for r in rows], color="tab:gray",
            label="sessions served")
    t2.set_ylabel("sessions")
    lines = thr.get_lines() + t2.get_lines()
    thr.legend(lines, [x.get_label() for x in lines], loc="upper left")
    thr.set_xlabel("minutes")
    thr.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=100)
    print("%s: %d samples, %d sessions; RSS %d kB at start, %d kB last; "
          "fds %d last; mbufs in use %d last"
          % (argv[2], len(rows), rows[-1]["sessions_ended"],
             rows[0]["rss_kb"], rows[-1]["rss_kb"], rows[-1]["fds"],
             rows[-1]["mbufs_in_use"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
