# SPDX-License-Identifier: BSD-3-Clause
"""The devices users have (issue 13): ports with one queue pair, where the
control lcore cannot have a TX queue of its own and shares the workers'.

af_packet on a veth pair across two network namespaces, with its default
one queue pair (no qpairs=), is the stand-in for the one-queue virtio-net
NICs of many guests.  Numbers come from the client's JSON, as in
test_peer.py: exact counts both ways, each end's tool counts equal to its
PMD's (control frames included, which a worker sends during the test)."""
import os
import re
import shutil
import subprocess

import nbe2e
import test_peer

TSHARK = shutil.which("tshark")


class OneQueuePair(test_peer.VethPeerBase):
    """Both ends on af_packet's one default queue pair (VethPeerBase)."""

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

    def test_forward_with_two_workers(self):
        """The client's sender and receiver on two worker lcores, as in a
        guest of two CPUs: the sender's worker, which also sends the
        control lcore's frames on the one TX queue, keeps doing so after
        its last data frame (it stopped with it, and the control frames
        that end the test waited for the teardown: the responder had
        "the client vanished", the client no results).  By --packets,
        so that the sender ends well before the test does."""
        self.responder()
        eal = self.client_eal()
        eal[eal.index("--lcores") + 1] = nbe2e.CLIENT_LCORES + ",3@0"
        r = self.nb.run(eal, ["--peer", test_peer.RESP_MAC, "--rate",
                              "10000pps", "--size", "256", "--packets",
                              "5000", "--peer-timeout", "3", "--json"],
                        timeout=60, name="cli", wrap=self.client_wrap)
        self.assertOk(r)
        d = r.json()
        # two workers: one receives, the other sends
        self.assertIn("worker0=2(cpu1:rx p0/q0) worker1=3(cpu0:tx p0/q0)",
                      d["start"]["lcore_map"])
        self.assertEqual(self.check_side(d, 256, 10000 * (256 + test_peer.L1)
                                         * 8, False), 5000)
        self.assertEqual(d["end"]["sum_sent"]["packets"], 5000)
        # the responder's port as its WELCOME described it (its MTU it
        # does not say)
        peer = d["end"]["ports"][1]
        self.assertEqual((peer["driver"], peer["mac"], peer["link_up"],
                          peer["mtu"]),
                         ("net_af_packet", test_peer.RESP_MAC, True, None))
        self.assertEqual(peer["link_speed_mbps"],
                         d["start"]["remote"]["link_speed_mbps"])

    def test_too_few_queues_names_the_setting(self):
        r = self.nb.run(self.client_eal(),
                        ["--peer", test_peer.RESP_MAC, "--queues", "2"],
                        timeout=60, name="cli", wrap=self.client_wrap)
        self.assertEqual(r.rc, 1, r.err)
        self.assertIn("has 1 RX / 1 TX queue, 2 of each are needed", r.err)
        self.assertIn("qpairs=2", r.err)
        self.assertIn("lower --queues to 1", r.err)


def sh(*args):
    return subprocess.run(list(args), check=True, capture_output=True,
                          text=True, timeout=30)


