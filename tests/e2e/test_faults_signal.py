# SPDX-License-Identifier: BSD-3-Clause
"""Faults: SIGINT and SIGTERM in every phase, and write errors.

Signals: each case brings the tool into one phase and holds it there
deterministically (the hugepage directory's lock held by the test, a peer
that never answers, a long --time, a stdout pipe the test does not read
yet, a long --settle), waits for the line the tool logs on entering it
("phase: NAME" at --log-level nbench:debug), sends the signal, and checks:
the process exits within 2 s (5 s in the sanitizer build, whose exit
includes LeakSanitizer's scan), with the documented code, and the --json
document (stdout and --json-file, the same) is complete and says which
signal came in which phase ("interruption").

Write errors: a tmpfs of 64 KiB of the test's own, filled up, so every
write to it fails with ENOSPC: --json-file, --logfile and --capture on it
are each reported on stderr naming the file and the error, exit 1, and the
report on stdout is still complete.
"""
import fcntl
import json
import os
import re
import signal
import subprocess
import time

import nbe2e

RESP_MAC = "02:00:00:00:00:02"
EXIT_BOUND = 5.0 if nbe2e.SANITIZED else 2.0
SIGNAME = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}


class SignalBase(nbe2e.E2ECase):

    def start(self, eal, tool, json_out=True, name="sig"):
        """Start with phase lines on stderr; --json and --json-file."""
        self.jf = os.path.join(self.tmpdir, "doc.json")
        extra = ["--json", "--json-file", self.jf] if json_out else []
        p, argv, log = self.nb.start(eal + ["--log-level", "nbench:debug"],
                                     tool + extra, name=name)
        self.addCleanup(self.kill, p)
        return p, log

    def kill(self, p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        for f in (p.stdout, p.stderr):
            f.close()

    def wait_line(self, rd, pattern, timeout=30):
        """The first stderr line matching pattern (a regex), and the lines
        read so far."""
        seen, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = rd.readline(max(deadline - time.monotonic(), 0.01))
            if line is None:
                continue
            if line == "":
                break
            seen.append(line)
            m = re.search(pattern, line)
            if m:
                return m, seen
        self.fail("no line matching %r within %ss; stderr:\n%s"
                  % (pattern, timeout, "\n".join(seen[-40:])))

    def signal_and_finish(self, p, rd, sig, log):
        """Send sig; the exit code, stdout, stderr and the seconds from the
        signal to the exit."""
        t0 = time.monotonic()
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        took = time.monotonic() - t0
        err = rd.buf.decode(errors="replace") + err
        nbe2e.Nbench._log(log, p.args, p.returncode, out, err)
        return p.returncode, out, err, took

    def check_doc(self, out, sig, phase):
        """stdout's --json document and the --json-file are one complete
        document that says sig came in phase; returns it."""
        doc = nbe2e.loads(out, "stdout")
        with open(self.jf) as f:
            self.assertEqual(nbe2e.load(f), doc)
        self.assertEqual(doc["interruption"],
                         {"signal": SIGNAME[sig], "phase": phase})
        return doc

    def check_exit(self, rc, err, took, code, sig, phase):
        print("\n  %s in %s: exit %d, %.3f s after the signal"
              % (SIGNAME[sig], phase, rc, took), flush=True)
        self.assertEqual(rc, code, err[-3000:])
        self.assertLess(took, EXIT_BOUND, err[-3000:])
        self.assertIn("interrupted by %s during %s" % (SIGNAME[sig], phase),
                      err)

    def loop_eal(self, vdevs=None):
        return self.nb.eal(vdevs or self.nb.memif_pair())


class SignalPhases(SignalBase):
    """One case per phase; SIGINT and SIGTERM alternate between them."""

    def test_eal_init(self):
        """SIGTERM while EAL init waits for the hugepage directory's lock
        (held here): EAL init gives up at once (the handler is installed
        before it, without SA_RESTART), exit 1, an error document that
        says it was interrupted in eal-init."""
        fd = os.open("/dev/hugepages", os.O_RDONLY)
        locked = True
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            p, log = self.start(
                self.nb.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                ["--tx-port", "0", "--rx-port", "1", "--time", "1"])
            # the tool waits in flock(): /proc/locks lists it as blocked
            deadline = time.monotonic() + 20
            blocked = " -> FLOCK  ADVISORY  WRITE %d " % p.pid
            while time.monotonic() < deadline:
                with open("/proc/locks") as f:
                    if blocked in f.read():
                        break
                self.assertIsNone(p.poll(), "exited before EAL's lock")
                time.sleep(0.01)
            else:
                self.fail("the tool never waited for the hugepage lock")
            rd = nbe2e.LineReader(p.stderr)
            rc, out, err, took = self.signal_and_finish(
                p, rd, signal.SIGTERM, log)
            os.close(fd)   # (only after: EAL init must end by itself)
            locked = False
        finally:
            if locked:
                os.close(fd)
        self.check_exit(rc, err, took, 1, signal.SIGTERM, "eal-init")
        doc = self.check_doc(out, signal.SIGTERM, "eal-init")
        self.assertEqual(doc["error"],
                         "interrupted by SIGTERM during eal-init")

    def test_setup(self):
        """SIGINT while a memif client waits for a server that is not there
        (--link-timeout 30): the port's start retries and link wait give
        up at once, exit 1, an error document in phase setup."""
        sock = os.path.join(self.tmpdir, "nobody.sock")
        p, log = self.start(
            self.nb.eal(["--vdev", "net_memif0,role=client,socket=" + sock,
                         "--vdev", "net_null0"]),
            ["--tx-port", "0", "--rx-port", "1", "--time", "1",
             "--link-timeout", "30"])
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: setup")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGINT,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "setup")
        doc = self.check_doc(out, signal.SIGINT, "setup")
        self.assertEqual(doc["error"],
                         "interrupted while setting up the ports")

    def test_calibration(self):
        """SIGINT while the clock's second reading waits out its 0.25 s
        (net_null ports come up at once, so the wait is most of it): exit
        1, an error document in phase calibration.  A start-up slow enough
        to leave less than 60 ms to wait is tried again (up to 3 times)."""
        for attempt in range(3):
            p, log = self.start(
                self.nb.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                ["--tx-port", "0", "--rx-port", "1", "--time", "5"])
            rd = nbe2e.LineReader(p.stderr)
            m, _ = self.wait_line(rd, r"calibration: (\d+) ms to wait|"
                                      r"phase: running")
            if m.group(1) is not None and int(m.group(1)) >= 60:
                break
            self.kill(p)
        else:
            self.skipTest("start-up never left 60 ms of calibration")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGINT,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "calibration")
        doc = self.check_doc(out, signal.SIGINT, "calibration")
        self.assertEqual(doc["end"], {})
        self.assertIn("interrupted", doc["error"])

    def test_connecting(self):
        """SIGTERM while a client's HELLO goes unanswered (no responder:
        its --peer-timeout is 30 s): exit 1 at once, the document in phase
        connecting."""
        p, log = self.start(
            self.nb.eal(["--vdev", "net_null0"]),
            ["--peer", RESP_MAC, "--peer-timeout", "30", "--time", "1"])
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: connecting")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGTERM,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGTERM, "connecting")
        doc = self.check_doc(out, signal.SIGTERM, "connecting")
        self.assertEqual(doc["end"], {})

    def test_running(self):
        """SIGINT in a 60 s loopback test: it stops, drains, reports what
        it sent and received (every frame sent arrived: the memif pair
        loses none at 10 Mbit/s), exit 1."""
        p, log = self.start(self.loop_eal(),
                            ["--tx-port", "0", "--rx-port", "1", "--time",
                             "60", "--rate", "10M"])
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: running")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGINT,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "running")
        doc = self.check_doc(out, signal.SIGINT, "running")
        e = doc["end"]
        self.assertTrue(e["interrupted"])
        self.assertEqual(e["sum_received"]["packets"],
                         e["sum_sent"]["packets"])
        self.assertEqual(e["sum_received"]["lost_packets"], 0)

    def test_running_json_stream(self):
        """The same with --json-stream and SIGTERM: the "end" event says
        it (data.interruption), the --json-file document too, exit 1."""
        self.jf = os.path.join(self.tmpdir, "doc.json")
        p, argv, log = self.nb.start(
            self.loop_eal() + ["--log-level", "nbench:debug"],
            ["--tx-port", "0", "--rx-port", "1", "--time", "60", "--rate",
             "10M", "--json-stream", "--json-file", self.jf], name="stream")
        self.addCleanup(self.kill, p)
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: running")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGTERM,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGTERM, "running")
        ev = [nbe2e.loads(l) for l in out.splitlines() if l.strip()]
        self.assertEqual([e["event"] for e in ev if e["event"] != "interval"],
                         ["start", "end"])
        want = {"signal": "SIGTERM", "phase": "running"}
        self.assertEqual(ev[-1]["data"]["interruption"], want)
        with open(self.jf) as f:
            doc = nbe2e.load(f)
        self.assertEqual(doc["interruption"], want)
        self.assertEqual(doc["end"]["sum_received"]["packets"],
                         doc["end"]["sum_sent"]["packets"])

    def test_draining(self):
        """SIGTERM in a loopback test's drain, made long: af_packet on a
        veth pair whose sending end has a tbf of 100 kbit/s (qdisc_bypass=0
        so af_packet's frames go through it), offered 20 Mbit/s for 1 s:
        frames keep arriving for over a second after the senders stop and
        the drain (--drain 30) goes on.  It ends at once, exit 1, and the
        document says draining; what it reports adds up: every frame sent
        was received or is lost."""
        ns = nbe2e.unique("ns")[-12:]
        subprocess.run(["ip", "netns", "add", ns], check=True, timeout=30)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", ns],
                        timeout=30)
        for cmd in (["link", "add", "name", "dra", "type", "veth", "peer",
                     "name", "drb"],
                    ["link", "set", "dra", "up"], ["link", "set", "drb",
                                                   "up"]):
            subprocess.run(["ip", "-n", ns] + cmd, check=True, timeout=30)
        subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add",
                        "dev", "dra", "root", "tbf", "rate", "100kbit", "burst",
                        "1600", "limit", "3000000"], check=True, timeout=30)
        eal = self.nb.eal(["--vdev", "net_af_packet0,iface=dra,qdisc_bypass=0",
                           "--vdev", "net_af_packet1,iface=drb"])
        self.jf = os.path.join(self.tmpdir, "doc.json")
        p, argv, log = self.nb.start(
            eal + ["--log-level", "nbench:debug"],
            ["--tx-port", "0", "--rx-port", "1", "--time", "1", "--rate",
             "20M", "--drain", "30", "--json", "--json-file", self.jf],
            name="drain", wrap=["ip", "netns", "exec", ns])
        self.addCleanup(self.kill, p)
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: draining")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGTERM,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGTERM, "draining")
        doc = self.check_doc(out, signal.SIGTERM, "draining")
        e = doc["end"]
        self.assertTrue(e["interrupted"])
        sent = e["sum_sent"]["packets"]
        got = e["sum_received"]["packets"]
        self.assertEqual(e["sum_received"]["lost_packets"], sent - got)
        self.assertEqual(e["ports"][0]["tool_tx_packets"], sent)
        # the drain was cut with frames still in the tbf's queue (the
        # socket's send buffer holds a few hundred; at 100 kbit/s, 148
        # frames a second, they take over a second to come out)
        self.assertLess(got, sent)

    def test_reporting(self):
        """SIGTERM while the report is written: stdout is a pipe of 4 KiB
        that the test reads only after the signal, so the tool waits in
        write() in phase reporting.  The report it was writing completes
        (it is whole, valid JSON), exit 1 (interrupted), and it exits
        within 2 s of its stdout being read."""
        p, log = self.start(self.loop_eal(),
                            ["--tx-port", "0", "--rx-port", "1", "--time",
                             "1", "--rate", "10M"])
        fcntl.fcntl(p.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: reporting")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGTERM,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGTERM, "reporting")
        doc = nbe2e.loads(out)
        with open(self.jf) as f:
            self.assertEqual(nbe2e.load(f), doc)
        self.assertEqual(doc["end"]["sum_received"]["lost_packets"], 0)
        # the test was over before the signal: it is not cut short
        self.assertFalse(doc["end"]["interrupted"])
        # the document says the signal if it came before the document was
        # put together (the tool may be past that, waiting in write())
        self.assertIn(doc.get("interruption"),
                      (None, {"signal": "SIGTERM", "phase": "reporting"}))
        self.assertEqual(doc["end"]["sum_received"]["packets"],
                         doc["end"]["sum_sent"]["packets"])

    def test_suite_pause(self):
        """SIGINT in an RFC 2544 suite's 30 s pause between trials: the
        trials done are reported, the suite says it was interrupted, exit
        1 at once."""
        p, log = self.start(self.loop_eal(),
                            ["--tx-port", "0", "--rx-port", "1", "--test",
                             "loss", "--size", "256", "--rate", "100M",
                             "--trial-time", "0.5", "--settle", "30"])
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: suite-pause")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGINT,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "suite-pause")
        doc = self.check_doc(out, signal.SIGINT, "suite-pause")
        self.assertTrue(doc["end"]["interrupted"])
        # one trial ran before the first pause
        self.assertEqual(doc["end"]["nb_trials"], 1)


class SignalResponder(SignalBase):
    """A responder idle (listening) and one serving a session."""

    def setUp(self):
        super().setUp()
        self.sock = os.path.join(self.tmpdir, "peer.sock")

    def responder(self):
        eal = ["--no-pci", "--lcores", nbe2e.RESPONDER_LCORES,
               "--file-prefix", nbe2e.unique("resp"), "--log-level",
               "lib.eal:error", "--vdev",
               "net_memif0,role=server,socket=%s,rsize=14,mac=%s"
               % (self.sock, RESP_MAC)]
        return self.start(eal, [], json_out=False, name="resp")

    def test_listening(self):
        """SIGTERM to an idle responder: exit 0 within 2 s (a signal is how
        a server is stopped; nothing was cut short), and it says it
        exits."""
        p, log = self.responder()
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: listening")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGTERM,
                                                    log)
        self.check_exit(rc, err, took, 0, signal.SIGTERM, "listening")
        self.assertIn("dpdk-nbench responder: exiting", out)

    def client(self, tool):
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
               nbe2e.unique("cli"), "--log-level", "lib.eal:error",
               "--log-level", "nbench:debug", "--vdev",
               "net_memif0,role=client,socket=%s,rsize=14" % self.sock]
        self.cjf = os.path.join(self.tmpdir, "client.json")
        c, _, clog = self.nb.start(eal, ["--peer", RESP_MAC] + tool +
                                   ["--json", "--json-file", self.cjf],
                                   name="cli")
        self.addCleanup(self.kill, c)
        return c, clog

    def test_client_draining(self):
        """SIGINT to a client whose test is over and that waits for the
        results of a responder frozen (SIGSTOP) since the test ran, with
        --peer-timeout 30: the wait ends within a second of the signal
        (it would have gone on for the peer timeout), exit 1, the document
        in phase draining: the client's own counts, no receiver's, and the
        error says why."""
        p, log = self.responder()
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: listening")
        c, clog = self.client(["--time", "1", "--rate", "10M",
                               "--peer-timeout", "30"])
        crd = nbe2e.LineReader(c.stderr)
        self.wait_line(crd, r"phase: running")
        os.kill(p.pid, signal.SIGSTOP)
        self.addCleanup(os.kill, p.pid, signal.SIGCONT)
        self.wait_line(crd, r"phase: draining")
        rc, out, err, took = self.signal_and_finish(c, crd, signal.SIGINT,
                                                    clog)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "draining")
        self.jf = self.cjf
        doc = self.check_doc(out, signal.SIGINT, "draining")
        self.assertEqual(doc["error"], "interrupted: the responder stopped "
                         "answering within 1000 ms of the signal")
        s = doc["end"]["sum_sent"]
        # 1 s at 10 Mbit/s L1 of 64 B frames: 14880 (+-1 for the edges)
        self.assertAlmostEqual(s["packets"], 14880, delta=2)

    def test_session(self):
        """SIGINT to a responder serving a 60 s test: it tells the client
        (ERROR), exits 1 within 2 s; the client reports what it has (a
        partial report with its own counts) and exits 1."""
        p, log = self.responder()
        rd = nbe2e.LineReader(p.stderr)
        self.wait_line(rd, r"phase: listening")
        cli_eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES,
                   "--file-prefix", nbe2e.unique("cli"), "--log-level",
                   "lib.eal:error", "--vdev",
                   "net_memif0,role=client,socket=%s,rsize=14" % self.sock]
        cjf = os.path.join(self.tmpdir, "client.json")
        c, _, clog = self.nb.start(cli_eal + ["--log-level", "nbench:debug"],
                                   ["--peer", RESP_MAC, "--time", "60",
                                    "--rate", "10M", "--json", "--json-file",
                                    cjf], name="cli")
        self.addCleanup(self.kill, c)
        crd = nbe2e.LineReader(c.stderr)
        self.wait_line(rd, r"phase: session")
        self.wait_line(crd, r"phase: running")
        rc, out, err, took = self.signal_and_finish(p, rd, signal.SIGINT,
                                                    log)
        self.check_exit(rc, err, took, 1, signal.SIGINT, "session")
        cout, cerr = c.communicate(timeout=60)
        cerr = crd.buf.decode(errors="replace") + cerr
        nbe2e.Nbench._log(clog, c.args, c.returncode, cout, cerr)
        self.assertEqual(c.returncode, 1, cerr[-3000:])
        doc = nbe2e.loads(cout, "client stdout")
        with open(cjf) as f:
            self.assertEqual(nbe2e.load(f), doc)
        self.assertIn("error", doc)
        self.assertNotIn("interruption", doc)   # the client had no signal


