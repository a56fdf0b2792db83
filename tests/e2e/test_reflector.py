# SPDX-License-Identifier: BSD-3-Clause
"""Reflector topology with a program we did not write: dpdk-testpmd in
macswap mode is the peer on a memif link between two processes.  Every frame
comes back; throughput, loss and the RTT histogram come from the returned
frames, and the counts must agree with testpmd's own."""
import json
import os
import re
import shutil
import signal
import subprocess
import time
import unittest

import nbe2e

TESTPMD = shutil.which("dpdk-testpmd")


class Reflector(nbe2e.E2ECase):

    def start_testpmd(self, sock):
        # testpmd's forwarding lcore takes CPU 1; dpdk-nbench keeps CPU 0
        # (one worker doing gen+sink, control and stats sleeping).
        p = nbe2e.testpmd_macswap(
            [], "net_memif0,role=server,socket=%s,rsize=14" % sock)
        self.addCleanup(self.stop_testpmd, p)
        return p

    def stop_testpmd(self, p):
        if p.poll() is None:
            try:
                out, _ = p.communicate("show port stats 0\nstop\nquit\n",
                                       timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                out, _ = p.communicate()
            return out
        return ""

    def test_testpmd_macswap(self):
        if TESTPMD is None:
            self.fail("dpdk-testpmd not installed (package dpdk)")
        sock = os.path.join(self.tmpdir, "refl.sock")
        tp = self.start_testpmd(sock)
        n = 200000
        eal = self.nb.eal(["--vdev",
                           "net_memif0,role=client,socket=%s,rsize=14"
                           % sock], workers=1)
        r = self.nb.run(eal, ["--peer", "02:00:00:00:00:99", "--reflector",
                              "--rate", "200M", "--size", "256",
                              "--packets", str(n), "--streams", "2",
                              "--json"], name="refl")
        self.assertOk(r)
        out = self.stop_testpmd(tp)
        d = r.json()
        e = d["end"]
        self.assertEqual(d["start"]["test_start"]["topology"], "reflector")
        self.assertEqual(e["sum_sent"]["packets"], n)
        self.assertEqual(e["sum_received"]["packets"], n)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        lat = e["sum_received"]["latency"]
        self.assertEqual(lat["count"], n)
        self.assertIn("round-trip", lat["method"])
        self.assertGreater(lat["min_ns"], 0)
        self.assertLessEqual(lat["p50_ns"], lat["p99_ns"])
        self.assertEqual(sum(b[2] for b in lat["histogram"]), n)
        port = e["ports"][0]
        self.assertEqual(port["role"], "tx+rx")
        self.assertEqual(port["tool_tx_packets"], port["pmd"]["opackets"])
        self.assertEqual(port["tool_rx_packets"], port["pmd"]["ipackets"])
        # testpmd forwarded every frame: it answered with the MACs swapped
        # (the frames came back to our port, addressed to us).
        self.assertIn("macswap", out)
        # (testpmd's own memif counters cannot be compared: the memif PMD
        # clears them when our side disconnects, before we can read them.)

    def test_testpmd_macswap_ipv6(self):
        """-6: IPv6 frames go through testpmd's macswap and come back,
        every one counted, with its round trip."""
        if TESTPMD is None:
            self.fail("dpdk-testpmd not installed (package dpdk)")
        sock = os.path.join(self.tmpdir, "refl6.sock")
        tp = self.start_testpmd(sock)
        n = 100000
        eal = self.nb.eal(["--vdev",
                           "net_memif0,role=client,socket=%s,rsize=14"
                           % sock], workers=1)
        r = self.nb.run(eal, ["--peer", "02:00:00:00:00:99", "--reflector",
                              "-6", "--rate", "200M", "--size", "256",
                              "--packets", str(n), "--streams", "2",
                              "--json"], name="refl6")
        self.assertOk(r)
        self.stop_testpmd(tp)
        d = r.json()
        e = d["end"]
        self.assertEqual(d["start"]["test_start"]["stack"]["family"], 6)
        self.assertEqual(e["sum_sent"]["packets"], n)
        self.assertEqual(e["sum_received"]["packets"], n)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertEqual(e["sum_received"]["latency"]["count"], n)

    def test_suite_through_testpmd(self):
        """--test in the reflector topology: each trial goes out and
        comes back through testpmd; a rate it forwards without loss passes
        at the ceiling, one trial per size, every frame back."""
        if TESTPMD is None:
            self.fail("dpdk-testpmd not installed (package dpdk)")
        sock = os.path.join(self.tmpdir, "refl.sock")
        self.start_testpmd(sock)
        eal = self.nb.eal(["--vdev",
                           "net_memif0,role=client,socket=%s,rsize=14"
                           % sock], workers=1)
        r = self.nb.run(eal, ["--peer", "02:00:00:00:00:99", "--reflector",
                              "--test", "throughput", "--size", "256,512",
                              "--rate", "100M", "--trial-time", "0.5",
                              "--settle", "0", "--json"], name="refl-suite")
        self.assertOk(r)
        d = r.json()
        self.assertEqual(d["start"]["topology"], "reflector")
        rows = d["suite"]["results"]
        self.assertEqual([x["size"] for x in rows], [256, 512])
        for x in rows:
            self.assertTrue(x["complete"])
            self.assertEqual(x["trials"], 1)
            self.assertIsNone(x["bounds"][0]["upper_pps"])
            self.assertAlmostEqual(x["bounds"][0]["pps"],
                                   100e6 / ((x["size"] + 20) * 8),
                                   delta=0.01)
        for t in d["suite"]["trials"]:
            self.assertEqual(t["rx_packets"], t["tx_packets"])
            self.assertEqual(t["latency"]["count"], t["rx_packets"])

    def test_testpmd_counts_every_frame_af_packet(self):
        """testpmd's own port counters against ours.  On memif testpmd's
        counters are reset when our side disconnects, so this runs over a
        veth pair between two namespaces (af_packet has no connection):
        testpmd received every frame we sent and sent back every frame we
        received, as its own "show port stats" says after we are gone."""
        if TESTPMD is None:
            self.fail("dpdk-testpmd not installed (package dpdk)")
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        ns = "nbr%d" % (os.getpid() % 100000)
        nbe2e.netns_up(ns)
        self.addCleanup(nbe2e.netns_down, ns)
        # af_packet rings of 8192 frames on both ends (512 by default): a
        # poller that loses its CPU for a while on the shared host must
        # not overflow its RX ring (164 ms at 50 kpps, not 10 ms)
        ring = ",framecnt=8192"
        tp = nbe2e.testpmd_macswap(["ip", "netns", "exec", ns + "b"],
                                   "net_af_packet0,iface=%svb%s" % (ns, ring))
        self.addCleanup(self.stop_testpmd, tp)
        n = 100000
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("refl"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=%sva%s" % (ns, ring)]
        # A sender turn that comes late releases the frames due meanwhile
        # in one burst.  The ASan/UBSan build's turns come late more often
        # (testpmd received 99,799 of 100,000 there with 512-frame rings),
        # so it sends at 20 kpps; every count stays exact.
        rate = "20Kpps" if nbe2e.SANITIZED else "50Kpps"
        argv = ["ip", "netns", "exec", ns + "a", nbe2e.BIN] + eal + [
            "--", "--peer", "02:00:00:00:00:99", "--reflector", "--rate",
            rate, "--size", "128", "--packets", str(n), "--json"]
        # nbe2e's sanitizer options (ip netns exec keeps the environment),
        # and its check of stderr for their reports
        r = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                           env=nbe2e.child_env())
        log = os.path.join(nbe2e.LOGDIR, nbe2e.unique("refl") + ".log")
        nbe2e.Nbench._log(log, argv, r.returncode, r.stdout, r.stderr)
        self.assertEqual(nbe2e.exit_problems(r.stderr), [], log)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        e = nbe2e.loads(r.stdout)["end"]
        out = self.stop_testpmd(tp)
        m = re.search(r"RX-packets:\s+(\d+)\s+RX-missed:\s+(\d+).*?"
                      r"TX-packets:\s+(\d+)\s+TX-errors:\s+(\d+)", out,
                      re.S)
        self.assertIsNotNone(m, out[-2000:])
        rx, missed, tx, errs = (int(x) for x in m.groups())
        self.assertEqual(e["sum_sent"]["packets"], n)
        self.assertEqual(rx, n, "testpmd received")
        self.assertEqual(missed, 0)
        self.assertEqual(tx, n, "testpmd sent back")
        self.assertEqual(errs, 0)
        self.assertEqual(e["sum_received"]["packets"], tx)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)


if __name__ == "__main__":
    nbe2e.main()
