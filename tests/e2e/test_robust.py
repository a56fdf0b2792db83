# SPDX-License-Identifier: BSD-3-Clause
"""Robustness: the largest --queues in peer mode, every mbuf back in its
pool at exit (after a normal, an interrupted and a failed run), a --bytes
near 2^64 that Ctrl-C stops, and the responder's ARP/ICMP answers held to
their rate under a ping flood.

The check at exit (app/main.c) logs "mempools: all N back" at
--log-level nbench:debug; a pool that lost mbufs gives an error line, which
nbe2e fails every run on (with the sanitizers' reports)."""
import os
import re
import signal
import subprocess
import time

import nbe2e

RESP_MAC = "02:00:00:00:00:02"
DEBUG = ["--log-level", "nbench:debug"]
ALL_BACK = re.compile(r"dpdk-nbench: mempools: all (\d+) back")


def sh(*args, check=True):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=30)


class Robust(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        self.sock = os.path.join(self.tmpdir, "peer.sock")

    def assertAllBack(self, err, at_least=1):
        m = ALL_BACK.search(err)
        self.assertIsNotNone(m, "the exit check did not run:\n" + err[-2000:])
        self.assertGreaterEqual(int(m.group(1)), at_least)
        self.assertNotIn("still in use at exit", err)

    # DPDK 22.11's memif numbers the buffers of all rings with 16 bits:
    # (rings both ways) x 2^rsize must stay within 65536, or the two
    # directions share buffers and each end receives some of its own
    # frames.  --queues 16 in peer mode is 17 rings each way: rsize 10.
    RSIZE = 10

    def responder(self, extra=()):
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("resp"), "--log-level", "lib.eal:error"] + \
            DEBUG + ["--vdev",
                     "net_memif0,role=server,socket=%s,rsize=%d,mac=%s"
                     % (self.sock, self.RSIZE, RESP_MAC)]
        p, argv, log = self.nb.start(eal, list(extra), name="resp")
        self.addCleanup(self.stop, p)
        line = p.stdout.readline()
        self.assertIn("responder on port 0", line,
                      "responder did not start: " + line)
        return p

    def stop(self, p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.communicate()

    def client_eal(self):
        return ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
                nbe2e.unique("cli"), "--log-level", "lib.eal:error"] + \
            DEBUG + ["--vdev", "net_memif0,role=client,socket=%s,rsize=%d"
                     % (self.sock, self.RSIZE)]

    def test_peer_queues_16(self):
        """--queues 16 (the most) gives 17 RX queues each side: 17
        hand-off rings, the 17th used and freed; the test is exact."""
        resp = self.responder(["--queues", "16", "--one-off"])
        r = self.nb.run(self.client_eal(),
                        ["--peer", RESP_MAC, "--queues", "16", "--streams",
                         "32", "--rate", "200M", "--size", "256",
                         "--packets", "100000", "--bidir", "--json"],
                        timeout=120, name="cli")
        self.assertOk(r)
        d = r.json()
        for side in (d, d["reverse"]):
            e = side["end"]
            # every frame arrives once, none lost, nothing foreign
            self.assertEqual(e["sum_sent"]["packets"], 100000)
            self.assertEqual(e["sum_received"]["packets"], 100000)
            self.assertEqual(e["sum_received"]["duplicates"], 0)
            self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertRegex(r.err, r"17 control hand-off rings of \d+ frames")
        # the exit check ran over the RX and control pools at least (a TX
        # pool whose mbufs all came back is freed with its job; one still
        # missing any is kept, and counted here)
        self.assertAllBack(r.err, 2)
        out, err = resp.communicate(timeout=30)
        self.assertEqual(resp.returncode, 0, err[-2000:])
        m = re.search(r"17 control hand-off rings of (\d+) frames \(RX pool "
                      r"(\d+) mbufs, (\d+) spare\)", err)
        self.assertIsNotNone(m, err[-2000:])
        cap, pool, spare = (int(x) for x in m.groups())
        # together at most a quarter of the RX pool's spare
        self.assertGreater(cap, 0)
        self.assertLessEqual(17 * cap, spare // 4)
        self.assertLess(spare, pool)
        self.assertAllBack(err, 2)   # (as the client's, above)

    def loop_eal(self):
        return self.nb.eal(self.nb.memif_pair()) + DEBUG

    def test_pools_back_after_normal_run(self):
        r = self.nb.run(self.loop_eal(),
                        ["--tx-port", "0", "--rx-port", "1", "--rate",
                         "500M", "--size", "64,1518", "--time", "1",
                         "--json"], name="loop")
        self.assertOk(r)
        self.assertGreater(r.json()["end"]["sum_received"]["packets"], 0)
        # two RX pools and one TX pool
        self.assertAllBack(r.err, 3)

    def test_pools_back_after_interrupted_run(self):
        out, err = self.interrupt_after_first_interval(
            self.loop_eal(), ["--tx-port", "0", "--rx-port", "1", "--rate",
                              "1G", "--size", "1518", "--time", "60"])
        self.assertRegex(out, r"lost 0/[1-9]")
        self.assertAllBack(err, 3)

    def test_huge_bytes_stops_on_ctrl_c(self):
        """--bytes 2^64 - 1 (it hung before the run, deaf to Ctrl-C) is
        refused at once, before EAL; the largest count taken (2^50) runs,
        and Ctrl-C ends it."""
        eal = self.nb.eal(["--vdev", "net_null0", "--vdev", "net_null1"]) \
            + DEBUG
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1",
                              "--bytes", str(2 ** 64 - 1)], name="huge")
        self.assertEqual(r.rc, 2, r.err[-2000:])
        self.assertIn("--bytes", r.err)
        self.assertNotIn("EAL:", r.err)
        self.assertLess(r.elapsed, 5)
        out, err = self.interrupt_after_first_interval(
            eal, ["--tx-port", "0", "--rx-port", "1", "--rate", "10M",
                  "--bytes", str(2 ** 50)])
        self.assertAllBack(err, 3)

    def test_pools_back_after_failed_runs(self):
        # a loopback run that fails after its ports started: the memif
        # server has no client, its link never comes up
        vdevs = []
        for i in (0, 1):
            vdevs += ["--vdev", "net_memif%d,role=server,socket=%s" % (
                i, os.path.join(self.tmpdir, "alone%d.sock" % i))]
        r = self.nb.run(self.nb.eal(vdevs) + DEBUG,
                        ["--tx-port", "0", "--rx-port", "1", "--time", "1",
                         "--link-timeout", "0.5"], name="loop")
        self.assertOk(r, 1)
        self.assertIn("link still down", r.err)
        self.assertAllBack(r.err, 2)
        # a peer run whose responder never answers (testpmd at the other
        # end): control frames sent, rings set up and freed, then failure
        tp = nbe2e.testpmd([], "net_memif0,role=server,socket=%s"
                           % self.sock, mode="rxonly",
                           extra=["--rxq=2", "--txq=2"])
        self.addCleanup(lambda: (os.killpg(tp.pid, signal.SIGKILL),
                                 tp.communicate()))
        r = self.nb.run(self.client_eal(),
                        ["--peer", RESP_MAC, "--peer-timeout", "1",
                         "--time", "1"], name="cli")
        self.assertOk(r, 1)
        self.assertIn("did not answer", r.err)
        self.assertRegex(r.err, r"2 control hand-off rings")
        self.assertAllBack(r.err, 2)


