# SPDX-License-Identifier: BSD-3-Clause
"""A receive-only test (--rx-port without --tx-port, issue 14): another
generator's frames (dpdk-testpmd --forward-mode=txonly here, over a memif
pair) are counted as they come: every frame and byte, per interval and for
the test, equal to the port's own PMD counters; --packets ends it after
that many frames; what only a sender has is a usage error."""
import csv
import io
import json
import os
import signal

import nbe2e

TXPKTS = 64  # testpmd's frame without the FCS


class ReceiveOnly(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        self.sock = os.path.join(self.tmpdir, "rx.sock")
        self.tp = nbe2e.testpmd(
            [], "net_memif0,role=server,socket=%s,rsize=14" % self.sock,
            mode="txonly", extra=["--txpkts=%d" % TXPKTS])
        self.addCleanup(self.stop_testpmd)

    def stop_testpmd(self):
        if self.tp.poll() is None:
            try:
                self.tp.stdin.write("stop\nquit\n")
                self.tp.stdin.flush()
                self.tp.communicate(timeout=20)
            except Exception:
                os.killpg(self.tp.pid, signal.SIGKILL)
                self.tp.communicate()

    def run_rx(self, tool, code=0):
        # the receiver alone on CPU 0; testpmd's sender on CPU 1
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES, "--file-prefix",
               nbe2e.unique("rxo"), "--log-level", "lib.eal:error",
               "--vdev", "net_memif0,role=client,socket=%s,rsize=14"
               % self.sock]
        r = self.nb.run(eal, ["--rx-port", "0"] + tool, timeout=60,
                        name="rxo")
        self.assertOk(r, code)
        return r

    def check_counts(self, d):
        e = d["end"]
        ro = e["receive_only"]
        port = e["ports"][0]
        # every frame the port took in, as the tool and the PMD count it
        self.assertGreater(ro["packets"], 0)
        self.assertEqual(ro["packets"], port["tool_rx_packets"])
        self.assertEqual(ro["packets"], port["pmd"]["ipackets"])
        self.assertEqual(port["pmd"]["imissed"], 0)
        # testpmd's frames are TXPKTS bytes: + the FCS the tool counts
        self.assertEqual(ro["bytes"], ro["packets"] * (TXPKTS + 4))
        self.assertAlmostEqual(ro["packets_per_second"],
                               ro["packets"] / ro["seconds"], delta=1)
        self.assertAlmostEqual(
            ro["l1_bits_per_second"],
            (ro["bytes"] + 20 * ro["packets"]) * 8 / ro["seconds"],
            delta=1)
        # testpmd's 64-byte frames are 68 with the FCS: RMON's 65-127
        sizes = ro["sizes"]
        self.assertEqual(sizes["65-127"], ro["packets"])
        self.assertEqual(sum(sizes.values()), ro["packets"])
        # none of them is this tool's: no stream counted any
        self.assertEqual(e["sum_received"]["packets"], 0)
        self.assertEqual(e["rx_foreign"], ro["packets"])
        # the intervals add up to the end
        ivs = [iv["receive_only"] for iv in d["intervals"]]
        self.assertEqual(sum(i["packets"] for i in ivs), ro["packets"])
        self.assertEqual(sum(i["bytes"] for i in ivs), ro["bytes"])
        return ro

    def test_by_time(self):
        # longer than the senders' 5 s stall rule, which has no TX port
        # to watch here
        d = self.run_rx(["--time", "6", "--json"]).json()
        ro = self.check_counts(d)
        self.assertEqual(ro["seconds"], 6.0)
        self.assertEqual(len(d["intervals"]), 6)
        for k, iv in enumerate(d["intervals"]):
            self.assertAlmostEqual(iv["sum"]["start"], k, delta=0.01)
            self.assertAlmostEqual(iv["sum"]["end"], k + 1, delta=0.01)
            self.assertGreater(iv["receive_only"]["packets"], 0)

    def test_by_packets_and_text(self):
        n = 2000000
        d = self.run_rx(["--packets", str(n), "--json"]).json()
        ro = self.check_counts(d)
        self.assertGreaterEqual(ro["packets"], n)
        self.assertLess(ro["seconds"], 30)
        r = self.run_rx(["--time", "1"])
        self.assertIn("Receive-only test: port 0 takes in what arrives",
                      r.out)
        self.assertRegex(r.out, r"\[ RX\]\s+0\.00-1\.00\s+sec .* frames "
                         r"received \(every frame\)")
        self.assertIn("were not this tool's", r.out)
        self.assertRegex(r.out, r"sizes \(bytes with FCS\): 65-127 \d+ "
                         r"\(100\.0 %\)")

    def test_csv_rows(self):
        # the CSV carries the [ RX] rows as stream "all": every frame per
        # interval and at the end, equal to the JSON document (and so to
        # the PMD) of the same run
        jf = os.path.join(self.tmpdir, "rxo.json")
        r = self.run_rx(["--time", "3", "--csv", "--json-file", jf])
        rows = list(csv.DictReader(io.StringIO(r.out)))
        ivs = [x for x in rows if x["kind"] == "interval"
               and x["stream"] == "all"]
        ends = [x for x in rows if x["kind"] == "end"
                and x["stream"] == "all"]
        self.assertEqual(len(ivs), 3)
        self.assertEqual(len(ends), 1)
        with open(jf) as f:
            ro = self.check_counts(nbe2e.load(f))
        end = ends[0]
        self.assertEqual(end["direction"], "receive-only")
        self.assertEqual(int(end["packets"]), ro["packets"])
        self.assertEqual(int(end["bytes"]), ro["bytes"])
        self.assertEqual(sum(int(x["packets"]) for x in ivs), ro["packets"])
        for x in ivs + ends:
            pkts, nbytes = int(x["packets"]), int(x["bytes"])
            secs = float(x["seconds"])
            self.assertGreater(pkts, 0)
            self.assertEqual(nbytes, pkts * (TXPKTS + 4))
            self.assertAlmostEqual(float(x["bits_per_second"]),
                                   nbytes * 8 / secs, delta=1)
            self.assertAlmostEqual(float(x["l1_bits_per_second"]),
                                   (nbytes + 20 * pkts) * 8 / secs, delta=1)
            self.assertAlmostEqual(float(x["pps"]), pkts / secs, delta=1)
            self.assertEqual(int(x["sent_packets"]), 0)
        self.assertEqual(float(end["seconds"]), ro["seconds"])

    def test_sender_options_refused(self):
        eal = ["--no-pci", "--file-prefix", nbe2e.unique("rxo")]
        for opt in (["--rate", "1G"], ["--size", "128"], ["--bytes", "1G"]):
            with self.subTest(opt=opt[0]):
                r = self.nb.run(eal, ["--rx-port", "0"] + opt, name="rxo")
                self.assertEqual(r.rc, 2, r.err)
                self.assertIn("%s is a sender's" % opt[0], r.err)


if __name__ == "__main__":
    nbe2e.main()
