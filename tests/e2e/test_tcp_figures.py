# SPDX-License-Identifier: BSD-3-Clause
"""The figures of a --tcp report that a user reads, checked exactly against
each other: each interval's retransmits (iperf3's Retr) are that
interval's own, so they add up to the end's; the interval bytes add up to
the end's on both sides; mean_rtt lies between min_rtt and max_rtt.

  Lossless   a memif pair in one process: nothing is lost, so every
             interval's retransmits are 0, not just present.
  Lossy      both tool ports on a Linux bridge with test_tcp_kernel's
             independent dropper (1 % of data segments at random): the
             retransmits are many, and still add up.
  Peer       a client and a responder over memif (--peer): the
             responder's ends come from its results blob; forward, the
             client's own sender, reverse, the responder's."""
import os

import nbe2e
import test_peer
import test_tcp_kernel
from test_tcp_kernel import MIB, sh

HERE = os.path.dirname(os.path.abspath(__file__))


class Figures:
    """Checks on a --json document of a clean --tcp run of n streams."""

    def add_up(self, d, n):
        ivs, end = d["intervals"], d["end"]
        self.assertNotIn("error", d)
        self.assertEqual(len(end["streams"]), n)
        # a sum of one interval proves nothing: several (each test
        # moves enough bytes to take a second or more at memif's ~50
        # Gbit/s, in intervals of 0.1 s)
        self.assertGreater(len(ivs), 2)
        retr, acked, rcvd = [0] * n, [0] * n, [0] * n
        for iv in ivs:
            self.assertEqual(len(iv["streams"]), n)
            for k, s in enumerate(iv["streams"]):
                retr[k] += s["retransmits"]
                acked[k] += s["bytes"]
                rcvd[k] += s["received_bytes"]
            # the interval's sum is its streams', counted apart; no
            # Retr in it when the sender is a responder's (its figures
            # come once, at the end)
            if "retransmits" in iv["sum"]:
                self.assertEqual(
                    iv["sum"]["retransmits"],
                    sum(s["retransmits"] for s in iv["streams"]))
                for k, s in enumerate(iv["streams"]):
                    # Cwnd and RTT at the interval's end: within what
                    # the end says the connection ever had
                    snd = end["streams"][k]["sender"]
                    self.assertGreater(s["snd_cwnd"], 0)
                    self.assertLessEqual(s["snd_cwnd"], snd["max_snd_cwnd"])
                    self.assertLessEqual(snd["min_rtt_ns"] // 1000, s["rtt"])
                    self.assertLessEqual(s["rtt"], snd["max_rtt_ns"] // 1000)
            self.assertEqual(iv["sum"]["bytes"],
                             sum(s["bytes"] for s in iv["streams"]))
        for k, s in enumerate(end["streams"]):
            snd, rcv = s["sender"], s["receiver"]
            # each interval's Retr is its own: they add up to the end's
            self.assertEqual(retr[k], snd["retransmits"])
            self.assertEqual(acked[k], snd["bytes"])
            self.assertEqual(rcvd[k], rcv["bytes"])
            self.assertEqual(snd["bytes"], rcv["bytes"])
            # iperf3's mean_rtt, the mean of the samples (whole us)
            self.assertLessEqual(snd["min_rtt_ns"] // 1000, snd["mean_rtt"])
            self.assertLessEqual(snd["mean_rtt"], snd["max_rtt_ns"] // 1000)
        self.assertEqual(sum(retr), end["sum_sent"]["retransmits"])
        self.assertEqual(sum(acked), end["sum_sent"]["bytes"])
        return sum(retr)


class Lossless(Figures, nbe2e.E2ECase):

    def test_intervals_add_up(self):
        """-P 2 -n 8G over memif: every interval's retransmits 0 (memif
        loses nothing), the intervals' bytes each connection's exact
        share, acknowledged and received."""
        eal = self.nb.eal(self.nb.memif_pair())
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1", "--tcp",
                              "--json", "-P", "2", "-n", "8G",
                              "--interval", "0.1"], timeout=240,
                        name="tcp")
        self.assertOk(r)
        d = r.json()
        self.assertEqual(self.add_up(d, 2), 0)
        for iv in d["intervals"]:
            for s in iv["streams"]:
                self.assertEqual(s["retransmits"], 0)
        for s in d["end"]["streams"]:
            self.assertEqual(s["sender"]["bytes"], 4096 * MIB)


class Lossy(Figures, test_tcp_kernel.Bridge):

    # Bridge's own tests run in test_tcp_kernel.py, not again here
    test_loss = test_bottleneck = None

    def test_retransmits_add_up(self):
        """-P 2 -n 300M with 1 % of data segments dropped: the retransmits
        are at least the drops, and the intervals' add up to the end's
        exactly, per connection and in the sum.  (300M, so that even a
        fast machine's af_packet takes several 0.1 s intervals: 30M took
        0.64 s here and under 0.2 s on another.)"""
        obj = os.path.join(self.tmpdir, "drop.o")
        sh("clang", "-O2", "-target", "bpf", "-c",
           os.path.join(HERE, "tcp_drop.bpf.c"), "-o", obj)
        sh("ip", "netns", "exec", self.s, "tc", "qdisc", "add", "dev", "st0",
           "clsact")
        sh("ip", "netns", "exec", self.s, "tc", "filter", "add", "dev", "st0",
           "ingress", "bpf", "da", "obj", obj, "sec", "classifier")
        d = self.loop(["-P", "2", "-n", "300M", "--interval", "0.1"])
        dropped = self.tc_drops("st0")
        self.assertGreater(dropped, 200)  # ~1 % of ~210000 segments
        retr = self.add_up(d, 2)
        self.assertGreaterEqual(retr, dropped)
        self.assertEqual(d["end"]["sum_received"]["bytes"], 300 * MIB)
        self.assertEqual(d["nbench"]["connections_closed"], 2)
        self.assertEqual(d["nbench"]["bad_bytes"], 0)


class Peer(Figures, test_peer.PeerBase):

    def add_up_with(self, extra):
        """-P 2 -n 6G: the intervals' figures add up to the end's, and
        memif loses nothing (Retr 0).  (By --time they need not: the end
        counts what is acknowledged after the last interval, as the
        connections close.)"""
        self.responder()
        d = self.client(["--tcp", "--json", "-P", "2", "-n", "6G",
                         "--interval", "0.1"] + extra, timeout=240).json()
        self.assertEqual(d["nbench"]["connections_closed"], 2)
        self.assertEqual(self.add_up(d, 2), 0)
        self.assertEqual(d["end"]["sum_received"]["bytes"], 6144 * MIB)

    def test_forward_adds_up(self):
        """The client's own sender: its Retr, Cwnd and RTT per interval."""
        self.add_up_with([])

    def test_reverse_adds_up(self):
        """The responder's sender: its figures from its results blob."""
        self.add_up_with(["--reverse"])

if __name__ == "__main__":
    nbe2e.main()
