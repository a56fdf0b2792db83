# SPDX-License-Identifier: BSD-3-Clause
"""Measurements checked against an independent instrument.

    namespace T (the tool)                 namespace F (impair_fwd.py)
    af_packet port 0 on tA  ---veth---  fA  --drop/dup/swap/delay-->  fB
    af_packet port 1 on tB  ---veth-------------------------------------'

A loopback test sends dpdk-nbench frames out of port 0; a forwarder written
for these tests (tests/e2e/impair_fwd.py, which parses frames from
docs/protocol.md's byte table) drops, duplicates, reorders or delays chosen
ones and logs what it did; port 1 receives the rest.  Loss, duplicates and
reordering must equal the forwarder's log exactly, per stream, in every
output format, and the intervals must add up to them; latency must show the
delay the forwarder added and jitter the value its own send times give.
A capture on the link (kernel timestamps) is the wall clock for the rate."""
import csv
import io
import json
import os
import re
import signal
import subprocess
import time
import unittest

import nbe2e
import test_capture

HERE = os.path.dirname(os.path.abspath(__file__))
FWD = os.path.join(HERE, "impair_fwd.py")
STREAMS = 4
PER_STREAM = 1000
PER_IV = 250          # frames of a stream per 0.5 s interval at 2000/s


# Against the ASan/UBSan build, up to this many frames of a stream may be
# missing at its end (see Impair.check_sent).
SAN_TAIL = 20


def sh(*args, check=True, timeout=30):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=timeout)


def run_tool(argv, name, timeout=90):
    """subprocess.run of a dpdk-nbench command line (in a namespace: ip
    netns exec keeps the environment) with nbe2e's sanitizer options,
    logged under $NB_E2E_LOGS; exit problems on stderr (sanitizer
    reports) fail it, as in nbe2e.Nbench.run.  Returns (result, log)."""
    log = os.path.join(nbe2e.LOGDIR, nbe2e.unique(name) + ".log")
    r = subprocess.run(argv, capture_output=True, text=True,
                       timeout=timeout, env=nbe2e.child_env())
    nbe2e.Nbench._log(log, argv, r.returncode, r.stdout, r.stderr)
    bad = nbe2e.exit_problems(r.stderr)
    if bad:
        raise AssertionError("%s:\n%s\nlog: %s"
                             % (" ".join(argv), "\n".join(bad[:20]), log))
    return r, log


