# SPDX-License-Identifier: BSD-3-Clause
"""What the receivers take in, written to pcap: --capture (the tool's own
writer, off the hot path) and dpdk-dumpcap attached to a running test
(the pdump framework the tool initialises).  The files are read here by
a pcap reader of the test's own (nanosecond pcap, frame by frame: the
stream from the UDP source port, the sequence number from the stamp) and
checked against the counts in the tool's JSON."""
import json
import os
import shutil
import struct
import subprocess
import time
import unittest

import nbe2e
from test_peer import PeerBase, RESP_MAC

DUMPCAP = shutil.which("dpdk-dumpcap")
TSHARK = shutil.which("tshark")
SPORT_BASE = 49152
MAGIC_DATA = 0x4e42
DPORT = 5001   # data frames' UDP destination port (control's is 7201)


def read_pcap(path):
    """(linktype, snaplen, [(ts_ns, caplen, len, bytes)]) of a classic
    pcap file; nanosecond or microsecond timestamps."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic == 0xa1b23c4d:
        scale = 1
    elif magic == 0xa1b2c3d4:
        scale = 1000
    else:
        raise AssertionError("%s: not a little-endian pcap (magic %#x)"
                             % (path, magic))
    _, _, _, _, snaplen, linktype = struct.unpack_from("<HHiIII", data, 4)
    off, recs = 24, []
    while off < len(data):
        sec, frac, caplen, length = struct.unpack_from("<IIII", data, off)
        off += 16
        recs.append((sec * 10**9 + frac * scale, caplen, length,
                     data[off:off + caplen]))
        off += caplen
    if off != len(data):
        raise AssertionError("%s: truncated record at the end" % path)
    return linktype, snaplen, recs


def tshark_count(path):
    """Frames an independent decoder reads in a capture file (it fails
    on a malformed file)."""
    if not TSHARK:
        raise unittest.SkipTest("tshark is not installed")
    p = subprocess.run([TSHARK, "-r", path, "-n", "-T", "fields",
                        "-e", "frame.number"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError("tshark -r %s: %s" % (path, p.stderr))
    return len(p.stdout.split())


def udp_stamp(frame):
    """(stream, seq) of one of our UDP data frames (no VLAN), else None."""
    if len(frame) < 14 + 20 + 8 + 8 or frame[12:14] != b"\x08\x00":
        return None
    ihl = (frame[14] & 0x0f) * 4
    if frame[14 + 9] != 17:
        return None
    l4 = 14 + ihl
    sport, dport = struct.unpack_from(">HH", frame, l4)
    magic = struct.unpack_from(">H", frame, l4 + 8)[0]
    if magic != MAGIC_DATA or dport != DPORT:
        return None
    seq = int.from_bytes(frame[l4 + 10:l4 + 16], "big")
    return sport - SPORT_BASE, seq


class Capture(nbe2e.E2ECase):

    def loopback(self, tool, name="cap"):
        r = self.nb.run(self.nb.eal(self.nb.memif_pair()),
                        ["--tx-port", "0", "--rx-port", "1", "--json"]
                        + tool, name=name)
        self.assertOk(r)
        return r.json()

    def test_every_frame(self):
        """Every frame the receiver takes in is in the file, once, whole,
        in order per stream, with a time inside the test's."""
        path = os.path.join(self.tmpdir, "rx.pcap")
        d = self.loopback(["--packets", "20000", "--rate", "100kpps",
                           "--streams", "3", "--size", "128",
                           "--capture", path])
        e = d["end"]
        cap = e["capture"]
        received = e["sum_received"]["packets"]
        self.assertEqual(received, 20000)
        self.assertEqual(cap["file"], path)
        self.assertEqual((cap["every"], cap["snaplen"], cap["count"]),
                         (1, 65535, 0))
        self.assertEqual(cap["dropped"], 0)
        self.assertEqual(cap["taken"], e["ports"][1]["tool_rx_packets"])
        self.assertEqual(cap["written"], cap["taken"])
        linktype, snaplen, recs = read_pcap(path)
        self.assertEqual((linktype, snaplen), (1, 65535))
        self.assertEqual(len(recs), cap["written"])
        seqs = {}
        for ts, caplen, length, frame in recs:
            self.assertEqual((caplen, length), (124, 124))   # FCS not kept
            st = udp_stamp(frame)
            self.assertIsNotNone(st)
            seqs.setdefault(st[0], []).append(st[1])
        for i, s in enumerate(e["streams"]):
            n = s["sender"]["packets"]
            # in order and each once: one RX queue, one writer
            self.assertEqual(seqs.get(i), list(range(n)), "stream %d" % i)
        # times: the wall clock, within the test (start of the test to
        # the end of the run), never going back
        t0 = d["start"]["timestamp"]["timesecs"] * 10**9
        stamps = [r[0] for r in recs]
        self.assertEqual(stamps, sorted(stamps))
        self.assertGreaterEqual(stamps[0], t0 - 10**9)
        self.assertLess(stamps[-1], t0 + 30 * 10**9)
        # 20000 frames at 100 kpps: the capture spans the sending, 0.2 s
        span = (stamps[-1] - stamps[0]) / 1e9
        self.assertGreater(span, 0.19)
        self.assertLess(span, 1.0)
        self.assertEqual(tshark_count(path), cap["written"])

    def test_replay_what_was_captured(self):
        """--replay of a capture sends the same frames, byte for byte
        (a capture of the replay at the receiver holds the same bytes in
        the same order), and the receiver counts every one; with
        --replay-stamp and loop=3 the frames carry fresh stamps: three
        passes, no loss, a latency sample per frame."""
        first = os.path.join(self.tmpdir, "first.pcap")
        again = os.path.join(self.tmpdir, "again.pcap")
        d = self.loopback(["--packets", "3000", "--rate", "100kpps",
                           "--streams", "3", "--size", "64,512,1518",
                           "--capture", first], name="cap1")
        _, _, recs = read_pcap(first)
        n = len(recs)
        self.assertEqual(n, d["end"]["sum_received"]["packets"])
        d = self.loopback(["--replay", first, "--rate", "50kpps",
                           "--capture", again], name="replay")
        e = d["end"]
        rp = d["start"]["replay"]
        self.assertEqual((rp["frames"], rp["min_size"], rp["max_size"],
                          rp["loops"], rp["timing"], rp["stamped"]),
                         (n, 64, 1518, 1, "rate", False))
        want_mean = sum(r[2] + 4 for r in recs) / n
        self.assertAlmostEqual(rp["mean_size"], want_mean, places=6)
        self.assertEqual(e["sum_sent"]["packets"], n)
        self.assertEqual(e["sum_sent"]["bytes"], sum(r[2] + 4 for r in recs))
        self.assertEqual(e["sum_received"]["packets"], n)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertEqual(e["ports"][1]["tool_rx_packets"], n)
        self.assertEqual(e["ports"][1]["pmd"]["ipackets"], n)
        self.assertEqual(e["rx_foreign"], 0)
        _, _, back = read_pcap(again)
        self.assertEqual([r[3] for r in back], [r[3] for r in recs])
        self.assertEqual(tshark_count(again), n)
        # stamped, three passes: stream 0, sequence 0..3n-1, in order
        d = self.loopback(["--replay", first + ",loop=3", "--replay-stamp",
                           "--rate", "100kpps", "--capture", again],
                          name="stamped")
        e = d["end"]
        self.assertTrue(d["start"]["replay"]["stamped"])
        self.assertEqual(e["sum_sent"]["packets"], 3 * n)
        self.assertEqual(e["sum_received"]["packets"], 3 * n)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertEqual(e["streams"][0]["receiver"]["out_of_order"], 0)
        self.assertEqual(e["streams"][0]["receiver"]["latency"]["count"],
                         3 * n)
        _, _, back = read_pcap(again)
        self.assertEqual([udp_stamp(r[3])[1] for r in back],
                         list(range(3 * n)))
        # stream 0 is the IPv4 ID
        self.assertEqual({r[3][18:20] for r in back}, {b"\0\0"})
        # apart from the stamp (IPv4 ID and checksum, UDP checksum, the
        # payload's first 14 bytes), the bytes are the file's
        for i, r in enumerate(back):
            a, b = bytearray(r[3]), bytearray(recs[i % n][3])
            for f in (a, b):
                f[18:20] = f[24:26] = f[40:42] = b"\0\0"
                f[42:56] = bytes(14)
            self.assertEqual(a, b, "frame %d" % i)

    def test_replay_file_timing(self):
        """--replay-timing file keeps the file's gaps: the replay of a
        capture of 2000 frames at 20 kpps takes at least the file's span
        (a frame is never sent before its time) and every frame comes."""
        first = os.path.join(self.tmpdir, "first.pcap")
        self.loopback(["--packets", "2000", "--rate", "20kpps",
                       "--capture", first], name="cap1")
        _, _, recs = read_pcap(first)
        span = (recs[-1][0] - recs[0][0]) / 1e9
        d = self.loopback(["--replay", first, "--replay-timing", "file"],
                          name="ftime")
        e = d["end"]
        self.assertEqual(d["start"]["replay"]["timing"], "file")
        self.assertAlmostEqual(d["start"]["replay"]["span_seconds"], span,
                               places=6)
        self.assertEqual(e["sum_sent"]["packets"], len(recs))
        self.assertEqual(e["sum_received"]["packets"], len(recs))
        sent_s = e["sum_sent"]["seconds"]
        self.assertGreaterEqual(sent_s, span * 0.999)

    def test_replay_refusals(self):
        """What a replay cannot do is said, with the right exit code."""
        path = os.path.join(self.tmpdir, "short.pcap")
        self.loopback(["--packets", "100", "--rate", "10kpps",
                       "--capture", path + ",snaplen=42"], name="cap1")
        tcp = os.path.join(self.tmpdir, "tcp.pcap")
        self.loopback(["--packets", "100", "--rate", "10kpps", "--proto",
                       "tcp", "--capture", tcp], name="cap2")
        for tool, rc, msg in (
                (["--replay", path], 1,
                 "frame 1 holds 42 of its 60 bytes"),
                (["--replay", os.path.join(self.tmpdir, "none.pcap")], 1,
                 "No such file"),
                (["--replay", tcp, "--replay-stamp"], 1,
                 "frame 1 of %s cannot carry the stamp: IP protocol 6, "
                 "not UDP" % tcp),
                (["--replay", tcp, "--streams", "2"], 2,
                 "--replay cannot be combined with --streams"),
                (["--replay", tcp, "--size", "128"], 2,
                 "--replay cannot be combined with --size"),
                (["--replay", tcp, "--dst-mac", "02:00:00:00:00:01"], 2,
                 "--replay cannot be combined with --dst-mac (the file's "
                 "frames are sent as they are)"),
                (["--replay", tcp, "--replay-timing", "file", "--rate",
                  "1G"], 2, "--replay-timing file paces by the file"),
                (["--replay", tcp, "--hw-rate"], 2,
                 "--replay cannot be combined with --hw-rate"),
                (["--replay-stamp"], 2,
                 "--replay-stamp and --replay-timing go with --replay"),
                (["--replay", tcp + ",loops=2"], 2,
                 "unknown key in 'loops=2': expected loop=N")):
            with self.subTest(tool=tool):
                r = self.nb.run(self.nb.eal(self.nb.memif_pair()),
                                ["--tx-port", "0", "--rx-port", "1"] + tool,
                                name="rpbad")
                self.assertEqual(r.rc, rc, r.err)
                self.assertIn(msg, r.err)

    def test_every_nth_count_snaplen(self):
        """every=7 takes the 1st, 8th, 15th ... frame; count= stops the
        file at N frames; snaplen= keeps the first B bytes and the
        frame's own length."""
        path = os.path.join(self.tmpdir, "nth.pcap")
        d = self.loopback(["--packets", "700", "--rate", "50kpps",
                           "--capture", path + ",every=7"])
        cap = d["end"]["capture"]
        self.assertEqual((cap["taken"], cap["written"], cap["dropped"]),
                         (100, 100, 0))
        _, _, recs = read_pcap(path)
        self.assertEqual([udp_stamp(r[3]) for r in recs],
                         [(0, 7 * k) for k in range(100)])
        path = os.path.join(self.tmpdir, "cut.pcap")
        d = self.loopback(["--packets", "700", "--rate", "50kpps",
                           "--capture", path + ",count=40,snaplen=42"])
        cap = d["end"]["capture"]
        self.assertEqual(cap["written"], 40)
        self.assertEqual(cap["dropped"], 0)
        linktype, snaplen, recs = read_pcap(path)
        self.assertEqual(snaplen, 42)
        self.assertEqual(len(recs), 40)
        for ts, caplen, length, frame in recs:
            self.assertEqual((caplen, length), (42, 60))
        # an independent decoder reads the cut frames as IPv4/UDP
        if TSHARK:
            p = subprocess.run([TSHARK, "-r", path, "-n", "-T", "fields",
                                "-e", "udp.srcport", "-e", "udp.dstport"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.split("\n")[:40],
                             ["49152\t5001"] * 40)

    def test_bad_specs(self):
        """A bad --capture is a usage error, said before EAL starts."""
        cases = [
            ("x.pcap,size=10", "unknown key 'size'"),
            ("x.pcap,every=0", "every=0"),
            ("x.pcap,snaplen=8", "snaplen=8"),
            (os.path.join(self.tmpdir, "no", "such", "dir.pcap"),
             "cannot open --capture"),
        ]
        for spec, says in cases:
            r = self.nb.run(self.nb.eal(self.nb.memif_pair()),
                            ["--tx-port", "0", "--rx-port", "1",
                             "--capture", spec], name="capbad")
            self.assertEqual(r.rc, 2, r.err)
            self.assertIn(says, r.err)
            self.assertNotIn("EAL:", r.err)

    @unittest.skipUnless(DUMPCAP, "dpdk-dumpcap is not installed")
    def test_dumpcap_attaches(self):
        """dpdk-dumpcap, a secondary process, captures from a running
        test's receive port: the tool initialised pdump.  It stops itself
        after 1000 frames, all ours, which tshark reads; the test loses
        nothing meanwhile."""
        prefix = nbe2e.unique("dc")
        path = os.path.join(self.tmpdir, "dumpcap.pcap")
        eal = self.nb.eal(self.nb.memif_pair(), prefix=prefix)
        p, argv, log = self.nb.start(eal, [
            "--tx-port", "0", "--rx-port", "1", "--rate", "2kpps",
            "--time", "4", "--json"], name="dc")
        try:
            s = nbe2e.telemetry(prefix)
            deadline = time.monotonic() + 30
            while True:
                st = nbe2e.telemetry_ask(s, "/nbench/state")
                if st["state"] == "running":
                    break
                self.assertLess(time.monotonic(), deadline, st)
                time.sleep(0.05)
            s.close()
            dc = subprocess.run([DUMPCAP, "--file-prefix=" + prefix,
                                 "-i", "net_memif1", "-c", "1000", "-P",
                                 "-w", path, "-q"],
                                capture_output=True, text=True, timeout=60)
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, 9)
                p.communicate()
        nbe2e.Nbench._log(log, argv, p.returncode, out, err)
        self.assertEqual(dc.returncode, 0, dc.stdout + dc.stderr)
        self.assertEqual(p.returncode, 0, err[-2000:])
        _, _, recs = read_pcap(path)
        # dpdk-dumpcap 22.11 writes what it takes off its ring in bursts
        # of up to 32 and checks -c after each burst (app/dumpcap/main.c):
        # 1000 to 1031 frames (1013 seen under ASan, which slows it)
        self.assertGreaterEqual(len(recs), 1000)
        self.assertLess(len(recs), 1000 + 32)
        self.assertEqual(tshark_count(path), len(recs))
        seqs = [udp_stamp(r[3]) for r in recs]
        self.assertNotIn(None, seqs)
        # consecutive frames of the one stream (dumpcap joined mid-test)
        first = seqs[0][1]
        self.assertEqual(seqs, [(0, first + k) for k in range(len(recs))])
        e = nbe2e.loads(out)["end"]
        self.assertEqual(e["sum_received"]["packets"], 8000)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)


