#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Many ports in one test (--ports, --mesh), against oracles of their own:

- BridgeMesh: a Linux bridge with 4 veth ports (af_packet on the far
  ends) is the switch.  Every bridge port's egress is an HTB with one
  class per source port, chosen by the frame's source MAC (a tc flower
  filter), so each class's sent counter is exactly one pair's frames the
  bridge forwarded; port 3's tree is capped at 100 Mbit/s.  A full mesh
  at 50 Mbit/s a pair (a tenth of both under the sanitizers) offers 150
  Mbit/s into port 3: the three pairs into it lose, no other pair loses a
  frame, and every pair's forwarded count equals its class's.  No frame of a pair reaches another port (the
  learning frames taught the bridge first).
- Eight bridge ports, full mesh (56 pairs): every pair's frames arrive,
  counted exactly.
- RFC 2889 5.5 congestion (--test congestion, ports A,B,C,D): with C's
  bridge port capped, A>D loses nothing ("no head-of-line blocking") and
  each pair's forwarded count equals its HTB class's; a DUT built to
  block (two bridges joined by one capped link: A's frames to D wait
  behind the frames to C) is reported as blocking.
- RFC 2889 5.10 broadcast: port 0 broadcasts to three ports, one capped
  by a tbf at 20 Mbit/s: the rate found is at most what the tbf passes
  (and not far below); each port's counts and latency at it add up,
  and the two free ports' HTB classes sent every frame of every trial.
- RFC 2889 5.1 forwarding rate: a full mesh into a 50 Mbit/s port: at
  the maximum load the capped port is forwarded the tbf's rate, the
  others all they are offered; only the pairs into it lose.
