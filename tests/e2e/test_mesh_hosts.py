#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A mesh across hosts (--peer with --ports, a responder's --mesh-ports):
two processes, each with ports of its own on one Linux bridge, are one
RFC 2889 mesh, set up by the control protocol; every pair is counted at
its two ends and the client reports them together.  Oracles of their own:

- Full mesh of 4 (the client's ports 0,1, the responder's 0,1 = bridge
  ports 2,3): each bridge port's egress is an HTB class per source MAC
  (test_mesh.BridgeBase), bridge port 3's tree capped.  Every pair's
  forwarded count equals its class's, sent = forwarded + lost, only the
  three pairs into the capped port lose, the ports' totals add up, and
  the pairs between the responder's own ports are counted too.
- One-to-many from the client's one port to the responder's three: a
  forward test (the responder only receives), every frame of every pair
  forwarded (the HTB classes again).
- Suites across hosts, each trial a session: RFC 2889's forwarding rate
  with bridge port 3 behind a tbf (the ladder, only pairs into it lose,
  the ports named by host), RFC 2544's throughput (four times what the
  tbf passes: three of the twelve pairs go through it).
- Several responders (`--peer A,B`): the client's two ports and each
  of two responders' one port (three namespaces) are a full mesh of 4;
  every pair's count is its HTB class's, only pairs into the second
  responder's capped port lose; the forwarding-rate suite over the
  three hosts finds its ladder with that port behind a tbf; a second
  address nobody answers is named, and the first responder serves the
  next client.
- A responder offering no ports (no --mesh-ports): the client says so
  and exits 1; a client asking more ports than a mesh has is told before
  its test; a --no-auth responder refuses a mesh (its client names MACs
  no cookie proves).

