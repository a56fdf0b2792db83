# SPDX-License-Identifier: BSD-3-Clause
"""A soak: one responder serves clients back to back, for a given time.

    PREFIXa  responder (af_packet on PREFIXva, CPU 0)
    PREFIXb  clients   (af_packet on PREFIXvb, CPU 1), one at a time

The responder serves one session at a time (a second client would get
BUSY), so the clients take turns: each starts once the responder's
telemetry (/nbench/responder) says the last session has ended.  Four client
identities rotate (the client port's MAC is changed before each client),
and five kinds of client: a UDP size sweep (6 sessions), a TCP test, a
reverse test, a bidir test and an RFC 2544 loss suite (2 sessions).  Every
10th client is killed with SIGKILL while its test runs; the responder must
notice (its peer timeout), free the session and serve the next one.

The link is af_packet on a veth pair, not memif: DPDK 22.11's memif PMD
can crash the survivor when its peer is killed under traffic
(test_peer.py).  Between clients the driver samples the responder: RSS
(/proc/PID/status VmRSS), open file descriptors (/proc/PID/fd), mbufs out
of its mempools (/nbench/pools) and its session counters.

Used by test_soak.py (the CI version) and scripts/soak.sh (hours, a CSV of
samples and a plot):

    soak_run.py --seconds N --csv FILE [--every SECS]

needs NBENCH_BIN, root and free hugepages."""
import argparse
import csv
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

import nbe2e

# the five kinds of client: (name, tool options, sessions each)
KINDS = (
    ("udp-sweep", ["--size", "64:1518:*2", "--time", "0.1", "--settle", "0",
                   "--rate", "100M"], 6),
    ("tcp", ["--tcp", "--time", "0.3"], 1),
    ("reverse", ["-R", "--time", "0.2", "--rate", "100M"], 1),
    ("bidir", ["--bidir", "--time", "0.2", "--rate", "50M"], 1),
    ("rfc2544-loss", ["--test", "loss", "--rate", "100M", "--loss-step",
                      "50%", "--trial-time", "0.1", "--settle", "0",
                      "--size", "64"], 2),
)
# a killed client runs long enough to be killed while its test runs
KILLED = ["--time", "30", "--rate", "50M"]
# 8192 frames of 2 KiB in each af_packet ring (512 by default): a
# receiver kept off its CPU for up to ~100 ms at these rates loses nothing
RING = "framecnt=8192"
IDENTITIES = ["02:4e:53:4b:00:%02x" % (i + 1) for i in range(4)]
FIELDS = ("t", "clients", "killed", "sessions_opened", "sessions_ended",
          "sessions_done", "rss_kb", "fds", "mbufs_in_use", "pool_size",
          "refused_total", "mbit_s")


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True,
                          timeout=30)


def hugetlbfs_mounts():
    with open("/proc/mounts") as f:
        return [l.split()[1] for l in f if l.split()[2] == "hugetlbfs"]


def drop_prefix_files(prefix):
    """What a SIGKILLed process of file prefix `prefix` left: its hugepage
    files and its runtime directory (nothing else could remove them)."""
    for m in hugetlbfs_mounts():
        for f in glob.glob(os.path.join(m, prefix + "map_*")):
            os.unlink(f)
    subprocess.run(["rm", "-rf", "/var/run/dpdk/" + prefix])


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for %d" % pid)


def client_bytes(doc):
    """Bytes the client's test moved (both ways), from its JSON."""
    suite = doc.get("suite")
    if suite:
        return sum(t["tx_packets"] * t["size"] for t in suite["trials"])
    e = doc["end"]
    n = e["sum_sent"]["bytes"]
    if "sum_sent_bidir_reverse" in e:
        n += e["sum_sent_bidir_reverse"]["bytes"]
    return n