- RFC 2889 5.9 errored frames: a Linux bridge forwards 60-byte frames
  (an HTB class on the far bridge port counts every one of the test's
  EtherType); with a BPF classifier dropping those runts on that port
  they are "filtered" and the classifier's drops are the 1000 sent; 1519-byte frames cannot be made
  on af_packet (MTU 1500, the device's most) and frames with a bad FCS
  on any PMD: the test says so.
- Sixteen memif ports (8 cables): --mesh pairs delivers every pair;
  a full mesh over cables delivers only the pairs to each port's cable
  partner, and every other pair's frames show, exactly, as taken in
  elsewhere (by the partner).
"""
import json
import os
import subprocess
import unittest

import nbe2e

# a tenth under the sanitizers (their receivers are slower)
RATE_PAIR_MBIT = 5 if nbe2e.SANITIZED else 50
CAP_MBIT = 2 * RATE_PAIR_MBIT


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True)


class BridgeBase(nbe2e.E2ECase):
    NPORTS = 4

    def setUp(self):
        super().setUp()
        pairs = [("p%d" % i, "b%d" % i) for i in range(self.NPORTS)]
        self.veth_namespace("nsx", pairs, bridge="brx")
        self.ip = ["ip", "-n", self.ns]
        for a, b in pairs:
            for d in (a, b):
                subprocess.run(self.wrap + ["ethtool", "-K", d, "tx", "off",
                                            "tso", "off", "gso", "off"],
                               capture_output=True)
        self.macs = [self.mac("p%d" % i) for i in range(self.NPORTS)]

    def mac(self, dev):
        d = json.loads(sh(*self.ip, "-j", "link", "show", dev).stdout)
        return d[0]["address"]

    def eal(self):
        vdevs = []
        for i in range(self.NPORTS):
            vdevs += ["--vdev",
                      "net_af_packet%d,iface=p%d,framecnt=4096" % (i, i)]
        return self.nb.eal(vdevs)

    def mesh(self, d):
        m = d["end"]["mesh"]
        return {(p["src"], p["dst"]): p for p in m["pairs"]}, m

    def classes(self, k, cap_mbit, sources=None, skip_udp=None):
        """Bridge port k's egress: an HTB tree capped at cap_mbit, a class
        1:1j per source port j (by source MAC, IPv4 frames only: the
        learning frames go to the default class 1:99; with skip_udp, so
        do UDP datagrams to that port)."""
        dev = "b%d" % k
        tc = ["ip", "netns", "exec", self.ns, "tc"]
        sh(*tc, "qdisc", "add", "dev", dev, "root", "handle", "1:", "htb",
           "default", "99")
        if skip_udp is not None:
            sh(*tc, "filter", "add", "dev", dev, "parent", "1:", "protocol",
               "ip", "prio", "1", "u32", "match", "ip", "dport",
               str(skip_udp), "0xffff", "flowid", "1:99")
        sh(*tc, "class", "add", "dev", dev, "parent", "1:", "classid", "1:1",
           "htb", "rate", "%dmbit" % cap_mbit, "ceil", "%dmbit" % cap_mbit)
        for j in range(self.NPORTS) if sources is None else sources:
            if j == k:
                continue
            sh(*tc, "class", "add", "dev", dev, "parent", "1:1", "classid",
               "1:1%d" % j, "htb", "rate", "%dmbit" % (cap_mbit // 4),
               "ceil", "%dmbit" % cap_mbit)
            # a short queue: what waits in it leaves before the drain
            sh(*tc, "qdisc", "add", "dev", dev, "parent", "1:1%d" % j,
               "pfifo", "limit", "100")
            # the source MAC: 4 bytes at -8 and 2 at -4 from the IP header
            mac = self.macs[j].replace(":", "")
            sh(*tc, "filter", "add", "dev", dev, "parent", "1:", "protocol",
               "ip", "prio", "2", "u32", "match", "u32", "0x" + mac[:8],
               "0xffffffff", "at", "-8", "match", "u16", "0x" + mac[8:],
               "0xffff", "at", "-4", "flowid", "1:1%d" % j)
        sh(*tc, "class", "add", "dev", dev, "parent", "1:1", "classid",
           "1:99", "htb", "rate", "1mbit", "ceil", "%dmbit" % cap_mbit)

    def check_pairs(self, pairs, capped):
        """pairs ({(src, dst): pair}, by bridge port): every frame sent
        was forwarded or lost, the bridge's HTB class for the pair sent
        exactly what the tool forwarded, none went elsewhere or twice,
        and only the pairs into port `capped` lost (over 10 %)."""
        sent = {k: self.class_sent(k) for k in range(self.NPORTS)}
        print("tc classes' frames:", sent)
        for (s, t), p in sorted(pairs.items()):
            self.assertEqual(p["sent"], p["forwarded"] + p["lost"], p)
            self.assertEqual(p["forwarded"], sent[t][s], (s, t, p))
            self.assertEqual((p["elsewhere"], p["duplicates"]), (0, 0), p)
            self.assertGreater(p["sent"], 0)
            if t == capped:
                self.assertGreater(p["lost_percent"], 10, p)
            else:
                self.assertEqual(p["lost"], 0, p)

    def check_totals(self, d, pairs, ports):
        """Each port's totals are its pairs' (pairs: {(src, dst): pair},
        ports: {port: row}, by bridge port), no port took in another's
        frames, and the stream rows add up to the pairs."""
        for k in range(self.NPORTS):
            into = [p for (s, t), p in pairs.items() if t == k]
            self.assertEqual(ports[k]["received"],
                             sum(p["forwarded"] for p in into))
            self.assertEqual(ports[k]["lost_in"],
                             sum(p["lost"] for p in into))
            self.assertEqual(ports[k]["foreign"], 0)
        self.assertEqual(d["end"]["sum_sent"]["packets"],
                         sum(p["sent"] for p in pairs.values()))

    def class_sent(self, k):
        """{source port j: frames class 1:1j of bridge port k sent}"""
        return {int(c[3]): n for c, n in
                nbe2e.htb_sent(self.ns, "b%d" % k).items()
                if c.startswith("1:1") and len(c) == 4}


class BridgeMesh(BridgeBase):

    def test_full_mesh_one_port_capped(self):
        for k in range(self.NPORTS):
            self.classes(k, CAP_MBIT if k == 3 else 10000)
        npairs = self.NPORTS * (self.NPORTS - 1)
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3", "--size", "1518", "--rate",
            "%dM" % (RATE_PAIR_MBIT * npairs), "--time", "2", "--json"],
            name="mesh4", wrap=self.wrap)
        self.assertOk(r)
        d = r.json()
        pairs, m = self.mesh(d)
        self.assertEqual(m["pattern"], "full")
        self.assertEqual(len(pairs), npairs)
        # 150 Mbit/s offered into 100 at port 3: about a third lost
        self.check_pairs(pairs, capped=3)
        self.check_totals(d, pairs, {p["port"]: p for p in m["ports"]})


def tbf(test, dev, mbit, burst=20000, latency_ms=20):
    sh("ip", "netns", "exec", test.ns, "tc", "qdisc", "add", "dev", dev,
       "root", "tbf", "rate", "%dmbit" % mbit, "burst", str(burst),
       "latency", "%dms" % latency_ms)


def tbf_passes(mbit, burst=3200, latency_ms=5):
    """(frames a second, the most in a 1-s trial) a tbf passes: its rate
    in 1514-B frames (it counts no FCS), plus its bucket and what its
    queue holds at the end."""
    fps = mbit * 1e6 / (1514 * 8)
    return fps, fps + (2 * burst + mbit * 1e6 / 8 * latency_ms / 1e3) / 1514


def check_ladder(test, row):
    """A forwarding-rate row whose ladder stepped by 25 %: from the
    ceiling down to two loads that lost nothing; FR at MOL is the first
    step's."""
    test.assertEqual(row["section"], "RFC 2889 5.1/5.2")
    test.assertTrue(row["complete"])
    steps = row["steps"]
    test.assertEqual([round(s["asked_pps"] / steps[0]["asked_pps"], 2)
                      for s in steps[:2]], [1.0, 0.75])
    test.assertEqual([s["loss_ratio"] for s in steps[-2:]], [0, 0])
    test.assertGreaterEqual(row["mfr_pps"], row["fr_mol_pps"])
    test.assertAlmostEqual(row["fr_mol_pps"], steps[0]["forwarded_pps"])


def suite_row(test, r, kind):
    test.assertOk(r)
    d = r.json()
    rows = [x for x in d["suite"]["results"] if x["test"] == kind]
    test.assertEqual(len(rows), 1, d["suite"]["results"])
    return rows[0], d


SUITE = ["--size", "1518", "--settle", "0.2"]
TBF_MBIT = 5 if nbe2e.SANITIZED else 50


class Congestion(BridgeBase):

    def test_no_head_of_line_blocking(self):
        self.classes(2, TBF_MBIT)             # C: congested
        self.classes(3, 10000)               # D
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3", "--test", "congestion", "--rate",
            "%dM" % (2 * TBF_MBIT), "--trial-time", "2", "--json"] + SUITE,
            name="cong", wrap=self.wrap)
        row, _ = suite_row(self, r, "congestion")
        self.assertEqual(row["section"], "RFC 2889 5.5")
        self.assertEqual(row["roles"], {"a": 0, "b": 1, "congested": 2,
                                        "uncongested": 3})
        self.assertFalse(row["hol_blocking"])
        self.assertTrue(row["congested"])
        self.assertTrue(row["verdict"].startswith(
            "no head-of-line blocking"), row["verdict"])
        self.assertIsNone(row["pause_frames"])   # af_packet counts none
        tc = {k: self.class_sent(k) for k in (2, 3)}
        pairs = {(p["src"], p["dst"]): p for p in row["pairs"]}
        self.assertEqual(pairs[(0, 3)]["lost"], 0)
        # B offers C twice what A does: the stream weights
        self.assertAlmostEqual(pairs[(1, 2)]["sent"],
                               2 * pairs[(0, 2)]["sent"], delta=2)
        for (s, t), p in pairs.items():
            self.assertEqual(p["forwarded"], tc[t][s], (s, t, p))
            self.assertEqual(p["sent"], p["forwarded"] + p["lost"])


