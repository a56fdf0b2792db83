# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2544 suites and size sweeps (--test, --size MIN:MAX:*F).

Over a memif pair: a sweep's rows and counts, the three output formats,
a search that passes at its ceiling, Ctrl-C in the middle of a suite.

Against an independent instrument: a Linux bridge between two network
namespaces is the device under test, with a tbf rate limit on the port
towards the receiver:

    namespace T (the tool)                 namespace S (the DUT)
    af_packet port 0 on tA  ---veth---  sA --br0-- sB [tbf] ---veth---
    af_packet port 1 on tB  ------------------------------------------'

The throughput search must find the qdisc's rate (L2 as tbf counts it:
frame bytes without the FCS) within 2 %, with the limit between its
bounds; the loss ladder must lose above the throughput and not below it;
the back-to-back burst must match what tbf's bucket and queue hold."""
import json
import os
import signal
import subprocess
import time
import unittest

import nbe2e

FCS = 4
L1_OVERHEAD = 20


def sh(*args, check=True):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=30)


def line_pps(bps, size):
    return bps / ((size + L1_OVERHEAD) * 8.0)


class SuiteMemif(nbe2e.E2ECase):

    def loop(self, tool, fmt="--json", timeout=300):
        eal = self.nb.eal(self.nb.memif_pair())
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1", fmt]
                        + tool, timeout=timeout, name="suite")
        self.assertOk(r)
        return r

    def test_sweep_rows_and_counts(self):
        """--size 64:1518:*2 without --test: the test as asked, once per
        size; each row's frames are rate x time at that size."""
        d = self.loop(["--size", "64:1518:*2", "--rate", "500M", "--time",
                       "0.5", "--settle", "0"]).json()
        self.assertEqual(d["start"]["tests"], ["sweep"])
        self.assertEqual(d["start"]["sizes"], [64, 128, 256, 512, 1024,
                                               1518])
        rows = d["suite"]["results"]
        self.assertEqual([r["size"] for r in rows],
                         [64, 128, 256, 512, 1024, 1518])
        self.assertEqual(len(d["suite"]["trials"]), 6)
        for r in rows:
            t = r["result"]
            want = line_pps(500e6, r["size"]) * 0.5
            self.assertTrue(r["complete"])
            self.assertAlmostEqual(t["tx_packets"], want, delta=1.5)
            self.assertEqual(t["rx_packets"], t["tx_packets"])
            self.assertEqual(t["lost_packets"], 0)
            self.assertEqual(t["latency"]["count"], t["rx_packets"])
            self.assertAlmostEqual(t["req_pps"], line_pps(500e6, r["size"]),
                                   delta=0.01)
        self.assertFalse(d["suite"]["interrupted"])

    def test_sweep_formats_agree(self):
        """CSV rows and JSON-lines trial events carry the same trials."""
        tool = ["--size", "128:512:*2", "--rate", "200M", "--packets",
                "3000", "--settle", "0"]
        csv_out = self.loop(tool, fmt="--csv").out.splitlines()
        self.assertTrue(csv_out[0].startswith("test,size,trial,"))
        head = csv_out[0].split(",")
        rows = [dict(zip(head, line.split(","))) for line in csv_out[1:]]
        self.assertEqual([r["size"] for r in rows], ["128", "256", "512"])
        for r in rows:
            self.assertEqual(r["tx_packets"], "3000")
            self.assertEqual(r["rx_packets"], "3000")
            self.assertEqual(r["burst"], "3000")
        ev = [nbe2e.loads(x) for x in self.loop(tool, fmt="--json-stream")
              .out.splitlines()]
        self.assertEqual(ev[0]["event"], "start")
        trials = [e["data"] for e in ev if e["event"] == "trial"]
        self.assertEqual([t["size"] for t in trials], [128, 256, 512])
        self.assertEqual([t["tx_packets"] for t in trials], [3000] * 3)
        self.assertEqual(ev[-1]["event"], "end")
        self.assertEqual(len(ev[-1]["data"]["results"]), 3)
        text = self.loop(tool, fmt="--format=a").out
        self.assertIn("Size sweep: one test per size", text)
        self.assertEqual(text.count("trial "), 3)

    def test_throughput_passes_at_the_ceiling(self):
        """A rate memif carries without loss: the search's first trial at
        --rate passes, one trial per phase, no upper bound."""
        d = self.loop(["--test", "throughput", "--size", "512", "--rate",
                       "300M", "--trial-time", "1", "--settle", "0"]).json()
        rows = d["suite"]["results"]
        self.assertEqual(len(rows), 1)
        b = rows[0]["bounds"][0]
        self.assertAlmostEqual(b["pps"], line_pps(300e6, 512), delta=0.01)
        self.assertIsNone(b["upper_pps"])
        self.assertEqual(rows[0]["trials"], 1)
        t = d["suite"]["trials"][0]
        self.assertTrue(t["pass"])
        self.assertEqual(t["rx_packets"], t["tx_packets"])

    def test_latency_at_a_share_of_the_throughput(self):
        """--test latency searches the throughput first, then runs one
        trial at --latency-load of it; every frame received is a sample."""
        d = self.loop(["--test", "latency", "--size", "256,1024", "--rate",
                       "200M", "--trial-time", "1", "--settle", "0",
                       "--latency-load", "50%"]).json()
        self.assertEqual(d["start"]["tests"], ["throughput", "latency"])
        rows = [r for r in d["suite"]["results"] if r["test"] == "latency"]
        thr = {r["size"]: r["bounds"][0]["pps"]
               for r in d["suite"]["results"] if r["test"] == "throughput"}
        self.assertEqual([r["size"] for r in rows], [256, 1024])
        for r in rows:
            self.assertAlmostEqual(r["load_pps"], 0.5 * thr[r["size"]],
                                   delta=1e-6)
            lat = r["latency"]
            t = [x for x in d["suite"]["trials"] if x["test"] == "latency"
                 and x["size"] == r["size"]][0]
            self.assertEqual(lat["count"], t["rx_packets"])
            self.assertAlmostEqual(t["tx_packets"], r["load_pps"], delta=1.5)
            self.assertTrue(lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"]
                            <= lat["p99_9_ns"] <= lat["max_ns"] * 1.07)

    def test_interrupt_keeps_completed_trials(self):
        """Ctrl-C between trials: every finished trial is in the output,
        the suite says it was interrupted, exit 1."""
        eal = self.nb.eal(self.nb.memif_pair())
        p, argv, log = self.nb.start(
            eal, ["--tx-port", "0", "--rx-port", "1", "--json-stream",
                  "--test", "loss", "--size", "256", "--rate", "100M",
                  "--trial-time", "0.5", "--settle", "3"])
        try:
            rd = nbe2e.LineReader(p.stdout)
            seen = []
            while not any(e["event"] == "trial" for e in seen):
                line = rd.readline(30)
                self.assertTrue(line, "no trial event")
                seen.append(nbe2e.loads(line))
            p.send_signal(signal.SIGINT)   # during the 3 s settle
            out, err = p.communicate(timeout=15)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        self.assertEqual(p.returncode, 1, err[-2000:])
        ev = seen + [nbe2e.loads(x) for x in out.splitlines() if x.strip()]
        end = [e for e in ev if e["event"] == "end"]
        self.assertEqual(len(end), 1)
        self.assertTrue(end[0]["data"]["interrupted"])
        trials = [e for e in ev if e["event"] == "trial"]
        self.assertEqual(end[0]["data"]["nb_trials"], len(trials))
        self.assertGreaterEqual(len(trials), 1)


