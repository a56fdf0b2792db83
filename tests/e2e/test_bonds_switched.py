# SPDX-License-Identifier: BSD-3-Clause
"""Bonds in TLB (mode 5) and ALB (mode 6) at both ends of a peer test,
behind a switch (issue 13).

These modes send each member's frames with that member's own MAC, so a
responder must take its client's data from the client's members' MACs
too (PARAMS names them, ACCEPT names the responder's; protocol version
8), and a TLB end receives only on its primary, as behind a switch that
learnt the bond's MAC there.  Back to back, what the far end put on the
other member would be lost; so here a Linux bridge stands for the switch:
a0 a1 (the client's members) and b0 b1 (the responder's) are veth ends
whose peers pa0 pa1 pb0 pb1 are the bridge's ports.

The numbers: the client's JSON (sent, received, lost, duplicates, per
member), and the bridge's own counters: what arrived on pX from member X
(its rx_packets) is what that member sent, counted by the kernel, not by
the tool."""
import json
import os
import subprocess

import nbe2e
import test_devices
import test_peer

MACS = {"a0": "02:00:00:00:10:00", "a1": "02:00:00:00:10:01",
        "b0": "02:00:00:00:10:02", "b1": "02:00:00:00:10:03"}
# two queue pairs a member: the control lcore has a TX queue of its own
MEMBER = ",qpairs=2" + test_devices.RING
# 1 Gbit/s of 1518 B frames a direction (a tenth under the sanitizers,
# which slow the receivers threefold), as test_devices' peer modes
SIZE = 1518
RATE = 1e8 if nbe2e.SANITIZED else 1e9
PPS = RATE / ((SIZE + 20) * 8)  # 81274 a second at 1 Gbit/s


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


