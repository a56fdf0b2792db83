# SPDX-License-Identifier: BSD-3-Clause
"""--iperf3-server PORT against Debian's stock iperf3 3.12 client:

    namespace ip3sN:  pa 10.79.0.2/24, iperf3 -c   <-veth->   pb,
                      dpdk-nbench --iperf3-server on af_packet (--ip 10.79.0.1)

UDP from the client (iperf3 -u): the server's counts (its --json line per
test) are the client's sent datagrams exactly, 0 lost, over one stream
and over two by count (-k); UDP to the client (-R): the server's sent
count is the client's, nothing lost; TCP from the client (-P 4): each
stream's bytes exactly; TCP to the client: -n exactly, by time what the
client counted of ours; the client's -J document has every key of a real
iperf3 server's; a second client while one runs is told the server is
busy; --bidir either protocol, each way's counts; -b above --max-rate,
-R with 64-bit counters (not served yet) and a client outside --allow
are refused with iperf3's own messages on the client, and the
server goes on serving."""
import json
import os
import signal
import subprocess
import time

import iperf3_keys
import nbe2e

ME = "10.79.0.1"
CLIENT = "10.79.0.2"


class Iperf3Server(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        self.iperf3_namespace("ip3s", CLIENT)

    def server(self, extra=()):
        """dpdk-nbench --iperf3-server --json in the background; returns
        (Popen, a LineReader of its stdout) once it listens."""
        p, argv, log = self.nb.start(
            self.eal, ["--ip", ME, "--iperf3-server", str(self.port),
                       "--json"] + list(extra), name="ip3srv",
            wrap=self.wrap)
        self.addCleanup(self.stop, p, log)
        out = nbe2e.LineReader(p.stdout)
        for _ in range(3):
            line = out.readline(30)
            self.assertIsNotNone(line, "the server did not start")
            if "iperf3 server on port 0" in line:
                return p, out
        self.fail("the server did not start: " + str(line))

    @staticmethod
    def stop(p, log):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        with open(log, "w") as f:
            f.write("--- stdout\n%s\n--- stderr\n%s\n" % (out, err))

    def client(self, args, timeout=40):
        """iperf3 -c against the server: (returncode, -J document).  With
        -J, iperf3 3.12 exits 0 after an error too: its "error" key
        tells."""
        c = subprocess.run(self.wrap + ["iperf3", "-c", ME, "-p",
                                        str(self.port), "-J"] + args,
                           capture_output=True, text=True, timeout=timeout)
        return c.returncode, json.loads(c.stdout)

    def served(self, out):
        """The server's --json line of the test just served."""
        line = out.readline(20)
        self.assertTrue(line and line.startswith("{"), line)
        return json.loads(line)

    def test_udp_from_client(self):
        p, out = self.server()
        rc, doc = self.client(["-u", "-b", "100M", "-l", "1400", "-t",
                               "2"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        sent = doc["end"]["sum_sent"]["packets"]
        # the client's pacer, 2 s of 100 Mbit/s of 1400-byte payloads
        self.assertAlmostEqual(sent / (2 * 100e6 / (1400 * 8)), 1.0,
                               delta=0.05)
        self.assertFalse(mine["reverse"])
        self.assertEqual(mine["protocol"], "UDP")
        s = mine["results"]["streams"]
        self.assertEqual([x["id"] for x in s], [1])
        # every datagram the client says it sent, counted by the tool
        self.assertEqual(s[0]["packets"], sent)
        self.assertEqual(s[0]["errors"], 0)
        self.assertEqual(s[0]["bytes"], sent * 1400)
        self.assertEqual(mine["results"]["sender_has_retransmits"], -1)
        # the client's receiver figures are ours, as it printed them
        self.assertEqual(doc["end"]["sum_received"]["packets"], sent)
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"], 0)
        # the client's results as it sent them to us
        self.assertEqual(mine["client_results"]["streams"][0]["packets"],
                         sent)
        # the tool's busy worker shows in the CPU it reports
        self.assertGreater(doc["end"]["cpu_utilization_percent"]
                           ["remote_total"], 10)

    def test_udp_streams_count(self):
        p, out = self.server()
        # -k over 2 streams: 3000 datagrams in all, each stream's ours
        rc, doc = self.client(["-u", "-b", "10M", "-l", "1000", "-k",
                               "3000", "-P", "2"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        theirs = [x["udp"]["packets"] for x in doc["end"]["streams"]]
        self.assertEqual(sum(theirs), 3000)
        s = mine["results"]["streams"]
        self.assertEqual([x["id"] for x in s], [1, 3])
        self.assertEqual([x["packets"] for x in s], theirs)
        self.assertEqual([x["errors"] for x in s], [0, 0])
        self.assertEqual(mine["num_streams"], 2)

    def test_udp_to_client(self):
        p, out = self.server()
        # -R: the tool sends; -w 4M: the client's socket rides out the
        # moments its CPU goes to the tool's busy worker
        rc, doc = self.client(["-u", "-R", "-b", "100M", "-l", "1400",
                               "-t", "2", "-w", "4M"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        self.assertTrue(mine["reverse"])
        sent = mine["results"]["streams"][0]["packets"]
        self.assertAlmostEqual(sent / (2 * 100e6 / (1400 * 8)), 1.0,
                               delta=0.05)
        self.assertEqual(mine["results"]["streams"][0]["bytes"],
                         sent * 1400)
        # the client's sender row is our count
        self.assertEqual(doc["end"]["sum_sent"]["packets"], sent)
        # what it received: no gap below the highest count it read; it
        # stops reading at its TEST_END, so what was in flight then is
        # not in its count (a few ms of datagrams)
        got = doc["end"]["sum_received"]["packets"]
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"], 0)
        self.assertLessEqual(got, sent)
        self.assertGreater(got, sent * 0.98)
        self.assertEqual(mine["client_results"]["streams"][0]["packets"],
                         got)

    def test_tcp_from_client(self):
        p, out = self.server()
        rc, doc = self.client(["-P", "4", "-t", "2"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        self.assertEqual(mine["protocol"], "TCP")
        ours = [x["bytes"] for x in mine["results"]["streams"]]
        theirs = [x["sender"]["bytes"] for x in doc["end"]["streams"]]
        self.assertEqual([x["id"] for x in mine["results"]["streams"]],
                         [1, 3, 4, 5])
        self.assertTrue(all(b > 0 for b in ours), ours)
        # every byte each stream sent after its cookie, counted: the
        # streams close at TEST_END, what was still coming is taken in
        self.assertEqual(ours, theirs)
        self.assertEqual([x["receiver"]["bytes"]
                          for x in doc["end"]["streams"]], ours)

    def test_tcp_to_client_bytes(self):
        p, out = self.server()
        # -R -n over 3 streams: 20 MiB in all, split as iperf3's server
        # would not (it sends whole blocks): exactly -n, each stream a
        # third (the first one byte more)
        rc, doc = self.client(["-R", "-n", "20M", "-P", "3"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        ours = [x["bytes"] for x in mine["results"]["streams"]]
        self.assertEqual(ours, [6990507, 6990507, 6990506])
        self.assertEqual(doc["end"]["sum_received"]["bytes"], 20 << 20)
        self.assertEqual(doc["end"]["sum_sent"]["bytes"], 20 << 20)
        self.assertEqual(mine["results"]["sender_has_retransmits"], 1)

    def test_tcp_to_client_time(self):
        p, out = self.server()
        rc, doc = self.client(["-R", "-t", "2", "-P", "2"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        ours = sum(x["bytes"] for x in mine["results"]["streams"])
        got = doc["end"]["sum_received"]["bytes"]
        self.assertEqual(doc["end"]["sum_sent"]["bytes"], ours)
        # the client stops counting at its TEST_END: what was on its way
        # then is ours, not its (a few ms at most)
        self.assertLessEqual(got, ours)
        self.assertGreater(got, ours * 0.95)

    def test_bidir(self):
        """--bidir (iperf3 3.12's -bidir), UDP then TCP, 2 streams each
        way: the client's sending streams (ids 1, 3) counted by the tool
        exactly, the tool's (ids 4, 5) by the client."""
        p, out = self.server()
        rc, doc = self.client(["-u", "-b", "20M", "-l", "1000", "-t", "2",
                               "-P", "2", "--bidir", "-w", "4M"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        s = {x["id"]: x for x in mine["results"]["streams"]}
        self.assertEqual(sorted(s), [1, 3, 4, 5])
        e = doc["end"]
        # the client's own streams: what it sent, we counted, 0 lost
        self.assertEqual(s[1]["packets"] + s[3]["packets"],
                         e["sum_sent"]["packets"])
        self.assertEqual(s[1]["errors"] + s[3]["errors"], 0)
        # ours: what we sent, the client's sender rows of the other way
        ours = s[4]["packets"] + s[5]["packets"]
        self.assertEqual(e["sum_sent_bidir_reverse"]["packets"], ours)
        self.assertEqual(e["sum_received_bidir_reverse"]["lost_packets"],
                         0)
        self.assertGreater(ours, 0)
        rc, doc = self.client(["-t", "2", "-P", "2", "--bidir"])
        self.assertEqual(rc, 0, doc.get("error"))
        mine = self.served(out)
        s = {x["id"]: x["bytes"] for x in mine["results"]["streams"]}
        e = doc["end"]
        self.assertEqual(s[1] + s[3], e["sum_sent"]["bytes"])
        self.assertEqual(s[1] + s[3], e["sum_received"]["bytes"])
        self.assertEqual(s[4] + s[5], e["sum_sent_bidir_reverse"]["bytes"])
        self.assertGreater(s[4] + s[5], 0)
        # the client counts ours until its TEST_END
        self.assertLessEqual(e["sum_received_bidir_reverse"]["bytes"],
                             s[4] + s[5])

    def test_tcp_clean_in_tshark(self):
        """A paced TCP test from the client, captured on its veth: no
        error in tshark's analysis, no bad checksum, (almost) no
        retransmission."""
        if not os.access("/usr/bin/tshark", os.X_OK):
            self.skipTest("needs tshark")
        p, out = self.server()
        pcap = os.path.join(self.tmpdir, "ip3.pcapng")
        cap = self.tshark(["/usr/bin/tshark", "-n", "-i", "pa", "-f",
                           "tcp port %d" % self.port, "-w", pcap])
        rc, doc = self.client(["-t", "1", "-b", "200M"])
        self.assertEqual(rc, 0, doc.get("error"))
        self.served(out)
        os.killpg(cap.pid, signal.SIGINT)
        self.tshark_end(cap, 20)
        expert = subprocess.run(["/usr/bin/tshark", "-r", pcap, "-q", "-z",
                                 "expert"], capture_output=True,
                                text=True, check=True).stdout
        self.assertNotIn("Errors (", expert, expert)
        def count(flt):
            out = subprocess.run(["/usr/bin/tshark", "-r", pcap, "-Y", flt],
                                 capture_output=True, text=True,
                                 check=True).stdout
            return len(out.splitlines())
        # no bad checksum; the capture holds the test's segments
        self.assertEqual(count("tcp.checksum.status == 0"), 0)
        data = count("tcp.len > 0")
        self.assertGreater(data, 1000)
        # retransmissions, losses, reordering: none on a quiet host; a
        # frame dropped when a CPU is taken away (2 CPUs, a busy-polling
        # worker) is retransmitted, so at most 1 % of the data segments
        flagged = count("tcp.analysis.retransmission || "
                        "tcp.analysis.lost_segment || "
                        "tcp.analysis.out_of_order || "
                        "tcp.analysis.duplicate_ack")
        self.assertLessEqual(flagged, data // 100, (flagged, data))

    def test_iperf3_keys(self):
        """The client's -J document against the tool has every key, with
        the same kind of value, that it has against a real iperf3
        server (UDP and TCP, either way)."""
        p, out = self.server()
        for args in (["-u", "-b", "10M"], ["-u", "-b", "10M", "-R"],
                     ["-b", "100M"], ["-b", "100M", "-R"]):
            with self.subTest(iperf3=args):
                ref = iperf3_keys.run(args)
                rc, doc = self.client(args + ["-t", "1"])
                self.assertEqual(rc, 0, doc.get("error"))
                self.served(out)
                self.assertEqual(iperf3_keys.differences(ref, doc), [])

    def test_busy(self):
        p, out = self.server()
        hold = subprocess.Popen(self.wrap + ["iperf3", "-c", ME, "-p",
                                             str(self.port), "-u", "-b",
                                             "1M", "-t", "8",
                                             "--forceflush"],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True,
                                start_new_session=True)
        self.addCleanup(lambda: hold.poll() is None and
                        os.killpg(hold.pid, signal.SIGKILL))
        # the first client's streams are in once it prints its first
        # interval (--forceflush: its stdout is a pipe)
        deadline = time.monotonic() + 20
        for line in hold.stdout:
            if "sec" in line or time.monotonic() > deadline:
                break
        rc, doc = self.client(["-u", "-t", "1"])
        self.assertIn("the server is busy running a test", doc["error"])
        # the first one ends well, its test served
        self.assertEqual(hold.wait(timeout=30), 0)
        mine = self.served(out)
        self.assertGreater(mine["results"]["streams"][0]["packets"], 0)

    def test_refusals(self):
        p, out = self.server(["--max-rate", "50M"])
        # over the cap (L1 bits of the frames): iperf3's own message
        rc, doc = self.client(["-u", "-b", "100M", "-t", "1"])
        self.assertIn("total required bandwidth is larger than server "
                      "limit", doc["error"])
        # --bidir's streams count both ways: 65 each way is over 128
        rc, doc = self.client(["-u", "-b", "1M", "-t", "1", "-P", "65",
                               "--bidir"])
        self.assertIn("number of parallel streams too large",
                      doc["error"])
        # sending with 64-bit counters: not served yet
        rc, doc = self.client(["-u", "-b", "10M", "-t", "1", "-R",
                               "--udp-counters-64bit"])
        self.assertIn("not implemented", doc["error"])
        # and the server serves the next client
        rc, doc = self.client(["-u", "-b", "10M", "-t", "1"])
        self.assertEqual(rc, 0, doc.get("error"))
        self.assertEqual(self.served(out)["results"]["streams"][0]
                         ["packets"], doc["end"]["sum_sent"]["packets"])

    def test_allow(self):
        p, out = self.server(["--allow", "10.99.0.0/16"])
        rc, doc = self.client(["-u", "-t", "1"])
        self.assertIn("Connection refused", doc["error"])
        self.assertIsNone(p.poll())


if __name__ == "__main__":
    nbe2e.main()