class CongestionBlocking(BridgeBase):
    """A DUT built to block: ports 0, 1 on bridge brx, ports 2, 3 on
    bridge bry, the two joined by one veth link whose egress toward bry
    is capped: what A sends to D waits in the same queue as what A and B
    send to C."""

    def setUp(self):
        super().setUp()
        ip = self.ip
        sh(*ip, "link", "add", "bry", "type", "bridge")
        sh(*ip, "link", "add", "u0", "type", "veth", "peer", "name", "u1")
        for d, br in (("b2", "bry"), ("b3", "bry"), ("u0", "brx"),
                      ("u1", "bry")):
            sh(*ip, "link", "set", d, "nomaster")
            sh(*ip, "link", "set", d, "master", br)
        for d in ("bry", "u0", "u1"):
            sh(*self.wrap, "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % d)
            sh(*ip, "link", "set", d, "up")
        tbf(self, "u0", TBF_MBIT)

    def test_blocking_reported(self):
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3", "--test", "congestion", "--rate",
            "%dM" % (2 * TBF_MBIT), "--trial-time", "2", "--json"] + SUITE,
            name="congblk", wrap=self.wrap)
        row, _ = suite_row(self, r, "congestion")
        self.assertTrue(row["hol_blocking"])
        self.assertTrue(row["verdict"].startswith("head-of-line blocking"),
                        row["verdict"])
        pairs = {(p["src"], p["dst"]): p for p in row["pairs"]}
        self.assertGreater(pairs[(0, 3)]["lost"], 0)


