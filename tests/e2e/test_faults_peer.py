# SPDX-License-Identifier: BSD-3-Clause
"""Faults in peer mode (issue 34), on af_packet over a veth pair across
two network namespaces (test_peer.VethPeerBase): a 2-s link flap, an end
frozen by SIGSTOP, a responder restarted and a client killed mid-session.

Every process has a time bound (the harness kills what outlives it), and
every figure asserted comes from the client's JSON."""
import os
import signal
import subprocess
import threading
import time
import unittest

import nbe2e
from test_peer import RESP_MAC, PeerBase, VethPeerBase

RATE = 10000            # frames/s, forward (the client sends)


class VethFaults(VethPeerBase):

    def start_client(self, tool, bound=60):
        """A client in the background, its output read meanwhile; returns
        (Popen, prefix, thread, [stdout, stderr] once the thread ends)."""
        prefix = nbe2e.unique("cli")
        eal = ["--no-pci", "--lcores", nbe2e.CLIENT_LCORES, "--file-prefix",
               prefix, "--log-level", "lib.eal:error",
               "--vdev", self.client_vdev()]
        if os.environ.get("NB_FAULTS_DEBUG"):
            eal += ["--log-level", "nbench:debug"]
        p, argv, log = self.nb.start(eal, ["--peer", RESP_MAC] + tool,
                                     name="cli", wrap=self.client_wrap)
        res = []

        def read():
            try:
                res.extend(p.communicate(timeout=bound))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                res.extend(p.communicate())
                res.append("timed out")
            with open(log, "w") as f:
                f.write("$ %s\nrc=%s\n--- stdout\n%s\n--- stderr\n%s\n"
                        % (" ".join(argv), p.returncode, res[0], res[1]))
        t = threading.Thread(target=read)
        t.start()
        self.addCleanup(self.reap, p, t)
        return p, prefix, t, res

    @staticmethod
    def reap(p, t):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        t.join(30)

    def finish(self, p, t, res, code):
        t.join(90)
        self.assertFalse(t.is_alive(), "the client did not end")
        self.assertEqual(len(res), 2, "the client outlived its bound")
        out, err = res
        self.assertEqual(p.returncode, code, err[-3000:])
        self.assertEqual(nbe2e.exit_problems(err), [])
        return out, err

    def elapsed(self, prefix, at_least):
        """Poll a process's /nbench/state until the test has run at_least
        seconds (its own clock); returns that reading."""
        s = nbe2e.telemetry(prefix)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                st = nbe2e.telemetry_ask(s, "/nbench/state")
                e = float(st.get("elapsed_s", 0) or 0)
                if e >= at_least:
                    return e
                time.sleep(0.01)
        finally:
            s.close()
        self.fail("the test did not reach %s s" % at_least)

    def link(self, state):
        subprocess.run(["ip", "-n", self.ns + "a", "link", "set",
                        self.ns + "va", state], check=True)

    def quit_responder(self, resp):
        """End the responder with a client's --quit; it must exit 0 with
        every mbuf back (the harness's exit check)."""
        r = self.client(["--quit"])
        out, err = resp.communicate(timeout=30)
        self.assertEqual(resp.returncode, 0, err[-2000:])
        self.assertEqual(nbe2e.exit_problems(err), [])
        return err

    # 1 and 2: the client's --peer-timeout travels, a 2-s flap rides
    # through
    def test_link_flap_rides_through(self):
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "5", "--rate", "%dpps" % RATE, "--time", "6",
             "--interval", "0.5", "--json"])
        self.elapsed(prefix, 2.0)
        t0 = time.monotonic()
        self.link("down")
        t1 = time.monotonic()
        time.sleep(2)           # the fault itself: 2 s without a link
        t2 = time.monotonic()
        self.link("up")
        t3 = time.monotonic()
        out, err = self.finish(p, t, res, 0)
        d = nbe2e.loads(out)
        self.assertNotIn("error", d)
        e = d["end"]
        # the link: one outage, as long as it was down (between the
        # commands' ends and starts), to a 10 ms look and a 50 ms nap
        self.assertEqual(e["link"]["outages"], 1)
        self.assertIn("RUNNING", e["link"]["seen_by"])
        down = e["link"]["down_seconds"]
        self.assertGreaterEqual(down, (t2 - t1) - 0.06)
        self.assertLessEqual(down, (t3 - t0) + 0.06)
        ivs = [iv["sum"] for iv in d["intervals"]]
        self.assertAlmostEqual(sum(s["link_down_seconds"] for s in ivs),
                               down, places=6)
        # the receiver's (the responder's) figures: every frame sent is
        # received or lost, 10000 pps for 6 s.  (What the kernel does with
        # the frames sent while its veth is down decides the loss: it
        # queued them and sent them on when the link came back, so that
        # none was lost on this host: the latency shows their wait.)
        sent, recv = e["sum_sent"]["packets"], e["sum_received"]["packets"]
        lost = e["sum_received"]["lost_packets"]
        self.assertEqual(sent, RATE * 6)
        self.assertEqual(recv + lost, sent)
        self.assertEqual(sum(s["lost_packets"] for s in ivs), lost)
        self.assertEqual(sum(s["packets"] for s in ivs), recv)
        # the intervals: link down where the outage was (2 s of 0.5-s
        # rows: the first and the last row with link down hold the frames
        # that were on their way and those that came back; the two or
        # more between them are down throughout, to a 10 ms look, and the
        # receiver got nothing in them), the traffic after it counted
        down = [k for k, s in enumerate(ivs) if s["link_down_seconds"] > 0]
        self.assertEqual(down, list(range(down[0], down[-1] + 1)))
        middle = ivs[down[0] + 1:down[-1]]
        self.assertGreaterEqual(len(middle), 2)
        for s in middle:
            self.assertAlmostEqual(s["link_down_seconds"], 0.5, delta=0.011)
            self.assertEqual(s["packets"], 0, s)
        last = max(s["end"] for s in ivs if s["link_down_seconds"] > 0)
        after = [s for s in ivs if s["start"] >= last]
        self.assertGreaterEqual(len(after), 2)
        for s in after:
            self.assertEqual(s["lost_packets"], 0, s)
        # (the frames queued meanwhile came after the link did, less
        # what was in flight at the first row's edge: 5 ms at 10 kpps)
        self.assertGreaterEqual(sum(s["packets"] for s in after),
                                sum(s["sent_packets"] for s in after) - 50)
        before = [s for s in ivs if s["end"] <= min(
            s2["start"] for s2 in ivs if s2["link_down_seconds"] > 0)]
        self.assertGreaterEqual(len(before), 3)
        for s in before:
            self.assertEqual(s["lost_packets"], 0, s)
            self.assertGreater(s["packets"], 0, s)
        rerr = self.quit_responder(resp)
        self.assertIn("the client waits 5.0 s for us; we wait for it 5.0 s",
                      rerr)
        self.assertIn("ended: done", rerr)

    def test_link_flap_text_report(self):
        """The text report says it too, on the intervals and at the end."""
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "5", "--rate", "%dpps" % RATE, "--time", "4"])
        self.elapsed(prefix, 1.0)
        self.link("down")
        time.sleep(2)
        self.link("up")
        out, err = self.finish(p, t, res, 0)
        self.assertRegex(out, r"\(link down \d\.\d\d s\)")
        self.assertRegex(out, r"note: the link was down 2\.\d\d s in 1 "
                              r"outage during the test")
        self.quit_responder(resp)

    def test_responder_caps_the_timeout(self):
        """A client asking for 600 s is held to the responder's cap."""
        resp = self.responder()
        self.client(["--peer-timeout", "600", "--rate", "1000pps", "--time",
                     "0.5"])
        err = self.quit_responder(resp)
        self.assertIn("the client waits 600.0 s for us; this responder "
                      "keeps a silent session at most 60.0 s", err)

    # 3: an end frozen
    def freeze(self, pid, prefix, secs, at=1.0):
        self.elapsed(prefix, at)
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(secs)    # the fault itself
        finally:
            os.kill(pid, signal.SIGCONT)

    def responder_frozen(self, tool, timeout, code, secs=8):
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", str(timeout), "--rate", "%dpps" % RATE,
             "--time", str(secs), "--json"] + tool)
        self.freeze(resp.pid, prefix, 5)
        t0 = time.monotonic()
        out, err = self.finish(p, t, res, code)
        return resp, nbe2e.loads(out), err, time.monotonic() - t0

    def test_responder_frozen_shorter_than_timeout(self):
        """Frozen 5 s from 1 s into an 8-s test, --peer-timeout 8: the
        session survives.  Forward: the client sends all 8 s, the frozen
        responder's ring overflows (loss counted).  Reverse: the frozen
        responder sends nothing for 5 s, and on waking sends what fell
        due meanwhile at once: every frame of the 8 s."""
        for tool in ([], ["--reverse"]):
            with self.subTest(tool=tool):
                resp, d, err, _ = self.responder_frozen(tool, 8, 0)
                e = d["end"]
                self.assertNotIn("error", d)
                sent = e["sum_sent"]["packets"]
                self.assertEqual(sent, RATE * 8)
                self.assertEqual(e["sum_received"]["packets"] +
                                 e["sum_received"]["lost_packets"], sent)
                self.quit_responder(resp)

    def test_responder_frozen_longer_than_timeout(self):
        resp, d, err, took = self.responder_frozen([], 2, 1)
        self.assertIn("stopped answering", err)
        self.assertIn("responder", d["error"])
        # our own side's figures, up to where it gave up: frozen at 1 s,
        # its keepalive (every 0.25 s) unanswered for 2 s, so 3 to 3.5 s
        # of frames (plus the give-up's own nap)
        sent = d["end"]["sum_sent"]["packets"]
        self.assertGreaterEqual(sent, RATE * 3)
        self.assertLess(sent, RATE * 3.7)
        # the client was done before the responder thawed (5 s)
        self.assertLess(took, 5)
        # the thawed responder ends the session by its timeout (the
        # client's 2 s, long past), at once
        line, waited = self.wait_ended(resp, 10)
        self.assertRegex(line, r"ended: (the client vanished|done)")
        # the thawed responder ends the session itself and serves on
        r = self.client(["--rate", "%dpps" % RATE, "--time", "1", "--json"])
        e = r.json()["end"]
        self.assertEqual(e["sum_received"]["packets"], RATE)
        self.quit_responder(resp)

    def test_tcp_responder_frozen(self):
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--tcp", "--peer-timeout", "8", "--time", "8", "--json"])
        self.freeze(resp.pid, prefix, 5)
        out, err = self.finish(p, t, res, 0)
        d = nbe2e.loads(out)
        self.assertNotIn("error", d)
        # TCP recovers: every byte sent arrived, checked, the connection
        # closed, every segment the client sent counted by the responder
        e, nb = d["end"], d["nbench"]
        self.assertEqual(e["sum_received"]["bytes"], e["sum_sent"]["bytes"])
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        self.assertEqual(nb["responder"]["tool_rx_packets"],
                         nb["ports"][0]["tool_tx_packets"])
        # the freeze is in the figures: a segment waited the 5 s
        self.assertGreaterEqual(nb["latency_ns"]["max"], 4.9e9)
        self.quit_responder(resp)

    def test_client_frozen(self):
        """The responder keeps the session while the client is frozen
        for less than the client's --peer-timeout."""
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "8", "--rate", "%dpps" % RATE, "--time", "4",
             "--reverse", "--json"])
        self.freeze(p.pid, prefix, 5)
        out, err = self.finish(p, t, res, 0)
        d = nbe2e.loads(out)
        self.assertNotIn("error", d)
        e = d["end"]
        self.assertEqual(e["sum_sent"]["packets"], RATE * 4)
        self.assertEqual(e["sum_received"]["packets"] +
                         e["sum_received"]["lost_packets"], RATE * 4)
        err = self.quit_responder(resp)
        self.assertNotIn("vanished", err)

    # 4: a responder restarted, a client killed
    def test_responder_restarted(self):
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "2", "--rate", "%dpps" % RATE, "--time", "10",
             "--json"])
        self.elapsed(prefix, 1.0)
        os.killpg(resp.pid, signal.SIGKILL)
        resp.communicate()
        resp2 = self.responder()
        t0 = time.monotonic()
        out, err = self.finish(p, t, res, 1)
        took = time.monotonic() - t0
        d = nbe2e.loads(out)
        self.assertIn("stopped answering", err)
        self.assertIn("stopped answering", d["error"])
        # given up on after its 2 s (plus a 400 ms retransmission wait)
        self.assertLess(took, 2 + 3)
        # partial: our side's counts up to there
        self.assertGreater(d["end"]["sum_sent"]["packets"], RATE)
        self.assertLess(d["end"]["sum_sent"]["packets"], RATE * 10)
        # the new responder serves the next client, counts exact
        r = self.client(["--rate", "%dpps" % RATE, "--time", "1", "--json"])
        e = r.json()["end"]
        self.assertEqual(e["sum_sent"]["packets"], RATE)
        self.assertEqual(e["sum_received"]["packets"], RATE)
        self.quit_responder(resp2)

    def wait_ended(self, resp, bound):
        """The responder's next 'session ... ended' line, and how long it
        took to come."""
        if not hasattr(resp, "err_lines"):
            resp.err_lines = nbe2e.LineReader(resp.stderr)
        t0, line = time.monotonic(), ""
        while "ended" not in line:
            left = bound - (time.monotonic() - t0)
            if left <= 0:
                break
            line = resp.err_lines.readline(left)
            if line == "":      # EOF: the responder is gone
                break
            line = line or ""
        return line, time.monotonic() - t0

    def test_client_killed(self):
        resp = self.responder()
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "5", "--rate", "%dpps" % RATE, "--time", "20"])
        self.elapsed(prefix, 1.0)
        os.killpg(p.pid, signal.SIGKILL)
        line, took = self.wait_ended(resp, 15)
        self.assertIn("the client vanished", line)
        # the client's 5 s (PARAMS), not the responder's own 2 s: counted
        # from the last word heard, at most a keepalive period (250 ms)
        # and a scheduling delay before the kill; the upper bound is
        # generous (a loaded host delays the log line we read)
        self.assertGreater(took, 5 - 0.5)
        self.assertLess(took, 5 + 2)
        for n in range(2):      # the next sessions' counts exact
            r = self.client(["--rate", "%dpps" % RATE, "--time", "1",
                             "--json"])
            e = r.json()["end"]
            self.assertEqual(e["sum_sent"]["packets"], RATE)
            self.assertEqual(e["sum_received"]["packets"], RATE)
        # every mbuf back at exit (the harness's check)
        self.quit_responder(resp)


