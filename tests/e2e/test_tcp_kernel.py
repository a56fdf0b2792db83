# SPDX-License-Identifier: BSD-3-Clause
"""Closed-loop TCP (--tcp) against the kernel, over af_packet on veth pairs
in network namespaces:

  KernelPeer   the tool in nbNa (vt0) -- veth -- vk in nbNk, the kernel at
               198.19.0.100: the tool's client sends to a kernel listener,
               a kernel client sends to the tool's listener, and tshark on
               vk finds no TCP problem but the retransmissions the tool
               reports.  The kernel computes every checksum itself (TX
               checksum offload off on vk: af_packet hands on the partial
               checksums of offload).
  Bridge       both tool ports (vt0, vt1) on a Linux bridge in nbNs: an
               independent dropper (a tc BPF classifier on st0, 1 % of data
               segments at random) and a tbf bottleneck of 100 Mbit/s (on
               st1, towards the receiver)."""
import json
import os
import signal
import subprocess
import time

import nbe2e

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "tcp_peer.py")
MIB = 1024 * 1024
RING = ",framesz=2048,framecnt=4096"  # the default 512 frames drop bursts


# Run in the kernel's namespace with the listener's MAC: a SYN from
# 198.19.0.77 (no such host), sent until the listener answers it.
SPOOF_SYN = r"""
import sys, time
from scapy.all import Ether, IP, TCP, srp1, conf
conf.verb = 0
syn = (Ether(dst=sys.argv[1], src="02:00:00:00:00:77") /
       IP(src="198.19.0.77", dst="198.19.0.1") /
       TCP(sport=1111, dport=5201, flags="S", seq=1000))
deadline = time.monotonic() + 40
while time.monotonic() < deadline:
    r = srp1(syn, iface="vk", timeout=0.5)
    if r is not None and TCP in r and r[TCP].flags == "SA":
        print("syn-ack")
        break
"""


def sh(*args, check=True, timeout=30):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=timeout)


