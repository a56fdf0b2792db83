#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The sink's instructions a frame from a callgrind profile of a build with
debug info (scripts/flows_instructions.sh):

    cg_sink_lines.py [--minus OUT0 FRAMES0] CALLGRIND.OUT FRAMES LABEL [EVENT...]

Sums the instructions callgrind puts on the source lines of the per-frame
work: nb_sink.h's helpers and the frame loop of nb_sink_step (from its
`for (i = 0; i < n; i++)` to the burst's rte_pktmbuf_free_bulk), and the
files only that work uses (the parser, the sequence tracker, the
histogram, jitter, and nb_flows_rx.h's per-flow counts: its record
functions and the stream's flow cursor, not what runs at setup or for the
report).  Lines run once a poll (the receive call, the clock) are not
counted; so the figure compares sinks, not PMDs.

With --minus, a profile of the same binary with fewer frames: the counts
of the frames between the two (FRAMES - FRAMES0 of them), so a sink that
has seen each flow once already (the steady state) is measured apart
from each flow's first frame.

With EVENTs (a profile taken with --cache-sim=yes: Ir, D1mr, D1mw, DLmr,
DLmw...) each event's count a frame on those lines, in one line."""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FILES = {
    "nb_sink.h": "app/worker/nb_sink.h",
    "nb_frame_parse.h": "app/core/nb_frame_parse.h",
    "nb_seq.c": "app/core/nb_seq.c",
    "nb_seq.h": "app/core/nb_seq.h",
    "nb_hist.h": "app/core/nb_hist.h",
    "nb_jitter.h": "app/core/nb_jitter.h",
    "nb_flows_rx.h": "app/core/nb_flows_rx.h",
}


def line_of(path, pattern, start=1):
    with open(os.path.join(ROOT, path)) as f:
        for n, text in enumerate(f, 1):
            if n >= start and pattern in text:
                return n
    raise SystemExit("cg_sink_lines: %r not in %s" % (pattern, path))


def wanted():
    """{file: predicate(line number)}."""
    sink = FILES["nb_sink.h"]
    step = line_of(sink, "nb_sink_step(struct nb_rxjob")
    loop = line_of(sink, "for (i = 0; i < n; i++) {", step)
    free = line_of(sink, "rte_pktmbuf_free_bulk(pkts, nfree);", loop)
    fx = FILES["nb_flows_rx.h"]
    rec = line_of(fx, "nb_flow_cnt_lat(struct nb_flow_cnt *c")
    rec_end = line_of(fx, "}", line_of(fx, "nb_flow_rx_count(struct nb_flow_cnt"))
    keep = {k: (lambda n: True) for k in FILES}
    keep["nb_sink.h"] = lambda n: n < step or loop <= n < free
    keep["nb_flows_rx.h"] = lambda n: rec <= n <= rec_end
    return keep


def count(out, event=None):
    show = ["--show=" + event, "--sort=" + event] if event else []
    txt = subprocess.run(
        ["callgrind_annotate", "--auto=yes", "--show-percs=no",
         "--context=100000", "--threshold=100"] + show + [out],
        check=True, capture_output=True, text=True).stdout
    keep, tot, cur, n, head = wanted(), {}, None, 0, False
    for line in txt.splitlines():
        m = re.match(r"-- Auto-annotated source: (.*)", line)
        if m:
            cur = next((k for k in FILES if m.group(1).endswith("/" + k)),
                       None)
            n, head = 0, True
            continue
        # a rule ends a file's section, unless it underlines its title
        if line.startswith("-----"):
            if not head:
                cur = None
            head = False
            continue
        head = False
        m = re.match(r"-- line (\d+)", line)
        if m:
            n = int(m.group(1)) - 1
            continue
        if cur is None or line.startswith("--"):
            continue
        m = re.match(r"\s*([0-9,]+|\.)\s{2}(.*)$", line)
        if not m or m.group(2).lstrip().startswith("=>"):
            continue
        n += 1
        if m.group(1) != "." and keep[cur](n):
            tot[cur] = tot.get(cur, 0) + int(m.group(1).replace(",", ""))
    return tot


def main(argv):
    base, frames0 = None, 0
    if len(argv) > 3 and argv[1] == "--minus":
        base, frames0 = argv[2], int(argv[3])
        argv = argv[:1] + argv[4:]
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    frames = int(argv[2]) - frames0

    def tally(event):
        tot = count(argv[1], event)
        if base is not None:
            for k, v in count(base, event).items():
                tot[k] = tot.get(k, 0) - v
        return tot

    if len(argv) > 4:
        print("%s: %s a frame" % (argv[3], ", ".join(
            "%s %.3f" % (ev, sum(tally(ev).values()) / frames)
            for ev in argv[4:])))
        return 0
    tot = tally("Ir")
    parts = ", ".join("%s %.1f" % (k, v / frames)
                      for k, v in sorted(tot.items()) if v)
    print("%s: %.1f instructions a frame (%s)"
          % (argv[3], sum(tot.values()) / frames, parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
