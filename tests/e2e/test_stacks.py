# SPDX-License-Identifier: BSD-3-Clause
"""The header stacks on a wire (issue 35): a loopback test over af_packet
on a veth pair, pa -> pb, in a namespace of its own, while tshark captures
on pb.  For every stack: the tool's loss is 0 and its counts exact; tshark
read as many frames as the tool sent, with checksum validation on and
nothing malformed, no bad checksum, no expert error; the fields read back
are what the options asked for.

The kernel takes the 802.1Q and 802.1ad tags of what pb receives into
its metadata (skb_vlan_untag) and both libpcap and DPDK's af_packet put
them back; tshark then shows them as sent, which is what is checked."""
import os
import shutil
import subprocess
import unittest

import nbe2e

TSHARK = shutil.which("tshark")
N = 300  # frames a stack: 150 a stream

# options, size, {tshark field: the values wanted, in order of the
# frame's occurrences}; streams 0 and 1 alternate
STACKS = [
    ("ipv6-udp", ["-6"], 128,
     {"ipv6.src": "2001:2::1", "ipv6.dst": "2001:2:0:1::1",
      "udp.dstport": "5001"}),
    ("ipv6-tcp", ["--dst-ip", "2001:db8::9", "--src-ip", "2001:db8::8",
                  "--proto", "tcp"], 128,
     {"ipv6.dst": "2001:db8::9", "tcp.dstport": "5001"}),
    ("qinq-88a8", ["--qinq", "200,100", "--pcp", "3"], 128,
     {"ieee8021ad.id": "200", "vlan.id": "100", "vlan.priority": "3"}),
    ("qinq-9100", ["--vlan", "300.42", "--tpid", "0x9100"], 128,
     {"vlan.id": "300,42", "vlan.etype": "0x8100,0x0800"}),
    ("dscp-ecn", ["--dscp", "46,0", "--ecn", "1"], 64,
     {"ip.dsfield.dscp": ("46", "0"), "ip.dsfield.ecn": "1"}),
    ("vxlan4", ["--encap", "vxlan:5000"], 128,
     {"vxlan.vni": "5000", "udp.dstport": "4789,5001"}),
    ("vxlan6", ["--encap", "vxlan:70000", "--tunnel-src", "2001:db8::1",
                "--tunnel-dst", "2001:db8::2"], 192,
     {"vxlan.vni": "70000", "ipv6.dst": "2001:db8::2"}),
    ("gre", ["--encap", "gre"], 128,
     {"gre.proto": "0x0800", "ip.proto": "47,17"}),
    ("gre-key-v6", ["-6", "--encap", "gre:77"], 192,
     {"gre.key": "0x0000004d", "gre.proto": "0x86dd"}),
    ("mpls1", ["--encap", "mpls:100"], 64, {"mpls.label": "100"}),
    ("mpls3", ["--encap", "mpls:16/1048575/3"], 128,
     {"mpls.label": "16,1048575,3", "mpls.bottom": "0,0,1"}),
    # to a group: the group's MAC without --dst-mac
    ("multicast-v4", ["--dst-ip", "239.1.1.1"], 64,
     {"ip.dst": "239.1.1.1", "eth.dst": "01:00:5e:01:01:01"}),
    ("multicast-v6", ["--dst-ip", "ff0e::1:2", "--src-ip", "2001:db8::1"],
     80, {"ipv6.dst": "ff0e::1:2", "eth.dst": "33:33:00:01:00:02"}),
]


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True)


