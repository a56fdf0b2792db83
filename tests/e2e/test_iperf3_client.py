# SPDX-License-Identifier: BSD-3-Clause
"""--iperf3 HOST[:PORT] against Debian's stock iperf3 3.12 server:

    namespace ip3N:  pa 10.77.0.2/24, iperf3 -s -1 -J   <-veth->   pb,
                     dpdk-nbench on af_packet (--ip 10.77.0.1)

A UDP test whose datagrams the server's own JSON log counts exactly as the
tool says it sent them (no loss on the clean link); with a tc BPF dropper
(ip3_drop.bpf.c) taking every 50th datagram on the server's side, the
tool's loss, the server's and the dropper's own count agree; a busy server,
a closed port, a server error (its authentication), a host that does not
answer ARP (exit 1, clear messages); TCP streams by --bytes (iperf3's -n:
the server counts exactly the bytes after the cookies the tool says it
sent) and by --time over 4 connections (each stream's count the server's);
bad option combinations (exit 2)."""
import hashlib
import json
import os
import signal
import subprocess
import time

import nbe2e

HERE = os.path.dirname(os.path.abspath(__file__))
HOST = "10.77.0.2"
ME = "10.77.0.1"


class Iperf3Client(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        self.iperf3_namespace("ip3", HOST)

    def listening(self, port, timeout=10):
        """Wait until something in the namespace listens on TCP port."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(self.wrap + ["ss", "-Htln",
                                              "sport = :%d" % port],
                                 capture_output=True, text=True).stdout
            if out.strip():
                return
            time.sleep(0.05)
        self.fail("nothing listens on port %d" % port)

    def established(self, port, n, timeout=10):
        """Wait until n TCP connections to port are established."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(self.wrap + ["ss", "-Htn", "state",
                                              "established",
                                              "dport = :%d" % port],
                                 capture_output=True, text=True).stdout
            if len(out.strip().splitlines()) >= n:
                return
            time.sleep(0.05)
        self.fail("fewer than %d connections to port %d" % (n, port))

    def server(self):
        """iperf3 -s -1 -J; returns (Popen, its log file)."""
        log = os.path.join(self.tmpdir, "iperf3-%d.json" % self.port)
        p = subprocess.Popen(self.wrap + ["iperf3", "-s", "-1", "-J",
                                          "--logfile", log, "-p",
                                          str(self.port)],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             start_new_session=True)
        self.addCleanup(self.end, p)
        self.listening(self.port)
        return p, log

    @staticmethod
    def end(p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()

    def tool(self, args, name):
        return self.nb.run(self.eal, ["--ip", ME] + args, name=name,
                           wrap=self.wrap, timeout=60)

    def test_udp_counts(self):
        srv, log = self.server()
        # 1446-byte frames: 1400-byte datagrams; 100 Mbit/s on the wire;
        # iperf3's -w 4M: the server's socket buffer rides out the
        # moments its CPU goes to a busy-polling worker (2 CPUs)
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--rate", "100M", "--size", "1446", "--time", "2",
                         "--window", "4M", "--json"], "ip3udp")
        self.assertOk(run)
        doc = run.json()       # the tool's usual document, schema-checked
        srv.wait(timeout=20)   # -1: it exits after the test
        with open(log) as f:
            slog = json.load(f)
        sent = doc["end"]["sum_sent"]["packets"]
        pps = 100e6 / ((1446 + 20) * 8)
        # the pacer's rate over the 2 s, within 3 %
        self.assertAlmostEqual(sent / (2 * pps), 1.0, delta=0.03)
        # what the server's own log counts, exactly, of our datagrams
        self.assertEqual(slog["end"]["sum"]["packets"], sent, log)
        self.assertEqual(slog["end"]["sum"]["lost_packets"], 0)
        self.assertEqual(slog["start"]["test_start"]["protocol"], "UDP")
        self.assertEqual(slog["start"]["test_start"]["blksize"], 1400)
        self.assertEqual(slog["start"]["sock_bufsize"], 4 << 20)
        # the server's results as it sent them, and as the tool reports
        srv_res = doc["iperf3_server_results"]["streams"]
        self.assertEqual(sum(s["bytes"] for s in srv_res), sent * 1400)
        self.assertEqual(sum(s["errors"] for s in srv_res), 0)
        self.assertEqual(doc["end"]["sum_received"]["packets"], sent)
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"], 0)

    def test_udp_dropper_loss(self):
        every = 50
        # ip3_drop.bpf.c on pa's ingress: the kernel never sees the
        # datagrams whose iperf3 count is a multiple of 50
        obj = os.path.join(self.tmpdir, "ip3drop.o")
        sh = lambda *a: subprocess.run(a, check=True, capture_output=True,
                                       text=True)
        sh("clang", "-O2", "-target", "bpf", "-DDPORT=%d" % self.port,
           "-DEVERY=%d" % every, "-c", os.path.join(HERE, "ip3_drop.bpf.c"),
           "-o", obj)
        sh(*self.wrap, "tc", "qdisc", "add", "dev", "pa", "clsact")
        sh(*self.wrap, "tc", "filter", "add", "dev", "pa", "ingress", "bpf",
           "da", "obj", obj, "sec", "classifier")
        srv, log = self.server()
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--rate", "50M", "--size", "1446", "--time", "2",
                         "--window", "4M", "--json"], "ip3drop")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        sent = doc["end"]["sum_sent"]["packets"]
        self.assertGreater(sent, 2 * every)
        # one stream: counts 1..sent, of which the dropper takes
        # sent // every
        dropped = sent // every
        self.assertEqual(nbe2e.qdisc_stats(self.ns, "pa")[1], dropped)
        # iperf3 counts a loss from a gap below the highest count it has
        # read, and reports that count as the stream's packets: when the
        # last datagram is one the dropper took (sent a multiple of 50),
        # the server's highest is sent - 1 (which passed) and that last
        # drop is no gap to it; otherwise it counts every drop
        seen = sent - 1 if sent % every == 0 else sent
        lost = seen // every
        # the server's own log
        self.assertEqual(slog["end"]["sum"]["packets"], seen, log)
        self.assertEqual(slog["end"]["sum"]["lost_packets"], lost, log)
        # the server's results, as the tool got them
        srv_res = doc["iperf3_server_results"]["streams"]
        self.assertEqual(len(srv_res), 1)
        self.assertEqual(srv_res[0]["packets"], seen)
        self.assertEqual(srv_res[0]["errors"], lost)
        # the tool's: what arrived is the server's packets - errors, its
        # loss what it sent less that, so the dropper's count either way
        self.assertEqual(doc["end"]["sum_received"]["packets"], seen - lost)
        self.assertEqual(doc["end"]["sum_received"]["packets"],
                         sent - dropped)
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"],
                         dropped)

    def test_udp_packets_streams(self):
        srv, log = self.server()
        # --packets is iperf3's -k (blockcount): over 2 streams, exactly
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--rate", "20M", "--size", "1024", "--packets",
                         "3000", "--streams", "2", "--window", "4M",
                         "--json"], "ip3pkts")
        self.assertOk(run)
        doc = run.json()
        srv.wait(timeout=20)
        with open(log) as f:
            slog = json.load(f)
        self.assertEqual(doc["end"]["sum_sent"]["packets"], 3000)
        self.assertEqual(slog["start"]["test_start"]["num_streams"], 2)
        self.assertEqual(slog["start"]["test_start"]["blksize"], 1024 - 46)
        self.assertEqual(slog["start"]["test_start"]["blocks"], 3000)
        self.assertEqual(slog["end"]["sum"]["packets"], 3000, log)
        self.assertEqual(slog["end"]["sum"]["lost_packets"], 0)
        # per stream: the server's count (ids 1 and 3, as iperf3 numbers
        # them) is the tool's
        srv_res = doc["iperf3_server_results"]["streams"]
        self.assertEqual([s["id"] for s in srv_res], [1, 3])
        for mine, theirs in zip(doc["end"]["streams"], srv_res):
            self.assertEqual(theirs["packets"], mine["sender"]["packets"])
            self.assertEqual(mine["receiver"]["packets"],
                             mine["sender"]["packets"])

    def test_udp_reverse(self):
        srv, log = self.server()
        # --reverse (iperf3's -R): the server sends 1400-byte datagrams
        # at 100 Mbit/s of our frames for 2 s; the receivers count them
        # until the server has stopped
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--reverse", "--rate", "100M", "--size", "1446",
                         "--time", "2", "--window", "4M", "--json"],
                        "ip3rev")
        self.assertOk(run)
        doc = run.json()
        srv.wait(timeout=20)
        with open(log) as f:
            slog = json.load(f)
        got = doc["end"]["sum_received"]["packets"]
        pps = 100e6 / ((1446 + 20) * 8)
        # the server's pacer (iperf3's -b of 1400-byte datagrams) over
        # 2 s: a kernel process on 2 CPUs beside a busy-polling worker
        # keeps it within 15 %
        self.assertAlmostEqual(got / (2 * pps), 1.0, delta=0.15)
        # every datagram the server's own log says it sent, counted by
        # the tool: the receivers count until the server has stopped
        self.assertEqual(slog["start"]["test_start"]["reverse"], 1)
        self.assertEqual(slog["end"]["sum"]["packets"], got, log)
        self.assertEqual(doc["end"]["sum_sent"]["packets"], got)
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"], 0)
        self.assertEqual(doc["end"]["sum_received"]["bytes"], got * 1446)
        # the results the tool sent, as the server echoes them back: the
        # highest count seen, no gaps
        srv_res = doc["iperf3_server_results"]["streams"]
        self.assertEqual(srv_res[0]["packets"], got)
        self.assertEqual(srv_res[0]["errors"], 0)
        self.assertGreater(srv_res[0]["jitter"], 0)
        # the PMD took each of them and the control frames besides
        port = doc["end"]["ports"][0]
        self.assertGreaterEqual(port["pmd"]["ipackets"], got)
        self.assertLess(port["pmd"]["ipackets"], got + 20)

    def test_udp_reverse_packets_streams(self):
        srv, log = self.server()
        # iperf3's -k over 2 streams the other way: the server sends
        # 3000 datagrams in all, the tool counts every one that came
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--reverse", "--rate", "20M", "--size", "1024",
                         "--packets", "3000", "--streams", "2",
                         "--window", "4M"], "ip3revk")
        self.assertOk(run)
        srv.wait(timeout=20)
        with open(log) as f:
            slog = json.load(f)
        self.assertEqual(slog["start"]["test_start"]["blocks"], 3000)
        # iperf3 3.12's server may send past the count, a datagram a
        # stream (seen once: 1501 + 1501, the tool under the sanitizers
        # beside it on the 2 CPUs): whatever it sent, every one counted
        total = slog["end"]["sum"]["packets"]
        self.assertGreaterEqual(total, 3000, log)
        self.assertLessEqual(total, 3002, log)
        per = [s["udp"]["packets"] for s in slog["end"]["streams"]]
        # the text report: the server's sender rows, then ours; per
        # stream and summed, our received counts are the server's sent
        rows = [l.split() for l in run.out.splitlines()
                if l.startswith("[")]
        # "lost/total" before "(0%)", then "receiver" or "sender (server)"
        recv = [r[-3] for r in rows if r[-1] == "receiver"]
        sent = [r[-4] for r in rows if r[-1] == "(server)"]
        want = ["0/%d" % n for n in per + [total]]
        self.assertEqual(recv, want, run.out)
        self.assertEqual(sent, want, run.out)
        self.assertEqual(sum(per), total)

    def test_busy_server(self):
        srv, _ = self.server()
        # a stock client holds the server (its control and data
        # connections established)
        hold = subprocess.Popen(self.wrap + ["iperf3", "-c", HOST, "-p",
                                             str(self.port), "-t", "30",
                                             "-b", "1M"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL,
                                start_new_session=True)
        self.addCleanup(self.end, hold)
        self.established(self.port, 2)
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--time", "1"], "ip3busy")
        self.assertOk(run, 1)
        self.assertIn("the server is busy running a test", run.err)

    def server_log(self, srv, log):
        srv.wait(timeout=20)   # -1: it exits after the test
        with open(log) as f:
            return json.load(f)

    def test_tcp_bytes(self):
        srv, log = self.server()
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--bytes", "20M", "--window", "4M", "--json"],
                        "ip3tcpn")
        self.assertOk(run)
        # iperf3's shape, not the tool's own TCP document (no "nbench")
        doc = run.json()
        slog = self.server_log(srv, log)
        self.assertEqual(slog["start"]["test_start"]["protocol"], "TCP")
        self.assertEqual(slog["start"]["test_start"]["bytes"], 20 << 20)
        self.assertEqual(slog["start"]["sock_bufsize"], 4 << 20)
        # exactly -n's bytes after the cookie, as the server counted them
        self.assertEqual(doc["end"]["sum_sent"]["bytes"], 20 << 20)
        self.assertEqual(slog["end"]["sum_received"]["bytes"], 20 << 20,
                         log)
        self.assertEqual(doc["end"]["sum_received"]["bytes"], 20 << 20)
        srv_res = doc["iperf3_server_results"]["streams"]
        self.assertEqual(sum(s["bytes"] for s in srv_res), 20 << 20)

    def test_get_server_output(self):
        srv, log = self.server()
        # the server's own report (it runs -J: an object) under iperf3's
        # key, its count the tool's
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--bytes", "5M", "--get-server-output", "--json"],
                        "ip3out")
        self.assertOk(run)
        doc = run.json()
        out = doc["server_output_json"]
        self.assertEqual(out["end"]["sum_received"]["bytes"], 5 << 20)
        self.assertEqual(doc["end"]["sum_sent"]["bytes"], 5 << 20)

    def test_tcp_streams_time(self):
        srv, log = self.server()
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--streams", "4", "--time", "2", "--json"],
                        "ip3tcpt")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        self.assertEqual(slog["start"]["test_start"]["num_streams"], 4)
        # the server numbered the streams in the order of our source
        # ports (49152 + i), the ids our results give them
        ports = [c["remote_port"] for c in slog["start"]["connected"]]
        self.assertEqual(len(ports), 4)
        self.assertEqual(ports, sorted(ports))
        mine = [s["sender"]["bytes"] for s in doc["end"]["streams"]]
        theirs = [s["receiver"]["bytes"] for s in slog["end"]["streams"]]
        self.assertEqual(len(mine), 4)
        self.assertTrue(all(b > 0 for b in mine), mine)
        # each stream: the server's count is the tool's (ids 1, 3, 4, 5)
        self.assertEqual(theirs, mine, log)
        self.assertEqual([s["id"] for s in
                          doc["iperf3_server_results"]["streams"]],
                         [1, 3, 4, 5])
        self.assertEqual(slog["end"]["sum_received"]["bytes"], sum(mine))
        self.assertEqual(doc["end"]["sum_received"]["bytes"], sum(mine))
        # about the 2 s asked for
        self.assertLess(doc["end"]["sum_sent"]["seconds"], 3.5)

    def test_tcp_reverse_bytes(self):
        srv, log = self.server()
        # -R -n: the server sends 20 MiB (in its 128 KiB writes), the
        # tool ends at 20 MiB received and takes what the server's
        # socket still held
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--reverse", "--bytes", "20M", "--json"],
                        "ip3tcprn")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        self.assertEqual(slog["start"]["test_start"]["reverse"], 1)
        sent = slog["end"]["sum_sent"]["bytes"]
        self.assertGreaterEqual(sent, 20 << 20, log)
        # every byte the server's log says it sent, received by the tool
        self.assertEqual(doc["end"]["sum_received"]["bytes"], sent)
        self.assertEqual(doc["end"]["sum_sent"]["bytes"], sent)
        mine = doc["iperf3_server_results"]["streams"]
        self.assertEqual(sum(s["bytes"] for s in mine), sent)

    def test_tcp_reverse_streams_time(self):
        srv, log = self.server()
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--reverse", "--streams", "3", "--time", "2",
                         "--json"], "ip3tcprt")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        # per stream (ids 1, 3, 4): what the server sent, the tool got
        theirs = [s["sender"]["bytes"] for s in slog["end"]["streams"]]
        mine = [s["receiver"]["bytes"] for s in doc["end"]["streams"]]
        self.assertEqual(len(mine), 3)
        self.assertTrue(all(b > 0 for b in mine), mine)
        self.assertEqual(mine, theirs, log)
        self.assertEqual([s["sender"]["bytes"] for s in
                          doc["end"]["streams"]], theirs)
        self.assertLess(doc["end"]["sum_received"]["seconds"], 3.5)

    def test_tcp_bidir(self):
        srv, log = self.server()
        # --bidir: 2 streams each way, ours first (ids 1, 3), then the
        # server's (4, 5)
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--tcp",
                         "--bidir", "--streams", "2", "--time", "2",
                         "--json"], "ip3tcpbi")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        e, se = doc["end"], slog["end"]
        self.assertEqual([s["sender"]["socket"] for s in e["streams"]],
                         [1, 3, 4, 5])
        # each way, every byte, as the server's log counts them: ours
        # sent, its received; its sent, ours received (the tool takes
        # what the server's socket held at TEST_END)
        self.assertGreater(e["sum_sent"]["bytes"], 0)
        self.assertEqual(se["sum_received"]["bytes"], e["sum_sent"]["bytes"],
                         log)
        self.assertGreater(e["sum_received_bidir_reverse"]["bytes"], 0)
        self.assertEqual(e["sum_received_bidir_reverse"]["bytes"],
                         se["sum_sent_bidir_reverse"]["bytes"], log)

    def test_udp_bidir(self):
        srv, log = self.server()
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port), "--bidir",
                         "--rate", "50M", "--size", "1046", "--time", "2",
                         "--window", "4M", "--json"], "ip3udpbi")
        self.assertOk(run)
        doc = run.json()
        slog = self.server_log(srv, log)
        e, se = doc["end"], slog["end"]
        # ours: every datagram counted by the server, none lost
        sent = e["sum_sent"]["packets"]
        self.assertGreater(sent, 0)
        self.assertEqual(se["sum_received"]["packets"], sent, log)
        self.assertEqual(se["sum_received"]["lost_packets"], 0)
        # the server's: no gap in what we counted; what was on its way
        # when our receivers stopped (at the end of our own sending, as
        # iperf3's client stops at its TEST_END) is not in our count
        got = e["sum_received_bidir_reverse"]["packets"]
        srv_sent = e["sum_sent_bidir_reverse"]["packets"]
        self.assertEqual(srv_sent, se["sum_sent_bidir_reverse"]["packets"])
        self.assertEqual(e["sum_received_bidir_reverse"]["lost_packets"], 0)
        self.assertLessEqual(got, srv_sent)
        self.assertGreater(got, srv_sent * 0.9)

    def test_server_error(self):
        # a server that asks for a user and password (iperf3's RSA
        # authentication): our client sends none, it answers
        # SERVER_ERROR with i_errno 142 and closes
        if not os.access("/usr/bin/openssl", os.X_OK):
            self.skipTest("needs openssl for the server's key")
        key = os.path.join(self.tmpdir, "priv.pem")
        users = os.path.join(self.tmpdir, "users.csv")
        subprocess.run(["openssl", "genrsa", "-out", key, "2048"],
                       check=True, capture_output=True)
        with open(users, "w") as f:
            f.write("mario,%s\n" % hashlib.sha256(
                b"{mario}rossi").hexdigest())
        p = subprocess.Popen(self.wrap + ["iperf3", "-s", "-1", "-p",
                                          str(self.port),
                                          "--rsa-private-key-path", key,
                                          "--authorized-users-path", users],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             start_new_session=True)
        self.addCleanup(self.end, p)
        self.listening(self.port)
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--time", "1"], "ip3auth")
        self.assertOk(run, 1)
        self.assertIn("iperf3: server error: test authorization failed",
                      run.err)

    def test_closed_port(self):
        run = self.tool(["--iperf3", "%s:%d" % (HOST, self.port),
                         "--time", "1"], "ip3closed")
        self.assertOk(run, 1)
        self.assertIn("connection refused", run.err)

    def test_no_arp_answer(self):
        run = self.tool(["--iperf3", "10.77.0.99", "--peer-timeout", "0.5",
                         "--time", "1"], "ip3noarp")
        self.assertOk(run, 1)
        self.assertIn("no ARP answer from the iperf3 server at 10.77.0.99",
                      run.err)

    def test_bad_combinations(self):
        for args, says in (
                (["--iperf3", HOST, "--peer", HOST], "not with --peer"),
                (["--iperf3", HOST, "--ports", "0,1"], "--ports"),
                (["--iperf3", "10.77.0"], "IPv4 address"),
                (["--iperf3", HOST + ":0"], "1..65535"),
                (["--iperf3", HOST, "--bidir", "-R"],
                 "--reverse and --bidir exclude each other")):
            run = self.tool(args, "ip3bad")
            self.assertOk(run, 2)
            self.assertIn(says, run.err)


if __name__ == "__main__":
    nbe2e.main()
