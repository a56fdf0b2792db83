# SPDX-License-Identifier: BSD-3-Clause
"""Frames on the wire, checked by an independent decoder: the generator
writes through DPDK's pcap PMD (tx_pcap=) and tshark must decode every
frame as IPv4/UDP or IPv4/TCP with valid IPv4 and L4 checksums, carrying
the stream id in the IPv4 Identification and 49152 + id as source port."""
import os
import shutil
import subprocess
import unittest

import nbe2e

TSHARK = shutil.which("tshark")


class Pcap(nbe2e.E2ECase):

    def capture(self, tool):
        path = os.path.join(self.tmpdir, "tx.pcap")
        vdevs = ["--vdev", "net_pcap0,tx_pcap=%s" % path,
                 "--vdev", "net_null0,no-rx=1"]
        r = self.nb.run(self.nb.eal(vdevs),
                        ["--tx-port", "0", "--rx-port", "1", "--json",
                         "--rate", "100Kpps"] + tool, name="pcap")
        self.assertOk(r)
        return path, r.json()

    def fields(self, path, proto):
        f = ["frame.len", "ip.id", "ip.checksum.status",
             "%s.srcport" % proto, "%s.dstport" % proto,
             "%s.checksum.status" % proto, "vlan.id"]
        argv = [TSHARK, "-r", path, "-n", "-T", "fields", "-E",
                "separator=,", "-o", "ip.check_checksum:TRUE",
                "-o", "%s.check_checksum:TRUE" % proto]
        for x in f:
            argv += ["-e", x]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [line.split(",") for line in p.stdout.splitlines()]
        return [dict(zip(f, row)) for row in rows]

    def check(self, proto, vlan):
        if TSHARK is None:
            self.fail("tshark is not installed (scripts/setup.sh installs it)")
        n, streams, sizes = 300, 3, [64, 65, 1518]
        tool = ["--packets", str(n), "--streams", str(streams), "--size",
                ",".join(map(str, sizes)), "--proto", proto]
        if vlan:
            tool += ["--vlan", str(vlan)]
        path, d = self.capture(tool)
        self.assertEqual(d["end"]["sum_sent"]["packets"], n)
        rows = self.fields(path, proto)
        self.assertEqual(len(rows), n)
        seen_sizes = set()
        for row in rows:
            sid = int(row["ip.id"], 16) if row["ip.id"].startswith("0x") \
                else int(row["ip.id"])
            self.assertIn(sid, range(streams))
            self.assertEqual(row["ip.checksum.status"], "1")   # 1 = good
            self.assertEqual(row["%s.checksum.status" % proto], "1")
            self.assertEqual(int(row["%s.srcport" % proto]), 49152 + sid)
            self.assertEqual(int(row["%s.dstport" % proto]), 5001)
            if vlan:
                self.assertEqual(int(row["vlan.id"]), vlan)
            else:
                self.assertEqual(row["vlan.id"], "")
            # pcap holds the frame without its 4 B FCS
            seen_sizes.add(int(row["frame.len"]) + 4)
        self.assertEqual(seen_sizes, set(sizes))
        # every stream gets every size
        per = {}
        for row in rows:
            per.setdefault(row["ip.id"], set()).add(int(row["frame.len"]))
        for s in per.values():
            self.assertEqual(len(s), len(sizes))

    def test_udp(self):
        self.check("udp", 0)

    def test_tcp(self):
        self.check("tcp", 0)

    def test_udp_vlan(self):
        self.check("udp", 100)

    def test_tcp_vlan(self):
        self.check("tcp", 4094)

    def test_addresses_on_the_wire(self):
        """--src-ip, --dst-ip, --src-mac and --dst-mac as tshark reads
        them in every frame written."""
        if TSHARK is None:
            self.fail("tshark is not installed (scripts/setup.sh installs it)")
        want = {"eth.src": "02:aa:bb:cc:dd:01", "eth.dst": "02:aa:bb:cc:dd:02",
                "ip.src": "198.18.7.7", "ip.dst": "198.19.8.8"}
        path, d = self.capture(["--packets", "100", "--streams", "2",
                                "--src-mac", want["eth.src"],
                                "--dst-mac", want["eth.dst"],
                                "--src-ip", want["ip.src"],
                                "--dst-ip", want["ip.dst"]])
        self.assertEqual(d["end"]["sum_sent"]["packets"], 100)
        argv = [TSHARK, "-r", path, "-n", "-T", "fields", "-E",
                "separator=,"]
        for k in want:
            argv += ["-e", k]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [dict(zip(want, l.split(","))) for l in p.stdout.splitlines()]
        self.assertEqual(len(rows), 100)
        for row in rows:
            self.assertEqual(row, want)


if __name__ == "__main__":
    nbe2e.main()