class RateLimits(nbe2e.E2ECase):
    """A kernel host floods the responder with pings (af_packet on a veth
    pair, each end in its own namespace): at most 20 answers at once, then
    100/s; the rest counted as rate-limited."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        p = "nbrl%d" % (os.getpid() % 100000)
        self.nsr, self.nsk = p + "r", p + "k"
        self.addCleanup(lambda: [sh("ip", "netns", "del", n, check=False)
                                 for n in (self.nsr, self.nsk)])
        for ns in (self.nsr, self.nsk):
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", self.nsr, "link", "add", "vr", "type", "veth",
           "peer", "name", "vk", "netns", self.nsk)
        for ns, dev in ((self.nsr, "vr"), (self.nsk, "vk")):
            sh("ip", "netns", "exec", ns, "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            sh("ip", "-n", ns, "link", "set", dev, "up")
        sh("ip", "-n", self.nsk, "addr", "add", "198.19.0.100/15", "dev",
           "vk")

    def test_ping_flood(self):
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("resp"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=vr,qpairs=2"]
        argv = ["ip", "netns", "exec", self.nsr, nbe2e.BIN] + eal + ["--"]
        resp = nbe2e.CheckedPopen(argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  start_new_session=True,
                                  env=nbe2e.child_env())
        self.addCleanup(lambda: resp.poll() is None and (
            os.killpg(resp.pid, signal.SIGKILL), resp.communicate()))
        self.assertIn("responder on port 0", resp.stdout.readline())
        n, secs = 1000, 1.0
        t0 = time.monotonic()
        ping = sh("ip", "netns", "exec", self.nsk, "ping", "-q", "-n", "-c",
                  str(n), "-i", "%g" % (secs / n), "-W", "1", "198.19.0.1",
                  check=False)
        took = time.monotonic() - t0
        m = re.search(r"(\d+) packets transmitted, (\d+) received",
                      ping.stdout)
        self.assertIsNotNone(m, ping.stdout + ping.stderr)
        sent, got = int(m.group(1)), int(m.group(2))
        self.assertEqual(sent, n)
        # the burst, then 100/s over the time the flood took (+ slack for
        # the clock's edges)
        self.assertGreaterEqual(got, 20)
        self.assertLessEqual(got, 20 + 100 * took + 2)
        os.killpg(resp.pid, signal.SIGINT)
        out, err = resp.communicate(timeout=20)
        m = re.search(r"ICMP answered (\d+) \(rate-limited (\d+)\)", err)
        self.assertIsNotNone(m, err[-2000:])
        answered, limited = int(m.group(1)), int(m.group(2))
        self.assertEqual(answered, got)
        self.assertGreater(limited, 0)
        self.assertLessEqual(answered + limited, n)


if __name__ == "__main__":
    nbe2e.main()