class NetCase(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.p = "nbt%d" % (os.getpid() % 100000)
        self.spaces = []
        self.addCleanup(self.teardown_net)

    def netns(self, tag):
        ns = self.p + tag
        sh("ip", "netns", "add", ns)
        self.spaces.append(ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        return ns

    def no_ipv6(self, ns, dev):
        sh("ip", "netns", "exec", ns, "sysctl", "-qw",
           "net.ipv6.conf.%s.disable_ipv6=1" % dev)

    def teardown_net(self):
        for ns in self.spaces:
            sh("ip", "netns", "del", ns, check=False)

    def tool(self, ns, ports, tool, timeout=90, code=0):
        vdevs = []
        for i, dev in enumerate(ports):
            vdevs += ["--vdev", "net_af_packet%d,iface=%s%s" % (i, dev, RING)]
        eal = self.nb.eal(vdevs, workers=2 if len(ports) > 1 else 1)
        r = self.nb.run(eal, ["--tcp", "--json"] + tool, timeout=timeout,
                        name="tcpk", wrap=["ip", "netns", "exec", ns])
        self.assertOk(r, code)
        return r.json()

    def capture(self, ns, dev):
        """dumpcap on dev in ns, headers only; returns (Popen, file) once
        it says it captures."""
        path = os.path.join(self.tmpdir, dev + ".pcapng")
        p = self.bg(ns, ["dumpcap", "-i", dev, "-s", "160", "-B", "64",
                         "-w", path])
        deadline = time.monotonic() + 20
        line = ""
        while "Capturing on" not in line and time.monotonic() < deadline:
            line = p.stderr.readline()
            if not line and p.poll() is not None:
                self.fail("dumpcap ended: %s" % p.stderr.read())
        self.assertIn("Capturing on", line)
        return p, path

    def assert_clean_conversation(self, path, retransmits, extra=""):
        """tshark finds no TCP analysis flag in the capture but
        retransmissions (at most the tool's count) and window updates,
        nothing matching extra (a display filter), and both FINs.
        Returns the tshark command to read it further."""
        tsh = ["tshark", "-r", path, "-n"]
        bad = sh(*tsh, "-Y", "(tcp.analysis.flags && "
                 "!tcp.analysis.window_update && "
                 "!tcp.analysis.retransmission && "
                 "!tcp.analysis.fast_retransmission)" + extra,
                 timeout=180).stdout
        self.assertEqual(bad.strip(), "", bad[:3000])
        rexmit = sh(*tsh, "-Y", "tcp.analysis.retransmission || "
                    "tcp.analysis.fast_retransmission",
                    timeout=180).stdout.strip()
        n_rexmit = len(rexmit.splitlines()) if rexmit else 0
        self.assertLessEqual(n_rexmit, retransmits)
        fins = sh(*tsh, "-Y", "tcp.flags.fin == 1", timeout=180).stdout
        self.assertEqual(len(fins.strip().splitlines()), 2, fins)
        return tsh

    def bg(self, ns, argv):
        p = subprocess.Popen(["ip", "netns", "exec", ns] + argv,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        self.addCleanup(self.stop, p)
        return p

    @staticmethod
    def stop(p, sig=signal.SIGKILL):
        if p.poll() is None:
            os.killpg(p.pid, sig)   # our own process group only
        return p.communicate(timeout=30)


class KernelPeer(NetCase):

    def setUp(self):
        super().setUp()
        self.a, self.k = self.netns("a"), self.netns("k")
        sh("ip", "-n", self.a, "link", "add", "vt0", "type", "veth", "peer",
           "name", "vk", "netns", self.k)
        self.no_ipv6(self.a, "vt0")
        self.no_ipv6(self.k, "vk")
        sh("ip", "netns", "exec", self.k, "ethtool", "-K", "vk", "tx", "off",
           "tso", "off", "gso", "off")
        sh("ip", "-n", self.a, "link", "set", "vt0", "up")
        sh("ip", "-n", self.k, "link", "set", "vk", "up")
        sh("ip", "-n", self.k, "addr", "add", "198.19.0.100/15", "dev", "vk")

    def test_client_to_kernel(self):
        """The tool connects to a kernel listener and sends -n 20M: the
        kernel counts exactly 20 MiB and reads a clean EOF; tshark decodes
        the conversation with no analysis flag but retransmissions, at
        most as many as the tool reports, and both FINs."""
        sink = self.bg(self.k, ["/usr/bin/python3", PEER, "sink", "5201"])
        self.assertEqual(sink.stdout.readline().strip(), "listening")
        cap, path = self.capture(self.k, "vk")
        d = self.tool(self.a, ["vt0"], ["--tx-port", "0", "--dst-ip",
                                        "198.19.0.100", "-n", "20M"])
        out, err = sink.communicate(timeout=30)
        self.assertEqual(out.split()[-3:], ["bytes", str(20 * MIB), "eof"],
                         err)
        time.sleep(0.5)   # dumpcap writes what its buffer holds on SIGINT
        self.stop(cap, signal.SIGINT)
        end, nb = d["end"], d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(nb["topology"], "client")
        # af_packet takes chained mbufs: the payload left from the
        # pattern itself, and the kernel counted every byte of it
        self.assertEqual(nb["tx_payload"], "zero-copy")
        self.assertEqual(end["sum_sent"]["bytes"], 20 * MIB)
        self.assertEqual(nb["connections_closed"], 1)
        self.assertEqual(d["start"]["connected"][0]["client_state"],
                         "TIME_WAIT")
        port = nb["ports"][0]
        self.assertEqual(port["bad_checksum"], 0)
        self.assertEqual(port["stray"], 0)
        tsh = self.assert_clean_conversation(
            path, end["sum_sent"]["retransmits"])
        syn = sh(*tsh, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0",
                 "-T", "fields", "-e", "tcp.options.mss_val", "-e",
                 "tcp.options.wscale.shift", "-e", "tcp.options.sack_perm",
                 timeout=120).stdout.split("\n")[0].split("\t")
        self.assertEqual(syn[0], "1460")
        self.assertEqual(syn[1], "0")   # a 64 KiB client window: no scale
        self.assertNotEqual(syn[2], "")

    def test_pingpong_with_kernel_echo(self):
        """--pingpong against a kernel echo server (qperf tcp_lat's
        shape): 64-byte requests come back as they went, which is the
        pattern, so the tool checks them; the echo saw every request."""
        srv = self.bg(self.k, ["/usr/bin/python3", PEER, "echo", "5201"])
        self.assertEqual(srv.stdout.readline().strip(), "listening")
        d = self.tool(self.a, ["vt0"], ["--tx-port", "0", "--dst-ip",
                                        "198.19.0.100", "--pingpong",
                                        "--msg-size", "64", "--time", "2"])
        out, err = srv.communicate(timeout=30)
        nb = d["nbench"]
        self.assertNotIn("error", d)
        pp = nb["pingpong"]
        self.assertGreater(pp["round_trips"], 100)
        self.assertEqual(nb["payload"], "checked")   # the echoed answers
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        echoed = int(out.split()[-2])
        self.assertEqual(echoed, d["end"]["sum_sent"]["bytes"])
        self.assertIn(echoed, (pp["round_trips"] * 64,
                               (pp["round_trips"] + 1) * 64))

    def test_listener_not_held_by_spoofed_syns(self):
        """A listener for one connection (-P 1) takes a SYN from an
        address that never answers (its SYN-ACK goes unanswered); the real
        client's SYN then takes that end over (the oldest handshake still
        waiting), and its 10 MiB arrive."""
        total = 10 * MIB
        srv = self.bg(self.a, [nbe2e.BIN] + self.nb.eal(
            ["--vdev", "net_af_packet0,iface=vt0" + RING], workers=1) +
            ["--", "--rx-port", "0", "--tcp", "--json", "-P", "1"])
        mac = sh("ip", "netns", "exec", self.a, "cat",
                 "/sys/class/net/vt0/address").stdout.strip()
        spoof = sh("ip", "netns", "exec", self.k, "/usr/bin/python3", "-c",
                   SPOOF_SYN, mac, timeout=60)
        self.assertEqual(spoof.stdout.strip(), "syn-ack", spoof.stderr)
        cli = self.bg(self.k, ["/usr/bin/python3", PEER, "send",
                               "198.19.0.1", "5201", str(total)])
        out, err = cli.communicate(timeout=60)
        self.assertEqual(out.split(), ["sent", str(total)], err)
        sout, serr = srv.communicate(timeout=30)
        self.assertEqual(srv.returncode, 0, serr[-3000:])
        d = nbe2e.loads(sout)
        nb = d["nbench"]
        self.assertEqual(nb["ports"][0]["reclaimed"], 1)
        self.assertEqual(d["end"]["sum_received"]["bytes"], total)
        self.assertEqual(d["start"]["connected"][0]["remote_host"],
                         "198.19.0.100")
        self.assertEqual(nb["connections_closed"], 1)

    def test_kernel_to_server(self):
        """A kernel client connects to the tool's listener and sends
        100 MiB of the stream pattern: the tool takes every byte in order,
        checks each against the pattern, and both ends close."""
        total = 100 * MIB
        srv = self.bg(self.a, [nbe2e.BIN] + self.nb.eal(
            ["--vdev", "net_af_packet0,iface=vt0" + RING], workers=1) +
            ["--", "--rx-port", "0", "--tcp", "--json"])
        cli = self.bg(self.k, ["/usr/bin/python3", PEER, "send",
                               "198.19.0.1", "5201", str(total)])
        out, err = cli.communicate(timeout=60)
        self.assertEqual(out.split(), ["sent", str(total)], err)
        sout, serr = srv.communicate(timeout=30)
        self.assertEqual(srv.returncode, 0, serr[-3000:])
        d = nbe2e.loads(sout)
        nb = d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(nb["topology"], "server")
        self.assertEqual(d["end"]["sum_received"]["bytes"], total)
        self.assertEqual(nb["payload"], "checked")
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        c = d["start"]["connected"][0]
        self.assertEqual(c["remote_host"], "198.19.0.100")
        self.assertEqual(c["local_port"], 5201)
        self.assertEqual(c["server_state"], "CLOSED")
        self.assertGreaterEqual(nb["ports"][0]["arp_answered"] +
                                nb["ports"][0]["foreign"], 1)


class Bridge(NetCase):

    def setUp(self):
        super().setUp()
        self.a, self.s = self.netns("a"), self.netns("s")
        sh("ip", "-n", self.s, "link", "add", "br0", "type", "bridge")
        for i in (0, 1):
            sh("ip", "-n", self.s, "link", "add", "st%d" % i, "type", "veth",
               "peer", "name", "vt%d" % i, "netns", self.a)
            self.no_ipv6(self.a, "vt%d" % i)
            self.no_ipv6(self.s, "st%d" % i)
            sh("ip", "-n", self.s, "link", "set", "st%d" % i, "master",
               "br0", "up")
            sh("ip", "-n", self.a, "link", "set", "vt%d" % i, "up")
        self.no_ipv6(self.s, "br0")
        sh("ip", "-n", self.s, "link", "set", "br0", "up")

    def loop(self, tool, **kw):
        return self.tool(self.a, ["vt0", "vt1"],
                         ["--tx-port", "0", "--rx-port", "1"] + tool, **kw)

    def tc_drops(self, dev):
        return nbe2e.qdisc_stats(self.s, dev)[1]

    def test_loss(self):
        """1 % of data segments dropped at random by a tc BPF classifier:
        every byte arrives, the retransmits are the drops (and a few
        more when a retransmission is lost too), and Cwnd shows the
        recoveries."""
        obj = os.path.join(self.tmpdir, "drop.o")
        sh("clang", "-O2", "-target", "bpf", "-c",
           os.path.join(HERE, "tcp_drop.bpf.c"), "-o", obj)
        sh("ip", "netns", "exec", self.s, "tc", "qdisc", "add", "dev", "st0",
           "clsact")
        sh("ip", "netns", "exec", self.s, "tc", "filter", "add", "dev", "st0",
           "ingress", "bpf", "da", "obj", obj, "sec", "classifier")
        d = self.loop(["-n", "50M", "--interval", "0.1"])
        dropped = self.tc_drops("st0")
        end, nb = d["end"], d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(end["sum_received"]["bytes"], 50 * MIB)
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        self.assertGreater(dropped, 100)   # ~1 % of ~36000 segments
        # what the client port sent and the server port did not see is
        # exactly what the dropper took (nothing else loses frames; the
        # bridge's own frames, if any, are the foreign ones)
        ports = {p["role"]: p for p in nb["ports"]}
        self.assertEqual(ports["client"]["tool_tx_packets"]
                         - (ports["server"]["tool_rx_packets"]
                            - ports["server"]["foreign"]), dropped)
        retr = end["sum_sent"]["retransmits"]
        self.assertGreaterEqual(retr, dropped)
        self.assertLessEqual(retr, dropped + 10 + dropped // 50)
        self.assertGreater(nb["recoveries"], 10)
        cw = [s["snd_cwnd"] for i in d["intervals"] for s in i["streams"]]
        self.assertGreater(len(cw), 1)
        self.assertLess(min(cw), end["streams"][0]["sender"]["max_snd_cwnd"])

    def test_bottleneck(self):
        """tbf at 100 Mbit/s towards the receiver: one connection gets at
        least 85 % of it; four share it with Jain's index at least 0.9."""
        sh("ip", "netns", "exec", self.s, "tc", "qdisc", "add", "dev", "st1",
           "root", "tbf", "rate", "100mbit", "burst", "16kb", "latency",
           "20ms")
        d = self.loop(["--time", "5", "--interval", "0"])
        one = d["end"]["sum_received"]["bits_per_second"]
        self.assertGreaterEqual(one, 85e6, json.dumps(d["end"])[:2000])
        self.assertLessEqual(one, 101e6)
        self.assertGreater(self.tc_drops("st1"), 0)  # it was the limit
        d = self.loop(["--time", "5", "--interval", "0", "-P", "4"])
        x = [s["receiver"]["bits_per_second"] for s in d["end"]["streams"]]
        jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
        self.assertGreaterEqual(jain, 0.9, x)
        self.assertGreaterEqual(sum(x), 85e6)
        for s in d["end"]["streams"]:
            self.assertEqual(s["sender"]["bytes"], s["receiver"]["bytes"])


if __name__ == "__main__":
    nbe2e.main()