class Impair(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        p = "nbi%d" % (os.getpid() % 100000)
        self.nsT, self.nsF = p + "t", p + "f"
        self.addCleanup(self.teardown_net)
        for ns in (self.nsT, self.nsF):
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        for a, b in (("tA", "fA"), ("tB", "fB")):
            sh("ip", "-n", self.nsT, "link", "add", a, "type", "veth",
               "peer", "name", b, "netns", self.nsF)
            for ns, dev in ((self.nsT, a), (self.nsF, b)):
                sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                   "net.ipv6.conf.%s.disable_ipv6=1" % dev)
                sh("ip", "-n", ns, "link", "set", dev, "up")

    def far_end(self, tag):
        """Move tB (the far side of the forwarder) from the tool's
        namespace into a new one of its own, for a peer or a reflector."""
        ns = self.nsT[:-1] + tag
        self.addCleanup(sh, "ip", "netns", "del", ns, check=False)
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", self.nsT, "link", "set", "tB", "netns", ns)
        sh("ip", "netns", "exec", ns, "sysctl", "-qw",
           "net.ipv6.conf.tB.disable_ipv6=1")
        sh("ip", "-n", ns, "link", "set", "tB", "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        return ns

    def teardown_net(self):
        for ns in (self.nsT, self.nsF):
            sh("ip", "netns", "del", ns, check=False)

    def forwarder(self, plan):
        path = os.path.join(self.tmpdir, nbe2e.unique("plan") + ".json")
        log = os.path.join(self.tmpdir, nbe2e.unique("fwd") + ".jsonl")
        ready = log + ".ready"
        plan = dict(plan, idle_s=plan.get("idle_s", 2))
        with open(path, "w") as f:
            json.dump(plan, f)
        p = subprocess.Popen(
            # on the sender's CPU: its stamps are taken as it sends, so
            # a sender delayed by the forwarder changes no measured value,
            # while a receiver delayed would
            ["ip", "netns", "exec", self.nsF, "taskset", "-c",
             str((os.cpu_count() or 1) - 1), "/usr/bin/python3", FWD,
             "fA", "fB", path, log, ready],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        self.addCleanup(self.end, p)
        for _ in range(100):
            if os.path.exists(ready) or p.poll() is not None:
                break
            time.sleep(0.05)
        self.assertTrue(os.path.exists(ready), "forwarder did not start")
        return p, log

    @staticmethod
    def end(p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.communicate()

    def wait_log(self, p, log):
        p.wait(timeout=60)
        recs, summary = [], None
        with open(log) as f:
            for line in f:
                r = json.loads(line)
                if "summary" in r:
                    summary = r["summary"]
                else:
                    recs.append(r)
        self.assertIsNotNone(summary, "forwarder log has no summary")
        return recs, summary

    def tool(self, tool, timeout=90):
        eal = ["--no-pci", "--lcores", nbe2e.lcore_map(2), "--file-prefix",
               nbe2e.unique("imp"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA",
               "--vdev", "net_af_packet1,iface=tB"]
        argv = ["ip", "netns", "exec", self.nsT, nbe2e.BIN] + eal + \
            ["--"] + tool
        r, log = run_tool(argv, "imp", timeout=timeout)
        run = nbe2e.Run(argv, r.returncode, r.stdout, r.stderr, 0, log)
        self.assertOk(run)
        return run

    def plan(self):
        """Which frames the forwarder impairs: chosen here, per stream,
        with no frame in two sets, and the tail loss of stream 0 (the last
        5 frames, never seen as a gap by the receiver)."""
        drop, dup, swap = [], [], []

        def mid(q):
            # a stream sends 250 frames per 0.5 s interval: impair only
            # frames (and their successors) 50 ms or more from an edge,
            # so which interval counts them is not left to timing
            return 25 <= q % PER_IV <= PER_IV - 26

        for s in range(STREAMS):
            used = set()
            for q in range(13 + 7 * s, PER_STREAM - 10, 97):
                if mid(q):
                    drop.append([s, q])
                    used.add(q)
            for q in range(7 + 3 * s, PER_STREAM - 10, 89):
                if q not in used and mid(q):
                    dup.append([s, q])
                    used.add(q)
            for q in range(5 + s, PER_STREAM - 10, 83):
                if q not in used and q + 1 not in used and mid(q):
                    swap.append([s, q])
                    used.update((q, q + 1))
        drop += [[0, q] for q in range(PER_STREAM - 5, PER_STREAM)]
        return {"drop": drop, "dup": dup, "swap": swap}

    @staticmethod
    def expected(recs):
        """Per stream from the forwarder's log alone."""
        exp = {s: {"sent": 0, "lost": 0, "dup": 0, "ooo": 0, "rx": 0}
               for s in range(STREAMS)}
        for r in recs:
            e = exp[r["s"]]
            e["sent"] += 1
            if r["act"] == "drop":
                e["lost"] += 1
            elif r["act"] == "dup":
                e["dup"] += 1
            elif r["act"] == "swap":
                e["ooo"] += 1
            e["rx"] += len(r["out_ns"])
        return exp

    def check_sent(self, recs, exp, tool_sent=None):
        """What each stream sent by --time, from the forwarder's log (and
        the tool's sender count when given, which must equal it).  The
        normal build sends exactly rate x time (PER_STREAM) a stream.
        The ASan/UBSan build is slow enough that its sender's last turn
        before the end can come late: frames due then are never built (a
        late turn is a small shortfall, not a loss), so up to SAN_TAIL
        frames of a stream may be missing there, at its end only (the
        sequence numbers the forwarder saw are 0..n-1).  Every count
        checked after this one stays exact against the forwarder's log.
        Returns the frames sent in all."""
        for s in range(STREAMS):
            with self.subTest(stream=s, check="sent"):
                n = exp[s]["sent"]
                if tool_sent is not None:
                    self.assertEqual(tool_sent[s], n, "the tool's sender "
                                     "count against the forwarder's")
                if not nbe2e.SANITIZED:
                    self.assertEqual(n, PER_STREAM,
                                     "forwarder saw %d of stream %d"
                                     % (n, s))
                    continue
                self.assertLessEqual(n, PER_STREAM)
                self.assertGreaterEqual(n, PER_STREAM - SAN_TAIL,
                                        "forwarder saw %d of stream %d"
                                        % (n, s))
                self.assertEqual(sorted(r["q"] for r in recs
                                        if r["s"] == s), list(range(n)))
        return sum(exp[s]["sent"] for s in range(STREAMS))

    @staticmethod
    def expected_per_interval(recs, nb_iv=4):
        """[interval][stream] -> counts, from the stamps in the log: the
        interval is the one the frame was sent in (impaired frames are far
        from the edges, see plan()).  A frame stamped after the last edge
        (a sender's last turn that came late: its stamp is the burst's
        time) counts in the last interval, as the tool folds everything
        after the last edge into it; so does the tail loss of stream 0,
        which only the end's count (sent - unique) shows."""
        t0 = min(r["tx_ns"] for r in recs)
        out = {}
        for r in recs:
            i = min(((r["tx_ns"] - t0) % (1 << 48)) // 500000000, nb_iv - 1)
            e = out.setdefault(i, {}).setdefault(
                r["s"], {"lost": 0, "dup": 0, "ooo": 0})
            if r["act"] == "drop":
                e["lost"] += 1
            elif r["act"] == "dup":
                e["dup"] += 1
            elif r["act"] == "swap":
                e["ooo"] += 1
        return out

    def common(self):
        # by time, not count: the last interval is then held until the
        # receivers drained, so the live formats carry the late frames too
        return ["--tx-port", "0", "--rx-port", "1", "--streams",
                str(STREAMS), "--size", "128", "--rate",
                "%dpps" % (STREAMS * PER_STREAM // 2), "--time", "2",
                "--interval", "0.5"]

    def test_loss_dup_reorder_exact_in_every_format(self):
        plan = self.plan()
        # JSON document and JSON lines from one run, CSV and text from two
        # more: the forwarder's plan is by sequence number, so every run
        # gets the same impairments
        outs = {}
        for fmt, extra in (("jsonl", ["--json-stream", "--json-file",
                                      os.path.join(self.tmpdir,
                                                   "doc.json")]),
                           ("csv", ["--csv"]), ("text", [])):
            p, log = self.forwarder(plan)
            run = self.tool(self.common() + extra)
            recs, summary = self.wait_log(p, log)
            exp = self.expected(recs)
            self.check_sent(recs, exp)
            outs[fmt] = (run.out, exp, recs)
        out, exp, _ = outs["jsonl"]
        with open(os.path.join(self.tmpdir, "doc.json")) as f:
            doc = nbe2e.load(f)
        e = doc["end"]
        self.check_sent(outs["jsonl"][2], exp,
                        [st["sender"]["packets"] for st in e["streams"]])
        for s in range(STREAMS):
            rx = e["streams"][s]["receiver"]
            with self.subTest(stream=s, fmt="json"):
                self.assertEqual(rx["lost_packets"], exp[s]["lost"])
                self.assertEqual(rx["duplicates"], exp[s]["dup"])
                self.assertEqual(rx["out_of_order"], exp[s]["ooo"])
                self.assertEqual(rx["packets"], exp[s]["rx"])
        total = sum(exp[s]["lost"] for s in exp)
        self.assertEqual(e["sum_received"]["lost_packets"], total)
        self.assertGreater(total, 30)
        # the intervals of the document add up, per stream, to the end
        ivs = [iv for iv in doc["intervals"] if not iv["sum"]["omitted"]]
        for s in range(STREAMS):
            for key, want in (("lost_packets", exp[s]["lost"]),
                              ("packets", exp[s]["rx"]),
                              ("duplicates", exp[s]["dup"]),
                              ("out_of_order", exp[s]["ooo"])):
                self.assertEqual(sum(iv["streams"][s][key] for iv in ivs),
                                 want, "intervals' %s of stream %d"
                                 % (key, s))
        # every interval, every stream, against the log
        per = self.expected_per_interval(outs["jsonl"][2])
        self.assertEqual(len(ivs), 4)
        for i, iv in enumerate(ivs):
            for s in range(STREAMS):
                want = per.get(i, {}).get(s, {"lost": 0, "dup": 0,
                                               "ooo": 0})
                got = iv["streams"][s]
                self.assertEqual(
                    (got["lost_packets"], got["duplicates"],
                     got["out_of_order"]),
                    (want["lost"], want["dup"], want["ooo"]),
                    "interval %d stream %d" % (i, s))
        # JSON lines: the same per interval and at the end
        events = [nbe2e.loads(l) for l in out.splitlines() if l.strip()]
        ivl = [ev["data"] for ev in events if ev["event"] == "interval"]
        end = [ev["data"] for ev in events if ev["event"] == "end"][0]
        for s in range(STREAMS):
            self.assertEqual(sum(iv["streams"][s]["lost_packets"]
                                 for iv in ivl if not iv["sum"]["omitted"]),
                             exp[s]["lost"])
            self.assertEqual(end["streams"][s]["receiver"]["lost_packets"],
                             exp[s]["lost"])
        live = [iv for iv in ivl if not iv["sum"]["omitted"]]
        self.assertEqual(len(live), 4)
        for i, iv in enumerate(live):
            for s in range(STREAMS):
                want = per.get(i, {}).get(s, {"lost": 0})
                self.assertEqual(iv["streams"][s]["lost_packets"],
                                 want["lost"],
                                 "JSON lines interval %d stream %d" % (i, s))
        # CSV: stream rows of the intervals add up to the end rows
        out, exp, crecs = outs["csv"]
        rows = list(csv.DictReader(io.StringIO(out)))
        lost_col = [c for c in rows[0] if "lost" in c][0]
        kind_col = list(rows[0])[0]
        cper = self.expected_per_interval(crecs)
        starts = sorted({float(r["start"]) for r in rows
                         if r[kind_col] == "interval"})
        self.assertEqual(len(starts), 4)
        for r in rows:
            if r[kind_col] != "interval" or r["stream"] == "sum":
                continue
            i = starts.index(float(r["start"]))
            want = cper.get(i, {}).get(int(r["stream"]), {"lost": 0})
            self.assertEqual(int(r[lost_col]), want["lost"],
                             "CSV interval %d stream %s" % (i, r["stream"]))
        for s in range(STREAMS):
            ivrows = [r for r in rows if r["stream"] == str(s) and
                      r[kind_col] == "interval"]
            endrow = [r for r in rows if r["stream"] == str(s) and
                      r[kind_col] == "end"][0]
            self.assertEqual(sum(int(r[lost_col]) for r in ivrows),
                             exp[s]["lost"])
            self.assertEqual(int(endrow[lost_col]), exp[s]["lost"])
        # text: each stream's interval line says lost, reordered and
        # duplicated exactly as that run's log has it
        out, exp, trecs = outs["text"]
        tper = self.expected_per_interval(trecs)
        ivline = re.compile(r"^\[\s*(\d+)\]\s+([\d.]+)-([\d.]+)\s+sec\s.*?"
                            r"\s(\d+)/(\d+)\s+\([^)]*\)\s+(\d+)\s+(\d+)\s")
        seen = 0
        for line in out.splitlines():
            m = ivline.match(line)
            if m is None:
                continue
            st, t0 = int(m.group(1)), float(m.group(2))
            i = int(round(t0 / 0.5))
            want = tper.get(i, {}).get(st, {"lost": 0, "dup": 0, "ooo": 0})
            self.assertEqual((int(m.group(4)), int(m.group(6)),
                              int(m.group(7))),
                             (want["lost"], want["ooo"], want["dup"]),
                             "text interval %d stream %d: %s" % (i, st,
                                                                 line))
            seen += 1
        self.assertEqual(seen, 4 * STREAMS)
        # text: the receiver row of the sum says lost/total exactly
        total = sum(exp[s]["lost"] for s in exp)
        line = [l for l in out.splitlines()
                if "SUM" in l and "receiver" in l][0]
        self.assertIn("lost %d/%d" % (total, self.check_sent(trecs, exp)),
                      line)

    @staticmethod
    def rfc3550_jitter(recs, stream):
        """The jitter the receiver should see, from the stamps and the
        forwarder's own send times (in the order it sent them)."""
        frames = sorted(((r["out_ns"][0], r["tx_ns"]) for r in recs
                         if r["s"] == stream and r["out_ns"]),
                        key=lambda x: x[0])
        j = 0.0
        for (r0, s0), (r1, s1) in zip(frames, frames[1:]):
            ds = (s1 - s0) % (1 << 48)
            if ds >= 1 << 47:
                ds -= 1 << 48
            d = (r1 - r0) - ds
            j += (abs(d) - j) / 16
        return j

    @staticmethod
    def out_of_order(recs, stream):
        """Frames the forwarder sent after a later one of their stream."""
        sent = sorted((t, r["q"]) for r in recs if r["s"] == stream
                      for t in r["out_ns"][:1])
        top, n = -1, 0
        for _, q in sent:
            if q < top:
                n += 1
            top = max(top, q)
        return n

    def run_json(self, plan, extra=()):
        p, log = self.forwarder(plan)
        doc = os.path.join(self.tmpdir, nbe2e.unique("doc") + ".json")
        self.tool(self.common() + ["--quiet", "--json-file", doc]
                  + list(extra))
        recs, _ = self.wait_log(p, log)
        with open(doc) as f:
            return nbe2e.load(f)["end"], recs

    @staticmethod
    def rfc3550(pairs):
        """RFC 3550's interarrival jitter over (receive, send) times in
        the order received; send times are 48-bit stamps or ns."""
        j = 0.0
        for (r0, s0), (r1, s1) in zip(pairs, pairs[1:]):
            ds = (s1 - s0) % (1 << 48)
            if ds >= 1 << 47:
                ds -= 1 << 48
            j += (abs((r1 - r0) - ds) - j) / 16
        return j

    @staticmethod
    def captured(path):
        """{stream: [(receive ns, seq, stamp ns)]} of our data frames in
        the receiver's capture, in the order received."""
        out = {}
        for ts, _, _, f in test_capture.read_pcap(path)[2]:
            st = test_capture.udp_stamp(f)
            if st is None:
                continue
            l4 = 14 + (f[14] & 0x0f) * 4
            out.setdefault(st[0], []).append(
                (ts, st[1], int.from_bytes(f[l4 + 16:l4 + 22], "big")))
        return out

    def test_delay_and_jitter_match_the_forwarder(self):
        # the path alone: its latency spread and its own jitter are the
        # noise allowed below
        base, _ = self.run_json({})
        b = base["sum_received"]["latency"]
        noise = b["p99_ns"] - b["min_ns"]
        base_jitter = max(st["receiver"]["jitter_ms"] * 1e6
                          for st in base["streams"])
        # every frame held 3 ms longer; odd ones another 400 us
        delay_us, jitter_us = 3000, 400
        self.cap_path = os.path.join(self.tmpdir, "rx.pcap")
        end, recs = self.run_json({"delay_us": delay_us,
                                   "jitter_us": jitter_us},
                                  ["--capture", self.cap_path])
        held = sorted(r["out_ns"][0] - r["in_ns"] for r in recs
                      if r["out_ns"])
        lat = end["sum_received"]["latency"]
        # the forwarder's own hold times, median and extremes
        self.assertGreaterEqual(held[0], delay_us * 1000)
        med_hold = held[len(held) // 2]
        self.assertAlmostEqual(lat["p50_ns"] - b["p50_ns"], med_hold,
                               delta=noise + 100000,
                               msg="p50 %d, base p50 %d, forwarder holds "
                               "%d (noise %d)" % (lat["p50_ns"],
                                                  b["p50_ns"], med_hold,
                                                  noise))
        self.assertGreaterEqual(lat["min_ns"], delay_us * 1000)
        # Each frame's transit is the forwarder's part (its send time -
        # the stamp) plus the path's (the receive time, which the
        # receiver's capture holds - the forwarder's send), and |d1 + d2|
        # lies between |d2| - |d1| and |d2| + |d1|: over the same frames
        # in the same order, the jitter the receiver sees is within the
        # path's own jitter of the forwarder's, in this very run (the
        # host's noise of the moment is in the bound, not a guess).
        self.assertEqual(end["capture"]["dropped"], 0)
        cap = self.captured(self.cap_path)
        sent = {(r["s"], r["q"]): r["out_ns"][0] for r in recs
                if r["out_ns"]}
        for st in range(STREAMS):
            got = end["streams"][st]["receiver"]["jitter_ms"] * 1e6
            rows = cap[st]
            self.assertEqual(len(rows),
                             end["streams"][st]["receiver"]["packets"], st)
            # the tool's own arithmetic, from its receive times
            mine = self.rfc3550([(t, ts) for t, _, ts in rows])
            self.assertAlmostEqual(got, mine, delta=0.001 * mine + 100,
                                   msg="stream %d" % st)
            fwd = self.rfc3550([(sent[(st, q)], ts) for _, q, ts in rows])
            path = self.rfc3550([(t, sent[(st, q)]) for t, q, _ in rows])
            # alternate frames 400 us late: J near 400 us
            self.assertGreater(fwd, 0.7 * jitter_us * 1000)
            self.assertLessEqual(abs(got - fwd), path + 0.001 * fwd + 100,
                                 "stream %d: jitter %.0f ns, the "
                                 "forwarder's part %.0f, the path's %.0f "
                                 "(base run's %.0f)"
                                 % (st, got, fwd, path, base_jitter))
            # and the forwarder's part in its own order, as it sent them
            self.assertAlmostEqual(fwd, self.rfc3550_jitter(recs, st),
                                   delta=0.001 * fwd + 100)
        # the same frames arrive: nothing lost; reordered exactly where
        # the forwarder's holds let a later frame overtake (the sender's
        # bursts after a late turn bring frames of a stream closer than
        # the 400 us)
        self.assertEqual(end["sum_received"]["lost_packets"], 0)
        for st in range(STREAMS):
            self.assertEqual(
                end["streams"][st]["receiver"]["out_of_order"],
                self.out_of_order(recs, st), "stream %d" % st)

    def test_rate_on_the_wire(self):
        """The paced rate, timed by the kernel's receive timestamps on the
        link (a capture), not by the tool's own clock."""
        pcap = os.path.join(self.tmpdir, "wire.pcapng")
        cap = subprocess.Popen(
            ["ip", "netns", "exec", self.nsF, "dumpcap", "-q", "-i", "fA",
             "-f", "udp dst port 5001", "-w", pcap],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        self.addCleanup(self.end, cap)
        # dumpcap says "File: ..." on stderr once it captures
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not os.path.exists(pcap):
            time.sleep(0.05)
        time.sleep(0.5)
        want = 20000
        doc = os.path.join(self.tmpdir, "rate.json")
        self.tool(["--tx-port", "0", "--rx-port", "1", "--size", "64",
                   "--rate", "%dpps" % want, "--time", "5", "--quiet",
                   "--json-file", doc, "--drain", "0.1"])
        time.sleep(0.5)
        os.killpg(cap.pid, signal.SIGINT)
        cap.communicate(timeout=10)
        times = sh("tshark", "-r", pcap, "-T", "fields", "-e",
                   "frame.time_epoch", "-Y", "udp.dstport == 5001 && "
                   "data.data[0:2] == 4e:42", timeout=120).stdout.split()
        t = [float(x) for x in times]
        with open(doc) as f:
            e = nbe2e.load(f)["end"]
        sent = e["sum_sent"]["packets"]
        # every frame the tool counted went by on the wire
        self.assertEqual(len(t), sent)
        wire = (len(t) - 1) / (t[-1] - t[0])
        # 500 ppm: the first and last frame on time to 2.5 ms in 5 s.
        # The ASan/UBSan build's sender turns can come that much late
        # (20030 pps over the span here: 7.5 ms of 5 s, the frames due
        # meanwhile then leaving in a burst), so against it the rate is
        # checked to the 0.5 % of the loopback tests; the count above
        # stays exact
        tol = 0.005 if nbe2e.SANITIZED else 0.0005
        self.assertLess(abs(wire - want) / want, tol,
                        "%.2f pps on the wire for %d requested" % (wire,
                                                                    want))
        tool = e["rate"]["achieved_pps"]
        print("wire %.3f pps (%+.1f ppm of %d requested), tool %.3f pps "
              "(%+.1f ppm of the wire), %d frames"
              % (wire, (wire - want) / want * 1e6, want, tool,
                 (tool - wire) / wire * 1e6, len(t)))
        self.assertLess(abs(tool - wire) / wire, tol,
                        "the tool says %.2f pps, the wire %.2f" % (tool,
                                                                    wire))

    def test_drain_bounds_the_wait_for_late_frames(self):
        """Frames held 1 s by the forwarder keep arriving after the senders
        stop, and 0.6 s into the drain the forwarder sends nothing for
        200 ms.  --drain 3 (quiet window 300 ms) waits through the pause
        for all of them; --drain 1 (quiet window 100 ms) stops in the
        pause, and what it missed is exactly what the forwarder sent after
        it; --drain 0.3 stops before the pause, having missed about 0.7 s
        of frames.  Each miss is reported as lost."""
        # stream 0 sends 500/s: seq 800 leaves the sender at 1.6 s and
        # the forwarder at 2.6 s, 0.6 s after the senders stopped
        stall = [0, 800, 200]
        for drain in ("3", "1", "0.3"):
            p, log = self.forwarder({"delay_us": 1000000, "stall": stall})
            doc = os.path.join(self.tmpdir, nbe2e.unique("d") + ".json")
            self.tool(self.common() + ["--quiet", "--drain", drain,
                                       "--json-file", doc])
            recs, summary = self.wait_log(p, log)
            with open(doc) as f:
                e = nbe2e.load(f)["end"]
            sent = e["sum_sent"]["packets"]
            lost = e["sum_received"]["lost_packets"]
            outs = sorted(o for r in recs for o in r["out_ns"])
            # the forwarder's own longest silence but its pause, for the
            # message when a slow harness is what failed this
            gaps = [b - a for a, b in zip(outs, outs[1:])
                    if not a < summary["stall_ns"][1] <= b]
            why = "drain %s: forwarder silent up to %.0f ms" % (
                drain, max(gaps) / 1e6)
            self.assertEqual(len(recs), sent)
            self.assertEqual(e["sum_received"]["packets"], sent - lost, why)
            after = sum(1 for o in outs if o >= summary["stall_ns"][1])
            self.assertGreater(after, 200, "frames after the pause")
            if drain == "3":
                self.assertEqual(lost, 0, why)
            elif drain == "1":
                self.assertEqual(lost, after, why)
            else:
                # about 0.7 s of frames at 2000/s were still held
                self.assertGreater(lost, 0.5 * 2000 * 0.7, why)
                self.assertLess(lost, 1.5 * 2000 * 0.7, why)

    def test_peer_loss_dup_reorder_exact(self):
        """Peer mode through the forwarder: client in namespace T (tA),
        responder in its own namespace behind fB.  The forwarder passes
        control frames both ways untouched and impairs the client's data;
        the responder's receiver counts, brought back over the control
        protocol, must equal the forwarder's log per stream."""
        nsR = self.far_end("r")
        plan = dict(self.plan(), both_ways=True, idle_s=4)
        p, log = self.forwarder(plan)
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("resp"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tB,qpairs=2"]
        resp = subprocess.Popen(
            ["ip", "netns", "exec", nsR, nbe2e.BIN] + eal + ["--",
                                                          "--one-off"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, env=nbe2e.child_env())
        self.addCleanup(self.end, resp)
        self.assertIn("responder on port 0", resp.stdout.readline())
        mac = sh("ip", "netns", "exec", nsR, "cat",
                 "/sys/class/net/tB/address").stdout.strip()
        cli = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
               nbe2e.unique("cli"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA,qpairs=2"]
        argv = ["ip", "netns", "exec", self.nsT, nbe2e.BIN] + cli + [
            "--", "--peer", mac, "--streams", str(STREAMS), "--size", "128",
            "--rate", "%dpps" % (STREAMS * PER_STREAM // 2), "--time", "2",
            "--json"]
        r, _ = run_tool(argv, "pimp")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        _, rerr = resp.communicate(timeout=20)
        self.assertEqual(nbe2e.exit_problems(rerr), [], "responder")
        self.assertEqual(resp.returncode, 0, rerr[-2000:])
        recs, summary = self.wait_log(p, log)
        exp = self.expected(recs)
        e = nbe2e.loads(r.stdout)["end"]
        self.check_sent(recs, exp,
                        [st["sender"]["packets"] for st in e["streams"]])
        for st in range(STREAMS):
            rx = e["streams"][st]["receiver"]
            with self.subTest(stream=st):
                self.assertEqual(rx["lost_packets"], exp[st]["lost"])
                self.assertEqual(rx["duplicates"], exp[st]["dup"])
                self.assertEqual(rx["out_of_order"], exp[st]["ooo"])
                self.assertEqual(rx["packets"], exp[st]["rx"])
        self.assertGreater(summary["back"], 0)   # control answers passed

    def test_reflector_loss_dup_reorder_exact(self):
        """Reflector topology through the forwarder: dpdk-testpmd macswap
        in its own namespace behind fB sends every frame back (the way
        back untouched); the tool's receiver must count exactly what the
        forwarder did on the way out."""
        nsR = self.far_end("m")
        plan = dict(self.plan(), both_ways=True, idle_s=3)
        p, log = self.forwarder(plan)
        tp = nbe2e.testpmd_macswap(["ip", "netns", "exec", nsR],
                                   "net_af_packet0,iface=tB")
        self.addCleanup(self.end, tp)
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("refl"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA"]
        argv = ["ip", "netns", "exec", self.nsT, nbe2e.BIN] + eal + [
            "--", "--peer", "02:00:00:00:00:99", "--reflector",
            "--streams", str(STREAMS), "--size", "128", "--rate",
            "%dpps" % (STREAMS * PER_STREAM // 2), "--time", "2", "--json"]
        r, _ = run_tool(argv, "rimp")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        recs, summary = self.wait_log(p, log)
        exp = self.expected(recs)
        e = nbe2e.loads(r.stdout)["end"]
        self.check_sent(recs, exp,
                        [st["sender"]["packets"] for st in e["streams"]])
        for st in range(STREAMS):
            rx = e["streams"][st]["receiver"]
            with self.subTest(stream=st):
                self.assertEqual(rx["lost_packets"], exp[st]["lost"])
                self.assertEqual(rx["duplicates"], exp[st]["dup"])
                self.assertEqual(rx["out_of_order"], exp[st]["ooo"])
                self.assertEqual(rx["packets"], exp[st]["rx"])
        # everything testpmd sent back came through the forwarder
        self.assertEqual(summary["back"], e["sum_received"]["packets"])


if __name__ == "__main__":
    nbe2e.main()