class WriteErrors(nbe2e.E2ECase):
    """A full filesystem under --json-file, --logfile and --capture: a
    tmpfs of 64 KiB of the test's own, filled to the last byte."""

    def setUp(self):
        super().setUp()
        self.full = os.path.join(self.tmpdir, "full")
        os.mkdir(self.full)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs",
                        self.full], check=True, timeout=30)
        self.addCleanup(subprocess.run, ["umount", self.full], timeout=30)
        # fill it: writes fail with ENOSPC from here on
        with self.assertRaises(OSError) as cm:
            with open(os.path.join(self.full, "filler"), "wb") as f:
                while True:
                    f.write(b"x" * 4096)
                    f.flush()
        self.assertEqual(cm.exception.errno, 28)   # ENOSPC

    def loop(self, tool):
        return self.nb.run(self.nb.eal(self.nb.memif_pair()),
                           ["--tx-port", "0", "--rx-port", "1", "--packets",
                            "3000", "--rate", "10M"] + tool, name="werr")

    def check_counts(self, doc):
        """The test itself is whole: 3000 frames sent, all received."""
        e = doc["end"]
        self.assertEqual(e["sum_sent"]["packets"], 3000)
        self.assertEqual(e["sum_received"]["packets"], 3000)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)

    def test_json_file(self):
        """--json-file on the full disk: stderr names the file and ENOSPC,
        exit 1, and the document on stdout (--json) is complete."""
        path = os.path.join(self.full, "doc.json")
        r = self.loop(["--json", "--json-file", path])
        self.assertOk(r, 1)
        self.assertIn("cannot write --json-file %s: No space left on "
                      "device" % path, r.err)
        self.check_counts(r.json())

    def test_logfile(self):
        """--logfile on the full disk: stdout is the log file, so stderr
        says it (naming the file and ENOSPC), exit 1; the --json-file
        elsewhere has the whole result."""
        path = os.path.join(self.full, "log.txt")
        jf = os.path.join(self.tmpdir, "doc.json")
        r = self.loop(["--logfile", path, "--json-file", jf])
        self.assertOk(r, 1)
        self.assertIn("cannot write --logfile %s: No space left on device"
                      % path, r.err)
        self.assertEqual(r.out, "")
        with open(jf) as f:
            self.check_counts(nbe2e.load(f))

    def test_capture(self):
        """--capture on the full disk: the writer never blocks the
        receivers (every frame arrives), counts each copy it could not
        write (all of them: not even the file header fit), the report
        says so; stderr names the file and ENOSPC, exit 1."""
        path = os.path.join(self.full, "rx.pcap")
        r = self.loop(["--json", "--capture", path])
        self.assertOk(r, 1)
        self.assertRegex(r.err, r"cannot write --capture %s: No space left "
                         r"on device \(\d+ frames not written\)"
                         % re.escape(path))
        d = r.json()
        self.check_counts(d)
        cap = d["end"]["capture"]
        self.assertEqual(cap["dropped"], 0)
        self.assertEqual(cap["taken"], 3000)   # every frame received
        self.assertEqual(cap["written"], 0)
        self.assertEqual(cap["unwritten"], 3000)
        self.assertEqual(cap["write_error"], "No space left on device")
        n = int(re.search(r"\((\d+) frames not written\)", r.err).group(1))
        self.assertEqual(n, 3000)


if __name__ == "__main__":
    nbe2e.main()