class PortSettings(nbe2e.E2ECase):
    """--mtu, --flow-control and --link-speed on devices that have them
    and on devices that do not: af_packet on a veth pair in one
    namespace, pa-pb (it sets the interface's MTU; no flow control, no fixed
    speeds), and net_tap (flow control: "none" only)."""

    def setUp(self):
        super().setUp()
        self.veth_namespace("nps")
        self.eal = self.nb.eal(["--vdev", "net_af_packet0,iface=pa",
                                "--vdev", "net_af_packet1,iface=pb"],
                               workers=1)

    def kernel_mtu(self, dev):
        out = sh("ip", "-n", self.ns, "-o", "link", "show", dev).stdout
        return int(re.search(r" mtu (\d+) ", out).group(1))

    def test_mtu_set_on_the_device(self):
        # an MTU below the veths' 1500, set on both ends by the PMD
        # (af_packet takes no frame above 1518 B in DPDK 22.11), and the
        # largest frames it allows through them
        self.assertEqual(self.kernel_mtu("pa"), 1500)
        r = self.nb.run(self.eal, ["--tx-port", "0", "--rx-port", "1",
                                   "--mtu", "1400", "--size", "1418,64",
                                   "--packets", "2000", "--rate", "20000pps",
                                   "--json"], name="mtu", wrap=self.wrap)
        self.assertOk(r)
        d = r.json()
        self.assertEqual([p["mtu"] for p in d["start"]["ports"]],
                         [1400, 1400])
        self.assertEqual(self.kernel_mtu("pa"), 1400)
        self.assertEqual(self.kernel_mtu("pb"), 1400)
        e = d["end"]
        self.assertEqual(e["sum_sent"]["packets"], 2000)
        self.assertEqual(e["sum_received"]["packets"], 2000)
        # read back: af_packet has no flow control
        self.assertEqual(d["start"]["ports"][0]["offloads"]["flow_control"],
                         "unsupported")
        self.assertIn("flow control unsupported",
                      self.nb.run(self.eal, ["--tx-port", "0", "--rx-port",
                                             "1", "--packets", "10"],
                                  name="fc", wrap=self.wrap).out)

    def test_refused_where_the_device_cannot(self):
        cases = [
            (["--flow-control", "on"],
             "port 0: --flow-control on: net_af_packet has no flow "
             "control"),
            (["--mtu", "9000"],
             "port 0 (net_af_packet): --mtu 9000 needs frames of 9018 B, "
             "the device takes 1518 B at most"),
            (["--link-speed", "10G"],
             "port 0: --link-speed 10 Gbps: net_af_packet does not offer "
             "it (speeds it offers: none: it takes no fixed speed)"),
        ]
        for extra, msg in cases:
            with self.subTest(extra=extra):
                r = self.nb.run(self.eal, ["--tx-port", "0", "--rx-port",
                                           "1", "--packets", "10"] + extra,
                                name="refused", wrap=self.wrap)
                self.assertOk(r, 1)
                self.assertIn(msg, r.err)
                # refused before anything was sent; nothing left behind
                self.assertNotIn("still in use", r.err)
        # frames larger than --mtu allows: a usage error, before EAL
        r = self.nb.run(self.eal, ["--tx-port", "0", "--rx-port", "1",
                                   "--mtu", "1400", "--size", "1518"],
                        name="small-mtu", wrap=self.wrap)
        self.assertOk(r, 2)
        self.assertIn("--mtu 1400 is too small for the test's 1518 B "
                      "frames (they need MTU 1500)", r.err)

    def test_tap_flow_control(self):
        # net_tap's flow control takes "none" only: off is set and read
        # back on both ports, on is refused by the driver.  (Two taps in
        # the test's namespace; the kernel joins them to nothing, so the
        # receiver counts no frame: the settings are what is tested.)
        eal = self.nb.eal(["--vdev", "net_tap0,iface=nbta", "--vdev",
                           "net_tap1,iface=nbtb"], workers=1)
        tool = ["--tx-port", "0", "--rx-port", "1", "--packets", "100",
                "--rate", "10M"]
        r = self.nb.run(eal, tool + ["--flow-control", "off", "--json"],
                        name="tap-off", wrap=self.wrap)
        self.assertOk(r)
        ports = r.json()["start"]["ports"]
        self.assertEqual([p["driver"] for p in ports],
                         ["net_tap", "net_tap"])
        self.assertEqual([p["offloads"]["flow_control"] for p in ports],
                         ["off", "off"])
        r = self.nb.run(eal, tool + ["--flow-control", "on"],
                        name="tap-on", wrap=self.wrap)
        self.assertOk(r, 1)
        self.assertIn("port 0: --flow-control on: net_tap refused it",
                      r.err)
        self.assertNotIn("still in use", r.err)


RING = ",framesz=2048,framecnt=4096"


