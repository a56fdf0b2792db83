#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Suites and size sweeps in peer mode: the client runs one session with
the responder per trial.  The device under test is a Linux bridge with a
tbf rate limit between the client and the responder (an oracle
independent of the search, as for loopback in test_suite.py); the
ping-pong sweep gives round trips against size, each size's probes really
that size (the client port's PMD byte counts say so)."""
import json
import os
import signal
import subprocess

import nbe2e
from test_peer import PeerBase, RESP_MAC
from test_suite import BridgeBase


class PeerBridge(BridgeBase):
    """Client on tA, responder on tB, both in namespace T; the bridge in S
    limits what reaches the responder with tbf."""

    def start_responder(self):
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("bresp"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tB,qpairs=2"]
        argv = ["ip", "netns", "exec", self.t, nbe2e.BIN] + eal + \
            ["--", "--allow-quit"]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             start_new_session=True)

        def stop():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGINT)
            try:
                p.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        self.addCleanup(stop)
        line = p.stdout.readline()
        self.assertIn("responder on port 0", line, line)

    def client(self, tool):
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
               nbe2e.unique("bcli"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA,qpairs=2"]
        argv = ["ip", "netns", "exec", self.t, nbe2e.BIN] + eal + \
            ["--", "--peer", "198.19.0.1", "--json"] + tool
        r = subprocess.run(argv, capture_output=True, text=True,
                           timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        return nbe2e.loads(r.stdout)

    def test_throughput_finds_the_qdisc_rate(self):
        """--test throughput --size 1518 over sessions, through a bridge
        limited to 50 Mbit/s: the throughput as the qdisc counts it
        (frame bytes without the FCS) within 2 % of the limit, the limit
        between the bounds give or take the precision."""
        limit, prec = 50e6, 0.25e6
        self.limit(limit)
        self.start_responder()
        d = self.client(["--test", "throughput", "--size", "1518",
                         "--rate", "100M", "--trial-time", "3",
                         "--settle", "0.3", "--precision", "0.25M"])
        self.assertEqual(d["start"]["topology"], "peer")
        self.check_found_limit(d, limit, prec)
        # each trial a session: the responder counted what the client's
        # trial lost (lost = sent - received, never negative)
        for t in d["suite"]["trials"]:
            self.assertEqual(t["lost_packets"],
                             t["tx_packets"] - t["rx_packets"], t)


class PeerSuite(PeerBase):

    def test_pingpong_sweep_one_rtt_row_per_size(self):
        """--pingpong --size 64:1518:*2: one round-trip row per size, in
        text and JSON; the probes are of each size."""
        self.responder()
        r = self.client(["--pingpong", "--size", "64:1518:*2", "--time",
                         "0.5", "--settle", "0.1"], timeout=120)
        self.assertIn("Ping-pong sweep", r.out)
        rows = [l.split() for l in r.out.splitlines()
                if l.split() and l.split()[0] in
                ("64", "128", "256", "512", "1024", "1518")]
        self.assertEqual([x[0] for x in rows],
                         ["64", "128", "256", "512", "1024", "1518"], r.out)
        d = self.client(["--pingpong", "--size", "64:1518:*2", "--time",
                         "0.5", "--settle", "0.1", "--json"],
                        timeout=120).json()
        res = d["suite"]["results"]
        self.assertEqual([x["size"] for x in res],
                         [64, 128, 256, 512, 1024, 1518])
        for x in res:
            t = x["result"]
            self.assertGreater(t["tx_packets"], 100)   # probes sent
            self.assertEqual(t["lost_packets"],
                             t["tx_packets"] - t["rx_packets"])
            lat = t["latency"]
            self.assertEqual(lat["count"], t["rx_packets"])
            # a round trip through memif and the responder's worker
            self.assertGreater(lat["min_ns"], 0)
            self.assertLess(lat["min_ns"], 1000000)
        # one size alone: the port's own counters show its probes' length
        d = self.client(["--pingpong", "--size", "1518", "--time", "0.5",
                         "--json"]).json()
        pmd = d["end"]["ports"][0]["pmd"]
        probes = d["end"]["rtt"]["probes_sent"]
        self.assertGreater(probes, 100)
        # all but a few control frames are 1514 B probes (no FCS on memif)
        self.assertGreater(pmd["obytes"], (probes - 5) * 1514)
        self.assertLess(pmd["obytes"], probes * 1514 + 100 * 400)

    def test_suite_refusals(self):
        """Both ways at once, or a search with ping-pong: usage errors."""
        for tool, text in ((["--bidir", "--test", "throughput"],
                            "one direction"),
                           (["--pingpong", "--test", "throughput"],
                            "no rate to search"),
                           (["--pingpong", "--size", "4096"],
                            "at most 2048")):
            r = self.nb.run(self.client_eal(), ["--peer", RESP_MAC] + tool,
                            name="refused")
            self.assertOk(r, 2)
            self.assertIn(text, r.err)


if __name__ == "__main__":
    nbe2e.main()
