# SPDX-License-Identifier: BSD-3-Clause
"""A blind spoofed TCP connection against the tool's listener (--rx-port
alone), over af_packet on a veth pair in network namespaces:

  the tool in nbNa (vt0) -- veth -- vk in nbNk, where a raw socket plays a
  phantom host, 198.18.0.200 (no such host: nothing answers for it), and
  the kernel at 198.19.0.100 is the real client afterwards.

The phantom sends a SYN and then, without using the SYN-ACK (it cannot see
it: the helper only watches for it to know the listener took the SYN),
the ACK a blind attacker sends when it guesses the ISN was 0 (ack 1),
100,000 bytes of data and a FIN.  With ISNs per RFC 6528 the listener
refuses all of it, keeps its one end (-P 1) for the real client, and its
SYN-ACKs carry ISNs that are not 0 and differ between connections
(tshark over a capture on vk).  A SYN that never completes costs its
SYN-ACK schedule (0, 1, 3, 7 s) and its end is freed at 15 s: the
listener does not end its test for it, and still serves the real client."""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import nbe2e
import test_tcp_kernel

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "tcp_peer.py")
MIB = 1024 * 1024
RING = ",framesz=2048,framecnt=4096"
PHANTOM = "198.18.0.200"
LISTENER = "198.19.0.1"
SPOOF_BYTES = 100000

# Run in the kernel's namespace: argv = [mode, listener MAC, HERE].
#   blind: SYN (resent every 0.5 s until the listener's SYN-ACK is seen),
#          then ACK (ack 1: the guess "ISN 0"), 100 segments of 1000 bytes
#          1 ms apart, FIN; then 1 s of listening.  Prints "synack ISN",
#          then "done" and a JSON line of what came back to the phantom.
#   probe: SYN as above, then every 0.2 s a 1-byte segment with PSH and no
#          ACK on the phantom's 4-tuple: a half-open end ignores it, no end
#          answers it with RST+ACK (a stray segment).  Prints "synack ISN",
#          then "dropped SECONDS SYNACKS": when the RST came, from the first
#          SYN-ACK, and how many SYN-ACKs came before it.
SPOOF = r"""
import json, socket, struct, sys, time
sys.path.insert(0, sys.argv[3])
import nbctl
mode, dmac = sys.argv[1], sys.argv[2]
SMAC, PH, LS, SP, DP, ISS = "02:00:00:00:00:c8", "%s", "%s", 40404, 5201, 7000
s = nbctl.raw_socket("vk", timeout=0.05)

def tcp(seq, ack, flags, payload=b""):
    s.send(nbctl.tcp_frame(dmac, SMAC, PH, LS, SP, DP, seq, ack, flags,
                           payload))

def frames(until):
    while time.monotonic() < until:
        try:
            f = s.recv(4096)
        except OSError:
            continue
        if len(f) < 54 or f[12:14] != b"\x08\x00" or f[23] != 6:
            continue
        if socket.inet_ntoa(f[30:34]) != PH:
            continue
        t = 14 + (f[14] & 15) * 4
        sport, dport, seq, ack = struct.unpack_from("!HHII", f, t)
        if dport == SP:
            yield seq, ack, f[t + 13], time.monotonic()

deadline = time.monotonic() + 30
isn, t0, nsa = None, None, 0
while isn is None and time.monotonic() < deadline:
    tcp(ISS, 0, nbctl.TCP_SYN)
    for seq, ack, fl, t in frames(time.monotonic() + 0.5):
        if fl == nbctl.TCP_SYN | nbctl.TCP_ACK and ack == ISS + 1:
            isn, t0, nsa = seq, t, 1
            break
if isn is None:
    sys.exit("no SYN-ACK")
print("synack %%d" %% isn, flush=True)
if mode == "blind":
    back = []
    tcp(ISS + 1, 1, nbctl.TCP_ACK)
    for k in range(0, %d, 1000):
        tcp(ISS + 1 + k, 1, nbctl.TCP_ACK | nbctl.TCP_PSH,
            bytes((k + i) & 0xff for i in range(1000)))
        back += [(a, fl) for _, a, fl, _ in frames(time.monotonic() + 0.001)]
    tcp(ISS + 1 + %d, 1, nbctl.TCP_FIN | nbctl.TCP_ACK)
    back += [(a, fl) for _, a, fl, _ in frames(time.monotonic() + 1)]
    print("done", flush=True)
    print(json.dumps(back), flush=True)
else:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        tcp(ISS + 1, 0, nbctl.TCP_PSH, b"x")
        for seq, ack, fl, t in frames(time.monotonic() + 0.2):
            if fl == nbctl.TCP_SYN | nbctl.TCP_ACK:
                nsa += 1
            elif fl == nbctl.TCP_RST | nbctl.TCP_ACK and ack == ISS + 2:
                print("dropped %%.3f %%d" %% (t - t0, nsa), flush=True)
                sys.exit(0)
    sys.exit("the half-open end never went")
""" % (PHANTOM, LISTENER, SPOOF_BYTES, SPOOF_BYTES)