class SwitchedBonds(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        # the switch, the client's members, the responder's: one
        # namespace each (af_packet's fanout groups, keyed by pid ^
        # ifindex in DPDK 22.11, are per namespace: two processes in
        # one collided now and then, "could not set PACKET_FANOUT")
        base = "nbs%d" % (os.getpid() % 100000)
        self.ns = {k: base + k for k in "sab"}
        for ns in self.ns.values():
            sh("ip", "netns", "add", ns)
            self.addCleanup(subprocess.run, ["ip", "netns", "del", ns],
                            capture_output=True)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        self.wrap = {k: ["ip", "netns", "exec", ns]
                     for k, ns in self.ns.items()}
        sw = ["ip", "-n", self.ns["s"], "link"]
        sh(*sw, "add", "br0", "type", "bridge")
        sh(*sw, "set", "br0", "up")
        for d, mac in MACS.items():
            side = ["ip", "-n", self.ns[d[0]], "link"]
            sh(*sw, "add", d, "type", "veth", "peer", "name", "p" + d)
            sh(*sw, "set", d, "netns", self.ns[d[0]])
            sh(*side, "set", d, "address", mac)
            sh(*self.wrap[d[0]], "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % d)
            sh(*self.wrap["s"], "sysctl", "-qw",
               "net.ipv6.conf.p%s.disable_ipv6=1" % d)
            sh(*sw, "set", "p" + d, "master", "br0")
            sh(*side, "set", d, "up")
            sh(*sw, "set", "p" + d, "up")

    def bridge_rx(self):
        """Frames each bridge port took from its member, by the kernel."""
        return {d: int(sh(*self.wrap["s"], "cat", "/sys/class/net/p%s/"
                          "statistics/rx_packets" % d))
                for d in MACS}

    def fdb(self):
        """The bridge's learnt MACs: {mac: bridge port}."""
        out = sh("bridge", "-n", self.ns["s"], "-j", "fdb", "show", "br",
                 "br0")
        return {e["mac"]: e["ifname"] for e in json.loads(out)
                if "permanent" not in e.get("state", "")}

    def eal(self, side, mode, lcores, extra=""):
        return ["--no-pci", "--lcores", lcores, "--file-prefix",
                nbe2e.unique(side), "--log-level", "lib.eal:error"] + \
            test_devices.Bonding.members(side, MEMBER) + \
            test_devices.Bonding.bond(0 if side == "a" else 1, side, mode,
                                      extra)

    def test_tlb(self):
        self.peer_tests(5)

    def test_alb(self):
        self.peer_tests(6)

    def peer_tests(self, mode):
        resp = self.eal("b", mode, nbe2e.RESPONDER_LCORES,
                        ",mac=" + test_peer.RESP_MAC)
        p, argv, log = self.nb.start(resp, ["--allow-quit"],
                                     name="resp%d" % mode, wrap=self.wrap["b"])
        self.addCleanup(test_peer.PeerBase.stop, self, p, log)
        self.assertIn("responder on port 2", p.stdout.readline())
        cli = self.eal("a", mode, nbe2e.CLIENT_LCORES)
        for direction in ("forward", "reverse", "bidir"):
            with self.subTest(mode=mode, direction=direction):
                tool = ["--peer", test_peer.RESP_MAC, "--rate",
                        "%dM" % (RATE / 1e6), "--size", str(SIZE), "--time",
                        "1", "--streams", "4", "--json"]
                if direction == "forward":
                    tool += ["--latency-rate", "1000"]
                else:
                    tool.append("--" + direction)
                before = self.bridge_rx()
                r = self.nb.run(cli, tool, timeout=60, name="cli%d" % mode,
                                wrap=self.wrap["a"])
                self.assertOk(r)
                after = self.bridge_rx()
                self.check(r.json(), mode, direction,
                           {d: after[d] - before[d] for d in MACS})
        with self.subTest(mode=mode, proto="tcp"):
            # closed-loop TCP: each end takes the other's segments from
            # its second member's MAC too (none is foreign, none lost
            # to a TLB end's unpolled member)
            before = self.bridge_rx()
            r = self.nb.run(cli, ["--peer", test_peer.RESP_MAC, "--tcp",
                                  "--time", "1", "--json"],
                            timeout=60, name="tcp%d" % mode,
                            wrap=self.wrap["a"])
            self.assertOk(r)
            bridge = {d: n - before[d] for d, n in self.bridge_rx().items()}
            d = r.json()
            e = d["end"]
            self.assertGreater(e["sum_sent"]["bytes"], 0)
            self.assertEqual(e["sum_received"]["bytes"],
                             e["sum_sent"]["bytes"])
            me, rsp = d["nbench"]["ports"][0], d["nbench"]["responder"]
            self.assertEqual(me["foreign"], 0)
            self.assertEqual(rsp["foreign"], 0)
            self.assertEqual(rsp["tool_rx_packets"], me["tool_tx_packets"])
            self.assertGreater(bridge["a1"], 100, bridge)
            self.assertGreater(bridge["a0"], 100, bridge)
        r = self.nb.run(cli, ["--peer", test_peer.RESP_MAC, "--quit"],
                        timeout=60, name="quit", wrap=self.wrap["a"])
        p.wait(timeout=30)
        # each member's MAC was learnt on its own bridge port: the
        # second members sent with their own MACs, the bonds' MACs came
        # only from the primaries
        fdb = self.fdb()
        self.assertEqual(fdb.get(MACS["a1"]), "pa1", fdb)
        self.assertEqual(fdb.get(MACS["b1"]), "pb1", fdb)
        self.assertEqual(fdb.get(test_peer.RESP_MAC), "pb0", fdb)
        self.assertEqual(fdb.get(MACS["a0"]), "pa0", fdb)

    def check(self, d, mode, direction, bridge):
        start = d["start"]
        # each end named its second member's MAC to the other
        self.assertEqual(start["other_src_macs"], [MACS["a1"]])
        self.assertEqual(start["remote"]["other_src_macs"], [MACS["b1"]])
        sides = [d["end"]]
        if direction == "bidir":
            sides.append(d["reverse"]["end"])
        for e in sides:
            sent = e["sum_sent"]["packets"]
            recv = e["sum_received"]
            self.assertLess(abs(sent - PPS), PPS * 0.005, direction)
            self.assertEqual(recv["packets"], sent, (direction, recv))
            self.assertEqual(recv["lost_packets"], 0)
            self.assertEqual(recv["duplicates"], 0)
        me = e["ports"][0]
        per = test_devices.Bonding.check_members_add_up(self, me)
        # a TLB/ALB sender uses both members (TLB by load, rebalanced
        # every 100 ms): the bridge saw data from each; the receiving
        # bond took everything on its primary, where the bridge sends
        # what is for the bond's MAC
        if direction != "reverse":
            self.assertGreater(bridge["a0"], PPS / 10, bridge)
            self.assertGreater(bridge["a1"], PPS / 10, bridge)
        if direction != "forward":
            self.assertGreater(bridge["b0"], PPS / 10, bridge)
            self.assertGreater(bridge["b1"], PPS / 10, bridge)
            # (what floods: broadcasts, e.g. an ALB bond's ARP)
            self.assertLess(per[1]["ipackets"], 5, per)
            self.assertGreaterEqual(per[0]["ipackets"], sent, per)
        # the other way only control frames (and probes' answers)
        if direction == "forward":
            self.assertLess(bridge["b0"] + bridge["b1"], 1200, bridge)
            # probes from the client's second member come back to the
            # bond's MAC (a TLB end would not hear them at its member's)
            rtt = d["end"]["rtt"]
            self.assertEqual(rtt["probes_sent"], 1000)
            self.assertEqual(rtt["probes_returned"], rtt["probes_sent"])
        if direction == "reverse":
            self.assertLess(bridge["a0"] + bridge["a1"], 200, bridge)


if __name__ == "__main__":
    nbe2e.main()
