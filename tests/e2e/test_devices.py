# SPDX-License-Identifier: BSD-3-Clause
"""The devices users have (issue 13): ports with one queue pair, where the
control lcore cannot have a TX queue of its own and shares the workers'.

af_packet on a veth pair across two network namespaces, with its default
one queue pair (no qpairs=), is the stand-in for the one-queue virtio-net
NICs of many guests.  Numbers come from the client's JSON, as in
test_peer.py: exact counts both ways, each end's tool counts equal to its
PMD's (control frames included, which a worker sends during the test)."""
import os
import subprocess

import nbe2e
import test_peer


class OneQueuePair(test_peer.PeerBase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.ns = "nq%d" % (os.getpid() % 100000)
        nbe2e.netns_up(self.ns)
        self.addCleanup(nbe2e.netns_down, self.ns)
        # the responder's address, as --peer gives it
        vb = self.ns + "vb"
        for args in (["down"], ["address", test_peer.RESP_MAC], ["up"]):
            subprocess.run(["ip", "-n", self.ns + "b", "link", "set", vb]
                           + args, check=True, capture_output=True)
        self.responder_wrap = ["ip", "netns", "exec", self.ns + "b"]
        self.client_wrap = ["ip", "netns", "exec", self.ns + "a"]

    def responder_vdev(self, rsize):
        return "net_af_packet0,iface=%svb" % self.ns

    def client_vdev(self):
        return "net_af_packet0,iface=%sva" % self.ns

    def test_directions_on_one_queue_pair(self):
        # 20 kpps of 512 B: the kernel's veth path keeps up under ASan too
        size, bps = 512, 20000 * (512 + test_peer.L1) * 8
        self.responder()
        for direction in ("forward", "reverse", "bidir"):
            with self.subTest(direction=direction):
                tool = ["--rate", "%d" % bps, "--size", str(size),
                        "--time", "2", "--json"]
                if direction != "forward":
                    tool.append("--" + direction)
                d = self.client(tool).json()
                self.assertEqual(d["start"]["direction"], direction)
                me = d["end"]["ports"][0]
                self.assertEqual(me["driver"], "net_af_packet")
                sides = [(d, direction != "reverse")]
                if direction == "bidir":
                    sides.append((d["reverse"], False))
                for side, rr in sides:
                    n = self.check_side(side, size, bps, True,
                                        responder_receives=rr)
                    self.assertEqual(n, 40000)

    def test_latency_probes_on_one_queue_pair(self):
        # the responder's receiver reflects probes on the one TX queue,
        # which also carries its control frames during the test
        self.responder()
        d = self.client(["--rate", "10000pps", "--size", "256", "--time",
                         "2", "--latency-rate", "500", "--json"]).json()
        e = d["end"]
        self.check_side(d, 256, 10000 * (256 + test_peer.L1) * 8, True)
        # the responder's PMD: the data, the probes, a few control frames
        pmd = e["ports"][1]["pmd"]
        extra = pmd["ipackets"] - e["sum_received"]["packets"] - 1000
        self.assertGreaterEqual(extra, 1, pmd)
        self.assertLess(extra, 300, pmd)
        rtt = e["rtt"]
        self.assertEqual(rtt["probes_sent"], 1000)
        self.assertEqual(rtt["probes_returned"], rtt["probes_sent"])
        self.assertEqual(rtt["count"], rtt["probes_returned"])
        self.assertIn("reflected by the responder's worker", rtt["method"])

    def test_too_few_queues_names_the_setting(self):
        r = self.nb.run(self.client_eal(),
                        ["--peer", test_peer.RESP_MAC, "--queues", "2"],
                        timeout=60, name="cli", wrap=self.client_wrap)
        self.assertEqual(r.rc, 1, r.err)
        self.assertIn("has 1 RX / 1 TX queue, 2 of each are needed", r.err)
        self.assertIn("qpairs=2", r.err)
        self.assertIn("lower --queues to 1", r.err)


if __name__ == "__main__":
    nbe2e.main()