class Broadcast(BridgeBase):

    def test_broadcast_rate_and_latency(self):
        mbit = TBF_MBIT * 2 // 5                  # 20 Mbit/s (2 sanitized)
        # tbf counts 1514 B a frame (no FCS); a 2-s trial may pass its
        # bucket (burst) and what its queue holds (burst + 5 ms of the
        # rate) at the end besides
        fps = mbit * 1e6 / (1514 * 8)
        slack = (2 * 3200 + mbit * 1e6 / 8 * 0.005) / 1514 / 2
        tbf(self, "b3", mbit, burst=3200, latency_ms=5)
        for k in (1, 2):
            self.classes(k, 1000, sources=(0,))
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3", "--test", "broadcast", "--rate",
            "%dM" % (4 * mbit), "--trial-time", "2", "--precision",
            "%dk" % (20 * mbit), "--json"] + SUITE,
            name="bcast", wrap=self.wrap, timeout=180)
        row, d = suite_row(self, r, "broadcast")
        self.assertEqual(row["section"], "RFC 2889 5.10")
        self.assertEqual(row["source"], 0)
        # the capped port sets the rate: never above what the tbf can
        # pass in a trial (on a quiet host close to it; the receivers
        # are af_packet's, which lose frames when the host is busy)
        self.assertLess(row["throughput_pps"], 1.02 * (fps + slack))
        self.assertGreater(row["throughput_pps"], 0.3 * fps)
        last = d["suite"]["trials"][-1]
        self.assertEqual(last["test"], "broadcast")
        ports = {p["port"]: p for p in row["ports"]}
        self.assertEqual(sorted(ports), [1, 2, 3])
        for k, p in ports.items():
            self.assertEqual(p["sent"], last["tx_packets"])
            self.assertEqual(p["received"] + p["lost"], p["sent"], p)
            self.assertEqual(p["latency"]["count"], p["received"])
            if k != 3:  # the free ports got every frame of the last trial
                self.assertEqual(p["lost"], 0, p)
        # and of every trial: the HTB class counting the test's IPv4
        # frames on their bridge ports sent all that were sent
        sent = sum(t["tx_packets"] for t in d["suite"]["trials"])
        for k in (1, 2):
            self.assertEqual(self.class_sent(k), {0: sent}, k)

