# SPDX-License-Identifier: BSD-3-Clause
"""Reporting and everyday use, on real memif runs: the JSON document (every
documented key, intervals adding up to the totals, the same numbers as the
text of the same run), JSON lines, CSV, an iperf3 parser reading our JSON
unchanged, JSON on failure and Ctrl-C, DPDK telemetry on a live run, config
files, --logfile, --quiet, --format and the terminal progress line."""
import csv
import io
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
import unittest

import nbe2e
import iperf3_keys
import iperf3_parser

ROOT = os.path.abspath(os.path.join(nbe2e.HERE, "..", ".."))
L1 = 20


class Report(nbe2e.E2ECase):

    def loop_args(self, *extra):
        return ["--tx-port", "0", "--rx-port", "1", "--rate", "1G",
                "--size", "512"] + list(extra)

    def run_loop(self, tool, timeout=90, name="report", code=0):
        eal = self.nb.eal(self.nb.memif_pair())
        r = self.nb.run(eal, tool, timeout=timeout, name=name)
        self.assertOk(r, code)
        return r

    # -- JSON document and the text of the same run ------------------------

    def test_json_and_text_of_one_run(self):
        jf = os.path.join(self.tmpdir, "r.json")
        r = self.run_loop(self.loop_args("--streams", "3", "--time", "3",
                                         "--interval", "0.5", "--omit", "1",
                                         "--json-file", jf))
        with open(jf) as f:
            d = nbe2e.load(f)
        # every key the schema requires is there (nbe2e.load checked it)
        e = d["end"]
        streams = e["streams"]
        self.assertEqual(len(streams), 3)
        # intervals (warm-up left out) add up to the end totals, per stream
        ivs = [iv for iv in d["intervals"] if not iv["sum"]["omitted"]]
        self.assertGreaterEqual(len(ivs), 6)
        self.assertTrue(any(iv["sum"]["omitted"] for iv in d["intervals"]))
        for k in range(3):
            self.assertEqual(sum(iv["streams"][k]["bytes"] for iv in ivs),
                             streams[k]["receiver"]["bytes"])
            self.assertEqual(sum(iv["streams"][k]["packets"] for iv in ivs),
                             streams[k]["receiver"]["packets"])
            self.assertEqual(
                sum(iv["streams"][k]["sent_packets"] for iv in ivs),
                streams[k]["sender"]["packets"])
        self.assertEqual(sum(iv["sum"]["bytes"] for iv in ivs),
                         e["sum_received"]["bytes"])
        for iv in ivs:
            s = iv["sum"]
            self.assertEqual(s["bytes"],
                             sum(x["bytes"] for x in iv["streams"]))
            self.assertAlmostEqual(s["bits_per_second"],
                                   s["bytes"] * 8 / s["seconds"], delta=1)
            self.assertAlmostEqual(
                s["l1_bits_per_second"],
                (s["bytes"] + L1 * s["packets"]) * 8 / s["seconds"], delta=1)
        # the text of the same run says the same
        out = r.out
        self.assertIn("[ ID] Interval", out)
        lines = [l for l in out.splitlines()
                 if re.match(r"\[\s*(\d+|SUM)\]\s+\d+\.\d\d-", l)
                 and "sender" not in l and "receiver" not in l]
        # 3 stream lines and a SUM line per measured interval, 1 per warm-up
        self.assertEqual(len(lines), 4 * len(ivs)
                         + len(d["intervals"]) - len(ivs))
        m = re.search(r"\[\s*SUM\] 0\.00-\S+\s+sec .* ([\d.]+) Mpps receiver"
                      r"\s+lost (\d+)/(\d+)", out)
        self.assertIsNotNone(m, out)
        self.assertAlmostEqual(float(m.group(1)),
                               e["sum_received"]["pps"] / 1e6, places=4)
        self.assertEqual(int(m.group(2)), e["sum_received"]["lost_packets"])
        self.assertEqual(int(m.group(3)), e["sum_sent"]["packets"])
        for p in e["ports"]:
            if "tx" in p["role"]:
                self.assertIn("sent tool %d PMD opackets %d"
                              % (p["tool_tx_packets"], p["pmd"]["opackets"]),
                              out)
            if "rx" in p["role"]:
                self.assertIn("received tool %d PMD ipackets %d"
                              % (p["tool_rx_packets"], p["pmd"]["ipackets"]),
                              out)
        self.assertIn("clock: tsc", out)
        self.assertIn("lcores: control=", out)
        # an iperf3 parser reads it
        s = iperf3_parser.summarize(d)
        self.assertEqual(s["received_bytes"], e["sum_received"]["bytes"])
        self.assertEqual(len(s["intervals"]), len(ivs))

    # -- JSON lines and CSV ------------------------------------------------

    def test_json_stream(self):
        r = self.run_loop(self.loop_args("--streams", "2", "--time", "2",
                                         "--interval", "0.5",
                                         "--json-stream"))
        events = []
        for n, line in enumerate(r.out.splitlines()):
            try:
                events.append(nbe2e.loads(line))
            except ValueError as e:
                self.fail("line %d is not JSON (%s): %r" % (n, e, line))
        kinds = [e["event"] for e in events]
        self.assertEqual(kinds[0], "start")
        self.assertEqual(kinds[-1], "end")
        self.assertEqual(set(kinds[1:-1]), {"interval"})
        self.assertGreaterEqual(len(kinds), 6)
        end = events[-1]["data"]
        self.assertEqual(sum(e["data"]["sum"]["bytes"]
                             for e in events[1:-1]),
                         end["sum_received"]["bytes"])
        self.assertEqual(events[0]["data"]["test_start"]["num_streams"], 2)

    def test_csv(self):
        r = self.run_loop(self.loop_args("--streams", "2", "--time", "2",
                                         "--interval", "0.5", "--csv"))
        rows = list(csv.reader(io.StringIO(r.out)))
        header = rows[0]
        self.assertIn("bits_per_second", header)
        for n, row in enumerate(rows[1:]):
            self.assertEqual(len(row), len(header),
                             "row %d has %d columns, header %d"
                             % (n + 1, len(row), len(header)))
        recs = [dict(zip(header, row)) for row in rows[1:]]
        ivs = [x for x in recs if x["kind"] == "interval"]
        ends = [x for x in recs if x["kind"] == "end"]
        self.assertEqual([x["stream"] for x in ends], ["0", "1", "sum"])
        # per interval: the streams add up to the sum row
        for t in sorted({x["start"] for x in ivs}):
            rows_t = [x for x in ivs if x["start"] == t]
            sums = [x for x in rows_t if x["stream"] == "sum"]
            self.assertEqual(len(sums), 1)
            self.assertEqual(
                sum(int(x["packets"]) for x in rows_t if x["stream"] != "sum"),
                int(sums[0]["packets"]))
            self.assertAlmostEqual(
                float(sums[0]["bits_per_second"]),
                int(sums[0]["bytes"]) * 8 / float(sums[0]["seconds"]),
                delta=1)
        # and the intervals add up to the end row
        total = [x for x in ends if x["stream"] == "sum"][0]
        self.assertEqual(sum(int(x["bytes"]) for x in ivs
                             if x["stream"] == "sum"), int(total["bytes"]))
        self.assertEqual(int(total["lost_packets"]), 0)
        self.assertEqual(int(total["packets"]), int(total["sent_packets"]))

    # -- iperf3 compatibility ------------------------------------------------

    def iperf3(self, *client_args):
        """A real iperf3 run on loopback (127.0.0.1), its JSON."""
        return iperf3_keys.run(client_args)

    def test_iperf3_parser_reads_ours(self):
        # the parser is right about iperf3 itself, UDP and TCP
        for args, proto in ((["-u", "-b", "10M", "-P", "2"], "UDP"),
                            (["-P", "2"], "TCP")):
            ref = self.iperf3(*args)
            s = iperf3_parser.summarize(ref)
            self.assertEqual(s["protocol"], proto)
            self.assertEqual(s["num_streams"], 2)
            self.assertGreater(s["received_bytes"], 0)
            self.assertEqual(len(s["streams"]), 2)
        # and reads ours unchanged: UDP, then TCP
        for proto in ("udp", "tcp"):
            r = self.run_loop(self.loop_args("--proto", proto, "--streams",
                                             "2", "--time", "2", "--json"))
            d = r.json()
            s = iperf3_parser.summarize(d)
            e = d["end"]
            self.assertEqual(s["protocol"], proto.upper())
            self.assertEqual(s["num_streams"], 2)
            self.assertEqual(s["sent_bytes"], e["sum_sent"]["bytes"])
            self.assertAlmostEqual(
                s["received_bps"],
                e["sum_received"]["bytes"] * 8 / e["sum_received"]["seconds"],
                delta=1)
            self.assertEqual(len(s["streams"]), 2)
            self.assertEqual(sum(iv[2] for iv in s["intervals"]),
                             e["sum_received"]["bytes"])
            if proto == "udp":
                self.assertEqual(s["udp_packets"], e["sum_sent"]["packets"])
                self.assertEqual(s["udp_lost"], 0)
                self.assertEqual(sum(x[1] for x in s["streams"]),
                                 e["sum_sent"]["bytes"])

    def test_iperf3_keys_loopback(self):
        """Every key of iperf3 3.12's UDP and TCP documents is in ours,
        with the same kind of value, intervals included; no difference
        is allowed in loopback."""
        for args, proto in ((["-u", "-b", "10M", "-P", "2"], "udp"),
                            (["-b", "10M", "-P", "2"], "tcp")):
            with self.subTest(proto=proto):
                ref = self.iperf3(*args)
                ours = self.run_loop(self.loop_args(
                    "--proto", proto, "--streams", "2", "--time", "2",
                    "--interval", "1", "--json")).json()
                self.assertEqual(iperf3_keys.differences(ref, ours), [])
                st = ours["start"]
                self.assertEqual(len(st["connected"]), 2)
                self.assertEqual([c["local_port"] for c in st["connected"]],
                                 [49152, 49153])
                self.assertRegex(st["cookie"], "^[0-9a-f]{32}$")
                # --rate 1G is L1: its L2 share at 512 B, as
                # bits_per_second counts them
                self.assertEqual(st["target_bitrate"],
                                 round(1e9 * 512 / (512 + 20)))
                cpu = ours["end"]["cpu_utilization_percent"]
                # measured: the busy-polling workers show (two of them,
                # sharing CPUs with the rest of this host)
                self.assertGreater(cpu["host_total"], 10)
                self.assertAlmostEqual(cpu["host_total"],
                                       cpu["host_user"] + cpu["host_system"],
                                       delta=1e-6)
                self.assertEqual(cpu["remote_total"], 0)
                if proto == "tcp":
                    self.assertEqual(st["tcp_mss_default"],
                                     ours["start"]["test_start"]["blksize"]
                                     - 4 - 54)

    # -- JSON when things go wrong -----------------------------------------

    def test_json_on_failure_and_interrupt(self):
        # a client whose port's link never comes up (peer mode starts
        # only port 0 of the pair); test_peer covers a live link with no
        # responder behind it ("did not answer", also in JSON)
        eal = self.nb.eal(self.nb.memif_pair())
        r = self.nb.run(eal, ["--peer", "02:00:00:00:00:99", "--time", "1",
                              "--link-timeout", "1", "--json"],
                        name="nolink")
        self.assertOk(r, 1)
        d = r.json()
        self.assertIn("link still down", d["error"])
        self.assertEqual(d["intervals"], [])
        self.assertEqual(iperf3_parser.summarize(d)["error"], d["error"])
        # a usage error, with --json: still a document, exit 2
        r = self.nb.run(eal, ["--json", "--rate", "fast"], name="usage")
        self.assertOk(r, 2)
        self.assertIn("--rate", r.json()["error"])
        # --json-stream: an error event
        r = self.nb.run(eal, ["--json-stream", "--streams", "0"],
                        name="usage2")
        self.assertOk(r, 2)
        ev = nbe2e.loads(r.out.splitlines()[-1])
        self.assertEqual(ev["event"], "error")
        self.assertIn("--streams", ev["data"])
        # Ctrl-C in the middle of a run: a whole document, intervals closed
        prefix = nbe2e.unique("int")
        eal = self.nb.eal(self.nb.memif_pair(), prefix=prefix)
        p, argv, log = self.nb.start(eal, self.loop_args(
            "--time", "30", "--interval", "0.5", "--json"), name="sigint")
        try:
            self.wait_running(prefix, seconds=1.2)
        except Exception:
            os.killpg(p.pid, signal.SIGKILL)
            raise
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        nbe2e.Nbench._log(log, argv, p.returncode, out, err)
        self.assertEqual(p.returncode, 1, log)
        d = nbe2e.loads(out)
        e = d["end"]
        self.assertTrue(e["interrupted"])
        self.assertLess(e["sum_sent"]["seconds"], 20)
        self.assertGreater(e["sum_sent"]["packets"], 0)
        self.assertEqual(sum(iv["sum"]["bytes"] for iv in d["intervals"]),
                         e["sum_received"]["bytes"])

    # -- DPDK telemetry ----------------------------------------------------

    def telemetry(self, prefix):
        return nbe2e.telemetry(prefix)

    @staticmethod
    def ask(s, cmd):
        return nbe2e.telemetry_ask(s, cmd)

    def wait_running(self, prefix, seconds):
        """Until telemetry says the test has run this long."""
        s = self.telemetry(prefix)
        deadline = time.monotonic() + 30
        while True:
            st = self.ask(s, "/nbench/state")
            if (st["state"] == "running"
                    and float(st["elapsed_s"]) >= seconds):
                break
            self.assertLess(time.monotonic(), deadline, st)
            time.sleep(0.05)
        s.close()

    def test_telemetry(self):
        prefix = nbe2e.unique("tel")
        eal = self.nb.eal(self.nb.memif_pair(), prefix=prefix)
        p, argv, log = self.nb.start(eal, self.loop_args(
            "--streams", "2", "--time", "8", "--quiet"), name="tel")
        try:
            s = self.telemetry(prefix)
            cmds = self.ask(s, "/")
            for c in ("/nbench/state", "/nbench/ports", "/nbench/streams",
                      "/nbench/latency"):
                self.assertIn(c, cmds)
            # wait for the test to run
            deadline = time.monotonic() + 20
            while self.ask(s, "/nbench/state")["state"] != "running":
                self.assertLess(time.monotonic(), deadline, "never running")
                time.sleep(0.1)
            a = self.ask(s, "/nbench/ports")
            t_a = time.monotonic()
            st_a = self.ask(s, "/nbench/streams")
            time.sleep(1)
            b = self.ask(s, "/nbench/ports")
            t_b = time.monotonic()
            st_b = self.ask(s, "/nbench/streams,1")
            lat = self.ask(s, "/nbench/latency")
            state = self.ask(s, "/nbench/state")
            s.close()
            # also through DPDK's own client
            tool = subprocess.run(["dpdk-telemetry.py", "-f", prefix],
                                  input="/nbench/state\n", text=True,
                                  capture_output=True, timeout=30)
        finally:
            out, err = p.communicate(timeout=60)
            nbe2e.Nbench._log(log, argv, p.returncode, out, err)
        self.assertEqual(p.returncode, 0, log)
        # the live count moves at the requested rate (1 Gbit/s L1 of
        # 512 B frames: 1e9 / (532 * 8) = 234,962 pps), within a factor of
        # 2 for a shared CI host
        want = 1e9 / ((512 + 20) * 8)
        rate = ((b["0"]["tool_tx_packets"] - a["0"]["tool_tx_packets"])
                / (t_b - t_a))
        self.assertGreater(rate, want / 2)
        self.assertLess(rate, want * 2)
        self.assertEqual(state["requested_pps"], int(want))
        self.assertGreater(b["1"]["tool_rx_packets"],
                           a["1"]["tool_rx_packets"])
        self.assertGreater(b["0"]["opackets"], a["0"]["opackets"])
        self.assertEqual(sorted(st_a), ["0", "1"])
        self.assertEqual(list(st_b), ["1"])
        self.assertGreater(st_b["1"]["tx_packets"], st_a["1"]["tx_packets"])
        self.assertGreater(lat["count"], 0)
        self.assertLessEqual(lat["p50_ns"], lat["p99_ns"])
        self.assertEqual(state["mode"], "loopback")
        self.assertIn('"/nbench/state"', tool.stdout)
        self.assertIn('"mode": "loopback"', tool.stdout)

    def test_telemetry_tcp(self):
        """A --tcp test is live to telemetry (it runs on the same runtime):
        state "running", protocol TCP, and tx_packets the TCP workers'
        frames, which grow while it runs and never pass what the report
        counts at the end."""
        prefix = nbe2e.unique("teltcp")
        eal = self.nb.eal(self.nb.memif_pair(), prefix=prefix)
        p, argv, log = self.nb.start(eal, [
            "--tx-port", "0", "--rx-port", "1", "--tcp", "--time", "4",
            "--json"], name="teltcp")
        try:
            s = self.telemetry(prefix)
            deadline = time.monotonic() + 20
            while self.ask(s, "/nbench/state")["state"] != "running":
                self.assertLess(time.monotonic(), deadline, "never running")
                time.sleep(0.05)
            a = self.ask(s, "/nbench/state")
            # the counts move while it runs (asked until they do, for
            # at most 2 s of a 4 s test)
            deadline = time.monotonic() + 2
            while True:
                b = self.ask(s, "/nbench/state")
                if (b["tx_packets"] > a["tx_packets"]
                        and b["rx_packets"] > a["rx_packets"]
                        or time.monotonic() > deadline):
                    break
                time.sleep(0.01)
            s.close()
        finally:
            out, err = p.communicate(timeout=60)
            nbe2e.Nbench._log(log, argv, p.returncode, out, err)
        self.assertEqual(p.returncode, 0, log)
        d = nbe2e.loads(out)
        ports = {x["role"]: x for x in d["nbench"]["ports"]}
        self.assertEqual(a["protocol"], "TCP")
        self.assertEqual(b["state"], "running")
        self.assertGreater(b["tx_packets"], a["tx_packets"])
        self.assertGreater(b["rx_packets"], a["rx_packets"])
        # the client's data and the server's ACKs, both ways, in all
        self.assertLessEqual(b["tx_packets"],
                             ports["client"]["tool_tx_packets"]
                             + ports["server"]["tool_tx_packets"])
        self.assertLessEqual(b["rx_packets"],
                             ports["client"]["tool_rx_packets"]
                             + ports["server"]["tool_rx_packets"])

    # -- config files ------------------------------------------------------

    def test_config_file(self):
        ini = os.path.join(self.tmpdir, "t.ini")
        with open(ini, "w") as f:
            f.write("; a profile\n[ports]\ntx-port = 0\nrx-port = 1\n"
                    "[traffic]\nrate = 1G\nsize = 256\nstreams = 3\n"
                    "packets = 30000\n[output]\njson = true\n")
        r = self.run_loop(["--config", ini, "--size", "512"], name="cfg")
        d = r.json()
        ts = d["start"]["test_start"]
        self.assertEqual(ts["frame_sizes"], [512])        # command line
        self.assertEqual(ts["num_streams"], 3)            # file
        self.assertEqual(d["end"]["sum_sent"]["packets"], 30000)
        self.assertEqual(d["end"]["sum_received"]["packets"], 30000)
        self.assertEqual(d["end"]["sum_sent"]["bytes"], 30000 * 512)
        # errors: exit 2 naming file, line and key; no EAL needed
        for body, line, what in (("rate = 1G\nbogus = 1\n", 2,
                                  "unknown key 'bogus'"),
                                 ("[t]\n\nstreams = lots\n", 3,
                                  "bad value 'lots' for key 'streams'")):
            with open(ini, "w") as f:
                f.write(body)
            r = subprocess.run([nbe2e.BIN, "--", "--config", ini],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("%s:%d: %s" % (ini, line, what), r.stderr)

    # -- logfile, quiet, format, progress ----------------------------------

    def test_logfile_quiet_format(self):
        logf = os.path.join(self.tmpdir, "out.log")
        r = self.run_loop(self.loop_args("--time", "1", "--json",
                                         "--logfile", logf), name="logfile")
        self.assertEqual(r.out, "")
        with open(logf) as f:
            d = nbe2e.load(f)
        self.assertGreater(d["end"]["sum_sent"]["packets"], 0)
        r = self.run_loop(self.loop_args("--time", "1", "--quiet",
                                         "--format", "m"), name="quiet")
        self.assertNotIn("[ ID]", r.out)
        self.assertNotIn("Loopback test", r.out)
        m = re.search(r"\[\s*0\] 0\.00-\S+\s+sec\s+\S+ \S+\s+([\d.]+) "
                      r"Mbits/sec .*receiver", r.out)
        self.assertIsNotNone(m, r.out)

    def test_one_unit_in_the_text_report(self):
        """Every bitrate of a text report (header, intervals, sender and
        receiver rows, the rate line) in the requested rate's unit, even
        where a figure falls just below it (1000 Mbit/s is printed as
        1.00 Gbits/sec, not 1000 Mbits/sec); -f a says the same."""
        for fmt in ([], ["-f", "a"]):
            r = self.run_loop(self.loop_args("--packets", "200000",
                                             "--interval", "0.1") + fmt,
                              name="units")
            units = re.findall(r"[\d.]+ ([KMGT]?)bits/sec", r.out)
            self.assertGreater(len(units), 6, r.out)
            self.assertEqual(set(units), {"G"}, r.out)
            head = [ln for ln in r.out.splitlines()
                    if ln.startswith("Loopback test:")]
            self.assertEqual(len(head), 1, r.out)
            self.assertIn("(L1 1.00 Gbits/sec)", head[0])
        # --rate max: the unit of the TX link (memif says 100 Gbit/s)
        r = self.run_loop(["--tx-port", "0", "--rx-port", "1", "--size",
                           "512", "--time", "0.5"], name="units-max")
        self.assertEqual(set(re.findall(r"[\d.]+ ([KMGT]?)bits/sec",
                                        r.out)), {"G"}, r.out)

    def test_progress_line_on_a_terminal(self):
        eal = self.nb.eal(self.nb.memif_pair())
        argv = [nbe2e.BIN] + eal + ["--"] + self.loop_args(
            "--time", "3", "--interval", "0")
        master, slave = pty.openpty()
        p = subprocess.Popen(argv, stdout=slave, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL,
                             start_new_session=True)
        os.close(slave)
        buf = b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                buf += chunk
            elif p.poll() is not None:
                break
        p.wait(timeout=30)
        os.close(master)
        text = buf.decode(errors="replace")
        self.assertEqual(p.returncode, 0, text[-2000:])
        updates = re.findall(r"\r\[([\d.]+)/3\.0 s\] ", text)
        self.assertGreaterEqual(len(updates), 3, text[-2000:])
        times = [float(t) for t in updates]
        self.assertEqual(times, sorted(times))
        self.assertNotIn("[ ID]", text)        # no interval lines
        self.assertIn("receiver", text)        # the final report


if __name__ == "__main__":
    nbe2e.main()