The responder's veth ends are in a namespace of their own (a second host;
DPDK's af_packet numbers its fanout group (pid ^ ifindex) & 0xffff, and
two processes whose numbers meet in one namespace collide), the bridge
and the client's ends in the first.  The
control protocol's frames (UDP 7201) go to each bridge port's default
HTB class, so a pair's class counts its test frames only.
"""
import os
import signal
import subprocess
import unittest

import nbe2e
import test_mesh

RESP_IP = "198.18.0.2"
CONTROL_UDP = 7201
# DPDK's af_packet reports every port at 10 Gbit/s (rte_eth_af_packet.c)
AF_PACKET_BPS = 10e9


class HostsBase(test_mesh.BridgeBase):

    def setUp(self):
        super().setUp()
        self.ns2 = self.ns + "r"
        test_mesh.sh("ip", "netns", "add", self.ns2)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns2],
                        capture_output=True)
        self.wrap2 = ["ip", "netns", "exec", self.ns2]

    def far_ports(self, ports, ns):
        """Bridge ports `ports`' far ends (pK) into a responder's
        namespace ns, up, IPv6 off."""
        for k in ports:
            dev = "p%d" % k
            test_mesh.sh(*self.ip, "link", "set", dev, "netns", ns)
            test_mesh.sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                         "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            test_mesh.sh("ip", "-n", ns, "link", "set", dev, "up")

    def check_mesh(self, d, npairs, base):
        """The full mesh of 4 in report d, bridge port 3 capped: each
        port's bridge port is its id + base[its host]; every pair exact
        against its HTB class, only the pairs into port 3 lost, every
        arrival timed, the ports' and stream rows' totals (every host's
        counts together).  {(src, dst): pair} by bridge port."""
        m = d["end"]["mesh"]

        def bport(port, host):
            return port + base[host]
        pairs = {(bport(p["src"], p["src_host"]),
                  bport(p["dst"], p["dst_host"])): p for p in m["pairs"]}
        self.assertEqual(len(pairs), npairs)
        self.check_pairs(pairs, capped=3)
        for p in pairs.values():   # every arrival timed, at any host
            self.assertEqual(p["latency"]["count"], p["received"], p)
        ports = {bport(p["port"], p["host"]): p for p in m["ports"]}
        self.assertEqual(sorted(ports), [0, 1, 2, 3])
        self.check_totals(d, pairs, ports)
        return pairs

    def forwarding_rate(self, peer, free, capped):
        """RFC 2889 5.1's suite from the client's ports 0, 1 with the
        responders at `peer`, bridge port 3 (port `capped`, as (host,
        id)) behind a tbf.  As test_mesh's loopback case: the ladder from
        100 % down to two loads that lose nothing, the `free` ports
        forward all they are offered, the capped one what its tbf
        passes, and only pairs into it lose, each named by host."""
        fps, most = test_mesh.tbf_passes(test_mesh.TBF_MBIT)
        # a quarter of the load goes into the capped port: 1.75 x its
        # tbf at 100 %, 1.31 x at 75 %, 0.875 x at 50 % (clear of the
        # tbf's own rate, where a trial may lose a few or none)
        r = self.client([0, 1], [
            "--test", "forwarding-rate", "--rate",
            "%dM" % (7 * test_mesh.TBF_MBIT), "--trial-time", "1",
            "--loss-step", "25%", "--json"] + test_mesh.SUITE, peer=peer)
        row, d = test_mesh.suite_row(self, r, "forwarding-rate")
        self.assertEqual(d["start"]["topology"], "peer")
        # the line rate of the four sending ports, some of them
        # responders' (their speeds came with their offers)
        self.assertEqual(d["start"]["line_l1_bps"], 4 * AF_PACKET_BPS)
        test_mesh.check_ladder(self, row)
        ports = {(p["host"], p["port"]): p for p in row["ports"]}
        self.assertEqual(sorted(ports), sorted(free + [capped]))
        for k in free:
            self.assertAlmostEqual(ports[k]["forwarded_pps"],
                                   ports[k]["offered_pps"],
                                   delta=0.01 * ports[k]["offered_pps"])
        forwarded = ports[capped]["forwarded_pps"]
        self.assertGreater(forwarded, 0.7 * fps)
        self.assertLess(forwarded, 1.02 * most)
        self.assertTrue(row["lossy_pairs"], row)
        for p in row["lossy_pairs"]:
            self.assertEqual((p["dst_host"], p["dst"]), capped, p)

    def classes(self, k, cap_mbit, sources=None, skip_udp=CONTROL_UDP):
        """test_mesh's classes, the control protocol's frames to the
        default class."""
        super().classes(k, cap_mbit, sources, skip_udp)

    def vdevs(self, ports):
        v = []
        for n, k in enumerate(ports):
            v += ["--vdev",
                  "net_af_packet%d,iface=p%d,framecnt=4096" % (n, k)]
        return v

    def responder(self, ports, extra=(), ip=RESP_IP, ns=None):
        """A responder at ip on bridge ports `ports` (its port ids 0..)
        in namespace ns (the second host's unless given), every lcore on
        CPU 0; ended at the test's end."""
        ns = ns or self.ns2
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
               "--file-prefix", nbe2e.unique("resp"), "--log-level",
               "lib.eal:error"] + self.vdevs(ports)
        self.far_ports(ports, ns)
        tool = ["--ip", ip, "--allow-quit"] + list(extra)
        p, argv, log = self.nb.start(eal, tool, name="resp",
                                     wrap=["ip", "netns", "exec", ns])
        self.addCleanup(self.stop, p, log)
        line = p.stdout.readline()
        self.assertIn("responder on port 0", line,
                      "responder did not start: " + line)
        return p

    @staticmethod
    def stop(p, log):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        with open(log, "w") as f:
            f.write("--- stdout\n%s\n--- stderr\n%s\n" % (out, err))

    def client(self, ports, tool, code=0, peer=RESP_IP):
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES,
               "--file-prefix", nbe2e.unique("cli"), "--log-level",
               "lib.eal:error"] + self.vdevs(ports)
        r = self.nb.run(eal, ["--peer", peer, "--ports",
                              ",".join(str(i) for i in range(len(ports)))]
                        + tool, timeout=90, name="cli", wrap=self.wrap)
        self.assertOk(r, code)
        return r



