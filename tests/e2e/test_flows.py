#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""--flows on the wire, each against an oracle of its own:

- 65,536 RFC 4814 flows from one loopback test on a veth pair: tshark,
  capturing on the receiving end, counts 65,536 distinct 5-tuples, every
  port from 1024-65535, and they are the tuples --per-flow says each flow
  carried; each flow sent and received exactly what its stream's turn
  gives it.
- A Linux bridge whose port toward the receiver has a tc BPF classifier
  (flows_drop.bpf.c) that drops every frame of three chosen flows and
  every 100th frame of a fourth: the tool's per-flow loss is what the
  classifier's rule drops of what was sent, the clsact qdisc's drop
  count is their sum, every other flow lost nothing.
- --queues 4 over af_packet with qpairs=4 (the kernel's PACKET_FANOUT
  hash spreads the flows over the receive queues): each flow arrives on
  one queue, the flows per queue add up to all of them, and on each
  queue the flows' frames add up to what the tool and the PMD counted
  there."""
import collections
import csv
import os
import shutil
import subprocess
import unittest

import nbe2e

HERE = os.path.dirname(os.path.abspath(__file__))
TSHARK = shutil.which("tshark")


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True)


def per_flow(path):
    with open(path) as f:
        return list(csv.DictReader(f))


class FlowsBase(nbe2e.E2ECase):

    def loop(self, opts, name, vdevs=None, workers=1):
        eal = self.nb.eal(vdevs or [
            "--vdev", "net_af_packet0,iface=pa",
            "--vdev", "net_af_packet1,iface=pb"], workers=workers)
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1",
                              "--json"] + opts, name=name, wrap=self.wrap)
        self.assertOk(r)
        return r.json()

    def check_flows_add_up(self, d, rows):
        """The per-flow file's figures against the test's."""
        e = d["end"]
        self.assertEqual(len(rows), e["flows"]["flows"])
        self.assertEqual(sum(int(x["sent"]) for x in rows),
                         e["sum_sent"]["packets"])
        self.assertEqual(sum(int(x["received"]) for x in rows),
                         e["sum_received"]["packets"])
        self.assertEqual(sum(int(x["lost"]) for x in rows),
                         e["sum_received"]["lost_packets"])
        self.assertEqual(sum(1 for x in rows if int(x["lost"])),
                         e["flows"]["with_loss"])


@unittest.skipIf(TSHARK is None, "tshark is not installed (package tshark)")
class DistinctTuples(FlowsBase):

    N = 65536

    def setUp(self):
        super().setUp()
        self.veth_namespace("nsf")

    def test_65536_rfc4814_flows(self):
        path = os.path.join(self.tmpdir, "flows.pcap")
        cap = self.tshark([TSHARK, "-n", "-i", "pb", "-B", "64", "-f", "udp",
                           "-c", str(self.N), "-a", "duration:90", "-w",
                           path])
        try:
            csvp = os.path.join(self.tmpdir, "flows.csv")
            # 4 streams of 16,384 flows each, every flow once
            d = self.loop(["--streams", "4", "--flows", str(self.N),
                           "--packets", str(self.N), "--rate", "20kpps",
                           "--per-flow", csvp], "rfc4814", vdevs=[
                               "--vdev", "net_af_packet0,iface=pa",
                               # room for 200 ms of a worker kept off
                               # its CPU by tshark's
                               "--vdev",
                               "net_af_packet1,iface=pb,framecnt=4096"])
        finally:
            self.tshark_end(cap, 90)
        e = d["end"]
        self.assertEqual(e["sum_sent"]["packets"], self.N)
        self.assertEqual(e["sum_received"]["packets"], self.N)
        fl = d["start"]["test_start"]["flows"]
        self.assertEqual(fl, {"flows": self.N, "order": "random", "seed": 1,
                              "ranges": {"src_port": [1024, 65535],
                                         "dst_port": [1024, 65535]}})
        self.assertEqual(e["flows"]["with_loss"], 0)
        self.assertEqual(e["flows"]["none_arrived"], 0)
        # each field's first occurrence: tshark takes UDP port 6635 for
        # MPLS in UDP and, as the stamp's bytes fall, may find an IPv4
        # header inside and print a second ip.proto ("17,0")
        out = subprocess.run(
            [TSHARK, "-n", "-r", path, "-T", "fields", "-E",
             "separator=,", "-E", "occurrence=f", "-e", "ip.src", "-e",
             "ip.dst", "-e", "ip.proto", "-e", "udp.srcport", "-e",
             "udp.dstport"],
            check=True, capture_output=True, text=True).stdout.split()
        self.assertEqual(len(out), self.N)
        tuples = set(out)
        self.assertEqual(len(tuples), self.N)
        ports = [int(p) for t in tuples for p in t.split(",")[3:]]
        self.assertGreaterEqual(min(ports), 1024)
        self.assertLessEqual(max(ports), 65535)
        # the same tuples as --per-flow says the flows carried, and each
        # flow sent and received once (flow f of stream f mod 4)
        rows = per_flow(csvp)
        self.assertEqual(set("%s,%s,17,%s,%s" % (x["src_ip"], x["dst_ip"],
                                                 x["src_port"],
                                                 x["dst_port"])
                             for x in rows), tuples)
        for i, x in enumerate(rows):
            self.assertEqual((int(x["flow"]), int(x["stream"]),
                              int(x["sent"]), int(x["received"])),
                             (i, i % 4, 1, 1))
        self.check_flows_add_up(d, rows)
        # and they are RFC 4814's pseudorandom ones, not in order: the
        # first flows' source ports are not consecutive
        first = [int(x["src_port"]) for x in rows[:8]]
        self.assertNotEqual(first, list(range(first[0], first[0] + 8)))


class ClassifierDrops(FlowsBase):
    """tx port pa -> a Linux bridge -> pb, the bridge's port toward pb
    (bb) with flows_drop.bpf.c on its egress."""

    FLOWS, STREAMS, PER_FLOW = 64, 4, 500
    SPORT0 = 10000
    DROPPED = (5, 17, 42)  # every frame
    EVERY = 9  # every 100th frame

    def setUp(self):
        super().setUp()
        self.veth_namespace("nsd", (("pa", "ba"), ("pb", "bb")),
                            bridge="brf")
        obj = os.path.join(self.tmpdir, "drop.o")
        sh("clang", "-O2", "-target", "bpf",
           *["-D%s=%d" % (k, self.SPORT0 + f) for k, f in
             zip(("DROP_A", "DROP_B", "DROP_C"), self.DROPPED)],
           "-DEVERY_100=%d" % (self.SPORT0 + self.EVERY),
           "-DFLOWS_PER_STREAM=%d" % (self.FLOWS // self.STREAMS),
           "-c", os.path.join(HERE, "flows_drop.bpf.c"), "-o", obj)
        sh(*self.wrap, "tc", "qdisc", "add", "dev", "bb", "clsact")
        sh(*self.wrap, "tc", "filter", "add", "dev", "bb", "egress", "bpf",
           "da", "obj", obj, "sec", "classifier")

    def test_per_flow_loss_is_the_classifiers(self):
        csvp = os.path.join(self.tmpdir, "flows.csv")
        # flows in order over one range: flow f has source port
        # SPORT0 + f (the first field varies fastest), stream f mod 4
        d = self.loop(["--streams", str(self.STREAMS), "--flows",
                       str(self.FLOWS), "--flow-order", "incr",
                       "--flow-src-port", "%d-%d" % (
                           self.SPORT0, self.SPORT0 + self.FLOWS - 1),
                       "--flow-dst-port", "7000-7000", "--packets",
                       str(self.FLOWS * self.PER_FLOW), "--rate", "20kpps",
                       "--per-flow", csvp], "classifier")
        dropped = nbe2e.qdisc_stats(self.ns, "bb")[1]
        rows = per_flow(csvp)
        self.check_flows_add_up(d, rows)
        want = {}
        for f in range(self.FLOWS):
            x = rows[f]
            self.assertEqual(int(x["src_port"]), self.SPORT0 + f)
            self.assertEqual(int(x["dst_port"]), 7000)
            sent = int(x["sent"])
            self.assertEqual(sent, self.PER_FLOW)
            want[f] = sent if f in self.DROPPED else \
                sent // 100 if f == self.EVERY else 0
            self.assertEqual(int(x["lost"]), want[f], "flow %d" % f)
            self.assertEqual(int(x["received"]), sent - want[f])
        # the kernel's count of what the classifier dropped
        self.assertEqual(dropped, sum(want.values()))
        e = d["end"]["flows"]
        self.assertEqual(e["with_loss"], 4)
        self.assertEqual(e["none_arrived"], 3)
        # the worst: the three dropped whole (lower id first), then 9
        self.assertEqual([w["id"] for w in e["worst"]],
                         list(self.DROPPED) + [self.EVERY])
        self.assertEqual(e["loss_percent_bins"],
                         [self.FLOWS - 4, 0, 0, 1, 0, 0, 3])


class FourQueues(FlowsBase):

    FLOWS = 4096

    def setUp(self):
        super().setUp()
        self.veth_namespace("nsq")

    def test_queues_and_flows_add_up(self):
        csvp = os.path.join(self.tmpdir, "flows.csv")
        d = self.loop(["--queues", "4", "--streams", "4", "--flows",
                       str(self.FLOWS), "--packets", str(self.FLOWS * 4),
                       "--rate", "20kpps", "--per-flow", csvp], "queues",
                      vdevs=["--vdev", "net_af_packet0,iface=pa,qpairs=4",
                             "--vdev", "net_af_packet1,iface=pb,qpairs=4"])
        e = d["end"]
        rows = per_flow(csvp)
        self.check_flows_add_up(d, rows)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertEqual(e["rx_foreign"], 0)
        fl = e["flows"]
        # the fanout hash keeps a flow on one queue
        self.assertEqual(fl["on_several_queues"], 0)
        self.assertEqual(sum(fl["flows_per_rx_queue"]), self.FLOWS)
        self.assertGreater(sum(1 for n in fl["flows_per_rx_queue"] if n), 1)
        by_q = collections.Counter()
        flows_q = collections.Counter()
        for x in rows:
            by_q[int(x["rx_queue"])] += int(x["received"])
            flows_q[int(x["rx_queue"])] += 1
        self.assertEqual([flows_q[q] for q in range(4)],
                         (fl["flows_per_rx_queue"] + [0] * 4)[:4])
        rx = d["end"]["ports"][1]
        for q in rx["queues"]:
            self.assertEqual(by_q[q["queue"]], q["tool_rx_packets"])
            self.assertEqual(q["tool_rx_packets"], q["pmd_ipackets"])


if __name__ == "__main__":
    nbe2e.main()
