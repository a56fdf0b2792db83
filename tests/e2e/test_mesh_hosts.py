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


class MeshHosts(test_mesh.BridgeBase):

    def setUp(self):
        super().setUp()
        self.ns2 = self.ns + "r"
        test_mesh.sh("ip", "netns", "add", self.ns2)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns2],
                        capture_output=True)
        self.wrap2 = ["ip", "netns", "exec", self.ns2]

    def far_ports(self, ports):
        """Bridge ports `ports`' far ends (pK) into the responder's
        namespace, up, IPv6 off."""
        for k in ports:
            dev = "p%d" % k
            test_mesh.sh(*self.ip, "link", "set", dev, "netns", self.ns2)
            test_mesh.sh(*self.wrap2, "sysctl", "-qw",
                         "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            test_mesh.sh("ip", "-n", self.ns2, "link", "set", dev, "up")

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

    def responder(self, ports, extra=()):
        """The responder on bridge ports `ports` (its port ids 0..),
        every lcore on CPU 0; ended at the test's end."""
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
               "--file-prefix", nbe2e.unique("resp"), "--log-level",
               "lib.eal:error"] + self.vdevs(ports)
        self.far_ports(ports)
        tool = ["--ip", RESP_IP, "--allow-quit"] + list(extra)
        p, argv, log = self.nb.start(eal, tool, name="resp",
                                     wrap=self.wrap2)
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

    def client(self, ports, tool, code=0):
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES,
               "--file-prefix", nbe2e.unique("cli"), "--log-level",
               "lib.eal:error"] + self.vdevs(ports)
        r = self.nb.run(eal, ["--peer", RESP_IP, "--ports",
                              ",".join(str(i) for i in range(len(ports)))]
                        + tool, timeout=90, name="cli", wrap=self.wrap)
        self.assertOk(r, code)
        return r

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
        def bport(port, host):
            return port if host == "client" else port + 2
        pairs = {(bport(p["src"], p["src_host"]),
                  bport(p["dst"], p["dst_host"])): p for p in m["pairs"]}
        self.assertEqual(len(pairs), npairs)
        self.check_pairs(pairs, capped=3)
        for p in pairs.values():   # every arrival timed, at either host
            self.assertEqual(p["latency"]["count"], p["received"], p)
        ports = {bport(p["port"], p["host"]): p for p in m["ports"]}
        self.assertEqual(sorted(ports), [0, 1, 2, 3])
        # the stream rows too: both ends' counts together
        self.check_totals(d, pairs, ports)
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
        fps, most = test_mesh.tbf_passes(test_mesh.TBF_MBIT)
        self.responder([2, 3], ["--mesh-ports", "0,1"])
        # a quarter of the load goes into the capped port: 1.75 x its
        # tbf at 100 %, 1.31 x at 75 %, 0.875 x at 50 % (clear of the
        # tbf's own rate, where a trial may lose a few or none)
        r = self.client([0, 1], [
            "--test", "forwarding-rate", "--rate",
            "%dM" % (7 * test_mesh.TBF_MBIT), "--trial-time", "1",
            "--loss-step", "25%", "--json"] + test_mesh.SUITE)
        row, d = test_mesh.suite_row(self, r, "forwarding-rate")
        self.assertEqual(d["start"]["topology"], "peer")
        # the line rate of the four sending ports, two of them the
        # responder's (their speeds came with its offer)
        self.assertEqual(d["start"]["line_l1_bps"], 4 * AF_PACKET_BPS)
        test_mesh.check_ladder(self, row)
        ports = {(p["host"], p["port"]): p for p in row["ports"]}
        self.assertEqual(sorted(ports), [("client", 0), ("client", 1),
                                         ("responder", 0),
                                         ("responder", 1)])
        for k in (("client", 0), ("client", 1), ("responder", 0)):
            self.assertAlmostEqual(ports[k]["forwarded_pps"],
                                   ports[k]["offered_pps"],
                                   delta=0.01 * ports[k]["offered_pps"])
        capped = ports[("responder", 1)]["forwarded_pps"]
        self.assertGreater(capped, 0.7 * fps)
        self.assertLess(capped, 1.02 * most)
        lossy = [p for p in row["lossy_pairs"]]
        self.assertTrue(lossy, row)
        for p in lossy:
            self.assertEqual((p["dst_host"], p["dst"]), ("responder", 1), p)
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
        self.assertIn("the responder offers at least one", r.err)


if __name__ == "__main__":
    nbe2e.main()