class MeshHosts(HostsBase):

    def test_full_mesh_across_hosts(self):
        for k in range(self.NPORTS):
            self.classes(k, test_mesh.CAP_MBIT if k == 3 else 10000)
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        npairs = 12
        r = self.client([0, 1], [
            "--size", "1518", "--rate",
            "%dM" % (test_mesh.RATE_PAIR_MBIT * npairs), "--time", "2",
            "--json"])
        d = r.json()
        m = d["end"]["mesh"]
        self.assertEqual(m["pattern"], "full")
        self.assertEqual(len(m["pairs"]), npairs)
        # bridge port k is the client's port k (k < 2), else the
        # responder's port k - 2
        self.check_mesh(d, npairs, {"client": 0, "responder": 2})
        # both ends send
        self.assertEqual(d["start"]["direction"], "bidir")
        # the text report names the responder's ports rN
        r = self.client([0, 1], ["--size", "1518", "--rate", "12M",
                                 "--time", "1"])
        self.assertIn("r0>r1", r.out)
        self.assertIn("rN: the responder's port N", r.out)

    def test_rate_percent_across_hosts(self):
        """--rate 1% of a full mesh of 4: of the line rate of all four
        sending ports, the responder's two known from its offer."""
        for k in range(self.NPORTS):
            self.classes(k, 10000)
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        d = self.client([0, 1], ["--size", "1518", "--rate", "1%",
                                 "--time", "1", "--json"]).json()
        pps = 0.01 * 4 * AF_PACKET_BPS / ((1518 + 20) * 8)
        self.assertAlmostEqual(d["start"]["target_bitrate"],
                               pps * 1518 * 8, delta=1)
        e = d["end"]
        self.assertAlmostEqual(e["sum_sent"]["packets"],
                               pps * e["sum_sent"]["seconds"],
                               delta=0.01 * pps)

    def test_one_to_many_forward(self):
        for k in range(self.NPORTS):
            self.classes(k, 10000)
        self.responder([1, 2, 3], ["--mesh-ports", "0,1,2"])
        r = self.client([0], ["--mesh", "one-to-many", "--size", "512",
                              "--rate", "30M", "--packets", "3000",
                              "--json"])
        d = r.json()
        m = d["end"]["mesh"]
        self.assertEqual(len(m["pairs"]), 3)
        self.assertEqual(d["start"]["direction"], "forward")
        for p in m["pairs"]:
            self.assertEqual((p["src"], p["src_host"]), (0, "client"))
            self.assertEqual(p["dst_host"], "responder")
            t = p["dst"] + 1
            self.assertEqual(p["sent"], 1000, p)
            self.assertEqual(p["forwarded"], 1000, p)
            self.assertEqual(self.class_sent(t)[0], 1000, t)

    def test_forwarding_rate_across_hosts(self):
        """RFC 2889 5.1's suite across hosts, each trial a session: the
        full mesh of 4 with a tbf on the responder's port 1 (bridge port
        3).  As test_mesh's loopback case: the ladder from 100 % down to
        two loads that lose nothing, the three free ports forward all
        they are offered, the capped one what its tbf passes, and only
        pairs into it lose, each named by host."""
        test_mesh.tbf(self, "b3", test_mesh.TBF_MBIT, burst=3200,
                      latency_ms=5)
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        self.forwarding_rate(RESP_IP, [("client", 0), ("client", 1),
                                       ("responder", 0)], ("responder", 1))
        # the text names the responder's ports rN
        r = self.client([0, 1], [
            "--test", "forwarding-rate", "--rate",
            "%dM" % (8 * test_mesh.TBF_MBIT), "--trial-time", "1",
            "--loss-step", "50%"] + test_mesh.SUITE)
        self.assertRegex(r.out, r"port r1 at the maximum load")
        self.assertRegex(r.out, r"pair r?\d>r1 lost \d+ of \d+")

    def test_throughput_across_hosts(self):
        """RFC 2544's throughput search across hosts: the full mesh of 4
        with the responder's port 1 behind a tbf of TBF_MBIT, three of
        the twelve pairs into it.  The mesh's throughput is four times
        what the tbf passes, and the search's bounds hold it: the rate
        found loses nothing, the upper bound lost."""
        if nbe2e.SANITIZED:
            self.skipTest("timing: the search's bounds (the release build "
                          "runs it; the ASan round runs the forwarding "
                          "rate's suite across hosts)")
        test_mesh.tbf(self, "b3", test_mesh.TBF_MBIT, burst=3200,
                      latency_ms=5)
        oracle = 4 * test_mesh.tbf_passes(test_mesh.TBF_MBIT)[0]
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        r = self.client([0, 1], [
            "--test", "throughput", "--rate",
            "%dM" % (8 * test_mesh.TBF_MBIT), "--trial-time", "1",
            "--precision", "3000pps", "--json"] + test_mesh.SUITE)
        row, _ = test_mesh.suite_row(self, r, "throughput")
        self.assertTrue(row["complete"])
        b = row["bounds"][0]
        print("\n  throughput across hosts %.0f pps (upper %.0f), the tbf's "
              "%.0f" % (b["pps"], b["upper_pps"], oracle))
        self.assertLess(b["pps"], 1.02 * oracle, b)
        self.assertGreater(b["pps"], 0.75 * oracle, b)
        self.assertGreater(b["upper_pps"], 0.98 * oracle, b)

    def test_refusals(self):
        self.responder([2])
        r = self.client([0, 1], ["--time", "1"], code=1)
        self.assertIn("offers no ports to a mesh", r.err)

    def test_no_auth_refused(self):
        # the client names MACs no cookie proves: key holders only
        self.responder([2, 3], ["--mesh-ports", "0,1", "--no-auth"])
        nbe2e.AUTO_KEY = False   # a keyless client, as --no-auth asks
        try:
            r = self.client([0, 1], ["--time", "1", "--rate", "100M"],
                            code=1)
        finally:
            nbe2e.AUTO_KEY = True
        self.assertIn("key holders only (not with --no-auth)", r.err)
        self.assertIn("rejected the test", r.err)
        r = self.nb.run(self.nb.eal([]), [
            "--peer", RESP_IP, "--ports",
            "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"], name="cli16")
        self.assertOk(r, 2)
        self.assertIn("each responder offers at least one", r.err)