class PeerCapture(PeerBase):
    """--capture on both ends of a peer test over memif."""

    def data_frames(self, path):
        """{stream: [seq, ...]} of our data frames in a capture, and how
        many other frames (control, probes, ARP) it holds."""
        _, _, recs = read_pcap(path)
        seqs, other = {}, 0
        for r in recs:
            st = udp_stamp(r[3])
            if st is None:
                other += 1
            else:
                seqs.setdefault(st[0], []).append(st[1])
        return seqs, other, len(recs)

    def test_responder_captures(self):
        """A responder's capture holds every data frame the client sent,
        per stream in order, besides the session's control frames; it
        logs the counts when it exits (--one-off: after the test)."""
        path = os.path.join(self.tmpdir, "resp.pcap")
        p = self.responder(["--one-off", "--capture", path])
        d = self.client(["--rate", "20kpps", "--packets", "4000",
                         "--streams", "2", "--json"]).json()
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err[-2000:])
        seqs, other, total = self.data_frames(path)
        for i, s in enumerate(d["end"]["streams"]):
            self.assertEqual(seqs.get(i),
                             list(range(s["sender"]["packets"])))
        self.assertEqual(sum(len(v) for v in seqs.values()), 4000)
        self.assertGreater(other, 0)   # the session's control frames
        self.assertIn("capture %s (every frame, whole frames): %d frames "
                      "written, 0 dropped" % (path, total), err)

    def test_client_captures_reverse(self):
        """-R: the client's receiver captures the responder's data
        frames; the JSON's written is the file's count."""
        path = os.path.join(self.tmpdir, "cli.pcap")
        self.responder(["--one-off"])
        d = self.client(["--reverse", "--rate", "20kpps", "--packets",
                         "3000", "--capture", path + ",every=3",
                         "--json"]).json()
        e = d["end"]
        self.assertEqual(e["sum_received"]["packets"], 3000)
        seqs, other, total = self.data_frames(path)
        self.assertEqual(total, e["capture"]["written"])
        self.assertEqual(e["capture"]["dropped"], 0)
        # every 3rd frame the queue took in, control frames included: the
        # data frames' sequence numbers rise, about a third of them
        got = seqs.get(0, [])
        self.assertEqual(got, sorted(set(got)))
        self.assertGreaterEqual(len(got), 3000 // 3 - other - 1)
        self.assertLessEqual(len(got), 3000 // 3 + 1)


if __name__ == "__main__":
    nbe2e.main()
