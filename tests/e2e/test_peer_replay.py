# SPDX-License-Identifier: BSD-3-Clause
"""--replay to a responder (issue 13): a client sends a pcap file's frames
to its responder, each stamped (--replay-stamp: a responder counts only
frames that carry the tool's stamp), with the session's MACs in place of
the file's; the rest of each frame is the file's.

The file is written here, not by the tool: IPv4 UDP frames of three
sizes to addresses and ports of another network, so the counts, bytes and
sizes the test expects come from the file alone.  The responder captures
what it received (--capture), which shows the bytes that arrived.
af_packet on a veth pair across two namespaces (test_peer.VethPeerBase)."""
import os
import struct

import nbctl
import nbe2e
import test_capture
import test_peer

# frame sizes with the FCS, in the file's order; one pass is len(MIX)
MIX = [64, 512, 1518, 64, 64, 700, 128, 1518, 64, 300]


def frame(i, size):
    """An IPv4 UDP frame of `size` bytes with the FCS (size - 4 in the
    file) from 10.1.0.1:1000+i to 10.2.0.2:53, MACs of the file's own."""
    n = size - 4
    payload = bytes((i + k) & 0xff for k in range(n - 42))
    udp = struct.pack("!HHHH", 1000 + i, 53, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i, 0, 64,
                     17, 0, bytes([10, 1, 0, 1]), bytes([10, 2, 0, 2]))
    ip = ip[:10] + struct.pack("!H", nbctl.csum(ip)) + ip[12:]
    eth = bytes.fromhex("0a0000000001") + bytes.fromhex("0a0000000002") + \
        b"\x08\x00"
    return eth + ip + udp


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i * 10, len(fr), len(fr)))
            f.write(fr)


class PeerReplay(test_peer.VethPeerBase):

    def test_replay_to_a_responder(self):
        path = os.path.join(self.tmpdir, "mix.pcap")
        cap = os.path.join(self.tmpdir, "rsp.pcap")
        frames = [frame(i, s) for i, s in enumerate(MIX)]
        write_pcap(path, frames)
        loops = 300
        p = self.responder(["--capture", cap, "--one-off"])
        d = self.client(["--replay", "%s,loop=%d" % (path, loops),
                         "--replay-stamp", "--rate", "30kpps",
                         "--json"]).json()
        p.wait(timeout=30)
        e = d["end"]
        n = loops * len(MIX)
        rp = d["start"]["replay"]
        self.assertEqual((rp["frames"], rp["min_size"], rp["max_size"],
                          rp["loops"], rp["stamped"]),
                         (len(MIX), 64, 1518, loops, True))
        # what the responder received: every frame once, in order, the
        # file's bytes; a latency sample each
        self.assertEqual(e["sum_sent"]["packets"], n)
        self.assertEqual(e["sum_sent"]["bytes"], loops * sum(MIX))
        recv = e["sum_received"]
        self.assertEqual(recv["packets"], n)
        self.assertEqual(recv["bytes"], loops * sum(MIX))
        self.assertEqual(recv["lost_packets"], 0)
        self.assertEqual(e["streams"][0]["receiver"]["out_of_order"], 0)
        self.assertEqual(e["streams"][0]["receiver"]["latency"]["count"],
                         n)
        # 30 kpps over the file's frames
        self.assertLess(abs(e["sum_sent"]["packets"] /
                            e["sum_sent"]["seconds"] - 30000), 150)
        # the capture at the responder: the data frames, the session's
        # MACs, the stamp, the rest as in the file
        me = d["start"]["ports"][0]["mac"]
        _, _, recs = test_capture.read_pcap(cap)
        data = [r[3] for r in recs if test_capture.udp_stamp(r[3]) is None
                and r[3][12:14] == b"\x08\x00" and r[3][23] == 17
                and r[3][36:38] == b"\x00\x35"]
        self.assertEqual(len(data), n)
        for i, got in enumerate(data):
            want = bytearray(frames[i % len(MIX)])
            got = bytearray(got)
            self.assertEqual(got[:6], bytes.fromhex(
                test_peer.RESP_MAC.replace(":", "")), i)
            self.assertEqual(got[6:12], bytes.fromhex(me.replace(":", "")))
            for f in (want, got):
                f[0:12] = bytes(12)
                f[18:20] = f[24:26] = f[40:42] = b"\0\0"
                f[42:56] = bytes(14)
            self.assertEqual(got, want, "frame %d" % i)

    def test_refusals(self):
        path = os.path.join(self.tmpdir, "mix.pcap")
        write_pcap(path, [frame(0, 64)])
        for extra, msg in (
                ([], "--replay needs --replay-stamp with --peer"),
                (["--replay-stamp", "--reverse"], "--replay goes from the "
                 "client (the file is this side's): not with --reverse"),
                (["--replay-stamp", "--bidir"], "not with --reverse or "
                 "--bidir"),
                (["--replay-stamp", "--latency-rate", "100"],
                 "--replay stamps every frame, so each gives its latency: "
                 "not with --latency-rate")):
            with self.subTest(extra=extra):
                r = self.client(["--replay", path] + extra, code=2)
                self.assertIn(msg, r.err)


if __name__ == "__main__":
    nbe2e.main()
