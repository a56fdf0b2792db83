# SPDX-License-Identifier: BSD-3-Clause
"""Port bring-up on net_null, a memif pair and af_packet over veth."""
import os
import socket
import threading
import time
import unittest

import nbe2e


class BringUp(nbe2e.E2ECase):

    def ports(self, vdevs):
        r = self.nb.run(self.nb.eal(vdevs), ["--list-ports", "--json"],
                        timeout=60, name="ports")
        self.assertOk(r)
        return r.json()

    def test_net_null(self):
        d = self.ports(["--vdev", "net_null0", "--vdev", "net_null1"])
        ports = d["ports"]
        self.assertEqual([p["port"] for p in ports], [0, 1])
        for p in ports:
            self.assertEqual(p["driver"], "net_null")
            self.assertTrue(p["link_up"])
            self.assertEqual(p["link_speed_mbps"], 10000)
            # the device as its PMD reports it, beside the driver's
            # profile (app/core/nb_drivers.c: net_null offers RSS over
            # addresses and ports, 1024 queues) and the offload plan
            self.assertEqual(p["bus"], "vdev")
            # and its extended counters: ethdev's basic ones and their
            # per-queue copies for the one queue pair --list-ports sets
            # up (net_null has none of its own; its profile names none)
            self.assertEqual(p["device"], {
                "caps": ["rss_ip", "rss_l4"], "max_rx_queues": 1024,
                "max_tx_queues": 1024, "xstats": [
                    "rx_good_packets", "tx_good_packets", "rx_good_bytes",
                    "tx_good_bytes", "rx_missed_errors", "rx_errors",
                    "tx_errors", "rx_mbuf_allocation_errors",
                    "rx_q0_packets", "rx_q0_bytes", "rx_q0_errors",
                    "tx_q0_packets", "tx_q0_bytes"]})
            prof = p["profile"]
            self.assertTrue(prof["agrees"], prof)
            self.assertEqual((prof["missing"], prof["extra"]), ([], []))
            self.assertEqual((prof["xstats"], prof["xstats_missing"]),
                             ([], []))
            self.assertEqual(prof["caps"], p["device"]["caps"])
            self.assertEqual(p["offloads"]["tx_checksum"], "sw")
        self.assertIn("control=0 stats=1", d["lcore_map"])

    def test_memif_pair_one_process(self):
        d = self.ports(self.nb.memif_pair())
        ports = d["ports"]
        self.assertEqual(len(ports), 2)
        self.assertEqual({p["driver"] for p in ports}, {"net_memif"})
        self.assertTrue(all(p["link_up"] for p in ports))
        self.assertNotEqual(ports[0]["mac"], ports[1]["mac"])
        for p in ports:
            self.assertEqual(p["device"]["caps"], [])
            self.assertTrue(p["profile"]["agrees"], p["profile"])
        # the text form says the same, a line a port
        r = self.nb.run(self.nb.eal(self.nb.memif_pair()),
                        ["--list-ports"], timeout=60, name="ports-text")
        self.assertOk(r)
        self.assertEqual(r.out.count(
            "  device: bus vdev, 255 RX / 255 TX queues at most, offers "
            "no offloads; as its profile says\n"), 2, r.out)

    def test_memif_client_dials_again(self):
        """A memif server that drops the client's connection (DPDK 22.11's
        answer while its port is probed but not started: "ID not found")
        leaves DPDK's client down for good; dpdk-nbench restarts the port,
        about once a second, until --link-timeout."""
        path = os.path.join(self.tmpdir, "drop.sock")
        # the abstract name memif uses (no file), as DPDK 22.11.11 binds it
        name = b"\0" + path.encode()
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        srv.bind(name)
        srv.listen(4)
        srv.settimeout(0.2)
        self.addCleanup(srv.close)
        seen, stop = [], threading.Event()

        def serve():
            while not stop.is_set():
                try:
                    c, _ = srv.accept()
                except socket.timeout:
                    continue
                seen.append(time.monotonic())
                c.close()   # hang up before the hello
        t = threading.Thread(target=serve, daemon=True)
        t.start()
        eal = self.nb.eal(["--vdev", "net_memif0,role=client,socket=%s"
                           % path], workers=1)
        r = self.nb.run(eal, ["--peer", "02:00:00:00:00:99", "--reflector",
                              "--time", "1", "--link-timeout", "3.5"],
                        name="redial")
        stop.set()
        t.join()
        self.assertOk(r, 1)
        self.assertIn("link still down after 3.5 s", r.err)
        self.assertIn("restarting it to dial its server again", r.err)
        # the first dial and one a second after it, never a tight loop
        # (3.5 s holds at most 3 restarts; the gaps are seen at accept(),
        # whose thread a loaded host may run late, hence 0.5 s, not 1)
        self.assertGreaterEqual(len(seen), 2, r.err)
        self.assertLessEqual(len(seen), 4, r.err)
        gaps = [b - a for a, b in zip(seen, seen[1:])]
        self.assertGreaterEqual(min(gaps), 0.5, gaps)

    def test_af_packet_over_veth(self):
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        ns = "nb%d" % (os.getpid() % 100000)
        nbe2e.netns_up(ns)
        self.addCleanup(nbe2e.netns_down, ns)
        # The veth end stays in its namespace: run the tool inside it.
        eal = self.nb.eal(["--vdev", "net_af_packet0,iface=%sva" % ns])
        import subprocess
        argv = ["ip", "netns", "exec", ns + "a", nbe2e.BIN] + eal + [
            "--", "--list-ports", "--json"]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        import json
        d = nbe2e.loads(p.stdout)
        self.assertEqual(len(d["ports"]), 1)
        self.assertEqual(d["ports"][0]["driver"], "net_af_packet")
        self.assertTrue(d["ports"][0]["link_up"])


if __name__ == "__main__":
    nbe2e.main()
