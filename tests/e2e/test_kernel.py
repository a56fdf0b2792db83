# SPDX-License-Identifier: BSD-3-Clause
"""The kernel path: af_packet ports on veth pairs joined by a Linux bridge,
each end in its own network namespace, as separate hosts on a switch:

    nbNr  responder  (af_packet on vr)  --+
    nbNc1 client 1   (af_packet on vc1) --+-- br0 in nbNs
    nbNc2 client 2   (af_packet on vc2) --+
    nbNk  the kernel, 198.19.0.100/15   --+

A test completes between client 1 and the responder while client 2 is told
BUSY, and the kernel host pings the responder (ARP and ICMP answered)."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import nbe2e


def sh(*args, check=True):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=30)


class KernelPath(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.p = "nb%d" % (os.getpid() % 100000)
        self.ns = {n: self.p + n for n in ("s", "r", "c1", "c2", "k")}
        self.addCleanup(self.teardown_net)
        self.setup_net()

    def setup_net(self):
        s = self.ns["s"]
        for ns in self.ns.values():
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", s, "link", "add", "br0", "type", "bridge")
        for end in ("r", "c1", "c2", "k"):
            a, b = "v" + end, "s" + end
            sh("ip", "-n", s, "link", "add", b, "type", "veth", "peer",
               "name", a, "netns", self.ns[end])
            for ns, dev in ((self.ns[end], a), (s, b)):
                sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                   "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            sh("ip", "-n", s, "link", "set", b, "master", "br0", "up")
            sh("ip", "-n", self.ns[end], "link", "set", a, "up")
        sh("ip", "netns", "exec", s, "sysctl", "-qw",
           "net.ipv6.conf.br0.disable_ipv6=1")
        sh("ip", "-n", s, "link", "set", "br0", "up")
        sh("ip", "-n", self.ns["k"], "addr", "add", "198.19.0.100/15",
           "dev", "vk")

    def teardown_net(self):
        for ns in self.ns.values():
            sh("ip", "netns", "del", ns, check=False)

    def mac(self, end):
        return sh("ip", "netns", "exec", self.ns[end], "cat",
                  "/sys/class/net/v%s/address" % end).stdout.strip()

    def nbench(self, end, cpu, tool):
        return self.netns_nbench(self.ns[end], "v" + end, cpu, tool)

    def kill(self, p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        return p.communicate()

    def test_kernel_path(self):
        resp = self.nbench("r", 0, [])
        self.addCleanup(self.kill, resp)
        self.assertIn("responder on port 0", resp.stdout.readline())
        rmac = self.mac("r")

        # the kernel host reaches the responder: ARP, then ICMP echo
        ping = sh("ip", "netns", "exec", self.ns["k"], "ping", "-c", "3",
                  "-W", "2", "198.19.0.1", check=False)
        self.assertEqual(ping.returncode, 0, ping.stdout + ping.stderr)
        self.assertIn("3 received", ping.stdout)
        neigh = sh("ip", "-n", self.ns["k"], "neigh", "show",
                   "198.19.0.1").stdout
        self.assertIn(rmac, neigh)

        # client 1 runs a test; client 2 arrives meanwhile and is told BUSY
        c1 = self.nbench("c1", 1, ["--peer", rmac, "--rate", "20M",
                                   "--size", "512", "--time", "4",
                                   "--json"])
        self.addCleanup(self.kill, c1)
        # the responder logs each session it opens: wait for client 1's
        log = nbe2e.LineReader(resp.stderr)
        open_sessions = set()
        while not open_sessions:
            line = log.readline(30)
            self.assertTrue(line, "responder exited or silent")
            self.track(line, open_sessions)
        c2 = self.nbench("c2", 1, ["--peer", rmac, "--rate", "20M",
                                   "--time", "1"])
        out2, err2 = c2.communicate(timeout=30)
        self.assertEqual(c2.returncode, 1, err2)
        self.assertIn("busy", err2)

        out1, err1 = c1.communicate(timeout=60)
        self.check_client(out1, err1, c1)

        # hostile and foreign frames from the kernel host's namespace: a
        # HELLO of a newer protocol version (4) gets an ERROR that says
        # so; a valid version 3 HELLO a WELCOME; thousands of frames
        # fuzzed from it crash nothing; the responder still serves
        inj = sh("ip", "netns", "exec", self.ns["k"], sys.executable,
                 os.path.join(nbe2e.HERE, "wire_inject.py"), "vk", rmac,
                 "198.19.0.1", "198.19.0.100", "3000", nbe2e.suite_key())
        res = json.loads(inj.stdout)
        self.assertIsNotNone(res["version_error"], inj.stderr)
        self.assertIn("version mismatch", res["version_error"])
        self.assertTrue(res["welcome"], "no WELCOME for the fuzz seed")
        self.assertIsNone(resp.poll(), "responder died")
        # A HELLO opens no session (protocol 3: only a PARAMS or QUIT
        # bringing back the WELCOME's cookie, with a valid tag, does), so
        # fuzzed frames cannot; a session would end at the peer timeout
        # (2 s).  Follow the log until every session opened has ended.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = log.readline(2.5)
            if line is None:
                if not open_sessions:
                    break
                continue
            self.assertNotEqual(line, "", "responder exited")
            self.track(line, open_sessions)
        self.assertEqual(open_sessions, set(), "sessions left open")
        ping = sh("ip", "netns", "exec", self.ns["k"], "ping", "-c", "2",
                  "-W", "2", "198.19.0.1", check=False)
        self.assertEqual(ping.returncode, 0, ping.stdout)
        c3 = self.nbench("c1", 1, ["--peer", "198.19.0.1", "--rate", "20M",
                                   "--size", "512", "--time", "1",
                                   "--json"])
        self.addCleanup(self.kill, c3)
        out3, err3 = c3.communicate(timeout=60)
        self.assertEqual(c3.returncode, 0, err3)
        e = nbe2e.loads(out3)["end"]
        self.assertEqual(e["sum_received"]["packets"],
                         e["sum_sent"]["packets"])

    def start_responder(self):
        resp = self.nbench("r", 0, [])
        self.addCleanup(self.kill, resp)
        self.assertIn("responder on port 0", resp.stdout.readline())
        return resp

    def wait_log(self, p, word, timeout=15):
        if not hasattr(p, "log"):
            p.log = nbe2e.LineReader(p.stderr)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = p.log.readline(1)
            self.assertNotEqual(line, "", "process exited")
            if line and word in line:
                return line
        self.fail("no '%s' in the log within %s s" % (word, timeout))

    def test_responder_killed_mid_test(self):
        resp = self.start_responder()
        c = self.nbench("c1", 1, ["--peer", "198.19.0.1", "--rate", "20M",
                                  "--size", "512", "--time", "30"])
        self.addCleanup(self.kill, c)
        self.wait_log(resp, "opened")
        self.assertIn("Peer test with", c.stdout.readline())
        os.killpg(resp.pid, signal.SIGKILL)
        t0 = time.monotonic()
        out, err = c.communicate(timeout=15)
        took = time.monotonic() - t0
        self.assertEqual(c.returncode, 1, err)
        self.assertLess(took, 3.0)
        self.assertIn("stopped answering", err)
        self.assertIn("partial results", out)
        self.assertIn("sender", out)

    def test_client_vanishes_responder_serves_next(self):
        resp = self.start_responder()
        c = self.nbench("c1", 1, ["--peer", "198.19.0.1", "--rate", "20M",
                                  "--time", "30"])
        self.addCleanup(self.kill, c)
        self.assertIn("Peer test with", c.stdout.readline())
        os.killpg(c.pid, signal.SIGKILL)
        c.communicate()
        self.assertIn("vanished", self.wait_log(resp, "ended"))
        c2 = self.nbench("c2", 1, ["--peer", "198.19.0.1", "--rate", "20M",
                                   "--size", "256", "--time", "1",
                                   "--json"])
        self.addCleanup(self.kill, c2)
        out, err = c2.communicate(timeout=60)
        self.assertEqual(c2.returncode, 0, err)
        e = nbe2e.loads(out)["end"]
        self.assertGreater(e["sum_sent"]["packets"], 0)
        self.assertEqual(e["sum_received"]["packets"],
                         e["sum_sent"]["packets"])

    def test_sigint_responder_tells_client(self):
        resp = self.start_responder()
        c = self.nbench("c1", 1, ["--peer", "198.19.0.1", "--rate", "20M",
                                  "--time", "30"])
        self.addCleanup(self.kill, c)
        self.assertIn("Peer test with", c.stdout.readline())
        os.killpg(resp.pid, signal.SIGINT)
        t0 = time.monotonic()
        out, err = c.communicate(timeout=15)
        self.assertEqual(c.returncode, 1, err)
        self.assertLess(time.monotonic() - t0, 2.0)
        self.assertIn("interrupted", err)
        rout, rerr = resp.communicate(timeout=15)
        # the signal cut a started test short: 1, as for any interrupted
        # test (an idle responder stopped so exits 0)
        self.assertEqual(resp.returncode, 1, rerr)
        self.assertIn("interrupted by SIGINT during session", rerr)

    @staticmethod
    def track(line, sessions):
        m = re.search(r"session ([0-9a-f]{8}) (opened|ended)", line)
        if m and m.group(2) == "opened":
            sessions.add(m.group(1))
        elif m:
            sessions.discard(m.group(1))

    def check_client(self, out1, err1, c1):
        self.assertEqual(c1.returncode, 0, err1)
        d = nbe2e.loads(out1)
        e = d["end"]
        n = e["sum_sent"]["packets"]
        want = 20e6 / ((512 + 20) * 8) * 4
        self.assertAlmostEqual(n, want, delta=want * 0.01)
        self.assertEqual(e["sum_received"]["packets"], n)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        me = e["ports"][0]
        self.assertEqual(me["driver"], "net_af_packet")
        self.assertEqual(me["tool_tx_packets"], me["pmd"]["opackets"])


if __name__ == "__main__":
    nbe2e.main()