class Bonding(nbe2e.E2ECase):
    """net_bonding over af_packet members on two veth pairs, back to back:
    a0-b0 and a1-b1 in one namespace.  (memif members cannot be bonded in
    DPDK 22.11: the memif PMD cannot set a MAC address, which every bonding
    mode does to its members at start.)  Ports 0-3 are the members, the
    bonds are ports 4 (over a0, a1) and 5 (over b0, b1)."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.ns = "nbb%d" % (os.getpid() % 100000)
        sh("ip", "netns", "add", self.ns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns],
                        capture_output=True)
        sh("ip", "-n", self.ns, "link", "set", "lo", "up")
        for i in (0, 1):
            sh("ip", "-n", self.ns, "link", "add", "a%d" % i, "type",
               "veth", "peer", "name", "b%d" % i)
            for d in ("a%d" % i, "b%d" % i):
                sh("ip", "netns", "exec", self.ns, "sysctl", "-qw",
                   "net.ipv6.conf.%s.disable_ipv6=1" % d)
                sh("ip", "-n", self.ns, "link", "set", d, "up")
        self.wrap = ["ip", "netns", "exec", self.ns]

    @staticmethod
    def members(side, extra=""):
        n = {"a": (0, 1), "b": (2, 3)}[side]
        return ["--vdev", "net_af_packet%d,iface=%s0%s" % (n[0], side, extra),
                "--vdev", "net_af_packet%d,iface=%s1%s" % (n[1], side, extra)]

    @staticmethod
    def bond(i, side, mode, extra=""):
        n = {"a": (0, 1), "b": (2, 3)}[side]
        return ["--vdev", "net_bonding%d,mode=%s,slave=net_af_packet%d,"
                "slave=net_af_packet%d%s" % (i, mode, n[0], n[1], extra)]

    def loopback_eal(self, tx_mode, rx_mode, extra=""):
        return self.nb.eal(self.members("a") + self.members("b") +
                           self.bond(0, "a", tx_mode, extra) +
                           self.bond(1, "b", rx_mode, extra))

    def check_members_add_up(self, port):
        b = port["bond"]
        for k in ("opackets", "ipackets", "obytes", "ibytes"):
            self.assertEqual(sum(m["pmd"][k] for m in b["members"]),
                             port["pmd"][k], (k, b))
        return [m["pmd"] for m in b["members"]]

    def test_loopback_every_mode(self):
        # mode: (TX bond's mode, RX bond's mode, devargs).  A TLB sender
        # (5) sends from each member with the member's own MAC, and a
        # TLB or active-backup receiver takes frames on its primary only
        # (a switch would have learnt the MACs): its receiver here is a
        # round-robin bond, which receives on every member.  802.3ad (4):
        # both bonds run LACP, and the tool waits until every member is
        # in step with its partner before the test (the bonds' LACP
        # frames are in the PMD's counters, not the tool's).
        modes = {0: (0, 0, ""), 1: (1, 1, ""),
                 2: (2, 2, ",xmit_policy=l34"), 3: (3, 3, ""),
                 4: (4, 4, ",xmit_policy=l34"),
                 5: (5, 0, ""), 6: (6, 6, "")}
        for mode, (tx_mode, rx_mode, extra) in modes.items():
            with self.subTest(mode=mode):
                r = self.nb.run(self.loopback_eal(tx_mode, rx_mode, extra),
                                ["--tx-port", "4", "--rx-port", "5",
                                 "--rate", "20kpps", "--time", "1",
                                 "--streams", "4", "--json"],
                                timeout=60, name="bond%d" % mode,
                                wrap=self.wrap)
                self.assertOk(r)
                e = r.json()["end"]
                sent = e["sum_sent"]["packets"]
                recv = e["sum_received"]
                self.assertEqual(sent, 20000)
                self.assertEqual(recv["lost_packets"], 0)
                tx, rx = e["ports"][0], e["ports"][1]
                self.assertEqual(tx["bond"]["mode"], tx_mode)
                self.assertEqual(rx["bond"]["mode"], rx_mode)
                out = [m["opackets"] for m in self.check_members_add_up(tx)]
                inn = [m["ipackets"] for m in self.check_members_add_up(rx)]
                copies = 2 if mode == 3 else 1
                if mode == 4:
                    self.check_lacp(tx, rx, sent, out, inn)
                    continue
                self.assertEqual(tx["pmd"]["opackets"],
                                 tx["tool_tx_packets"] * copies)
                self.assertEqual(rx["pmd"]["ipackets"],
                                 rx["tool_rx_packets"])
                # what each member carried, as the mode says
                if mode == 0:
                    self.assertEqual(out, [sent // 2, sent // 2])
                elif mode == 1:
                    self.assertEqual(out, [sent, 0])
                    self.assertEqual(inn, [sent, 0])
                elif mode == 3:
                    self.assertEqual(out, [sent, sent])
                    self.assertEqual(recv["duplicates"], sent)
                else:
                    self.assertTrue(all(n > 0 for n in out), out)
                    self.assertEqual(sum(out), sent)
                if mode != 3:
                    self.assertEqual(recv["packets"], sent)
                    self.assertEqual(recv["duplicates"], 0)

    def check_lacp(self, tx, rx, sent, out, inn):
        # every member in LACP with its partner, at the end as at the
        # start; the data exact; beside it in the PMD's counters only
        # LACP frames, as many sent by one bond as the other took in
        for port in (tx, rx):
            for m in port["bond"]["members"]:
                self.assertTrue(m["lacp"]["up"], m)
                self.assertEqual(m["lacp"]["state"] & 0x38, 0x38, m)
        self.assertEqual(tx["tool_tx_packets"], sent)
        self.assertEqual(rx["tool_rx_packets"], sent)
        extra_out = tx["pmd"]["opackets"] - sent
        extra_in = rx["pmd"]["ipackets"] - sent
        self.assertGreaterEqual(extra_out, 0)
        self.assertLessEqual(extra_out, 2 * 4)
        self.assertEqual(extra_in, extra_out)
        # the 5-tuple spread the four streams over both members
        self.assertTrue(all(n > 0 for n in out), out)
        self.assertTrue(all(n > 0 for n in inn), inn)

    def test_lacp_not_answered(self):
        # an 802.3ad bond whose far end runs no LACP (plain af_packet
        # ports there): refused before the test, naming the member
        eal = self.nb.eal(self.members("a") + [
            "--vdev", "net_af_packet2,iface=b0", "--vdev",
            "net_af_packet3,iface=b1"] + self.bond(0, "a", 4))
        r = self.nb.run(eal, ["--tx-port", "4", "--rx-port", "2",
                              "--time", "1", "--link-timeout", "4"],
                        timeout=60, name="nolacp", wrap=self.wrap)
        self.assertEqual(r.rc, 1, r.err)
        self.assertIn("bond port 4 (802.3ad): member 0 (LACP state", r.err)
        self.assertIn("is LACP on at the far end?", r.err)

    def test_members_are_the_bonds(self):
        eal = self.loopback_eal(0, 0)
        r = self.nb.run(eal, ["--list-ports", "--json"], timeout=60,
                        name="ports", wrap=self.wrap)
        self.assertOk(r)
        ports = r.json()["ports"]
        self.assertEqual([p["port"] for p in ports], [4, 5])
        self.assertEqual([[m["port"] for m in p["bond"]["members"]]
                          for p in ports], [[0, 1], [2, 3]])
        self.assertEqual(ports[0]["bond"]["mode_name"], "round-robin")
        # a member named as a test port: the bond's to configure
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "5"],
                        timeout=60, name="member", wrap=self.wrap)
        self.assertEqual(r.rc, 2, r.err)
        self.assertIn("port 0 is a member of bond port 4 (net_bonding0)",
                      r.err)

    def test_peer_through_bonds(self):
        # each end in a session of its own (the harness's default, as
        # from two terminals: two scheduler autogroups)
        self.peer_through_bonds(session=True)

    def test_peer_through_bonds_one_session(self):
        self.peer_through_bonds(session=False)

    def test_peer_through_lacp_bonds(self):
        # 802.3ad at both ends: the responder's control lcore keeps LACP
        # going between tests, its workers during them; the client waits
        # for LACP before it says hello
        self.peer_through_bonds(session=True, mode=4)

    def peer_through_bonds(self, session, mode=2):
        # With sched_autogroup_enabled=1 and each end in a session of its
        # own, the first test used to stall for the peer timeout every
        # time (the responder's worker read nothing off the member's
        # af_packet ring although the kernel had delivered the client's
        # frames); a responder bond in mode 1 or 2 was enough.  It went
        # away when the responder's EAL interrupt thread (the bond's link
        # checks, alarms), which EAL had put on CPU 1 beside the client's
        # busy worker, was moved to the control lcore's CPU:
        # nb_intr_thread_beside_main() does that at start.
        # balance-xor on the 5-tuple at both ends (a bond receives on
        # every member in this mode), each bond's members with one queue
        # pair: the control lcore shares it (nb_ctltx)
        resp_eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
                    "--file-prefix",
                    nbe2e.unique("resp"), "--log-level", "lib.eal:error"] \
            + self.members("b") + self.bond(1, "b", mode, ",xmit_policy=l34,"
                                            "mac=" + test_peer.RESP_MAC)
        p, argv, log = self.nb.start(resp_eal, ["--allow-quit"],
                                     name="resp", wrap=self.wrap,
                                     session=session)
        self.addCleanup(self.stop, p, log)
        self.assertIn("responder on port 2", p.stdout.readline())
        cli_eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES,
                   "--file-prefix",
                   nbe2e.unique("cli"), "--log-level", "lib.eal:error"] \
            + self.members("a") + self.bond(0, "a", mode, ",xmit_policy=l34")
        for direction in ("forward", "reverse"):
            with self.subTest(direction=direction):
                tool = ["--peer", test_peer.RESP_MAC, "--rate", "10000pps",
                        "--time", "1", "--streams", "4", "--json"]
                if direction == "reverse":
                    tool.append("--reverse")
                r = self.nb.run(cli_eal, tool, timeout=60, name="cli",
                                wrap=self.wrap, session=session)
                self.assertOk(r)
                e = r.json()["end"]
                self.assertEqual(e["sum_sent"]["packets"], 10000)
                self.assertEqual(e["sum_received"]["packets"], 10000)
                self.assertEqual(e["sum_received"]["lost_packets"], 0)
                me = e["ports"][0]
                # the PMD's counters hold LACP frames too (none expected
                # in a 1 s test once in step: LACPDUs every 30 s)
                lacp = 8 if mode == 4 else 0
                self.assertLessEqual(me["tool_tx_packets"],
                                     me["pmd"]["opackets"])
                self.assertLessEqual(me["pmd"]["opackets"],
                                     me["tool_tx_packets"] + lacp)
                self.assertLessEqual(me["tool_rx_packets"],
                                     me["pmd"]["ipackets"])
                self.assertLessEqual(me["pmd"]["ipackets"],
                                     me["tool_rx_packets"] + lacp)
                if mode == 4:
                    self.assertTrue(all(m["lacp"]["up"] for m in
                                        me["bond"]["members"]), me["bond"])
                per = self.check_members_add_up(me)
                k = "opackets" if direction == "forward" else "ipackets"
                self.assertTrue(all(m[k] > 0 for m in per), per)
        self.nb.run(cli_eal, ["--peer", test_peer.RESP_MAC, "--quit"],
                    timeout=60, name="quit", wrap=self.wrap,
                    session=session)
        p.wait(timeout=30)

    def test_peer_modes_at_1g(self):
        """Peer tests through bonds at both ends in round-robin,
        active-backup and broadcast, 1 Gbit/s of 1518 B frames each way
        (100 Mbit/s under the sanitizers, which slow the receivers
        threefold): what each member carried, as the mode says, and every
        frame received once.  (Modes 2 and 4 run above; 5 and 6 rewrite
        the source MAC per member, which a responder does not take as its
        client's: see usage.md, "Bonds".)"""
        rate = "100M" if nbe2e.SANITIZED else "1G"
        # af_packet's rings (8 MiB of 4096 frames a member): they absorb
        # a receiver kept off its CPU for 50 ms at 81 kpps.  With the
        # default 512, this VM lost 0.5 % at 1 Gbit/s in the kernel's
        # ring, which af_packet in DPDK 22.11 does not count (no
        # PACKET_STATISTICS): the PMD said imissed 0.
        for mode in (0, 1, 3):
            with self.subTest(mode=mode):
                self.peer_mode(mode, rate)

    def peer_mode(self, mode, rate):
        resp_eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
                    "--file-prefix",
                    nbe2e.unique("resp"), "--log-level", "lib.eal:error"] \
            + self.members("b", RING) + self.bond(
                1, "b", mode, ",mac=" + test_peer.RESP_MAC)
        p, argv, log = self.nb.start(resp_eal, ["--allow-quit"],
                                     name="resp%d" % mode, wrap=self.wrap)
        try:
            self.assertIn("responder on port 2", p.stdout.readline())
            cli_eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES,
                       "--file-prefix", nbe2e.unique("cli"), "--log-level",
                       "lib.eal:error"] + self.members("a", RING) + \
                self.bond(0, "a", mode)
            for direction in ("forward", "reverse"):
                tool = ["--peer", test_peer.RESP_MAC, "--rate", rate,
                        "--size", "1518", "--time", "1", "--json"]
                if direction == "reverse":
                    tool.append("--reverse")
                r = self.nb.run(cli_eal, tool, timeout=60,
                                name="cli%d" % mode, wrap=self.wrap)
                self.assertOk(r)
                self.check_peer_mode(r.json()["end"], mode, direction)
            self.nb.run(cli_eal, ["--peer", test_peer.RESP_MAC, "--quit"],
                        timeout=60, name="quit", wrap=self.wrap)
            p.wait(timeout=30)
        finally:
            self.stop(p, log)

    def check_peer_mode(self, e, mode, direction):
        sent = e["sum_sent"]["packets"]
        recv = e["sum_received"]
        # L1 1 Gbit/s of 1518 B frames: 81274 a second
        self.assertGreater(sent, 0)
        self.assertEqual(recv["lost_packets"], 0, (direction, recv))
        self.assertEqual(recv["packets"] - recv["duplicates"], sent)
        me = e["ports"][0]
        per = self.check_members_add_up(me)
        key = "opackets" if direction == "forward" else "ipackets"
        mine = [m[key] for m in per]
        tool = me["tool_tx_packets"] if direction == "forward" \
            else me["tool_rx_packets"]
        if mode == 3:
            # a copy of every frame on each member, and the far end's
            # receiver takes the second copy as a duplicate
            self.assertEqual(recv["duplicates"], sent)
            if direction == "forward":
                self.assertEqual(mine, [tool, tool])
        else:
            self.assertEqual(recv["duplicates"], 0)
            self.assertEqual(sum(mine), tool)
            if mode == 1:
                # active-backup: the primary carries everything
                self.assertEqual(mine, [tool, 0])
            else:
                # round-robin: frame by frame, so both carry half
                self.assertTrue(all(n > tool // 2 - 64 for n in mine),
                                mine)

    def stop(self, p, log):
        test_peer.PeerBase.stop(self, p, log)


class VirtioVhost(nbe2e.E2ECase):
    """A guest's view: virtio-user (the guest NIC's driver, one queue pair)
    against a vhost-user responder (the host's switch port)."""

    def test_peer_over_virtio_user(self):
        sock = os.path.join(self.tmpdir, nbe2e.unique("vh") + ".sock")
        resp_eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
                    "--file-prefix",
                    nbe2e.unique("resp"), "--log-level", "lib.eal:error",
                    "--vdev", "net_vhost0,iface=%s,queues=1" % sock]
        p, argv, log = self.nb.start(resp_eal, ["--allow-quit"],
                                     name="resp")
        self.addCleanup(self.stop, p, log)
        line = p.stdout.readline()
        m = re.search(r"responder on port 0 \(.*\) mac ([0-9a-f:]{17})",
                      line)
        self.assertIsNotNone(m, line)
        mac = m.group(1)
        base = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--log-level",
                "lib.eal:error", "--vdev",
                "net_virtio_user0,path=%s,queues=1" % sock]
        # vhost-user takes at most 8 memory regions: without one file of
        # hugepages the tool says what is missing before anything fails
        r = self.nb.run(base + ["--file-prefix", nbe2e.unique("cli")],
                        ["--peer", mac, "--time", "1", "--peer-timeout",
                         "1"], timeout=60, name="cli")
        self.assertIn("give the EAL option --single-file-segments", r.err)
        eal = base + ["--single-file-segments", "--file-prefix",
                      nbe2e.unique("cli")]
        for direction in ("forward", "reverse"):
            with self.subTest(direction=direction):
                tool = ["--peer", mac, "--rate", "20000pps", "--size",
                        "512", "--time", "1", "--json"]
                if direction == "reverse":
                    tool.append("--reverse")
                r = self.nb.run(eal, tool, timeout=60, name="cli")
                self.assertOk(r)
                self.assertNotIn("--single-file-segments", r.err)
                e = r.json()["end"]
                self.assertEqual(e["sum_sent"]["packets"], 20000)
                self.assertEqual(e["sum_received"]["packets"], 20000)
                self.assertEqual(e["sum_received"]["lost_packets"], 0)
                me = e["ports"][0]
                self.assertEqual(me["driver"], "net_virtio_user")
                self.assertEqual(me["tool_tx_packets"],
                                 me["pmd"]["opackets"])
                self.assertEqual(me["tool_rx_packets"],
                                 me["pmd"]["ipackets"])
        self.nb.run(eal, ["--peer", mac, "--quit"], timeout=60, name="quit")
        p.wait(timeout=30)

    def start_responder(self, sock, extra=()):
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("resp"), "--log-level", "lib.eal:error",
               "--vdev", "net_vhost0,iface=%s,queues=1" % sock]
        p, argv, log = self.nb.start(eal, list(extra), name="resp")
        self.addCleanup(self.stop, p, log)
        line = p.stdout.readline()
        m = re.search(r"responder on port 0 \(.*\) mac ([0-9a-f:]{17})",
                      line)
        self.assertIsNotNone(m, line)
        return p, m.group(1)

    def checksums(self, path):
        """{(ip proto, checksum status): frames} of a pcap, as tshark
        validates them (status 1 good, 0 bad)."""
        if TSHARK is None:
            self.fail("tshark is not installed (package tshark)")
        r = subprocess.run(
            [TSHARK, "-r", path, "-o", "udp.check_checksum:TRUE", "-o",
             "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE",
             "-T", "fields", "-e", "ip.proto", "-e", "udp.checksum.status",
             "-e", "tcp.checksum.status", "-e", "ip.checksum.status"],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = {}
        for line in r.stdout.splitlines():
            proto, udp, tcp, ip = (line.split("\t") + ["", "", ""])[:4]
            self.assertEqual(ip, "1", "bad IPv4 header checksum: " + line)
            key = (int(proto), int(udp or tcp))
            out[key] = out.get(key, 0) + 1
        return out

    def test_tx_checksum_offload(self):
        """virtio-user and vhost-user offer UDP/TCP TX checksum offload:
        with --tx-checksum auto the generator leaves the checksum to the
        device (its frames carry only the pseudo-header's sum; the device
        completes it), with sw it computes it per frame.  Either way every
        frame the receiver captured has a correct checksum (tshark); the
        JSON says which way each end's port went."""
        sock = os.path.join(self.tmpdir, nbe2e.unique("vh") + ".sock")
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--log-level",
               "lib.eal:error", "--single-file-segments", "--vdev",
               "net_virtio_user0,path=%s,queues=1" % sock]
        n, proto_num = 20000, {"udp": 17, "tcp": 6}
        for proto, mode, direction in (("udp", "auto", "forward"),
                                       ("tcp", "auto", "forward"),
                                       ("udp", "sw", "forward"),
                                       ("tcp", "auto", "reverse")):
            with self.subTest(proto=proto, mode=mode, direction=direction):
                cap = os.path.join(self.tmpdir, nbe2e.unique("ck") + ".pcap")
                resp, mac = self.start_responder(
                    sock, ["--one-off"] +
                    (["--capture", cap] if direction == "forward" else []))
                tool = ["--peer", mac, "--proto", proto, "--tx-checksum",
                        mode, "--rate", "20000pps", "--size", "512,64",
                        "--time", "1", "--json"]
                if direction == "reverse":
                    tool += ["--reverse", "--capture", cap]
                r = self.nb.run(eal + ["--file-prefix", nbe2e.unique("cli")],
                                tool, timeout=60, name="cli")
                self.assertOk(r)
                resp.wait(timeout=30)
                d = r.json()
                e = d["end"]
                self.assertEqual(e["sum_sent"]["packets"], n)
                self.assertEqual(e["sum_received"]["packets"], n)
                off = e["ports"][0]["offloads"]
                self.assertEqual(off["tx_checksum"],
                                 "hw" if mode == "auto" else "sw")
                self.assertIn("net_virtio_user", off["tx_checksum_why"])
                self.assertIn(d["start"]["ports"][0]["offloads"]["tx_checksum"],
                              ("hw", "sw"))
                got = self.checksums(cap)
                bad = {k: v for k, v in got.items() if k[1] != 1}
                self.assertEqual(bad, {}, got)
                # the data frames (all of them: the capture takes every
                # frame) and the control frames, all good
                self.assertGreaterEqual(got.get((proto_num[proto], 1), 0),
                                        n)

    def test_tcp_zero_copy_over_virtio_user(self):
        """--tcp over virtio-user to a vhost-user responder: the client's
        data segments leave as two mbufs, the second attached to the
        pattern's memzone, which the vhost side reads through the memory
        the client shares with it (virtio-user hands it virtual
        addresses, not the IOVA a NIC would DMA from); the responder
        counts and checks every byte of --bytes 20M."""
        sock = os.path.join(self.tmpdir, nbe2e.unique("vh") + ".sock")
        resp, mac = self.start_responder(sock, ["--one-off"])
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--log-level",
               "lib.eal:error", "--single-file-segments", "--file-prefix",
               nbe2e.unique("cli"), "--vdev",
               "net_virtio_user0,path=%s,queues=1" % sock]
        total = 20 * 1024 * 1024
        r = self.nb.run(eal, ["--peer", mac, "--tcp", "--bytes",
                              str(total), "--json"], timeout=90, name="cli")
        self.assertOk(r)
        resp.wait(timeout=30)
        d = r.json()
        nb, e = d["nbench"], d["end"]
        self.assertNotIn("error", d)
        self.assertEqual(nb["tx_payload"], "zero-copy")
        self.assertEqual(nb["connections_closed"], 1)
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["payload"], "checked")
        # what the responder took in, in order and checked
        self.assertEqual(e["sum_received"]["bytes"], total)
        self.assertEqual(e["sum_sent"]["bytes"], total)
        # every frame the client's tool sent went through virtio-user's
        # PMD (control frames beside them), and the responder counted no
        # frame it could not take
        me = nb["ports"][0]
        self.assertGreaterEqual(me["pmd"]["opackets"], me["tool_tx_packets"])
        self.assertGreater(me["tool_tx_packets"], total // 1460)
        rsp = nb["responder"]
        self.assertEqual(rsp["bad_checksum"], 0)
        self.assertEqual(rsp["foreign"], 0)
        self.assertEqual(rsp["stray"], 0)

    def stop(self, p, log):
        test_peer.PeerBase.stop(self, p, log)


if __name__ == "__main__":
    nbe2e.main()
