# SPDX-License-Identifier: BSD-3-Clause
"""Closed-loop TCP (--tcp) in the loopback topology: a memif pair in one
process, the TX port's connections to the RX port's listeners.  Every byte
must arrive once and unaltered (the receiver checks the payload), each
connection must close with FIN, and the numbers of the JSON report must
agree with each other, with values computed here and with the PMD's
counters.  Loss and a bottleneck come from the kernel in
test_tcp_kernel.py."""
import re

import nbe2e

MSS = 1460                 # from --size 1518
PAYLOAD = MSS - 12         # the stamp option takes 12 bytes of each segment


class TcpLoopback(nbe2e.E2ECase):

    def tcp(self, tool, timeout=120, code=0, json_out=True, rsize=14):
        eal = self.nb.eal(self.nb.memif_pair(rsize))
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1", "--tcp"]
                        + (["--json"] if json_out else []) + tool,
                        timeout=timeout, name="tcp")
        self.assertOk(r, code)
        return r.json() if json_out else r

    def check_doc(self, d, n):
        """What holds for every clean TCP run."""
        nb, end = d["nbench"], d["end"]
        self.assertNotIn("error", d)
        self.assertEqual(d["start"]["test_start"]["protocol"], "TCP")
        self.assertEqual(d["start"]["test_start"]["num_streams"], n)
        self.assertEqual(d["start"]["tcp_mss_default"], MSS)
        self.assertEqual(len(end["streams"]), n)
        self.assertEqual(nb["connections_closed"], n)
        self.assertEqual(nb["bad_bytes"], 0)
        # memif sends chained mbufs: each data segment's payload is an
        # mbuf attached to the pattern, and the receiver found every byte
        # of it where it belongs
        self.assertEqual(nb["tx_payload"], "zero-copy")
        for c in d["start"]["connected"]:
            self.assertEqual(c["client_state"], "TIME_WAIT")
            self.assertEqual(c["server_state"], "CLOSED")
            self.assertEqual(c["error"], "ok")
        for s in end["streams"]:
            # what the sender saw acknowledged is what the receiver took
            self.assertEqual(s["sender"]["bytes"], s["receiver"]["bytes"])
            self.assertGreater(s["sender"]["bytes"], 0)
            self.assertGreater(s["sender"]["max_snd_cwnd"], 0)
            # iperf3's min_rtt is in whole us: a round trip over memif
            # can take less (0 there); the ns figure has it
            snd = s["sender"]
            self.assertGreater(snd["min_rtt_ns"], 0)
            self.assertLessEqual(snd["min_rtt_ns"], snd["max_rtt_ns"])
            self.assertEqual(snd["min_rtt"], snd["min_rtt_ns"] // 1000)
            self.assertEqual(snd["max_rtt"], snd["max_rtt_ns"] // 1000)
        self.assertEqual(end["sum_sent"]["bytes"],
                         sum(s["sender"]["bytes"] for s in end["streams"]))
        self.assertEqual(end["sum_received"]["bytes"],
                         end["sum_sent"]["bytes"])
        # the tool's frame counts are the PMD's, and what one port sent
        # the other received (memif loses nothing)
        ports = {p["role"]: p for p in nb["ports"]}
        for p in ports.values():
            self.assertEqual(p["tool_tx_packets"], p["pmd"]["opackets"])
            self.assertEqual(p["tool_rx_packets"], p["pmd"]["ipackets"])
            self.assertEqual(p["bad_checksum"], 0)
            self.assertEqual(p["stray"], 0)
        self.assertEqual(ports["client"]["tool_tx_packets"],
                         ports["server"]["tool_rx_packets"])
        self.assertEqual(ports["server"]["tool_tx_packets"],
                         ports["client"]["tool_rx_packets"])
        # the data segments the server took: at least bytes / payload,
        # plus the SYN, the handshake's ACK and the FIN
        segs = ports["server"]["tool_rx_packets"]
        self.assertGreaterEqual(
            segs, -(-end["sum_sent"]["bytes"] // PAYLOAD) + 3 * n)
        return end

    def test_bytes_split_exactly(self):
        """-P 4 -n 100M: each connection sends a quarter, as computed, no
        byte more or less, and the intervals add up to the total."""
        total = 100 * 1024 * 1024
        d = self.tcp(["-P", "4", "-n", "100M", "--interval", "0.1"])
        end = self.check_doc(d, 4)
        for s in end["streams"]:
            self.assertEqual(s["sender"]["bytes"], total // 4)
        self.assertEqual(end["sum_sent"]["bytes"], total)
        # memif drops nothing: not one retransmission
        self.assertEqual(end["sum_sent"]["retransmits"], 0)
        iv = d["intervals"]
        self.assertGreater(len(iv), 0)
        self.assertEqual(sum(i["sum"]["bytes"] for i in iv), total)
        for i in iv:
            self.assertEqual(sum(s["bytes"] for s in i["streams"]),
                             i["sum"]["bytes"])
            for s in i["streams"]:
                self.assertIn("retransmits", s)
                self.assertGreater(s["snd_cwnd"], 0)
        # the one-way latency of the data, from its stamps
        lat = d["nbench"]["latency_ns"]
        self.assertGreater(lat["count"], 0)
        self.assertLessEqual(lat["min"], lat["p50"])
        self.assertLessEqual(lat["p99"], lat["max"])

    def test_time_text_rows(self):
        """--time 2, text: iperf3's TCP rows, with Retr, Cwnd and RTT per
        interval, then sender and receiver rows that agree."""
        r = self.tcp(["--time", "2"], json_out=False)
        rows = re.findall(r"^\[\s*1\]\s+([\d.]+)-([\d.]+)\s+sec\s+([\d.]+ "
                          r"\w?Bytes)\s+([\d.]+ \w?bits/sec)\s+(\d+)\s+"
                          r"([\d.]+ \w?Bytes)\s+(\d+) us$", r.out, re.M)
        self.assertEqual(len(rows), 2, r.out)
        self.assertEqual([(a, b) for a, b, *_ in rows],
                         [("0.00", "1.00"), ("1.00", "2.00")])
        self.assertIn("Retr  Cwnd", r.out)
        snd = re.search(r"^\[\s*1\]\s+0\.00-2\.00\s+sec\s+(\S+ \S+)\s+(\S+ "
                        r"\S+)\s+(\d+)\s+sender$", r.out, re.M)
        rcv = re.search(r"^\[\s*1\]\s+0\.00-2\.00\s+sec\s+(\S+ \S+)\s+(\S+ "
                        r"\S+)\s+receiver$", r.out, re.M)
        self.assertTrue(snd and rcv, r.out)
        self.assertEqual(snd.group(1), rcv.group(1))
        self.assertRegex(r.out, r"tcp: 1 connection, 1 closed cleanly; "
                         r"retransmits 0 .*payload checked: 0 bytes wrong")

    def test_thousand_connections(self):
        """-P 1000 for 5 s: every connection opens, carries data and closes;
        nothing leaks (the exit checks every pool)."""
        d = self.tcp(["-P", "1000", "--time", "5", "--interval", "0"],
                     timeout=180)
        self.check_doc(d, 1000)
        self.assertEqual(len(d["start"]["connected"]), 1000)
        ports = sorted(c["local_port"] for c in d["start"]["connected"])
        self.assertEqual(ports, list(range(49152, 49152 + 1000)))

    def test_pingpong(self):
        """--pingpong --msg-size 100: each request waits for its answer;
        what the listener took is the round trips' requests (and perhaps
        the one the end cut short), the RTT figures are ordered, and the
        rate is the round trips over the time."""
        d = self.tcp(["--pingpong", "--msg-size", "100", "--time", "2"])
        self.check_doc(d, 1)
        pp = d["nbench"]["pingpong"]
        n = pp["round_trips"]
        self.assertEqual(pp["msg_size"], 100)
        self.assertGreater(n, 1000)
        got = d["end"]["sum_received"]["bytes"]
        self.assertIn(got, (n * 100, (n + 1) * 100))
        rtt = pp["rtt_ns"]
        self.assertEqual(rtt["count"], n)
        self.assertTrue(0 < rtt["min"] <= rtt["p50"] <= rtt["p99"]
                        <= rtt["max"])
        self.assertAlmostEqual(pp["per_second"], n / 2.0, delta=n * 0.01)

    def test_pingpong_sweep(self):
        """--msg-size 1:4096:*16: a test per size (1, 16, 256, 4096 B, as
        the range gives), each with round trips, ordered RTT figures and
        a clean close; the text shows a row per size.  1024-slot rings:
        a fresh memif link's first pass over its rings faults in its 4 KiB
        pages, ~30 us a round trip (test_tcp_peer's sweep), which on
        16384-slot rings was much of the 1-B row's half second."""
        d = self.tcp(["--pingpong", "--msg-size", "1:4096:*16", "--time",
                      "0.5"], rsize=10)
        self.assertNotIn("error", d)
        rows = d["nbench"]["pingpong_sweep"]
        self.assertEqual([r["msg_size"] for r in rows], [1, 16, 256, 4096])
        for r in rows:
            self.assertGreater(r["round_trips"], 100)
            self.assertEqual(r["connections_closed"], 1)
            self.assertEqual(r["bad_bytes"], 0)
            t = r["rtt_ns"]
            self.assertTrue(0 < t["min"] <= t["p50"] <= t["p99"] <= t["max"])
        # a 4 KiB answer takes longer than a 1-byte one
        self.assertGreater(rows[3]["rtt_ns"]["p50"], rows[0]["rtt_ns"]["p50"])
        r = self.tcp(["--pingpong", "--msg-size", "1:16:*16", "--time",
                      "0.5"], json_out=False)
        self.assertRegex(r.out, r"msg bytes  round trips")
        self.assertRegex(r.out, r"(?m)^ +1 +\d+ +\d+ ")
        self.assertRegex(r.out, r"(?m)^ +16 +\d+ +\d+ ")

    def test_ctrl_c(self):
        """SIGINT after the first interval: the connections close, the
        report comes, it says it was interrupted, exit 1, within 5 s."""
        out, _ = self.interrupt_after_first_interval(
            self.nb.eal(self.nb.memif_pair()),
            ["--tx-port", "0", "--rx-port", "1", "--tcp", "-P", "2",
             "--time", "30"])
        self.assertRegex(out, r"\[SUM\]\s+0\.00-[\d.]+\s+sec .* sender")
        self.assertRegex(out, r"interrupted: the connections were closed "
                              r"after [\d.]+ s")

    def test_options_and_refusals(self):
        """--window, --delayed-ack and --no-sack take effect (in the header
        and the JSON); what --tcp cannot do is refused with exit 2."""
        d = self.tcp(["-n", "20M", "--cc", "cubic"])
        self.check_doc(d, 1)
        self.assertEqual(d["nbench"]["cc"], "cubic")
        self.assertEqual(d["end"]["sum_sent"]["bytes"], 20 * 1024 * 1024)
        d = self.tcp(["-n", "20M", "-w", "64K", "--delayed-ack",
                      "--no-sack"])
        self.check_doc(d, 1)
        nb = d["nbench"]
        self.assertEqual(nb["cc"], "newreno")
        self.assertEqual(nb["window"], 65536)
        self.assertFalse(nb["sack"])
        self.assertTrue(nb["delayed_ack"])
        self.assertEqual(d["end"]["sum_sent"]["bytes"], 20 * 1024 * 1024)
        eal = self.nb.eal(self.nb.memif_pair())
        for extra, msg in ((["--rate", "1G"], "congestion control"),
                           (["--packets", "10"], "--packets"),
                           (["--size", "64"], "128 bytes"),
                           (["--queues", "2"], "one queue pair")):
            r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1",
                                  "--tcp"] + extra, name="tcp-refused")
            self.assertEqual(r.rc, 2, r.err)
            self.assertIn(msg, r.err)


if __name__ == "__main__":
    nbe2e.main()