def sh(*args, check=True, timeout=30):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=timeout)


class Spoof(test_tcp_kernel.NetCase):
    """Namespaces, background processes and their stop: NetCase's."""
    runs = 0

    def setUp(self):
        super().setUp()
        Spoof.runs += 1
        self.p = "nbs%d_%d" % (os.getpid() % 100000, Spoof.runs)
        self.a, self.k = self.netns("a"), self.netns("k")
        sh("ip", "-n", self.a, "link", "add", "vt0", "type", "veth", "peer",
           "name", "vk", "netns", self.k)
        for ns, dev in ((self.a, "vt0"), (self.k, "vk")):
            sh("ip", "netns", "exec", ns, "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % dev)
        sh("ip", "netns", "exec", self.k, "ethtool", "-K", "vk", "tx", "off",
           "tso", "off", "gso", "off")
        sh("ip", "-n", self.a, "link", "set", "vt0", "up")
        sh("ip", "-n", self.k, "link", "set", "vk", "up")
        sh("ip", "-n", self.k, "addr", "add", "198.19.0.100/15", "dev", "vk")
        self.mac = sh("ip", "netns", "exec", self.a, "cat",
                      "/sys/class/net/vt0/address").stdout.strip()

    def listener(self):
        """The tool listening on 198.19.0.1:5201 for one connection."""
        p, _, _ = self.nb.start(
            self.nb.eal(["--vdev", "net_af_packet0,iface=vt0" + RING],
                        workers=1),
            ["--rx-port", "0", "--tcp", "--json", "-P", "1"],
            name="spoofl", wrap=["ip", "netns", "exec", self.a])
        self.addCleanup(self.stop, p)
        return p

    def spoof(self, mode):
        return self.bg(self.k, [sys.executable, "-c", SPOOF, mode, self.mac,
                                HERE])

    def capture(self):
        """dumpcap on vk, headers only; returns (Popen, file) once it
        says it captures."""
        path = os.path.join(self.tmpdir, "vk.pcapng")
        p = self.bg(self.k, ["dumpcap", "-i", "vk", "-s", "160", "-B", "64",
                             "-w", path])
        r = nbe2e.LineReader(p.stderr)
        deadline = time.monotonic() + 20
        line = ""
        while "Capturing on" not in line and time.monotonic() < deadline:
            line = r.readline(max(0.1, deadline - time.monotonic()))
            if line in ("", None) and p.poll() is not None:
                self.fail("dumpcap ended")
            line = line or ""
        self.assertIn("Capturing on", line)
        return p, path

    def real_client(self, total):
        cli = self.bg(self.k, [sys.executable, PEER, "send", LISTENER,
                               "5201", str(total)])
        out, err = cli.communicate(timeout=60)
        self.assertEqual(out.split(), ["sent", str(total)], err)

    def listener_json(self, srv):
        sout, serr = srv.communicate(timeout=30)
        self.assertEqual(srv.returncode, 0, serr[-3000:])
        return nbe2e.loads(sout)

    def assert_only_real(self, d, total):
        nb = d["nbench"]
        self.assertNotIn("error", d)
        self.assertEqual(d["end"]["sum_received"]["bytes"], total)
        self.assertEqual(nb["bad_bytes"], 0)
        self.assertEqual(nb["connections_closed"], 1)
        conns = d["start"]["connected"]
        self.assertEqual([c["remote_host"] for c in conns], ["198.19.0.100"])
        self.assertEqual(len(d["end"]["streams"]), 1)

    def test_blind_spoof_refused(self):
        """The phantom's blind ACK (ack 1), 100,000 bytes and FIN are
        refused: nothing of them acknowledged (each answered with a RST
        whose seq is the guessed ack), no connection counted; the real
        client then takes the end over and its 4 MiB arrive exactly.  The
        SYN-ACKs on the wire carry ISNs that are not 0, one per
        connection, different."""
        total = 4 * MIB
        cap, path = self.capture()
        srv = self.listener()
        sp = self.spoof("blind")
        out, err = sp.communicate(timeout=60)
        self.assertEqual(sp.returncode, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split()[0], "synack", out + err)
        phantom_isn = int(lines[0].split()[1])
        self.assertEqual(lines[1], "done", out)
        back = json.loads(lines[2])
        # the listener acknowledged nothing the phantom sent: its only
        # answers are RSTs at the guessed ack (RFC 793), and SYN-ACKs
        for ack, flags in back:
            self.assertIn(flags, (0x04, 0x12), back)
        rsts = [a for a, f in back if f == 0x04]
        self.assertGreaterEqual(len(rsts), 1, back)
        self.real_client(total)
        d = self.listener_json(srv)
        self.assert_only_real(d, total)
        port = d["nbench"]["ports"][0]
        self.assertEqual(port["reclaimed"], 1)   # the phantom's end
        self.assertEqual(port["half_open_dropped"], 0)
        time.sleep(0.5)   # dumpcap writes what its buffer holds on SIGINT
        self.stop(cap, signal.SIGINT)
        rows = sh("tshark", "-r", path, "-n", "-T", "fields", "-e",
                  "tcp.seq_raw", "-e", "ip.dst", "-Y",
                  "tcp.flags.syn==1 && tcp.flags.ack==1",
                  timeout=120).stdout.split("\n")
        isns = {}
        for r in rows:
            if r.strip():
                seq, dst = r.split("\t")
                isns.setdefault(dst, set()).add(int(seq))
        self.assertEqual(set(isns), {PHANTOM, "198.19.0.100"}, isns)
        self.assertEqual(isns[PHANTOM], {phantom_isn})   # resent the same
        self.assertEqual(len(isns["198.19.0.100"]), 1)
        real_isn = isns["198.19.0.100"].pop()
        self.assertNotEqual(phantom_isn, 0)
        self.assertNotEqual(real_isn, 0)
        self.assertNotEqual(phantom_isn, real_isn)
        # the guess: the phantom's ack of 1 was wrong by the ISN
        self.assertNotEqual(phantom_isn + 1, 1)

    def test_half_open_freed_listener_waits(self):
        """A SYN that is never completed: SYN-ACKs at 0, 1, 3 and 7 s,
        then at 15 s the end is freed (a stray segment on the phantom's
        4-tuple gets a RST from then on), and the listener, still
        waiting, serves the real client: exit 0, one connection, the
        exact bytes, half_open_dropped 1, nothing reclaimed."""
        total = 2 * MIB
        srv = self.listener()
        sp = self.spoof("probe")
        out, err = sp.communicate(timeout=60)
        self.assertEqual(sp.returncode, 0, out + err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split()[0], "synack", out)
        self.assertNotEqual(int(lines[0].split()[1]), 0)
        _, secs, synacks = lines[1].split()
        self.assertGreaterEqual(float(secs), 14.5)
        self.assertLess(float(secs), 17.0)
        self.assertGreaterEqual(int(synacks), 4)   # 0, 1, 3, 7 s (and
        self.assertLessEqual(int(synacks), 6)      # one per SYN resent)
        self.assertIsNone(srv.poll())   # still waiting
        self.real_client(total)
        d = self.listener_json(srv)
        self.assert_only_real(d, total)
        port = d["nbench"]["ports"][0]
        self.assertEqual(port["reclaimed"], 0)
        self.assertEqual(port["half_open_dropped"], 1)
        self.assertGreaterEqual(port["stray"], 1)   # the probe's answer


if __name__ == "__main__":
    nbe2e.main()
