#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Multicast through an IGMP/MLD-snooping Linux bridge, against the
bridge's own view:

- One sender veth and three receiver veths on a bridge with
  mcast_snooping 1 and mcast_querier 1 (without a querier a Linux bridge
  floods every group).  Ports 1 and 2 join 239.1.1.1 (--join 1,2), port 3
  does not: the joined ports receive every frame sent, port 3 none.  The
  oracle: a tc flower filter on the egress of each bridge port counts the
  group's UDP frames the bridge sent toward that receiver, and
  `bridge mdb show`, read while the test runs, lists exactly the two
  joined ports (and none once their leaves are in).  IGMPv3 and IGMPv2.
- Nobody joins: the bridge floods the unregistered group to ports with
  mcast_flood on (every port gets every frame: "flooded") and drops it
  toward ports with mcast_flood off (all 0: "not forwarded").
- IPv6: ports 1 and 2 join ff0e::1 with MLDv2 reports, port 3 does not.
- Broadcast (--dst-mac ff:ff:ff:ff:ff:ff): every port gets every frame.
"""
import json
import os
import shutil
import signal
import subprocess
import threading
import time
import unittest

import nbe2e

TSHARK = shutil.which("tshark")

GROUP4, GROUP6 = "239.1.1.1", "ff0e::1"
N, RATE = 1500, "1kpps"


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True)


@unittest.skipIf(TSHARK is None, "tshark is not installed (package tshark)")
class McastBase(nbe2e.E2ECase):
    """pa (the tool's port 0) -- ba, and p1..p3 (ports 1..3) -- b1..b3, on
    bridge brm in the test's namespace."""

    BR_PORTS = ("b1", "b2", "b3")
    IPV6, QUERIER = False, True
    dst = GROUP4  # what the IPv4 capture counts

    def bridge_ipv6(self):
        """The bridge's link-local address, which its MLD queries come
        from (without it the bridge is no MLD querier, and floods)."""
        for k in ("accept_dad=0", "disable_ipv6=0"):
            sh(*self.wrap, "sysctl", "-qw", "net.ipv6.conf.brm." + k)
        deadline = time.monotonic() + 10
        while "fe80" not in sh(*self.wrap, "ip", "-6", "addr", "show",
                               "dev", "brm").stdout:
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)

    def setUp(self):
        super().setUp()
        self.veth_namespace("nsm", (("pa", "ba"), ("p1", "b1"),
                                    ("p2", "b2"), ("p3", "b3")),
                            bridge="brm")
        ip = ["ip", "-n", self.ns]
        if self.IPV6:
            self.bridge_ipv6()
        # a leave takes 0.2 s (two unanswered last-member queries)
        sh(*ip, "link", "set", "brm", "type", "bridge", "mcast_snooping",
           "1", "mcast_query_response_interval", "50",
           "mcast_last_member_interval", "10")
        if self.QUERIER:
            # the bridge is the querier: without one, a Linux bridge
            # floods every group
            sh(*ip, "link", "set", "brm", "type", "bridge",
               "mcast_querier", "1")
            # one that turns its querier on waits one query response
            # interval (here 0.5 s) for another querier before it is one
            time.sleep(1)
        for d in ("pa", "ba", "p1", "b1", "p2", "b2", "p3", "b3", "brm"):
            subprocess.run(self.wrap + ["ethtool", "-K", d, "tx", "off",
                                        "tso", "off", "gso", "off"],
                           capture_output=True)

    def capture(self, family):
        """tshark on the three bridge ports (what the bridge sends toward
        each receiver), the group's UDP frames only."""
        self.pcap = os.path.join(self.tmpdir, "group.pcapng")
        filt = "udp and dst host %s" % (GROUP6 if family == 6 else
                                        self.dst)
        # -f before the -i's: the filter of every interface
        argv = [TSHARK, "-n", "-B", "16", "-f", filt]
        for b in self.BR_PORTS:
            argv += ["-i", b]
        self.cap = self.tshark(argv + ["-a", "duration:120", "-w",
                                       self.pcap])

    def group_frames(self):
        """What the capture saw on each bridge port: the bridge's frames
        of the group toward each receiver."""
        time.sleep(2)
        os.killpg(self.cap.pid, signal.SIGINT)
        self.tshark_end(self.cap, 20)
        names = subprocess.run(
            [TSHARK, "-n", "-r", self.pcap, "-T", "fields", "-e",
             "frame.interface_name"], check=True, capture_output=True,
            text=True).stdout.split()
        got = {b: names.count(b) for b in self.BR_PORTS}
        print("bridge ports' group frames:", got)
        return got

    def mdb_ports(self, group):
        """The bridge ports the mdb lists for group."""
        d = json.loads(sh(*self.wrap, "bridge", "-j", "mdb",
                          "show").stdout or "[]")
        ports = set()
        for br in d:
            for e in br.get("mdb", []):
                if e.get("grp") == group:
                    ports.add(e.get("port"))
        return ports

    def run_mcast(self, opts, name, dst_ip=GROUP4, watch=None):
        """The test, with the mdb read every 50 ms while it runs (watch:
        the group whose ports to collect)."""
        seen, stop = set(), threading.Event()

        def poll():
            while not stop.is_set():
                try:
                    seen.update(self.mdb_ports(watch))
                except (subprocess.CalledProcessError, ValueError):
                    pass
                time.sleep(0.05)

        t = threading.Thread(target=poll)
        if watch:
            t.start()
        # receive rings with room for a worker kept off its CPU by tshark
        eal = self.nb.eal(["--vdev", "net_af_packet0,iface=pa"] + [
            x for i in (1, 2, 3) for x in (
                "--vdev", "net_af_packet%d,iface=p%d,framecnt=4096" % (i, i))])
        try:
            r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1,2,3",
                                  "--dst-ip", dst_ip, "--packets", str(N),
                                  "--rate", RATE, "--json"] + opts,
                            name=name, wrap=self.wrap)
        finally:
            stop.set()
            if watch:
                t.join()
        self.assertOk(r)
        return r.json(), seen

    def rx_ports(self, d):
        e = d["end"]
        self.assertEqual(e["sum_sent"]["packets"], N)
        return {p["port"]: p for p in e["rx_ports"]}

    def check_joined_two(self, d, seen, group):
        """Ports 1 and 2 joined and got every frame; port 3 none."""
        rx = self.rx_ports(d)
        bridge = self.group_frames()
        for port in (1, 2):
            p = rx[port]
            self.assertTrue(p["joined"])
            self.assertEqual((p["sent"], p["received"], p["unique"],
                              p["lost"]), (N, N, N, 0), p)
            self.assertEqual(p["verdict"],
                             "joined, received %d of %d: forwarded" % (N, N))
            self.assertEqual(bridge["b%d" % port], N)
        p = rx[3]
        self.assertFalse(p["joined"])
        self.assertEqual((p["received"], p["lost"]), (0, N))
        self.assertEqual(p["verdict"], "not joined, received 0: not "
                         "forwarded")
        self.assertEqual(bridge["b3"], 0)
        # the bridge learnt the two joined ports, and only them
        self.assertEqual(seen, {"b1", "b2"})
        # and their leaves remove them (the bridge's last-member queries
        # go unanswered: 2 x 0.1 s)
        deadline = time.monotonic() + 10
        while self.mdb_ports(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(self.mdb_ports(group), set())


class Joined(McastBase):

    def test_igmpv3_two_of_three_join(self):
        self.capture(4)
        d, seen = self.run_mcast(["--join", "1,2"], "igmp3", watch=GROUP4)
        self.check_joined_two(d, seen, GROUP4)

    def test_igmpv2_two_of_three_join(self):
        self.capture(4)
        d, seen = self.run_mcast(["--join", "1,2", "--igmp", "2"], "igmp2",
                                 watch=GROUP4)
        self.check_joined_two(d, seen, GROUP4)


class Joined6(McastBase):

    IPV6 = True

    def test_mldv2_two_of_three_join(self):
        self.capture(6)
        d, seen = self.run_mcast(["--join", "1,2"], "mld2", dst_ip=GROUP6,
                                 watch=GROUP6)
        self.check_joined_two(d, seen, GROUP6)


class NobodyJoins(McastBase):

    def test_unregistered_group_is_not_forwarded(self):
        """A snooping bridge with a querier sends a group nobody joined
        to multicast routers only: none here."""
        self.capture(4)
        d, _ = self.run_mcast(["--join", "none"], "nojoin")
        rx = self.rx_ports(d)
        bridge = self.group_frames()
        for port in (1, 2, 3):
            p = rx[port]
            self.assertFalse(p["joined"])
            self.assertEqual((p["received"], p["lost"]), (0, N))
            self.assertEqual(p["verdict"],
                             "not joined, received 0: not forwarded")
            self.assertEqual(bridge["b%d" % port], 0)
        self.assertEqual(self.mdb_ports(GROUP4), set())


class NoQuerier(McastBase):

    QUERIER = False

    def test_flooded_where_mcast_flood_is_on(self):
        """Without a querier the bridge floods the group: to the ports
        with mcast_flood on (b1, b2), not to b3 (off)."""
        sh("bridge", "-n", self.ns, "link", "set", "dev", "b3",
           "mcast_flood", "off")
        self.capture(4)
        d, _ = self.run_mcast(["--join", "none"], "flood")
        rx = self.rx_ports(d)
        bridge = self.group_frames()
        for port in (1, 2):
            p = rx[port]
            self.assertFalse(p["joined"])
            self.assertEqual((p["received"], p["unique"], p["lost"]),
                             (N, N, 0))
            self.assertEqual(p["verdict"],
                             "not joined, received %d: flooded" % N)
            self.assertEqual(bridge["b%d" % port], N)
        self.assertEqual((rx[3]["received"], rx[3]["lost"]), (0, N))
        self.assertEqual(rx[3]["verdict"],
                         "not joined, received 0: not forwarded")
        self.assertEqual(bridge["b3"], 0)


class Broadcast(McastBase):

    dst = "198.19.0.1"

    def test_broadcast_reaches_every_port(self):
        """--dst-mac ff:ff:ff:ff:ff:ff: the bridge floods it to every
        port, and no port joins anything."""
        self.capture(4)
        d, _ = self.run_mcast(["--dst-mac", "ff:ff:ff:ff:ff:ff"], "bcast",
                              dst_ip="198.19.0.1")
        rx = self.rx_ports(d)
        bridge = self.group_frames()
        for port in (1, 2, 3):
            p = rx[port]
            self.assertFalse(p["joined"])
            self.assertEqual((p["received"], p["unique"], p["lost"]),
                             (N, N, 0))
            self.assertEqual(p["verdict"], "received %d of %d" % (N, N))
            self.assertEqual(bridge["b%d" % port], N)


if __name__ == "__main__":
    unittest.main(verbosity=2)