class ForwardingRate(BridgeBase):

    def test_full_mesh_forwarding_rate(self):
        tbf(self, "b3", TBF_MBIT, burst=3200, latency_ms=5)
        fps, most = tbf_passes(TBF_MBIT)
        # 12 pairs at 8 x the tbf in all: 2 x into port 3
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3", "--test", "forwarding-rate", "--rate",
            "%dM" % (8 * TBF_MBIT), "--trial-time", "1", "--loss-step",
            "25%", "--json"] + SUITE, name="fwdrate", wrap=self.wrap,
            timeout=180)
        row, _ = suite_row(self, r, "forwarding-rate")
        check_ladder(self, row)
        ports = {p["port"]: p for p in row["ports"]}
        for k in (0, 1, 2):
            self.assertAlmostEqual(ports[k]["forwarded_pps"],
                                   ports[k]["offered_pps"],
                                   delta=0.01 * ports[k]["offered_pps"])
        self.assertGreater(ports[3]["forwarded_pps"], 0.7 * fps)
        self.assertLess(ports[3]["forwarded_pps"], 1.02 * most)
        # loss only where the congestion is: pairs into port 3, at least
        # one of them (which of the three lose depends on the order their
        # frames meet tbf's queue: in the ASan round, (0, 3)'s frames once
        # always found room)
        lossy = sorted((p["src"], p["dst"]) for p in row["lossy_pairs"])
        self.assertTrue(lossy, row)
        self.assertTrue(set(lossy) <= {(0, 3), (1, 3), (2, 3)}, lossy)


HERE = os.path.dirname(os.path.abspath(__file__))


class Errored(BridgeBase):
    NPORTS = 2

    def errored(self, name):
        r = self.nb.run(self.eal(), [
            "--ports", "0,1", "--test", "errored-frames", "--size", "64",
            "--json"], name=name, wrap=self.wrap)
        row, _ = suite_row(self, r, "errored-frames")
        self.assertEqual(row["section"], "RFC 2889 5.9")
        self.assertEqual((row["source"], row["receiver"]), (0, 1))
        self.assertEqual(len(row["cannot"]), 2)
        self.assertTrue(row["cannot"][0].startswith("bad FCS: cannot"))
        return {k["kind"]: k for k in row["kinds"]}

    def test_bridge_forwards_both(self):
        # HTB on the far bridge port: class 1:10 counts the frames of
        # EtherType 0x88b5 (the test's) the bridge sent toward port 1
        tc = self.wrap + ["tc"]
        sh(*tc, "qdisc", "add", "dev", "b1", "root", "handle", "1:", "htb",
           "default", "99")
        for cid in (10, 99):
            sh(*tc, "class", "add", "dev", "b1", "parent", "1:", "classid",
               "1:%d" % cid, "htb", "rate", "1gbit")
        sh(*tc, "filter", "add", "dev", "b1", "parent", "1:", "protocol",
           "0x88b5", "prio", "1", "u32", "match", "u32", "0", "0",
           "flowid", "1:10")
        kinds = self.errored("errfwd")
        # every runt went through; no oversize frame, which af_packet's
        # MTU of 1500 (the device's most) keeps from being made at all
        self.assertEqual(nbe2e.htb_sent(self.ns, "b1")["1:10"], 1000)
        u, o = kinds["undersize"], kinds["oversize"]
        self.assertEqual((u["wire_bytes"], u["sent"], u["pmd_sent"],
                          u["received"], u["verdict"]),
                         (60, 1000, 1000, 1000, "forwarded"))
        self.assertEqual((o["wire_bytes"], o["sent"]), (1519, 0))
        self.assertTrue(o["verdict"].startswith(
            "cannot be made on port 0: its MTU is 1500"), o["verdict"])

    def test_runts_filtered(self):
        obj = os.path.join(self.tmpdir, "runt.o")
        sh("clang", "-O2", "-target", "bpf", "-c",
           os.path.join(HERE, "runt_drop.bpf.c"), "-o", obj)
        sh(*self.wrap, "tc", "qdisc", "add", "dev", "b1", "clsact")
        sh(*self.wrap, "tc", "filter", "add", "dev", "b1", "egress", "bpf",
           "da", "obj", obj, "sec", "classifier")
        kinds = self.errored("errflt")
        self.assertEqual((kinds["undersize"]["received"],
                          kinds["undersize"]["verdict"]), (0, "filtered"))
        # the classifier dropped exactly the undersize frames
        self.assertEqual(nbe2e.qdisc_stats(self.ns, "b1")[1], 1000)