def check_counts(kind, doc):
    """Exact counts of a client that completed: (what is wrong, frames
    lost, frames sent).  Per session, the sender's count is the receiver's
    count plus its loss, nothing duplicated or reordered; the client
    port's own counts are its PMD's; the responder's PMD received (forward)
    or sent (reverse) what its end counted plus the session's control
    frames.  Loss is counted, not refused: af_packet on a veth drops in
    the kernel when a receiver is kept off its CPU (the host is shared),
    before any PMD counter sees the frame."""
    bad = []
    lost = sent = 0

    def eq(what, a, b):
        if a != b:
            bad.append("%s: %s: %r != %r" % (kind, what, a, b))

    if doc.get("suite"):
        for t in doc["suite"]["trials"]:
            eq("trial %s rx + lost" % t["trial"],
               t["rx_packets"] + t["lost_packets"], t["tx_packets"])
            lost += t["lost_packets"]
            sent += t["tx_packets"]
        return bad, lost, sent
    e = doc["end"]
    if kind == "tcp":
        eq("bytes received", e["sum_received"]["bytes"],
           e["sum_sent"]["bytes"])
        eq("bad bytes", doc["nbench"]["bad_bytes"], 0)
        eq("connections closed", doc["nbench"]["connections_closed"], 1)
        return bad, 0, 0
    pairs = [("", e["sum_sent"], e["sum_received"])]
    if "sum_sent_bidir_reverse" in e:
        pairs.append(("reverse ", e["sum_sent_bidir_reverse"],
                      e["sum_received_bidir_reverse"]))
    for tag, s, r in pairs:
        eq(tag + "received + lost", r["packets"] + r["lost_packets"],
           s["packets"])
        eq(tag + "duplicates", r.get("duplicates", 0), 0)
        eq(tag + "out of order", r.get("out_of_order", 0), 0)
        lost += r["lost_packets"]
        sent += s["packets"]
    me = e["ports"][0]
    eq("client tool tx = PMD", me["tool_tx_packets"], me["pmd"]["opackets"])
    eq("client tool rx = PMD", me["tool_rx_packets"], me["pmd"]["ipackets"])
    if kind in ("udp", "reverse"):
        peer = e["ports"][1]["pmd"]
        extra = (peer["ipackets"] - e["sum_received"]["packets"]
                 if kind == "udp" else
                 peer["opackets"] - e["sum_sent"]["packets"])
        if not 1 <= extra < 300:
            bad.append("%s: the responder's PMD beyond its count: %d"
                       % (kind, extra))
    return bad, lost, sent