@unittest.skipIf(TSHARK is None, "tshark is not installed (package tshark)")
class StacksOnTheWire(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        self.veth_namespace("nst")
        self.eal = self.nb.eal(["--vdev", "net_af_packet0,iface=pa",
                                "--vdev", "net_af_packet1,iface=pb"],
                               workers=1)

    def capture(self, path):
        """tshark on pb, until N frames or 60 s; returns once it
        captures."""
        return self.tshark([TSHARK, "-n", "-i", "pb", "-c", str(N), "-a",
                            "duration:60", "-w", path])

    def decode(self, path, fields):
        prefs = ["-o", "ip.check_checksum:TRUE", "-o",
                 "udp.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE"]
        v = subprocess.run([TSHARK, "-n", "-r", path, "-V"] + prefs,
                           capture_output=True, text=True)
        self.assertEqual(v.returncode, 0, v.stderr)
        for bad in ("Malformed", "Status: Bad", "[Expert Info (Error",
                    "Illegal"):
            self.assertNotIn(bad, v.stdout)
        args = sum([["-e", f] for f in fields], [])
        out = subprocess.run([TSHARK, "-n", "-r", path, "-T", "fields", "-E",
                              "separator=|", "-E", "occurrence=a"] + args +
                             prefs, capture_output=True,
                             text=True).stdout.splitlines()
        return [dict(zip(fields, line.split("|"))) for line in out]

    def test_every_stack(self):
        for name, opts, size, want in STACKS:
            with self.subTest(stack=name):
                path = os.path.join(self.tmpdir, name + ".pcap")
                cap = self.capture(path)
                try:
                    r = self.nb.run(self.eal, [
                        "--tx-port", "0", "--rx-port", "1", "--streams", "2",
                        "--size", str(size), "--packets", str(N), "--rate",
                        "3000pps", "--json"] + opts, name=name,
                        wrap=self.wrap)
                finally:
                    self.tshark_end(cap)
                self.assertOk(r)
                e = r.json()["end"]
                self.assertEqual(e["sum_sent"]["packets"], N)
                self.assertEqual(e["sum_received"]["packets"], N)
                self.assertEqual(e["sum_received"]["lost_packets"], 0)
                rows = self.decode(path, list(want))
                self.assertEqual(len(rows), N)
                for i, row in enumerate(rows):
                    for field, value in want.items():
                        if isinstance(value, tuple):
                            # per stream; the capture's order is the
                            # streams' turn, but check it as a multiset
                            self.assertIn(row[field], value)
                        else:
                            self.assertEqual(row[field], value,
                                             "frame %d %s" % (i + 1, field))
                for field, value in want.items():
                    if isinstance(value, tuple):
                        got = sorted(row[field] for row in rows)
                        self.assertEqual(got, sorted(
                            value * (N // len(value))))


class ClassesThroughABridge(nbe2e.E2ECase):
    """A Linux bridge as the DUT, its egress port a 100 Mbit/s HTB
    bottleneck that guarantees DSCP 46 90 Mbit/s and everything else 10
    (each may borrow up to 100, none is left to borrow when both are
    offered 100): the per-class results show the 90/10 split, and each
    class's received count equals what HTB's class sent.  (A third class
    takes what is not the test's: the kernel sends an IGMP report when
    the tool's port comes up.)"""

    RATE, EF, BE = 100, 90, 10  # Mbit/s

    def setUp(self):
        super().setUp()
        ex = self.veth_namespace("nsc", (("a0", "b0"), ("a1", "b1")),
                                 bridge="br0")
        tc = ex + ["tc"]
        # the test's UDP frames go to 1:10 (DSCP 46) or 1:20; anything
        # else (the kernel's IGMP report when the tool's port comes up)
        # to 1:30, so that HTB's counts of 1:10 and 1:20 are the test's
        sh(*tc, "qdisc", "add", "dev", "b1", "root", "handle", "1:", "htb",
           "default", "30")
        sh(*tc, "class", "add", "dev", "b1", "parent", "1:", "classid", "1:1",
           "htb", "rate", "%dmbit" % self.RATE, "ceil", "%dmbit" % self.RATE)
        for cid, rate, prio in ((10, self.EF, 0), (20, self.BE, 1),
                                (30, 1, 2)):
            sh(*tc, "class", "add", "dev", "b1", "parent", "1:1", "classid",
               "1:%d" % cid, "htb", "rate", "%dmbit" % rate, "ceil",
               "%dmbit" % self.RATE, "prio", str(prio))
            # short queues: what waits in them drains before the tool's
            # drain ends, so HTB's counts and the tool's close together
            sh(*tc, "qdisc", "add", "dev", "b1", "parent", "1:%d" % cid,
               "handle", "%d:" % cid, "pfifo", "limit", "40")
        sh(*tc, "filter", "add", "dev", "b1", "parent", "1:", "protocol",
           "ip", "prio", "1", "u32", "match", "ip", "dsfield", "0xb8", "0xfc",
           "flowid", "1:10")
        sh(*tc, "filter", "add", "dev", "b1", "parent", "1:", "protocol",
           "ip", "prio", "2", "u32", "match", "ip", "protocol", "17", "0xff",
           "flowid", "1:20")
        self.eal = self.nb.eal(["--vdev", "net_af_packet0,iface=a0",
                                "--vdev", "net_af_packet1,iface=a1"],
                               workers=1)

    def test_per_class_split(self):
        # two streams, DSCP 46 and 0, each offered 100 Mbit/s of 1518 B
        r = self.nb.run(self.eal, [
            "--tx-port", "0", "--rx-port", "1", "--streams", "2", "--dscp",
            "46,0", "--size", "1518", "--rate", "%dM" % (2 * self.RATE),
            "--time", "4", "--drain", "1", "--json"], name="classes",
            wrap=self.wrap)
        self.assertOk(r)
        d = r.json()
        classes = {c["dscp"]: c for c in d["end"]["classes"]}
        self.assertEqual(sorted(classes), [0, 46])
        self.assertEqual(classes[46]["streams"], [0])
        self.assertEqual(classes[0]["streams"], [1])
        sent = nbe2e.htb_sent(self.ns, "b1")
        # every frame HTB's class sent, the tool's class received
        self.assertEqual(classes[46]["receiver"]["packets"], sent["1:10"])
        self.assertEqual(classes[0]["receiver"]["packets"], sent["1:20"])
        ef = classes[46]["receiver"]["packets"]
        be = classes[0]["receiver"]["packets"]
        share = ef / (ef + be)
        want = self.EF / (self.EF + self.BE)
        self.assertAlmostEqual(share, want, delta=0.05,
                               msg="EF %d, BE %d frames" % (ef, be))
        # the bottleneck's rate, as HTB counts it (L2 without FCS)
        secs = d["end"]["sum_received"]["seconds"]
        mbps = (ef + be) * 1514 * 8 / secs / 1e6
        self.assertAlmostEqual(mbps / self.RATE, 1.0, delta=0.05)
        # what was offered beyond it was lost, in the class that had to
        # give way most
        self.assertGreater(classes[0]["udp"]["lost_packets"],
                           classes[46]["udp"]["lost_packets"])


if __name__ == "__main__":
    nbe2e.main()