class BridgeBase(nbe2e.E2ECase):
    """The tool in namespace T, a tbf-limited bridge in namespace S (no
    tests here: test_peer_suite.py uses it too)."""

    BURST = 20 * 1024      # tbf burst 20k
    # tbf latency 20 ms: a queue that absorbs this 2-CPU host's scheduling
    # stalls of the sender (a 6 ms stall overflowed a 5 ms queue at
    # 200 Mbit/s under ASan in CI, and the search rightly called a rate
    # below the limit failing).  A trial of T seconds at a rate above the
    # limit loses frames once the excess fills the queue: above
    # (2 x BURST + limit x LATENCY) / (limit x T) of the limit, 0.6 % at
    # 200 Mbit/s for 4 s trials, 0.7 % at 50 Mbit/s, inside the 2 % asked.
    LATENCY = 0.02

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.p = "nbs%d" % (os.getpid() % 100000)
        self.t, self.s = self.p + "t", self.p + "s"
        self.addCleanup(self.teardown_net)
        for ns in (self.t, self.s):
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", self.s, "link", "add", "br0", "type", "bridge")
        for e in ("A", "B"):
            sh("ip", "-n", self.s, "link", "add", "s" + e, "type", "veth",
               "peer", "name", "t" + e, "netns", self.t)
            sh("ip", "netns", "exec", self.s, "sysctl", "-qw",
               "net.ipv6.conf.s%s.disable_ipv6=1" % e)
            sh("ip", "netns", "exec", self.t, "sysctl", "-qw",
               "net.ipv6.conf.t%s.disable_ipv6=1" % e)
            sh("ip", "-n", self.s, "link", "set", "s" + e, "master", "br0",
               "up")
            sh("ip", "-n", self.t, "link", "set", "t" + e, "up")
        sh("ip", "netns", "exec", self.s, "sysctl", "-qw",
           "net.ipv6.conf.br0.disable_ipv6=1")
        sh("ip", "-n", self.s, "link", "set", "br0", "up")

    def teardown_net(self):
        for ns in (self.t, self.s):
            sh("ip", "netns", "del", ns, check=False)

    def check_found_limit(self, d, limit, prec_bps, size=1518):
        """A throughput row of a suite through the limited bridge: both
        bounds, the throughput as tbf counts it (frame bytes without the
        FCS) within 2 % of the limit, the limit between the bounds give or
        take the precision.  Returns the bounds."""
        row = d["suite"]["results"][0]
        b = row["bounds"][0]
        self.assertTrue(row["complete"])
        self.assertIsNotNone(b["upper_pps"])
        self.assertLess(b["pps"], b["upper_pps"])
        qdisc_bps = b["pps"] * (size - FCS) * 8
        self.assertLess(abs(qdisc_bps - limit) / limit, 0.02,
                        "found %.0f bit/s for a %.0f limit"
                        % (qdisc_bps, limit))
        prec_pps = prec_bps / ((size + 20) * 8)
        limit_pps = limit / ((size - FCS) * 8)
        self.assertGreaterEqual(limit_pps, b["pps"] - prec_pps - 1
                                - 0.01 * limit_pps)
        self.assertLessEqual(limit_pps, b["upper_pps"] + prec_pps + 1)
        return b

    def limit(self, bps):
        sh("ip", "netns", "exec", self.s, "tc", "qdisc", "replace", "dev",
           "sB", "root", "tbf", "rate", "%dbit" % bps, "burst",
           "%d" % self.BURST, "latency", "%dms" % (self.LATENCY * 1000))


