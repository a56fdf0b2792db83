# SPDX-License-Identifier: BSD-3-Clause
"""Peer mode over IPv6 (issue 35): the control protocol and the test on
IPv6, af_packet ports on veth pairs joined by a Linux bridge, each end in
a network namespace of its own, as hosts on a switch:

    nbNr  responder --ip 2001:db8:9::1    (vr) --+
    nbNc  client    --ip 2001:db8:9::2    (vc) --+-- br0 in nbNs
    nbNk  the kernel, 2001:db8:9::100/64  (vk) --+

The tool's hosts have the kernel's IPv6 off on their interfaces (every
IPv6 frame there is the tool's); the kernel host resolves and pings the
responder; tshark on the bridge's port towards the responder checks what
crossed it."""
import os
import shutil
import signal
import subprocess
import time
import unittest

import nbe2e

R6, C6, K6 = "2001:db8:9::1", "2001:db8:9::2", "2001:db8:9::100"
TSHARK = shutil.which("tshark")


def sh(*args, check=True, timeout=60):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=timeout)


@unittest.skipIf(TSHARK is None, "tshark is not installed (package tshark)")
class PeerOverIPv6(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        p = "nb6%d" % (os.getpid() % 100000)
        self.ns = {n: p + n for n in ("s", "r", "c", "k")}
        self.addCleanup(self.teardown_net)
        s = self.ns["s"]
        for ns in self.ns.values():
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", s, "link", "add", "br0", "type", "bridge")
        for end in ("r", "c", "k"):
            a, b = "v" + end, "s" + end
            sh("ip", "-n", s, "link", "add", b, "type", "veth", "peer",
               "name", a, "netns", self.ns[end])
            sh("ip", "netns", "exec", s, "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % b)
            if end != "k":
                sh("ip", "netns", "exec", self.ns[end], "sysctl", "-qw",
                   "net.ipv6.conf.%s.disable_ipv6=1" % a)
            sh("ip", "-n", s, "link", "set", b, "master", "br0", "up")
            sh("ip", "-n", self.ns[end], "link", "set", a, "up")
        sh("ip", "netns", "exec", s, "sysctl", "-qw",
           "net.ipv6.conf.br0.disable_ipv6=1")
        sh("ip", "-n", s, "link", "set", "br0", "up")
        sh("ip", "-n", self.ns["k"], "-6", "addr", "add", K6 + "/64", "dev",
           "vk", "nodad")

    def teardown_net(self):
        for ns in self.ns.values():
            sh("ip", "netns", "del", ns, check=False)

    def mac(self, end):
        return sh("ip", "netns", "exec", self.ns[end], "cat",
                  "/sys/class/net/v%s/address" % end).stdout.strip()

    def nbench(self, end, cpu, tool):
        p = self.netns_nbench(self.ns[end], "v" + end, cpu, tool)
        self.addCleanup(self.kill, p)
        return p

    @staticmethod
    def kill(p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        return p.communicate()

    def responder(self):
        resp = self.nbench("r", 0, ["--ip", R6])
        line = resp.stdout.readline()
        self.assertIn("responder on port 0", line)
        self.assertIn("ip " + R6 + ",", line)
        return resp

    def client(self, tool):
        c = self.nbench("c", 1, ["--peer", R6, "--ip", C6, "--json"] + tool)
        out, err = c.communicate(timeout=90)
        self.assertEqual(c.returncode, 0, err[-3000:])
        return nbe2e.loads(out)

    def test_kernel_resolves_and_pings_the_responder(self):
        """The responder answers the kernel's neighbour solicitation
        (its MAC lands in the kernel's table) and its echo requests,
        over IPv6 alone."""
        self.responder()
        ping = sh("ip", "netns", "exec", self.ns["k"], "ping", "-6", "-c",
                  "3", "-W", "2", R6, check=False)
        self.assertEqual(ping.returncode, 0, ping.stdout + ping.stderr)
        self.assertIn("3 received", ping.stdout)
        neigh = sh("ip", "-n", self.ns["k"], "-6", "neigh", "show",
                   R6).stdout
        self.assertIn(self.mac("r"), neigh)

    def test_forward_and_reverse(self):
        """A client resolves the responder by neighbour discovery and runs
        a test each way, control and data over IPv6: every frame sent is
        received (the bridge loses nothing at 20 Mbit/s); tshark on the
        responder's bridge port decodes the forward test's data as IPv6
        UDP from C6 to R6 with good checksums, as many as the client
        sent, the control datagrams as IPv6 UDP 7201, and not one IPv4 or
        ARP frame from either tool."""
        self.responder()
        path = os.path.join(self.tmpdir, "sr.pcap")
        cap = self.tshark(["ip", "netns", "exec", self.ns["s"], TSHARK,
                           "-n", "-i", "sr", "-a", "duration:60", "-w",
                           path])
        try:
            d = self.client(["--rate", "20M", "--size", "512", "--time",
                             "1"])
        finally:
            time.sleep(0.5)   # tshark writes what it holds on SIGINT
            os.killpg(cap.pid, signal.SIGINT)
            self.tshark_end(cap, 30)
        e = d["end"]
        c = d["start"]["connected"][0]
        self.assertEqual((c["local_host"], c["remote_host"]), (C6, R6))
        sent = e["sum_sent"]["packets"]
        self.assertGreater(sent, 4000)
        self.assertEqual(e["sum_received"]["packets"], sent)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        prefs = ["-o", "udp.check_checksum:TRUE"]
        tsh = [TSHARK, "-n", "-r", path] + prefs
        data = sh(*tsh, "-Y", "ipv6.src == %s && ipv6.dst == %s && "
                  "udp.dstport == 5001 && udp.checksum.status == 1" %
                  (C6, R6), "-T", "fields", "-e", "frame.number",
                  timeout=120).stdout.split()
        self.assertEqual(len(data), sent)
        ctl = sh(*tsh, "-Y", "udp.port == 7201", "-T", "fields", "-e",
                 "ipv6.src", "-e", "udp.checksum.status",
                 timeout=120).stdout.split("\n")
        ctl = [c for c in ctl if c]
        self.assertGreater(len(ctl), 4)
        self.assertEqual({c.split("\t")[1] for c in ctl}, {"1"})
        self.assertEqual({c.split("\t")[0] for c in ctl}, {R6, C6})
        # the tools' frames (the bridge's kernel may send IGMP of its own)
        v4 = sh(*tsh, "-Y", "(ip || arp) && (eth.src == %s || eth.src == "
                "%s)" % (self.mac("r"), self.mac("c")), timeout=120).stdout
        self.assertEqual(v4.strip(), "")
        bad = sh(*tsh, "-Y", "_ws.malformed || udp.checksum.status == 0 "
                 "|| _ws.expert.severity >= 6291456", timeout=120).stdout
        self.assertEqual(bad.strip(), "")
        # the other way: the responder builds IPv6 frames to the client
        d = self.client(["--rate", "20M", "--size", "256", "--time", "1",
                         "-R"])
        e = d["end"]
        self.assertGreater(e["sum_sent"]["packets"], 4000)
        self.assertEqual(e["sum_received"]["packets"],
                         e["sum_sent"]["packets"])
        # round trips: the responder turns IPv6 probes around
        d = self.client(["--pingpong", "--time", "1"])
        rtt = d["end"]["rtt"]
        self.assertGreater(rtt["probes_sent"], 100)
        self.assertEqual(rtt["probes_returned"], rtt["probes_sent"])

    def test_tcp_both_ways(self):
        """Closed-loop TCP with the responder over IPv6: -n 20M to it and
        -R -n 10M from it arrive exactly, every byte checked, the
        connection between the two IPv6 addresses with IPv6's MSS."""
        self.responder()
        mib = 1024 * 1024
        for extra, total in (([], 20 * mib), (["-R"], 10 * mib)):
            d = self.client(["--tcp", "-n", str(total // mib) + "M"] +
                            extra)
            nb, e = d["nbench"], d["end"]
            self.assertNotIn("error", d)
            self.assertEqual(e["sum_sent"]["bytes"], total)
            self.assertEqual(e["sum_received"]["bytes"], total)
            self.assertEqual(nb["bad_bytes"], 0)
            self.assertEqual(d["start"]["tcp_mss_default"], 1440)
            c = d["start"]["connected"][0]
            self.assertEqual((c["local_host"], c["remote_host"]), (C6, R6))


if __name__ == "__main__":
    nbe2e.main()
