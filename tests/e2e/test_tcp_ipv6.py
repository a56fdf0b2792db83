# SPDX-License-Identifier: BSD-3-Clause
"""Closed-loop TCP (--tcp) over IPv6 (issue 35).  KernelPeer6: against
the kernel, over af_packet on a veth pair in network namespaces: the tool in nbNa (vt0,
2001:db8:7::1, the kernel's IPv6 off there) -- veth -- vk in nbNk, the
kernel at 2001:db8:7::100/64.  Neither side knows the other's MAC: the
tool asks with a neighbour solicitation and answers the kernel's.  The
kernel computes every checksum itself (TX checksum offload off on vk).
TcpLoopback6: the tool's client and server over a memif pair."""
import signal
import time

import nbe2e
from test_tcp_kernel import NetCase, PEER, MIB, RING, sh

TOOL_IP = "2001:db8:7::1"
KERNEL_IP = "2001:db8:7::100"


class KernelPeer6(NetCase):

    def setUp(self):
        super().setUp()
        self.a, self.k = self.netns("a"), self.netns("k")
        sh("ip", "-n", self.a, "link", "add", "vt0", "type", "veth", "peer",
           "name", "vk", "netns", self.k)
        self.no_ipv6(self.a, "vt0")
        sh("ip", "netns", "exec", self.k, "ethtool", "-K", "vk", "tx", "off",
           "tso", "off", "gso", "off")
        sh("ip", "-n", self.a, "link", "set", "vt0", "up")
        sh("ip", "-n", self.k, "link", "set", "vk", "up")
        # nodad: the address is usable at once (no duplicate detection)
        sh("ip", "-n", self.k, "-6", "addr", "add", KERNEL_IP + "/64",
           "dev", "vk", "nodad")

    def neighbour_mac(self):
        """The MAC the kernel's neighbour table holds for the tool's
        address."""
        out = sh("ip", "-n", self.k, "-6", "neigh", "show", TOOL_IP,
                 "dev", "vk").stdout.split()
        return out[out.index("lladdr") + 1] if "lladdr" in out else None

    def test_client_to_kernel(self):
        """The tool resolves the kernel by neighbour discovery, connects
        to a listener on :: and sends -n 100M: the kernel counts exactly
        100 MiB and a clean EOF; tshark decodes every frame as IPv6 TCP
        with no analysis flag but retransmissions (at most the tool's),
        both FINs, and the SYN's MSS is IPv6's 1440."""
        sink = self.bg(self.k, ["/usr/bin/python3", PEER, "sink", "5201",
                                "::"])
        self.assertEqual(sink.stdout.readline().strip(), "listening")
        cap, path = self.capture(self.k, "vk")
        d = self.tool(self.a, ["vt0"], ["--tx-port", "0", "--src-ip",
                                        TOOL_IP, "--dst-ip", KERNEL_IP,
                                        "-n", "100M"], timeout=180)
        out, err = sink.communicate(timeout=60)
        self.assertEqual(out.split()[-3:], ["bytes", str(100 * MIB), "eof"],
                         err)
        time.sleep(0.5)   # dumpcap writes what its buffer holds on SIGINT
        self.stop(cap, signal.SIGINT)
        end, nb = d["end"], d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(end["sum_sent"]["bytes"], 100 * MIB)
        self.assertEqual(nb["connections_closed"], 1)
        c = d["start"]["connected"][0]
        self.assertEqual(c["local_host"], TOOL_IP)
        self.assertEqual(c["remote_host"], KERNEL_IP)
        self.assertEqual(c["client_state"], "TIME_WAIT")
        port = nb["ports"][0]
        self.assertEqual(port["bad_checksum"], 0)
        self.assertEqual(port["stray"], 0)
        # the kernel knows our MAC: from our solicitation's source
        # link-layer option (it need not ask; if it did, we answered)
        mac = sh("ip", "netns", "exec", self.a, "cat",
                 "/sys/class/net/vt0/address").stdout.strip()
        self.assertEqual(self.neighbour_mac(), mac)
        tsh = self.assert_clean_conversation(
            path, end["sum_sent"]["retransmits"],
            " || _ws.malformed || (tcp && !ipv6)")
        tcp = sh(*tsh, "-Y", "tcp", "-T", "fields", "-e", "ipv6.src",
                 timeout=180).stdout.split()
        self.assertGreater(len(tcp), 100 * MIB // 1428)
        self.assertEqual(set(tcp), {TOOL_IP, KERNEL_IP})
        syn = sh(*tsh, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0",
                 "-T", "fields", "-e", "tcp.options.mss_val",
                 timeout=180).stdout.split()
        self.assertEqual(syn[0], "1440")
        # what resolved the kernel: a solicitation from the tool and the
        # kernel's advertisement
        nd = sh(*tsh, "-Y", "icmpv6.type == 135 || icmpv6.type == 136",
                "-T", "fields", "-e", "icmpv6.type", "-e", "ipv6.src",
                timeout=60).stdout.split("\n")
        self.assertIn("135\t" + TOOL_IP, nd)
        self.assertIn("136\t" + KERNEL_IP, nd)

    def test_pingpong_with_kernel_echo(self):
        """--pingpong against a kernel echo server on ::: the echoed
        requests are checked against the pattern; the server saw every
        request."""
        srv = self.bg(self.k, ["/usr/bin/python3", PEER, "echo", "5201",
                               "::"])
        self.assertEqual(srv.stdout.readline().strip(), "listening")
        d = self.tool(self.a, ["vt0"], ["--tx-port", "0", "-6", "--src-ip",
                                        TOOL_IP, "--dst-ip", KERNEL_IP,
                                        "--pingpong", "--msg-size", "64",
                                        "--time", "2"])
        out, err = srv.communicate(timeout=30)
        nb = d["nbench"]
        self.assertNotIn("error", d)
        pp = nb["pingpong"]
        self.assertGreater(pp["round_trips"], 100)
        self.assertEqual(nb["payload"], "checked")
        self.assertEqual(nb["bad_bytes"], 0)
        echoed = int(out.split()[-2])
        self.assertEqual(echoed, d["end"]["sum_sent"]["bytes"])

    def test_kernel_to_server(self):
        """A kernel client connects to the tool's listener over IPv6 and
        sends 20 MiB of the stream pattern: the tool answers the kernel's
        neighbour solicitation, takes every byte in order, checks each,
        and both ends close."""
        total = 20 * MIB
        srv = self.bg(self.a, [nbe2e.BIN] + self.nb.eal(
            ["--vdev", "net_af_packet0,iface=vt0" + RING], workers=1) +
            ["--", "--rx-port", "0", "--tcp", "--json", "--dst-ip",
             TOOL_IP])
        cli = self.bg(self.k, ["/usr/bin/python3", PEER, "send", TOOL_IP,
                               "5201", str(total)])
        out, err = cli.communicate(timeout=90)
        self.assertEqual(out.split(), ["sent", str(total)], err)
        sout, serr = srv.communicate(timeout=30)
        self.assertEqual(srv.returncode, 0, serr[-3000:])
        d = nbe2e.loads(sout)
        nb = d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(nb["topology"], "server")
        self.assertEqual(d["end"]["sum_received"]["bytes"], total)
        self.assertEqual(nb["payload"], "checked")
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        c = d["start"]["connected"][0]
        self.assertEqual(c["remote_host"], KERNEL_IP)
        self.assertEqual(c["local_host"], TOOL_IP)
        self.assertGreaterEqual(nb["ports"][0]["nd_answered"], 1)


class TcpLoopback6(nbe2e.E2ECase):
    """The tool's own client and server over a memif pair, in IPv6."""

    def test_bytes_split_exactly(self):
        """-6 -P 2 -n 50M: each connection sends half, no byte more or
        less; the MSS is IPv6's (1518-byte frames: 1440); every data
        segment the server took is IPv6 (the counts add up with the
        1428-byte payloads a segment carries beside the stamp)."""
        total = 50 * MIB
        eal = self.nb.eal(self.nb.memif_pair())
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1", "--tcp",
                              "-6", "-P", "2", "-n", "50M", "--json"],
                        timeout=120, name="tcp6")
        self.assertOk(r)
        d = r.json()
        nb, end = d["nbench"], d["end"]
        self.assertNotIn("error", d)
        self.assertEqual(d["start"]["tcp_mss_default"], 1440)
        self.assertEqual(end["sum_sent"]["bytes"], total)
        self.assertEqual(end["sum_received"]["bytes"], total)
        self.assertEqual(end["sum_sent"]["retransmits"], 0)
        for s in end["streams"]:
            self.assertEqual(s["sender"]["bytes"], total // 2)
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 2)
        for c in d["start"]["connected"]:
            self.assertEqual(c["local_host"], "2001:2::1")
            self.assertEqual(c["remote_host"], "2001:2:0:1::1")
            self.assertEqual(c["error"], "ok")
        ports = {p["role"]: p for p in nb["ports"]}
        for p in ports.values():
            self.assertEqual(p["tool_tx_packets"], p["pmd"]["opackets"])
            self.assertEqual(p["bad_checksum"], 0)
            self.assertEqual(p["foreign"], 0)
        segs = ports["server"]["tool_rx_packets"]
        self.assertGreaterEqual(segs, -(-total // (1440 - 12)) + 3 * 2)


if __name__ == "__main__":
    nbe2e.main()
