#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Load: a legitimate peer test at 1 Gbit/s while a third party floods the
responder's port (test_security.py's switch: responder, client and
attacker on one Linux bridge, each on af_packet or a raw socket).

The flood is half garbage (random bytes under random ethertypes, UDP to
ports nobody listens on, truncated control datagrams) and half
well-formed but unauthenticated control messages (HELLOs claiming the key
with a made-up tag, PARAMS with made-up cookies, STOPs of made-up
sessions), each from a new random MAC and IPv4.  Its frames are written
to a pcap file once and sent by a dpdk-nbench of the attacker's (a
loopback --replay, paced by --rate): a Python socket reaches ~300 kframes/s
here, the tool several times that.

The host has two CPUs: the responder (control, stats and worker lcores)
keeps CPU 0, the client CPU 1, and the flood's sender shares CPU 1 with
the client's worker.  The figures (flood rate reached, frames the
responder counted by kind, its control lcore's CPU per control frame) are
printed; docs/performance.md has them."""
import json
import os
import random
import re
import struct
import subprocess
import time

import nbctl
import nbe2e
import test_security
from test_security import IPS, MACS

FLOOD_FRAMES = 4096
# the flood's rate: the goal is 1 Mpps; the release build's sender on a
# CPU shared with the client's worker reaches less (the figure is printed)
FLOOD_RATE = "1Mpps"
# the legitimate test: 2 streams of 1518-byte frames for 3 s at 1 Gbit/s
# (the ASan build's workers are several times slower: 200 Mbit/s)
LEGIT_RATE = "200M" if nbe2e.SANITIZED else "1G"


def pcap_write(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000,
                                len(fr), len(fr)))
            f.write(fr)


def flood_frames(n, seed=34):
    """n frames at the responder's MAC: kinds in turn (garbage, UDP to
    another port, truncated control, HELLO, PARAMS, STOP)."""
    rnd = random.Random(seed)
    dst = nbctl.mac_bytes(MACS["r"])
    out = []
    for i in range(n):
        mac = bytes([rnd.getrandbits(8) & 0xfc | 2]) + rnd.randbytes(5)
        smac = ":".join("%02x" % b for b in mac)
        ip = "198.18.%d.%d" % (rnd.getrandbits(7), rnd.getrandbits(8))
        cn, sess = rnd.randbytes(16), rnd.getrandbits(32) | 1
        kind = i % 6
        if kind == 0:
            # random bytes under a random ethertype (not IPv4 or ARP)
            et = rnd.choice((0x88b5, 0x88b6, 0x9000, 0x1234))
            f = dst + mac + struct.pack(">H", et) + \
                rnd.randbytes(rnd.randrange(46, 400))
        elif kind == 1:
            f = nbctl.udp_frame(dst, mac, nbctl.ip_bytes(ip),
                                nbctl.ip_bytes(IPS["r"]),
                                rnd.randbytes(rnd.randrange(18, 400)),
                                sport=rnd.randrange(1024, 65535),
                                dport=rnd.choice((53, 5201, 7202, 9)))
        elif kind == 2:
            msg = nbctl.encode(nbctl.HELLO, sess, 1, nbctl.conf(cn))
            f = nbctl.ctl_frame(MACS["r"], smac, ip, IPS["r"],
                                msg[:rnd.randrange(8, len(msg) - 1)])
        elif kind == 3:
            msg = nbctl.encode(nbctl.HELLO, sess, 1, nbctl.conf(
                cn, flags=nbctl.CONF_F_KEY), tag_bytes=rnd.randbytes(16))
            f = nbctl.ctl_frame(MACS["r"], smac, ip, IPS["r"], msg)
        elif kind == 4:
            msg = nbctl.encode(nbctl.PARAMS, sess, 2, nbctl.params(
                cn, rnd.randbytes(16)), tag_bytes=rnd.randbytes(16))
            f = nbctl.ctl_frame(MACS["r"], smac, ip, IPS["r"], msg)
        else:
            msg = nbctl.encode(nbctl.STOP, sess, 5, b"",
                               tag_bytes=rnd.randbytes(16))
            f = nbctl.ctl_frame(MACS["r"], smac, ip, IPS["r"], msg)
        out.append(f if len(f) >= 60 else f + bytes(60 - len(f)))
    return out


def rx_packets(ns, dev):
    """The kernel's count of frames interface dev in namespace ns
    received."""
    out = subprocess.run(["ip", "-n", ns, "-s", "-j", "link", "show", "dev",
                          dev], check=True, capture_output=True, text=True,
                         timeout=30).stdout
    return json.loads(out)[0]["stats64"]["rx"]["packets"]


def thread_cpu_ns(pid, tid):
    """utime + stime of one thread, in ns."""
    with open("/proc/%d/task/%d/stat" % (pid, tid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    hz = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) * 1000000000 // hz


class Flood(test_security.Security):
    """test_security.Security's switch and processes; its own tests are
    test_security.py's to run (see below)."""

    def flooder(self, pcap, seconds):
        """A dpdk-nbench of the attacker's: a loopback test that replays
        the pcap onto the attacker's port (its receiving port a net_ring
        nobody sends to), paced at FLOOD_RATE, one worker for both ports
        on CPU 1."""
        eal = ["--no-pci", "--lcores", "0@1,1@1,2@1", "--file-prefix",
               nbe2e.unique("flood"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=va,framecnt=4096",
               "--vdev", "net_ring0"]
        tool = ["--tx-port", "0", "--rx-port", "1", "--replay",
                pcap + ",loop=0", "--rate", FLOOD_RATE, "--time",
                str(seconds), "--json", "--interval", "0"]
        argv = ["ip", "netns", "exec", self.ns["a"], nbe2e.BIN] + eal + \
            ["--"] + tool
        p = test_security.Proc(argv, "flood")
        self.procs.append(p)
        return p

    def counted(self, tel):
        r = nbe2e.telemetry_ask(tel, "/nbench/responder")
        c = r["control"]
        return r, c["rx_ctl"] + c["rx_bad"] + c["stray"] + c["rx_shed"]

    def test_flood_during_1g_test(self):
        """While the flood runs, a key holder's 2-stream test at 1 Gbit/s
        (200 Mbit/s under ASan) completes: exit 0, results fetched, per
        stream received + lost = sent with nothing duplicated or
        reordered, its own port's counts equal its PMD's, and the
        responder's PMD received at least what its receivers counted.
        The key holder's session opens on its own tokens, not the
        budgets the flood empties (vouched).
        The responder counts the flood: its refusals by cause, the frames
        its control lcore handled, the garbage its receivers counted as
        foreign during the test; its control lcore's CPU per frame
        handled is printed (and bounded: under 20 us).  Afterwards it
        serves the next client with exact counts."""
        resp = self.responder(["--peer-timeout", "10"])
        prefix = re.search(r"--file-prefix (\S+)", " ".join(resp.argv))
        tel = nbe2e.telemetry(prefix.group(1))
        self.addCleanup(tel.close)
        pcap = os.path.join(self.tmpdir, "flood.pcap")
        frames = flood_frames(FLOOD_FRAMES)
        pcap_write(pcap, frames)
        r0, n0 = self.counted(tel)
        k0 = rx_packets(self.ns["r"], "vr")
        cpu0 = thread_cpu_ns(resp.p.pid, resp.p.pid)
        t0 = time.monotonic()
        fl = self.flooder(pcap, 15)
        # the flood reaches the responder before the client starts
        deadline = time.monotonic() + 20
        while self.counted(tel)[1] - n0 < 10000:
            self.assertTrue(fl.running(), "the flooder ended (log %s)"
                            % fl.save())
            self.assertLess(time.monotonic(), deadline, fl.save())
            time.sleep(0.05)
        c = self.client(["--peer-timeout", "10"], 3, rate=LEGIT_RATE,
                        streams=2, size=1518)
        end = self.check_counts(c)
        # the test was not starved: the loss is the responder's af_packet
        # ring overflowing beside the flood (3 runs: 13-18 %; 36 % under
        # ASan), not a test that stopped
        self.assertLess(end["lost"], end["sent"] // 2, end["figures"])
        self.assertTrue(fl.running(), "the flood ended before the test "
                        "did (log %s)" % fl.save())
        rc = fl.wait(60)
        took = time.monotonic() - t0
        cpu = thread_cpu_ns(resp.p.pid, resp.p.pid) - cpu0
        r1, n1 = self.counted(tel)
        # every frame the responder's veth got: the flood's, the test's
        # and both ends' control frames
        delivered = rx_packets(self.ns["r"], "vr") - k0
        d = fl.json()["end"]
        sent = d["ports"][0]["tool_tx_packets"]
        self.assertEqual(sent, d["ports"][0]["pmd"]["opackets"])
        self.assertEqual(rc, 0, fl.log)
        handled = n1 - n0
        refused = {k: v - r0["refused"][k] for k, v in r1["refused"].items()
                   if v - r0["refused"][k]}
        rate = sent / d["sum_sent"]["seconds"]
        print("\n  flood: %d frames in %.1f s (%.0f frames/s, asked %s); "
              "legitimate test: %s; the responder's veth received %d "
              "frames; the responder: its control lcore handled %d (%.2f "
              "us CPU each), its receivers counted %d foreign in the "
              "test, refused %s" % (
                  sent, d["sum_sent"]["seconds"], rate, FLOOD_RATE,
                  end["figures"], delivered, handled,
                  cpu / 1000.0 / handled, end["foreign"], refused))
        # the responder counted no more than its veth received (the rest
        # overflowed its af_packet ring, which no PMD counter sees)
        self.assertLessEqual(handled + end["foreign"] + end["received"],
                             delivered)
        # what the responder counted is within what was sent to it
        self.assertLessEqual(handled + end["foreign"], sent + 1000)
        # and the flood did reach it: a tenth at least of what its veth
        # took in went through its control lcore (3 runs: 18 %), and each
        # kind of unauthenticated control frame met its own refusal (the
        # HELLOs with a wrong tag, the PARAMS with made-up cookies, and
        # what the global budgets turned away before any HMAC)
        self.assertGreater(handled, delivered // 10)
        for cause in ("wrong_key", "bad_or_stale_cookie", "rate_limited"):
            self.assertGreater(refused.get(cause, 0), 0, refused)
        self.assertLess(cpu / handled, 20000, "ns of CPU per frame")
        # what costs HMACs is rate-limited before it (nb_responder.c):
        # answered HELLOs (a wrong key's REJECT) at most 10,000 a second
        # (burst 1,000), would-be openers checked at most 2,000 a second
        # (burst 200), from all sources together; the rest is counted as
        # rate-limited, unanswered
        self.assertLessEqual(refused.get("wrong_key", 0),
                             10000 * took + 1000, refused)
        self.assertLessEqual(refused.get("bad_or_stale_cookie", 0),
                             2000 * took + 200, refused)
        # the flood sends as many forged PARAMS as HELLOs, so as many
        # reach the checks; all but the PARAMS budget's were rate-limited.
        # How many reach them at all is the control lcore's speed (plain:
        # rate-limited above wrong-key; ASan once 110,184 against 138,631
        # wrong-key and 30,226 within the PARAMS budget), so the bound
        # keeps half the margin
        self.assertGreater(refused.get("wrong_key", 0),
                           refused.get("bad_or_stale_cookie", 0), refused)
        self.assertGreaterEqual(
            refused.get("rate_limited", 0),
            (refused.get("wrong_key", 0) -
             refused.get("bad_or_stale_cookie", 0)) // 2, refused)
        # the key holder's PARAMS did not compete with the forged ones:
        # its HELLO's tag checked, so its session was vouched for and
        # took its own tokens (docs/protocol.md: vouched sessions)
        self.assertGreaterEqual(r1["vouched"] - r0["vouched"], 1, r1)
        # alive and serving: the next client exact, nothing lost
        after = self.client(["--peer-timeout", "10"], 1, rate="100M",
                            name="after")
        self.check_exact(after, 1)
        self.stop_responder(resp)

    def check_counts(self, c):
        rc = c.wait(90)
        self.assertEqual(rc, 0, "client failed (log %s):\n%s"
                         % (c.log, c.err[-3000:]))
        doc = c.json()
        end = doc["end"]
        sent = end["sum_sent"]["packets"]
        lost = end["sum_received"]["lost_packets"]
        self.assertEqual(end["sum_received"]["packets"] + lost, sent)
        for st in end["streams"]:
            rx, tx = st["receiver"], st["sender"]
            self.assertEqual(rx["packets"] + rx["lost_packets"],
                             tx["packets"], c.log)
            self.assertEqual(rx.get("duplicates", 0), 0, c.log)
            self.assertEqual(rx.get("out_of_order", 0), 0, c.log)
        me, peer = end["ports"][0], end["ports"][1]
        self.assertEqual(me["tool_tx_packets"], me["pmd"]["opackets"])
        self.assertEqual(me["tool_rx_packets"], me["pmd"]["ipackets"])
        # the responder's PMD saw its receivers' frames, the flood's and
        # the session's control frames
        self.assertGreaterEqual(peer["pmd"]["ipackets"],
                                end["sum_received"]["packets"])
        gbps = end["sum_sent"]["bits_per_second"] / 1e9
        return {"figures": "%d sent at %.3f Gbit/s, %d lost"
                % (sent, gbps, lost), "foreign": end["rx_foreign"],
                "sent": sent, "lost": lost,
                "received": end["sum_received"]["packets"]}


# only this file's tests: the switch's other tests are test_security.py's
for _name in dir(test_security.Security):
    if _name.startswith("test_") and _name not in vars(Flood):
        setattr(Flood, _name, None)

if __name__ == "__main__":
    nbe2e.main()