class MemifFaults(PeerBase):
    """memif: the responder and the client each a memif server, a relay
    between them (dpdk-testpmd, interactive: a memif client on each
    socket, io forwarding).  The relay closes its port on the client's
    socket ("port stop 1") and opens it again 2 s later ("port start
    1"): the client's memif link goes down and comes back, as a memif
    peer process that closes and reopens its socket makes it (memif's PMD
    reports its link state).  The responder's side stays connected:
    a memif server of DPDK 22.11 whose peer went away under a running
    test (a relay killed and started again) was seen not to take the new
    peer's frames, which is the PMD's, not what is tested here."""

    def setUp(self):
        super().setUp()
        self.sock2 = os.path.join(self.tmpdir, "cli.sock")

    def client_vdev(self):
        return "net_memif0,role=server,socket=%s,rsize=%d" % (
            self.sock2, self.client_rsize)

    def relay(self):
        # beside the responder on CPU 0: its busy forwarding lcore on
        # the client's CPU starved the client's control lcore
        argv = ["stdbuf", "-oL", "dpdk-testpmd", "--no-pci", "--lcores",
                "0@0,1@0", "--file-prefix", nbe2e.unique("tp"),
                "--log-level", "lib.eal:error",
                "--vdev", "net_memif0,role=client,socket=%s,rsize=14"
                % self.sock,
                "--vdev", "net_memif1,role=client,socket=%s,rsize=14"
                % self.sock2, "--", "-i", "--forward-mode=io",
                "--nb-cores=1", "--total-num-mbufs=8192",
                # both queue pairs of each end (--queues + 1): a memif
                # TX queue without its ring on the far side drops all
                "--rxq=2", "--txq=2", "--disable-link-check"]
        self.relay_log = os.path.join(nbe2e.LOGDIR,
                                      nbe2e.unique("relay") + ".log")
        log = open(self.relay_log, "w")
        self.addCleanup(log.close)
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log,
                             stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        self.addCleanup(self.kill_relay, p)
        self.tell(p, "start", "io packet forwarding")
        return p

    def tell(self, p, cmd, marker):
        """A command to the relay, then its answer's marker in its log."""
        with open(self.relay_log) as f:
            n = len(f.read())
        p.stdin.write(cmd + "\nshow config fwd\n")
        p.stdin.flush()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with open(self.relay_log) as f:
                if marker in f.read()[n:]:
                    return
            time.sleep(0.02)
        self.fail("the relay did not do '%s'" % cmd)

    @staticmethod
    def kill_relay(p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        p.stdin.close()

    start_client = VethFaults.start_client
    reap = staticmethod(VethFaults.reap)
    finish = VethFaults.finish
    elapsed = VethFaults.elapsed

    def listening(self, path):
        """Wait until a memif server listens on path (an abstract socket
        in DPDK 22.11: /proc/net/unix shows it with an '@'): a memif
        client that dials too early never dials again."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open("/proc/net/unix") as f:
                if any(line.rstrip().endswith("@" + path) for line in f):
                    return
            time.sleep(0.05)
        self.fail("no memif server on " + path)

    @unittest.skipUnless(os.environ.get("NB_E2E_DRIVER_RACES") == "1",
                         "DPDK 22.11's memif PMD unmaps its rings under a "
                         "polling worker when the far end leaves (a SEGV "
                         "now and then under load, architecture.md); "
                         "NB_E2E_DRIVER_RACES=1 runs it")
    def test_memif_peer_reopens(self):
        resp = self.responder()
        self.listening(self.sock)
        p, prefix, t, res = self.start_client(
            ["--peer-timeout", "5", "--rate", "%dpps" % RATE, "--time", "6",
             "--interval", "0.5", "--json"])
        self.listening(self.sock2)
        relay = self.relay()
        self.elapsed(prefix, 2.0)
        t0 = time.monotonic()
        self.tell(relay, "stop\nport stop 1", "Stopping ports...")
        t1 = time.monotonic()
        time.sleep(2)           # the fault itself
        t2 = time.monotonic()
        self.tell(relay, "port start 1\nstart", "io packet forwarding")
        t3 = time.monotonic()
        out, err = self.finish(p, t, res, 0)
        d = nbe2e.loads(out)
        self.assertNotIn("error", d)
        e = d["end"]
        self.assertEqual(e["link"]["outages"], 1)
        self.assertEqual(e["link"]["seen_by"], "PMD link status")
        # down from the port's stop to its start (and the memif
        # handshake, well under a second), to a 10 ms look
        self.assertGreaterEqual(e["link"]["down_seconds"], (t2 - t1) - 0.06)
        self.assertLess(e["link"]["down_seconds"], (t3 - t0) + 1.0)
        sent, recv = e["sum_sent"]["packets"], e["sum_received"]["packets"]
        self.assertEqual(sent, RATE * 6)
        self.assertEqual(recv + e["sum_received"]["lost_packets"], sent)
        ivs = [iv["sum"] for iv in d["intervals"]]
        self.assertAlmostEqual(sum(s["link_down_seconds"] for s in ivs),
                               e["link"]["down_seconds"], places=6)
        last = max(s["end"] for s in ivs if s["link_down_seconds"] > 0)
        after = [s for s in ivs if s["start"] >= last]
        self.assertGreaterEqual(len(after), 1)
        for s in after:
            self.assertEqual(s["lost_packets"], 0, s)
        self.assertEqual(sum(s["packets"] for s in ivs), recv)
        # the responder: SIGINT, exit 0, every mbuf back
        resp.send_signal(signal.SIGINT)
        rout, rerr = resp.communicate(timeout=30)
        self.assertEqual(resp.returncode, 0, rerr[-2000:])
        self.assertEqual(nbe2e.exit_problems(rerr), [])
        self.assertIn("ended: done", rerr)


if __name__ == "__main__":
    nbe2e.main()