class SuiteBridge(BridgeBase):
    """A loopback suite through the bridge: tA -> bridge (tbf) -> tB."""

    def run_suite(self, tool):
        eal = ["--no-pci", "--lcores", nbe2e.lcore_map(2), "--file-prefix",
               nbe2e.unique("br"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA",
               "--vdev", "net_af_packet1,iface=tB"]
        argv = ["ip", "netns", "exec", self.t, nbe2e.BIN] + eal + \
            ["--", "--tx-port", "0", "--rx-port", "1", "--json"] + tool
        r = subprocess.run(argv, capture_output=True, text=True,
                           timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        return nbe2e.loads(r.stdout)

    def test_throughput_finds_the_qdisc_rate(self):
        for limit, prec in ((50e6, "0.5M"), (200e6, "1M")):
            with self.subTest(limit=limit):
                self.limit(limit)
                d = self.run_suite(["--test", "throughput", "--size", "1518",
                                    "--trial-time", "4", "--settle", "0.5",
                                    "--rate", "400M", "--precision", prec])
                b = self.check_found_limit(d, limit,
                                           float(prec[:-1]) * 1e6)
                # the bounds come from full-length trials with that outcome
                full = [t for t in d["suite"]["trials"]
                        if t["seconds"] == 4]
                self.assertTrue(any(t["req_pps"] == b["pps"] and t["pass"]
                                    for t in full))
                self.assertTrue(any(t["req_pps"] == b["upper_pps"]
                                    and not t["pass"] for t in full))

    def test_loss_and_back_to_back_agree_with_the_qdisc(self):
        limit = 50e6
        self.limit(limit)
        d = self.run_suite(["--test", "throughput,loss,back-to-back",
                            "--size", "1518", "--trial-time", "1",
                            "--settle", "0.3", "--rate", "100M",
                            "--precision", "0.5M", "--trials", "2"])
        rows = {r["test"]: r for r in d["suite"]["results"]}
        # every frame the tool says it lost, the qdisc dropped, over the
        # whole run, and what the qdisc passed the tool received (and a
        # few frames of the kernel's own): the counts agree however the
        # host disturbed the trials (a starved softirq passes fewer
        # frames through tbf and drops more)
        sent, dropped = nbe2e.qdisc_stats(self.s, "sB")  # since limit()
        trials = d["suite"]["trials"]
        self.assertEqual(sum(t["lost_packets"] for t in trials), dropped)
        rx = sum(t["rx_packets"] for t in trials)
        self.assertGreaterEqual(sent, rx)
        self.assertLess(sent - rx, 20)
        thr = rows["throughput"]["bounds"][0]
        loss = [t for t in d["suite"]["trials"] if t["test"] == "loss"]
        self.assertGreaterEqual(len(loss), 2)
        self.assertAlmostEqual(loss[0]["req_pps"], line_pps(100e6, 1518),
                               delta=0.01)
        # the ladder ends with two lossless steps
        self.assertEqual([t["lost_packets"] for t in loss[-2:]], [0, 0])
        for t in loss:
            # 2 % either side of the bounds is the trials' noise band
            if t["req_pps"] >= thr["upper_pps"] * 1.02:
                self.assertGreater(t["lost_packets"], 0, t)
            if t["req_pps"] <= thr["pps"] * 0.98:
                self.assertEqual(t["lost_packets"], 0, t)
            # what got through: at most the qdisc's rate for the trial,
            # plus what its bucket and queue held at the start (fewer when
            # the kernel's softirq was kept off its CPU: the totals above
            # check those against the qdisc)
            if t["lost_packets"]:
                frame = 1518 - FCS
                held = (self.BURST + limit / 8 * self.LATENCY
                        + self.BURST) / frame
                through = limit / 8 / frame * t["tx_seconds"] + held
                self.assertLess(t["rx_packets"], through * 1.03, t)
        # back-to-back at 100 Mbit/s into a 50 Mbit/s qdisc: the burst
        # fills tbf's bucket (burst) and queue (rate x latency + burst)
        # while it drains at the limit
        b2b = rows["back-to-back"]
        frame = 1518 - FCS
        arrive = line_pps(100e6, 1518) * frame          # bytes/s in
        drain = limit / 8
        held = self.BURST + (drain * self.LATENCY + self.BURST)
        model = held / (1 - drain / arrive) / frame
        self.assertEqual(b2b["repeats"], 2)
        self.assertLess(abs(b2b["burst_mean"] - model) / model, 0.15,
                        "b2b %.1f frames, model %.1f" % (b2b["burst_mean"],
                                                         model))
        for t in d["suite"]["trials"]:
            if t["test"] == "back-to-back" and t["burst"] <= b2b["burst_min"]:
                self.assertEqual(t["lost_packets"], 0, t)


if __name__ == "__main__":
    nbe2e.main()