RESP2_IP = "198.18.0.3"


class SeveralResponders(HostsBase):
    """A mesh over three hosts: the client's ports on bridge ports 0 and
    1, a responder (198.18.0.2) on bridge port 2 and a second one
    (198.18.0.3, a third namespace) on bridge port 3, joined by
    `--peer 198.18.0.2,198.18.0.3`: one session each, one mesh."""

    def setUp(self):
        super().setUp()
        self.ns3 = self.ns + "s"
        test_mesh.sh("ip", "netns", "add", self.ns3)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns3],
                        capture_output=True)

    def test_full_mesh_three_hosts(self):
        for k in range(self.NPORTS):
            self.classes(k, test_mesh.CAP_MBIT if k == 3 else 10000)
        self.responder([2], ["--mesh-ports", "0"])
        self.responder([3], ["--mesh-ports", "0"], ip=RESP2_IP,
                       ns=self.ns3)
        npairs = 12
        peers = RESP_IP + "," + RESP2_IP
        r = self.client([0, 1], [
            "--size", "1518", "--rate",
            "%dM" % (test_mesh.RATE_PAIR_MBIT * npairs), "--time", "2",
            "--json"], peer=peers)
        d = r.json()
        m = d["end"]["mesh"]
        self.assertEqual(len(m["pairs"]), npairs)
        # bridge port: the client's ports 0, 1; each responder's port 0;
        # only the pairs into the second responder's capped port lose
        pairs = self.check_mesh(d, npairs, {"client": 0, "responder": 2,
                                            "responder2": 3})
        # the pairs between the two responders, counted at both
        self.assertGreater(pairs[(2, 3)]["lost"], 0)
        self.assertEqual(pairs[(3, 2)]["lost"], 0)
        self.assertEqual(d["start"]["direction"], "bidir")
        # the text names each responder's ports: rN the first's, rK.N
        r = self.client([0, 1], ["--size", "1518", "--rate", "12M",
                                 "--time", "1"], peer=peers)
        self.assertIn("r0>r2.0", r.out)
        self.assertIn("rK.N: the K-th responder's", r.out)

    def test_forwarding_rate_three_hosts(self):
        """RFC 2889 5.1's suite over three hosts, each trial a session
        with each responder: the second responder's port behind a tbf
        (bridge port 3).  The ladder, the three free ports forward what
        they are offered, only the pairs into the capped one lose."""
        test_mesh.tbf(self, "b3", test_mesh.TBF_MBIT, burst=3200,
                      latency_ms=5)
        self.responder([2], ["--mesh-ports", "0"])
        self.responder([3], ["--mesh-ports", "0"], ip=RESP2_IP,
                       ns=self.ns3)
        self.forwarding_rate(RESP_IP + "," + RESP2_IP,
                             [("client", 0), ("client", 1),
                              ("responder", 0)], ("responder2", 0))

    def test_one_responder_missing(self):
        """The second address answers no ARP: the client says which, and
        the first responder serves the next client."""
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        r = self.client([0], ["--time", "1", "--peer-timeout", "1"],
                        code=1, peer=RESP_IP + "," + RESP2_IP)
        self.assertIn("no ARP answer from the --peer address %s "
                      "(responder 2)" % RESP2_IP, r.err)
        d = self.client([0], ["--mesh", "one-to-many", "--packets", "300",
                              "--rate", "10M", "--json"]).json()
        self.assertEqual(d["end"]["sum_sent"]["packets"], 300)


if __name__ == "__main__":
    nbe2e.main()
