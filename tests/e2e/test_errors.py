# SPDX-License-Identifier: BSD-3-Clause
"""Usage errors exit 2 and name the offending token; no hugepages needed."""
import subprocess
import unittest

import nbe2e


def run(args):
    return subprocess.run([nbe2e.BIN] + args, capture_output=True, text=True,
                          timeout=30)


class Errors(unittest.TestCase):

    def test_help_lists_every_option(self):
        p = run(["--help"])
        self.assertEqual(p.returncode, 0)
        for opt in ["--rate", "--size", "--proto", "--streams", "--vlan",
                    "--time", "--packets", "--bytes", "--omit",
                    "--interval", "--tx-port", "--rx-port", "--json",
                    "--list-ports", "--queues", "--drain"]:
            self.assertIn(opt, p.stdout)

    def test_unknown_option(self):
        p = run(["--", "--bogus-opt"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--bogus-opt", p.stderr)

    def test_bad_values_name_the_token(self):
        cases = [
            (["--rate", "10X"], "10X"),
            (["--size", "63"], "63"),
            (["--size", "9001"], "9001"),
            (["--proto", "sctp"], "sctp"),
            (["--tx-checksum", "on"], "want auto, hw or sw"),
            (["--streams", "0"], "--streams"),
            (["--vlan", "4095"], "4095"),
            (["--tx-port", "0", "--rx-port", "0"], "port 0"),
            (["--time"], "--time"),
            (["--rate", "1G", "--rate", "2G"], "twice"),
            (["--tx-port", "0", "--rx-port", "1", "--packets", "10",
              "--bytes", "10"], "--bytes"),
        ]
        for args, token in cases:
            with self.subTest(args=args):
                p = run(["--"] + args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(token, p.stderr)

    def test_bad_stacks_before_eal(self):
        # issue 35's bad inputs: each a usage error naming what is wrong,
        # before EAL starts (no hugepages touched)
        lo = ["--tx-port", "0", "--rx-port", "1"]
        cases = [
            (["--encap", "vxlan:16777216"], "24 bits"),
            (["--encap", "mpls:16/1048576"], "20 bits"),
            (["--encap", "mpls:" + "/".join(["1"] * 9)], "at most 8"),
            (["--qinq", "200"], "OUTER,INNER"),
            (["--tpid", "0x88a8"], "needs --qinq"),
            (["--pcp", "3"], "needs --vlan"),
            (["--src-ip", "239.1.1.1"], "never a source"),
            (["--src-ip", "ff02::1", "--dst-ip", "2001:db8::1"],
             "never a source"),
            (["--encap", "gre", "--tunnel-src", "224.0.0.5"],
             "never a source"),
            (["--src-ip", "10.0.0.1", "--dst-ip", "2001:db8::1"],
             "one family"),
            (["-6", "--src-ip", "198.18.0.1"], "one family"),
            (["--qinq", "010,20", "--tpid", "010"], "--tpid"),
            (["--tunnel-dst", "10.0.0.1"], "need --encap"),
            (["--encap", "vxlan:1", "--tunnel-src", "10.0.0.1",
              "--tunnel-dst", "2001:db8::1"], "one family"),
            (["--dscp", "0,8,16", "--streams", "2"], "--streams 3"),
            (["-6", "--size", "64"], "need 80 B"),
            (["--encap", "vxlan:5", "--size", "64,128"], "need 110 B"),
            # the MTU a QinQ frame needs
            (["--qinq", "1,2", "--size", "1522", "--mtu", "1500"],
             "--mtu 1500 is too small"),
            (["-6", "--tcp", "--dscp", "46"], "--tcp carries IPv4 or IPv6"),
            # --flows': empty, overlapping and too narrow ranges, and
            # what it cannot go with
            (["--flows", "8", "--flow-src-port", "9-8"], "range is empty"),
            (["--flows", "8", "--flow-src-ip", "10.0.0.1-10.0.0.9",
              "--flow-dst-ip", "10.0.0.9-10.0.0.20"], "overlap"),
            (["--flows", "100", "--flow-dst-port", "1-50"],
             "only 50 distinct"),
            (["--flows", "8", "--flow-dst-port", "7201-7201"],
             "control (7201) or VXLAN (4789)"),
            (["--flows", "2", "--streams", "4"], "at least one flow"),
            (["--flows", "1048577"], "1 to 1048576"),
            (["--flows", "8", "--encap", "vxlan:5"], "--encap vxlan"),
            (["--flows", "8", "--tx-checksum", "hw"], "--tx-checksum hw"),
            (["--flow-seed", "3"], "need --flows"),
            (["--flows", "8", "--flow-src-ip", "2001:db8::1-2001:db8::9"],
             "IPv6 addresses to an IPv4 test"),
        ]
        for args, frag in cases:
            with self.subTest(args=args):
                p = run(["--"] + lo + args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(frag, p.stderr)
                self.assertNotIn("EAL", p.stderr)
        for args, frag in [
                (["--peer", "198.19.0.1", "-6"],
                 "--peer gives an IPv4 address to an IPv6 test"),
                (["--peer", "02:00:00:00:00:01", "--dst-ip",
                  "2001:db8::1", "--tcp", "--vlan", "1.2"],
                 "--tcp in peer mode carries plain IPv4"),
                (["--peer", "ff02::1"], "is unicast"),
                (["--peer", "2001:db8::2", "--dst-ip", "2001:db8::3"],
                 "two addresses for one end"),
                (["--peer", "2001:db8::2", "--ip", "198.18.0.1"],
                 "--ip gives an IPv4 address"),
                (["--ip", "ff02::1"], "--ip: a peer's IPv6 address is "
                 "unicast"),
                (["--peer", "02:00:00:00:00:01", "--vlan", "1.2"],
                 "peer mode carries plain IPv4"),
                (["--peer", "02:00:00:00:00:01", "--reflector", "--vlan",
                  "1.2"], "--reflector carries plain IPv4")]:
            with self.subTest(args=args):
                p = run(["--"] + args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(frag, p.stderr)

    def test_client_options_need_peer(self):
        # with no test options the tool is a responder; client-only
        # options without --peer are a usage error, before EAL starts
        p = run(["--", "--reverse"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--peer", p.stderr)

    def test_missing_port(self):
        # Needs EAL (hugepages) to know how many ports exist.
        if not nbe2e.have_hugepages():
            self.skipTest("no hugepages")
        p = run(["--no-pci", "--lcores", nbe2e.lcore_map(2),
                 "--file-prefix", nbe2e.unique("err"),
                 "--vdev", "net_null0", "--", "--tx-port", "0",
                 "--rx-port", "5"])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("port 5 does not exist (1 port probed: 0; see "
                      "--list-ports)", p.stderr)

    def test_tx_checksum_hw_refused(self):
        # a port without TX checksum offload cannot give what hw asks:
        # refused before any traffic, with the way out
        if not nbe2e.have_hugepages():
            self.skipTest("no hugepages")
        p = run(["--no-pci", "--lcores", nbe2e.lcore_map(1),
                 "--file-prefix", nbe2e.unique("err"),
                 "--vdev", "net_null0", "--vdev", "net_null1", "--",
                 "--tx-port", "0", "--rx-port", "1", "--packets", "100",
                 "--proto", "tcp", "--tx-checksum", "hw"])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("port 0: --tx-checksum hw: net_null has no TCP "
                      "checksum offload (--tx-checksum auto falls back to "
                      "software)", p.stderr)

    def test_missing_peer_port(self):
        # a responder's (or client's) --port, named with the ports there
        if not nbe2e.have_hugepages():
            self.skipTest("no hugepages")
        for tool in (["--port", "2", "--one-off"],
                     ["--port", "2", "--peer", "02:00:00:00:00:02"]):
            with self.subTest(tool=tool):
                p = run(["--no-pci", "--lcores", nbe2e.lcore_map(1),
                         "--file-prefix", nbe2e.unique("err"),
                         "--vdev", "net_null0", "--vdev", "net_null1",
                         "--"] + tool)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("port 2 does not exist (2 ports probed: "
                              "0, 1; see --list-ports)", p.stderr)

    def test_too_few_lcores(self):
        if not nbe2e.have_hugepages():
            self.skipTest("no hugepages")
        p = run(["--no-pci", "--lcores", "0@0,1@0", "--file-prefix",
                 nbe2e.unique("err"), "--vdev", "net_null0", "--vdev",
                 "net_null1", "--", "--tx-port", "0", "--rx-port", "1"])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("3 needed", p.stderr)


if __name__ == "__main__":
    nbe2e.main()