class Soak:

    def __init__(self, tmpdir, log=print):
        self.tmpdir, self.log = tmpdir, log
        self.prefix = "sk%d" % (os.getpid() % 100000)
        self.ns_r, self.ns_c = self.prefix + "a", self.prefix + "b"
        self.if_r, self.if_c = self.prefix + "va", self.prefix + "vb"
        self.resp = None
        self.clients = self.killed = 0
        self.failures = []
        self.bytes = self.lost = self.sent = self.expected_sessions = 0
        self.samples = []
        self.freed_s = []   # kill to the session freed, per killed client

    # --- the responder ------------------------------------------------------

    def start(self):
        nbe2e.netns_up(self.prefix)
        self.resp_prefix = nbe2e.unique("soakr")
        argv = ["ip", "netns", "exec", self.ns_r, nbe2e.BIN, "--no-pci",
                "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
                self.resp_prefix, "--log-level", "lib.eal:error", "--vdev",
                "net_af_packet0,iface=%s,%s" % (self.if_r, RING), "--"]
        os.makedirs(nbe2e.LOGDIR, exist_ok=True)
        self.resp_log = os.path.join(nbe2e.LOGDIR,
                                     nbe2e.unique("soakresp") + ".log")
        self.resp_out = os.path.join(self.tmpdir, "resp.out")
        # files, not pipes: thousands of sessions' log lines would fill a
        # pipe nobody reads and stop the responder
        # ASan keeps freed blocks in a quarantine (256 MiB by default)
        # before reusing them, so its RSS would grow by each session's
        # frees until that is full: a small one (use-after-free is still
        # caught within it; leaks by LeakSanitizer at exit)
        env = {"ASAN_OPTIONS": nbe2e.SAN_ENV["ASAN_OPTIONS"] +
               ":quarantine_size_mb=4"} if nbe2e.SANITIZED else {}
        with open(self.resp_out, "w") as out, \
                open(self.resp_log, "w") as err:
            self.resp = subprocess.Popen(argv, stdout=out, stderr=err,
                                         env=nbe2e.child_env(env),
                                         start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(self.resp_out) as f:
                first = f.readline()
            if "responder on port 0" in first:
                break
            if self.resp.poll() is not None:
                break
            time.sleep(0.05)
        if "responder on port 0" not in first:
            raise AssertionError("responder did not start (log %s)"
                                 % self.resp_log)
        self.resp_mac = first.split(" mac ")[1].split()[0]
        self.tel = nbe2e.telemetry(self.resp_prefix)

    def ask(self, cmd):
        return nbe2e.telemetry_ask(self.tel, cmd)

    def stop(self):
        """SIGINT the responder: exit 0, no exit problem on stderr.
        Returns its stderr."""
        err = ""
        if self.resp is not None and self.resp.poll() is None:
            self.tel.close()
            os.killpg(self.resp.pid, signal.SIGINT)
            try:
                rc = self.resp.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.resp.pid, signal.SIGKILL)
                rc = self.resp.wait()
            with open(self.resp_log) as f:
                err = f.read()
            if rc != 0:
                raise AssertionError("responder exit %s (log %s)"
                                     % (rc, self.resp_log))
            bad = nbe2e.exit_problems(err)
            if bad:
                raise AssertionError("responder: %s (log %s)"
                                     % ("\n".join(bad[:10]), self.resp_log))
        return err

    def cleanup(self):
        if self.resp is not None and self.resp.poll() is None:
            os.killpg(self.resp.pid, signal.SIGKILL)
            self.resp.wait()
        nbe2e.netns_down(self.prefix)

    # --- samples ------------------------------------------------------------

    def idle(self, timeout=20):
        """Wait until the responder has no session; its counters."""
        deadline = time.monotonic() + timeout
        while True:
            r = self.ask("/nbench/responder")
            if r["session"] == "00000000" and \
                    r["sessions_opened"] == r["sessions_ended"]:
                return r
            if time.monotonic() > deadline:
                raise AssertionError("the responder still holds session "
                                     "%s after %s s (log %s)"
                                     % (r["session"], timeout, self.resp_log))
            time.sleep(0.02)

    def sample(self, t0, last=None):
        r = self.idle()
        pools = self.ask("/nbench/pools")
        pid = self.resp.pid
        s = {"t": round(time.monotonic() - t0, 3), "clients": self.clients,
             "killed": self.killed,
             "sessions_opened": r["sessions_opened"],
             "sessions_ended": r["sessions_ended"],
             "sessions_done": r["sessions_done"],
             "rss_kb": rss_kb(pid),
             "fds": len(os.listdir("/proc/%d/fd" % pid)),
             "mbufs_in_use": pools["in_use"], "pool_size": pools["size"],
             "refused_total": r["refused_total"], "bytes": self.bytes,
             "refused": {k: v for k, v in r["refused"].items() if v}}
        dt = s["t"] - last["t"] if last else s["t"]
        moved = self.bytes - (last["bytes"] if last else 0)
        s["mbit_s"] = round(moved * 8 / dt / 1e6, 3) if dt > 0 else 0.0
        self.samples.append(s)
        return s

    # --- clients ------------------------------------------------------------

    def client_argv(self, tool):
        return ["ip", "netns", "exec", self.ns_c, nbe2e.BIN, "--no-pci",
                "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
                self.cli_prefix, "--log-level", "lib.eal:error", "--vdev",
                "net_af_packet0,iface=%s,%s" % (self.if_c, RING), "--", "--peer",
                self.resp_mac, "--json"] + tool

    def one_client(self, i):
        """Client i: its identity and kind by turn; every 10th killed."""
        self.idle()
        sh("ip", "-n", self.ns_c, "link", "set", "dev", self.if_c, "address",
           IDENTITIES[i % len(IDENTITIES)])
        self.cli_prefix = nbe2e.unique("soakc")
        if i % 10 == 9:
            return self.kill_one()
        kind, tool, _ = KINDS[(i + i // 10) % len(KINDS)]
        argv = self.client_argv(tool)
        p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env=nbe2e.child_env(), start_new_session=True)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
        self.clients += 1
        bad = nbe2e.exit_problems(err)
        if p.returncode != 0 or bad:
            log = os.path.join(nbe2e.LOGDIR, self.cli_prefix + ".log")
            nbe2e.Nbench._log(log, argv, p.returncode, out, err)
            self.failures.append("client %d (%s) exit %s %s (log %s)"
                                 % (i, kind, p.returncode, bad[:3], log))
            return
        doc = nbe2e.loads(out, "client %d (%s)" % (i, kind))
        wrong, lost, sent = check_counts(
            "udp" if kind == "udp-sweep" else kind, doc)
        self.lost += lost
        self.sent += sent
        if wrong:
            log = os.path.join(nbe2e.LOGDIR, self.cli_prefix + ".log")
            nbe2e.Nbench._log(log, argv, p.returncode, out, err)
            self.failures.extend("client %d: %s (log %s)" % (i, w, log)
                                 for w in wrong)
        self.bytes += client_bytes(doc)
        # one session per trial (a suite's or a sweep's), as the client
        # says; the kind's usual count is KINDS'
        self.expected_sessions += (len(doc["suite"]["trials"])
                                   if doc.get("suite") else 1)

    def kill_one(self):
        """A client killed (SIGKILL) while its test runs: once the
        responder's receivers count its frames."""
        before = self.ask("/nbench/responder")["sessions_opened"]
        p = subprocess.Popen(self.client_argv(KILLED),
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             env=nbe2e.child_env(), start_new_session=True)
        deadline = time.monotonic() + 30
        try:
            while True:
                r = self.ask("/nbench/responder")
                if r["sessions_opened"] > before and \
                        r.get("test_rx_frames", 0) > 1000:
                    break
                if p.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        "the client to be killed never got its test "
                        "running (exit %s)" % p.poll())
                time.sleep(0.02)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            t_kill = time.monotonic()
            p.wait()
            drop_prefix_files(self.cli_prefix)
        # how long the responder kept the dead client's session
        self.idle()
        self.freed_s.append(time.monotonic() - t_kill)
        self.clients += 1
        self.killed += 1
        self.expected_sessions += 1

    def run(self, seconds, every=None, on_sample=None):
        """Clients for `seconds`; a sample before the first client, every
        `every` s (None: after every client) and at the end."""
        t0 = time.monotonic()
        last = self.sample(t0)
        if on_sample:
            on_sample(last)
        i = 0
        while time.monotonic() - t0 < seconds:
            self.one_client(i)
            i += 1
            if every is None or time.monotonic() - t0 - last["t"] >= every:
                last = self.sample(t0, last)
                if on_sample:
                    on_sample(last)
        if last["clients"] != self.clients:
            last = self.sample(t0, last)
            if on_sample:
                on_sample(last)
        return self.samples


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--every", type=float, default=10.0,
                    help="seconds between samples [10]")
    a = ap.parse_args()
    if not nbe2e.BIN:
        sys.exit("set NBENCH_BIN to the built dpdk-nbench")
    tmp = tempfile.mkdtemp(prefix="nbsoak")
    s = Soak(tmp)
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()

        def row(x):
            w.writerow(x)
            f.flush()
            print("t=%7.1f s  sessions %5d  clients %4d (killed %3d)  RSS "
                  "%6d kB  fds %3d  mbufs %4d  %8.1f Mbit/s"
                  % (x["t"], x["sessions_ended"], x["clients"],
                     x["killed"], x["rss_kb"], x["fds"],
                     x["mbufs_in_use"], x["mbit_s"]), flush=True)

        try:
            s.start()
            s.run(a.seconds, a.every, row)
            s.stop()
        finally:
            s.cleanup()
    print("refused by cause: %s" % (s.samples[-1]["refused"]
                                     if s.samples else None))
    print("frames lost on the veth: %d of %d" % (s.lost, s.sent))
    for x in s.failures:
        print("FAILED: " + x)
    return 1 if s.failures else 0


if __name__ == "__main__":
    sys.exit(main())