class BridgeMesh8(BridgeBase):
    NPORTS = 8

    def test_full_mesh_eight_ports(self):
        npairs, each = 56, 100
        r = self.nb.run(self.eal(), [
            "--ports", "0,1,2,3,4,5,6,7", "--size", "64", "--rate",
            "%dkpps" % (npairs // 4), "--packets", str(npairs * each),
            "--json"], name="mesh8", wrap=self.wrap, timeout=120)
        self.assertOk(r)
        pairs, m = self.mesh(r.json())
        self.assertEqual(len(pairs), npairs)
        for p in pairs.values():
            self.assertEqual((p["sent"], p["forwarded"], p["lost"],
                              p["elsewhere"]), (each, each, 0, 0), p)
            self.assertEqual(p["latency"]["count"], each)


class Memif16(nbe2e.E2ECase):
    """Eight memif cables: ports 2i and 2i+1 face each other."""

    def eal(self):
        vdevs = []
        for c in range(8):
            sock = os.path.join(self.tmpdir, nbe2e.unique("s") + ".sock")
            for k, role in enumerate(("server", "client")):
                vdevs += ["--vdev", "net_memif%d,role=%s,socket=%s,rsize=10"
                          % (2 * c + k, role, sock)]
        return self.nb.eal(vdevs)

    def test_pairs(self):
        each = 500
        r = self.nb.run(self.eal(), [
            "--ports", ",".join(str(i) for i in range(16)), "--mesh",
            "pairs", "--rate", "16kpps", "--packets", str(16 * each),
            "--json"], name="memif16p", timeout=120)
        self.assertOk(r)
        m = r.json()["end"]["mesh"]
        self.assertEqual(len(m["pairs"]), 16)
        for p in m["pairs"]:
            self.assertEqual(p["dst"], p["src"] ^ 1)
            self.assertEqual((p["sent"], p["forwarded"], p["lost"]),
                             (each, each, 0), p)

    def test_full_mesh_over_cables(self):
        each = 20
        r = self.nb.run(self.eal(), [
            "--ports", ",".join(str(i) for i in range(16)), "--rate",
            "24kpps", "--packets", str(240 * each), "--json"],
            name="memif16f", timeout=120)
        self.assertOk(r)
        m = r.json()["end"]["mesh"]
        self.assertEqual(len(m["pairs"]), 240)
        for p in m["pairs"]:
            self.assertEqual(p["sent"], each, p)
            if p["dst"] == p["src"] ^ 1:
                self.assertEqual((p["forwarded"], p["elsewhere"]),
                                 (each, 0), p)
            else:  # the cable took them to the source's partner
                self.assertEqual((p["forwarded"], p["lost"],
                                  p["elsewhere"]), (0, each, each), p)
        for q in m["ports"]:
            # what a port took in that was not for it: its partner's
            # frames to the 14 other ports
            self.assertEqual(q["foreign"], 14 * each, q)


if __name__ == "__main__":
    unittest.main()
