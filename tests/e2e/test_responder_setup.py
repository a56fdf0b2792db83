# SPDX-License-Identifier: BSD-3-Clause
"""What a responder tells its client of its own side (issue 13; ACCEPT,
protocol version 8): its port's offloads as it decided them, among them
`--hw-rate`'s verdict for what it sends, and its NUMA layout.  The client
puts them in its report: `end.ports[1].offloads` and `.numa` (UDP),
`nbench.responder.offloads` and `.numa` (closed-loop TCP).

af_packet on a veth pair across two namespaces (test_peer.VethPeerBase):
a driver with no per-queue rate limiter, so a responder started with
`--hw-rate` keeps its software pacer and says so; the rate it sends at is
still on target."""
import glob

import nbe2e
import test_peer

RATE = 100e6  # L1 bit/s the responder sends at, reverse
SIZE = 512


def host_nodes():
    """The host's NUMA nodes, as the kernel lists them (0 without)."""
    return len(glob.glob("/sys/devices/system/node/node[0-9]*"))


class ResponderSetup(test_peer.VethPeerBase):

    def check_numa(self, numa, workers):
        self.assertEqual(numa["nodes"], host_nodes())
        self.assertEqual(numa["workers"], workers)
        self.assertEqual(numa["workers_on_other_node"], 0)

    def test_hw_rate_responder(self):
        """A responder with --hw-rate sends a reverse test: its ACCEPT
        says its queue got no NIC limiter (af_packet has none) and the
        software pacer held the rate."""
        self.responder(["--hw-rate"])
        d = self.client(["--reverse", "--rate", "100M", "--size", str(SIZE),
                         "--time", "2", "--json"]).json()
        e = d["end"]
        me, peer = e["ports"][0], e["ports"][1]
        self.assertEqual(peer["role"], "peer")
        off = peer["offloads"]
        self.assertFalse(off["tx_rate_limit_hw"])
        self.assertIn("software pacer", off["tx_rate_limit_why"])
        self.assertIn("net_af_packet", off["tx_rate_limit_why"])
        # the same driver at both ends, on one host: the responder's
        # checksum and flow-control verdicts are the client's own
        mine = me["offloads"]
        for k in ("tx_checksum", "tx_checksum_why", "flow_control", "rss"):
            self.assertEqual(off[k], mine[k], k)
        # one worker, the responder's (RESPONDER_LCORES: main, control,
        # one worker), on the one node of this host
        self.check_numa(peer["numa"], 1)
        self.assertEqual(peer["numa_node"], me["numa_node"])
        # the software pacer's rate, from the client's count
        want = RATE / ((SIZE + 20) * 8)
        got = e["sum_received"]["packets"] / e["sum_received"]["seconds"]
        self.assertLess(abs(got - want) / want, 0.005, (got, want))
        self.assertEqual(e["sum_received"]["lost_packets"], 0)

    def test_without_hw_rate(self):
        """Without --hw-rate the reason is the plain software pacer, and
        the text report shows the responder's offloads."""
        self.responder()
        r = self.client(["--reverse", "--rate", "10M", "--time", "1"])
        self.assertRegex(r.out, r"responder port \d+: PMD ipackets")
        self.assertRegex(r.out, r"\n  offloads: tx checksum (hw|sw), rss "
                         r"(off|l3|l3\+l4), latency clock tsc")
        self.assertIn("\n  pacing: software pacer\n", r.out)
        d = self.client(["--reverse", "--rate", "10M", "--time", "1",
                         "--json"]).json()
        off = d["end"]["ports"][1]["offloads"]
        self.assertFalse(off["tx_rate_limit_hw"])
        self.assertEqual(off["tx_rate_limit_why"], "software pacer")

    def test_tcp(self):
        """A closed-loop TCP test: the responder's offloads in
        nbench.responder, and its layout without a planned worker."""
        self.responder()
        d = self.client(["--tcp", "--time", "1", "--json"]).json()
        rsp = d["nbench"]["responder"]
        self.assertIn(rsp["offloads"]["tx_checksum"], ("hw", "sw"))
        self.assertTrue(rsp["offloads"]["tx_checksum_why"])
        self.check_numa(rsp["numa"], 0)


if __name__ == "__main__":
    nbe2e.main()
