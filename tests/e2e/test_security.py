# SPDX-License-Identifier: BSD-3-Clause
"""The responder under attack (control protocol version 7), on a switch:

    nbNr  responder  (af_packet on vr, 198.19.0.1)  --+
    nbNc  client     (af_packet on vc, 198.18.0.1)  --+-- br0 in nbNs
    nbNa  attacker   (raw AF_PACKET socket on va)   --+
    nbNv  victim     (raw AF_PACKET socket on vv)   --+

The bridge behaves like a switch that cannot be fooled by forged source
MACs: every real MAC is a static entry on its own port, the attacker's port
does not learn, and no port gets unknown unicast.  So the attacker sees
only what is sent to it, and a frame it sends with another host's source
MAC still reaches its destination (the spoofing the tests are about).

The attacker and the victim are raw sockets of this process: a thread
enters the namespace (setns) just long enough to open its socket.  Control
messages are built and checked with nbctl.py, an implementation of the
wire format independent of the C code.  Rates stay low (<= 50 Mbit/s for
tests, a few thousand frames per second for floods): the host is shared
and nothing here measures throughput."""
import base64
import ctypes
import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import threading
import time

import nbctl
import nbe2e

# this suite tests the responder's own key and its postures: no suite key
nbe2e.AUTO_KEY = False

NS_ENDS = ("r", "c", "a", "v")
MACS = {e: "02:4e:42:5e:00:%02x" % (i + 1) for i, e in enumerate(NS_ENDS)}
IPS = {"r": "198.19.0.1", "c": "198.18.0.1", "a": "198.18.0.66",
       "v": "198.18.0.77"}
CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def sh(*args, check=True):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=30)


def socket_in(ns, iface):
    """A raw AF_PACKET socket on iface in network namespace ns, opened by
    a short-lived thread that enters ns (only that thread moves)."""
    res = {}

    def run():
        fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)
        try:
            if _libc.setns(fd, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns " + ns)
            res["s"] = nbctl.raw_socket(iface)
        except Exception as e:  # reported in the caller
            res["e"] = e
        finally:
            os.close(fd)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "e" in res:
        raise res["e"]
    return res["s"]


def arp_frame(src_mac, src_ip, dst_ip):
    """An ARP reply from src (a host re-announcing itself), broadcast."""
    return (b"\xff" * 6 + nbctl.mac_bytes(src_mac) + b"\x08\x06" +
            struct.pack("!HHBBH", 1, 0x0800, 6, 4, 2) +
            nbctl.mac_bytes(src_mac) + socket.inet_aton(src_ip) +
            b"\0" * 6 + socket.inet_aton(dst_ip) + b"\0" * 18)


def has_option(opt):
    """Does this dpdk-nbench know the option (its --help lists it)?"""
    r = subprocess.run([nbe2e.BIN, "--help"], capture_output=True, text=True,
                       timeout=30)
    return opt in r.stdout + r.stderr


class Proc:
    """A dpdk-nbench process whose stdout and stderr threads keep reading
    (a responder logging a flood must never block on a full pipe); lines
    can be waited for.  Killed by PID (its own process group) only."""

    def __init__(self, argv, name):
        self.argv = argv
        self.log = os.path.join(nbe2e.LOGDIR, nbe2e.unique(name) + ".log")
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  start_new_session=True)
        self.lines = {"out": [], "err": []}
        self.cond = threading.Condition()
        self.done = 0
        self.readers = [threading.Thread(target=self._read, args=(k, f),
                                         daemon=True)
                        for k, f in (("out", self.p.stdout),
                                     ("err", self.p.stderr))]
        for t in self.readers:
            t.start()
        self.rc = None
        self.elapsed = None

    def _read(self, key, f):
        for raw in iter(f.readline, b""):
            with self.cond:
                self.lines[key].append(raw.decode(errors="replace")
                                       .rstrip("\n"))
                self.cond.notify_all()
        f.close()
        with self.cond:
            self.done += 1
            self.cond.notify_all()

    @property
    def out(self):
        with self.cond:
            return "\n".join(self.lines["out"])

    @property
    def err(self):
        with self.cond:
            return "\n".join(self.lines["err"])

    def mark(self, key="err"):
        with self.cond:
            return len(self.lines[key])

    def wait_for(self, regex, key="err", timeout=15, start=0):
        """The first match of regex in lines[start:] of stdout or stderr
        (waiting up to timeout s); AssertionError if the process ends or
        the time runs out first."""
        rx = re.compile(regex)
        deadline = time.monotonic() + timeout
        i = start
        with self.cond:
            while True:
                ls = self.lines[key]
                while i < len(ls):
                    m = rx.search(ls[i])
                    if m:
                        return m
                    i += 1
                if self.done == 2:
                    raise AssertionError("%s: exited before /%s/ (log %s)"
                                         % (self.argv[4], regex,
                                            self.save()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no /%s/ within %s s (log %s)"
                                         % (regex, timeout, self.save()))
                self.cond.wait(left)

    def count(self, regex, key="err"):
        rx = re.compile(regex)
        with self.cond:
            return sum(1 for line in self.lines[key] if rx.search(line))

    def wait(self, timeout):
        """Exit status; a process still running after timeout s is killed
        and the test fails."""
        try:
            self.rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("timed out after %s s: %s (log %s)"
                                 % (timeout, " ".join(self.argv),
                                    self.save()))
        for t in self.readers:
            t.join(10)
        self.elapsed = time.monotonic() - self.t0
        self.save()
        return self.rc

    def running(self):
        return self.p.poll() is None

    def kill(self, sig=signal.SIGKILL):
        if self.p.poll() is None:
            os.killpg(self.p.pid, sig)   # our own process group only
        try:
            self.p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
        for t in self.readers:
            t.join(5)
        self.save()

    def save(self):
        with open(self.log, "w") as f:
            f.write("$ %s\nrc=%s\n--- stdout\n%s\n--- stderr\n%s\n"
                    % (" ".join(self.argv), self.p.poll(), self.out,
                       self.err))
        return self.log

    def json(self):
        try:
            return nbe2e.loads(self.out)
        except ValueError as e:
            raise AssertionError("stdout is not JSON (%s); log %s"
                                 % (e, self.save()))


# the flood tests' rate: five times the responder's budget of checked
# HELLOs a second (nb_responder.c's NB_HELLO_RATE_ALL, 10,000)
FLOOD_PPS = 50000


class Sender(threading.Thread):
    """Sends frames from a raw socket in the background at about `pps`
    frames per second, taking them from gen(i) (None: stop) until stopped;
    counts frames and bytes sent."""

    def __init__(self, sock, gen, pps):
        super().__init__(daemon=True)
        self.sock, self.gen, self.pps = sock, gen, pps
        self.stop_ev = threading.Event()
        self.frames = self.bytes = 0
        self.error = None

    def run(self):
        t0 = time.monotonic()
        i = 0
        try:
            while not self.stop_ev.is_set():
                # in bursts of up to 50: sleep until the next one is due
                due = t0 + i / self.pps
                now = time.monotonic()
                if due > now:
                    time.sleep(min(due - now, 0.05))
                    continue
                for _ in range(50):
                    f = self.gen(i)
                    if f is None:
                        return
                    try:
                        self.sock.send(f)
                    except OSError as e:
                        if e.errno != 105:   # ENOBUFS: a full queue, retry
                            raise
                        time.sleep(0.001)
                        continue
                    i += 1
                    self.frames += 1
                    self.bytes += len(f)
                    if t0 + i / self.pps > time.monotonic():
                        break
        except Exception as e:  # reported by finish()
            self.error = e

    def finish(self, timeout=30):
        self.stop_ev.set()
        self.join(timeout)
        if self.error:
            raise self.error
        return self.frames


class Capture(threading.Thread):
    """Counts what a raw socket receives (not what it sends) until
    stopped: every frame is kept when keep is true."""

    def __init__(self, sock, keep=True):
        super().__init__(daemon=True)
        self.sock, self.keep = sock, keep
        self.frames = []
        self.count = self.bytes = 0
        self.stop_ev = threading.Event()
        self.cond = threading.Condition()

    def run(self):
        while not self.stop_ev.is_set():
            try:
                f, addr = self.sock.recvfrom(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            with self.cond:
                self.count += 1
                self.bytes += len(f)
                if self.keep:
                    self.frames.append(f)
                self.cond.notify_all()

    def finish(self):
        self.stop_ev.set()
        self.join(5)

    def wait_for(self, pred, timeout):
        """The first kept frame pred(frame) likes, waiting up to timeout
        s (None if none)."""
        deadline = time.monotonic() + timeout
        i = 0
        with self.cond:
            while True:
                while i < len(self.frames):
                    if pred(self.frames[i]):
                        return self.frames[i]
                    i += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)


class Security(nbe2e.E2ECase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.p = "nb%d" % (os.getpid() % 100000)
        self.ns = {n: self.p + n for n in ("s",) + NS_ENDS}
        self.addCleanup(self.teardown_net)
        self.setup_net()
        self.procs = []
        self.own_keys = []
        self.resp_key = None
        self.addCleanup(self.kill_all)

    # --- the switch ----------------------------------------------------------

    def setup_net(self):
        s = self.ns["s"]
        for ns in self.ns.values():
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", s, "link", "add", "br0", "type", "bridge")
        sh("ip", "netns", "exec", s, "sysctl", "-qw",
           "net.ipv6.conf.br0.disable_ipv6=1")
        for end in NS_ENDS:
            a, b = "v" + end, "s" + end
            sh("ip", "-n", s, "link", "add", b, "type", "veth", "peer",
               "name", a, "netns", self.ns[end])
            for ns, dev in ((self.ns[end], a), (s, b)):
                sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                   "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            sh("ip", "-n", self.ns[end], "link", "set", a, "address",
               MACS[end])
            sh("ip", "-n", s, "link", "set", b, "master", "br0", "up")
            # a switch port: no unknown unicast; the attacker's port
            # learns nothing (forged source MACs move no entry)
            sh("ip", "netns", "exec", s, "bridge", "link", "set", "dev", b,
               "flood", "off", "learning",
               "off" if end == "a" else "on")
            sh("ip", "netns", "exec", s, "bridge", "fdb", "add", MACS[end],
               "dev", b, "master", "static")
            sh("ip", "-n", self.ns[end], "link", "set", a, "up")
        sh("ip", "-n", s, "link", "set", "br0", "up")
        for end in NS_ENDS:
            self.wait_carrier(end)

    def wait_carrier(self, end):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            st = sh("ip", "-n", self.ns[end], "-o", "link", "show", "dev",
                    "v" + end).stdout
            if " state UP " in st:
                return
            time.sleep(0.05)
        self.fail("v%s did not come up" % end)

    def teardown_net(self):
        for ns in self.ns.values():
            sh("ip", "netns", "del", ns, check=False)

    def sock(self, end):
        s = socket_in(self.ns[end], "v" + end)
        self.addCleanup(s.close)
        return s

    # --- processes -----------------------------------------------------------

    def kill_all(self):
        for p in self.procs:
            p.kill()
        for path in self.own_keys:
            if os.path.exists(path):
                os.unlink(path)

    def nbench(self, end, cpu, tool, name=None, debug=False, key=True):
        eal = ["--no-pci", "--lcores", "0@%d,1@%d,2@%d" % (cpu, cpu, cpu),
               "--file-prefix", nbe2e.unique(end), "--log-level",
               "lib.eal:error", "--vdev",
               "net_af_packet0,iface=v%s,qpairs=2" % end]
        if debug:
            eal += ["--log-level", "nbench:debug"]
        if (key and end != "r" and "--peer" in tool and
                "--auth-key" not in tool and self.resp_key and
                "--reflector" not in tool):
            tool = list(tool) + ["--auth-key", self.resp_key]
        argv = ["ip", "netns", "exec", self.ns[end], nbe2e.BIN] + eal + \
            ["--"] + tool
        p = Proc(argv, name or end)
        self.procs.append(p)
        return p

    def responder(self, extra=(), debug=False):
        """A responder; by default keyed with a key of its own (its path
        in self.resp_key, which the clients of self.client get), with
        --auth-key FILE that key, with --no-auth none."""
        r = self.nbench("r", 0, list(extra), "resp", debug)
        r.wait_for(r"responder on port 0", key="out", timeout=30)
        if "--no-auth" in extra:
            self.resp_key = None
            r.wait_for(r"--no-auth: any host", key="out")
        else:
            m = r.wait_for(r"key (\S+) \(fingerprint ([0-9a-f:]{23})\)",
                           key="out")
            self.resp_key = m.group(1)
            if "--auth-key" not in extra:
                # the responder removes it at exit; not when killed
                self.own_keys.append(self.resp_key)
            if "--auth-key" in extra:
                self.assertEqual(self.resp_key,
                                 extra[list(extra).index("--auth-key") + 1])
        return r

    def psk(self):
        """The responder's key as the PSK bytes (None without one)."""
        if not self.resp_key:
            return None
        with open(self.resp_key, "rb") as f:
            return f.read().rstrip(b"\r\n")

    def client(self, extra, time_s, rate="20M", streams=1, size=512,
               name="client", debug=False, key=True):
        tool = ["--peer", MACS["r"], "--rate", rate, "--size", str(size),
                "--time", str(time_s), "--streams", str(streams),
                "--json"] + list(extra)
        return self.nbench("c", 1, tool, name, debug, key)

    def opened(self, resp, start=0, timeout=30):
        """The next "session ... opened" of the responder's log: (session
        id, client MAC, client IP)."""
        m = resp.wait_for(r"session ([0-9a-f]{8}) opened: client "
                          r"([0-9a-f:]{17}) \(([0-9.]+)\)", start=start,
                          timeout=timeout)
        return int(m.group(1), 16), m.group(2), m.group(3)

    def check_exact(self, c, streams, timeout=60):
        """The client exited 0, and for every stream the responder's
        receiver counted exactly what the client's sender sent: nothing
        lost, duplicated or reordered.  Returns the JSON end section."""
        rc = c.wait(timeout)
        self.assertEqual(rc, 0, "client failed (log %s):\n%s"
                         % (c.log, c.err[-3000:]))
        end = c.json()["end"]
        self.assertEqual(len(end["streams"]), streams, c.log)
        sent = end["sum_sent"]["packets"]
        self.assertGreater(sent, 0, c.log)
        self.assertEqual(end["sum_received"]["packets"], sent, c.log)
        self.assertEqual(end["sum_received"]["lost_packets"], 0, c.log)
        for s in end["streams"]:
            rx, tx = s["receiver"], s["sender"]
            self.assertGreater(tx["packets"], 0, c.log)
            self.assertEqual(rx["packets"], tx["packets"], (s, c.log))
            self.assertEqual(rx["lost_packets"], 0, (s, c.log))
            self.assertEqual(rx.get("duplicates", 0), 0, (s, c.log))
            self.assertEqual(rx.get("out_of_order", 0), 0, (s, c.log))
        return end

    def stop_responder(self, resp):
        """SIGINT; it exits 0 and says what it refused or ignored, by
        cause: {cause name: count} (app/core/nb_policy.c's names)."""
        self.assertAlive(resp)
        os.killpg(resp.p.pid, signal.SIGINT)
        self.assertEqual(resp.wait(30), 0, resp.log)
        m = re.search(r"refused or ignored: (.*)$", resp.err, re.M)
        got = {}
        for part in (m.group(1).split(", ") if m else ()):
            name, n = part.rsplit(" ", 1)
            got[name] = int(n)
        return got

    def assertAlive(self, resp):
        self.assertTrue(resp.running(), "responder died (log %s)"
                        % resp.save())

    # --- the attacker's own handshake ----------------------------------------

    def handshake(self, sock, cap, session, cn=None, psk=None, mac=None,
                  ip=None, timeout=5):
        """HELLO from the attacker's socket (its own MAC/IP unless told),
        the WELCOME it gets (checked under the key derived in Python):
        (cookie, responder seq0, K)."""
        cn = cn or nbctl.nonce()
        mac, ip = mac or MACS["a"], ip or IPS["a"]
        hello = nbctl.encode(nbctl.HELLO, session, 1, nbctl.conf(
            cn, mac=nbctl.mac_bytes(mac), ipv4=nbctl.ip_int(ip),
            flags=nbctl.CONF_F_KEY if psk else 0),
            auth=nbctl.hello_auth(psk, cn, session))
        frame = nbctl.ctl_frame(MACS["r"], mac, ip, IPS["r"], hello)

        def welcome(f):
            u = nbctl.parse_udp(f)
            if not u.ok or u.sport != nbctl.CONTROL_PORT:
                return False
            m = nbctl.decode(u.payload)
            return m.type == nbctl.WELCOME and m.session == session

        for _ in range(10):
            sock.send(frame)
            f = cap.wait_for(welcome, 0.5)
            if f is not None:
                break
        self.assertIsNotNone(f, "no WELCOME for session %08x" % session)
        m = nbctl.decode(nbctl.parse_udp(f).payload)
        self.assertTrue(m.tagged)
        cookie = nbctl.parse_conf(m.body)["nonce"]
        key = nbctl.session_key(psk, cn, cookie, session)
        self.assertTrue(m.verify(key, cn, cookie),
                        "the WELCOME's tag does not check under K")
        return cn, cookie, m.seq, key

    # --- 1 -------------------------------------------------------------------

    def test_forged_source_hello_params(self):
        """HELLOs and PARAMS (asking for a reverse test at 10 Gbit/s) with
        the victim's MAC and IPv4 as their source: the victim gets no data
        frame, at most one control frame per HELLO and no more bytes than
        1.1 x what the attacker sent; the responder opens no session and
        then serves a real client."""
        resp = self.responder(["--no-auth"])
        victim = Capture(self.sock("v"))
        victim.start()
        atk = self.sock("a")
        vmac, vip = MACS["v"], IPS["v"]
        rnd = random.Random(1)
        n_hello = 300
        msgs = []
        for i in range(n_hello):
            s = rnd.getrandbits(32) | 1
            cn = nbctl.nonce()
            msgs.append(nbctl.encode(nbctl.HELLO, s, 1, nbctl.conf(
                cn, mac=nbctl.mac_bytes(vmac), ipv4=nbctl.ip_int(vip)),
                auth=nbctl.hello_auth(None, cn, s)))
            # the PARAMS a forger would send next: the cookie is a guess
            body = nbctl.params(cn, os.urandom(16),
                                direction=nbctl.DIR_REVERSE, streams=4,
                                sizes=(1518,), rate_num=812743,
                                duration_ms=30000,
                                client_ip=nbctl.ip_int(vip),
                                responder_ip=nbctl.ip_int(IPS["r"]),
                                client_mac=nbctl.mac_bytes(vmac),
                                responder_mac=nbctl.mac_bytes(MACS["r"]))
            msgs.append(nbctl.encode(nbctl.PARAMS, s, 2, body,
                                     tag_bytes=os.urandom(16)))
            msgs.append(nbctl.encode(nbctl.PARAMS, s, 2, body))
        frames = [nbctl.ctl_frame(MACS["r"], vmac, vip, IPS["r"], m)
                  for m in msgs]
        t0 = time.monotonic()
        snd = Sender(atk, lambda i: frames[i] if i < len(frames) else None,
                     pps=1500)
        snd.start()
        snd.join(30)
        sent = snd.finish()
        self.assertEqual(sent, len(frames))
        sent_bytes = snd.bytes
        # the responder handles its frames in order: once the attacker's
        # own HELLO, sent last, is answered, every forged frame has been
        # (the 0.2 s are for its answers still on their way to the victim)
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        self.handshake(atk, cap, 0x5eed0001)
        time.sleep(0.2)
        victim.finish()
        self.assertAlive(resp)
        self.assertEqual(resp.count(r"opened"), 0, resp.save())

        to_victim = [f for f in victim.frames if f[0:6] ==
                     nbctl.mac_bytes(vmac)]
        data = ctl = 0
        for f in victim.frames:
            u = nbctl.parse_udp(f)
            if not u.ok:
                continue
            if u.dport == nbctl.DPORT or u.sport >= nbctl.SPORT_BASE:
                data += 1
            if u.sport == nbctl.CONTROL_PORT:
                ctl += 1
                m = nbctl.decode(u.payload)
                self.assertIn(m.type, (nbctl.WELCOME, nbctl.BUSY,
                                       nbctl.REJECT, nbctl.ERROR), m)
        got = sum(len(f) for f in to_victim)
        print("\n  forged: %d HELLO + %d PARAMS (%d B); victim got %d "
              "frames (%d control, %d B)"
              % (n_hello, 2 * n_hello, sent_bytes, len(victim.frames), ctl,
                 got))
        self.assertEqual(data, 0, "data frames reached the victim")
        self.assertLessEqual(ctl, n_hello)
        # never more bytes to the forged address than were sent
        self.assertLessEqual(got, sent_bytes)
        # one source: at most 10 HELLOs a second (burst 10) are answered
        took = time.monotonic() - t0
        self.assertLessEqual(ctl, 10 + 10 * took, "%.1f s" % took)

        # and a real client is served normally
        c = self.client([], 1)
        self.opened(resp)
        self.check_exact(c, 1)
        # each tagged PARAMS was limited (20 a second from one source,
        # before any HMAC) or read and failed on its cookie (the untagged
        # ones open nothing and are dropped unread)
        got = self.stop_responder(resp)
        self.assertGreater(got.get("bad or stale cookie", 0), 0, resp.log)
        self.assertGreaterEqual(got.get("bad or stale cookie", 0) +
                                got.get("rate-limited", 0), n_hello,
                                resp.log)

    # --- 2 -------------------------------------------------------------------

    def forgeries(self, session, seq_lo, nseq, rnd):
        """Messages of session `session` an attacker without the key can
        make, each over nseq sequence numbers from seq_lo: untagged and
        with a random tag."""
        kinds = [
            (nbctl.DONE, nbctl.done()),
            (nbctl.STOP, b""),
            # an echo with zero delay: a clock sample if it were taken
            (nbctl.KEEPALIVE, nbctl.keepalive(123456789, 987654321, 0)),
            (nbctl.ERROR, nbctl.error(nbctl.CODE_INTERNAL, "forged error")),
            (nbctl.RESULTS, nbctl.results(b"\0" * 40)),
            (nbctl.PARAMS, nbctl.params(nbctl.nonce(), nbctl.nonce(),
                                        direction=nbctl.DIR_REVERSE,
                                        rate_num=100000)),
            (nbctl.QUIT, nbctl.quit_body(nbctl.nonce(), nbctl.nonce())),
        ]
        for k in range(nseq):
            seq = (seq_lo + k) & 0xffffffff or 1
            for t, body in kinds:
                yield nbctl.encode(t, session, seq, body)
                yield nbctl.encode(t, session, seq, body,
                                   tag_bytes=rnd.randbytes(16))

    def test_hijack_attempts(self):
        """With the real session id (from the responder's log) and the
        client's sequence numbers (its debug log), DONE, STOP, KEEPALIVE,
        ERROR, RESULTS, PARAMS and QUIT, untagged and with random tags,
        over 2000 sequence numbers: from the attacker's own address, and
        spoofing the client toward the responder and the responder toward
        the client.  The test ends normally with exact counts and the
        responder logs no early end."""
        # the sanitizer build's control lcores decode at about half the
        # speed: the attack goes at half the rate over a longer test, so
        # both builds prove the same decoding
        pps = 7000 if nbe2e.SANITIZED else 15000
        secs = 13 if nbe2e.SANITIZED else 7
        resp = self.responder(debug=True)
        atk = self.sock("a")
        c = self.client([], secs, rate="50M", streams=2, debug=True)
        session, cmac, cip = self.opened(resp)
        self.assertEqual((cmac, cip), (MACS["c"], IPS["c"]))
        # the client's latest sequence number, as the responder logged it
        m = resp.wait_for(r"ctl responder rx \w+ session %08x seq (\d+)"
                          % session)
        cseq = int(m.group(1))
        # and the responder's, as the client logged it
        m = c.wait_for(r"ctl client rx \w+ session %08x seq (\d+)"
                       % session)
        rseq = int(m.group(1))
        # a stranger's HELLO meanwhile gets REJECT code 11 (it is not told
        # the responder is busy); a key holder's gets BUSY, which names
        # the asker's session, not the one that holds the responder
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        for psk in (None, self.psk()):
            mine = session ^ (0x5a5a0000 if psk is None else 0x3c3c0000)
            cn = nbctl.nonce()
            hello = nbctl.encode(nbctl.HELLO, mine, 1, nbctl.conf(
                cn, flags=nbctl.CONF_F_KEY if psk else 0),
                auth=nbctl.hello_auth(psk, cn, mine))
            atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"],
                                     IPS["r"], hello))
            b = self.wait_reply(cap, mine, (nbctl.BUSY, nbctl.WELCOME,
                                            nbctl.REJECT))
            self.assertIsNotNone(b, "no answer to a HELLO")
            self.assertNotIn(b"%08x" % session, b.raw.lower())
            self.assertNotIn(struct.pack("!I", session), b.raw)
            self.assertLessEqual(len(b.raw), len(hello))
            if psk is None:
                self.assertEqual(b.type, nbctl.REJECT, b)
                self.assertEqual(b.code_reason()[0], nbctl.CODE_AUTH)
                continue
            self.assertEqual(b.type, nbctl.BUSY, b)
            asked, = struct.unpack_from("!I", b.body)
            self.assertEqual(asked, mine)
        rnd = random.Random(session)
        nseq = 2000
        lo_c, lo_r = max(1, cseq - 100), max(1, rseq - 100)
        plans = [
            # (a) the attacker's own MAC and IP, toward both ends
            (MACS["r"], MACS["a"], IPS["a"], IPS["r"], lo_c, 200),
            (MACS["c"], MACS["a"], IPS["a"], IPS["c"], lo_r, 200),
            # (b) the client's MAC+IP toward the responder, the
            # responder's toward the client
            (MACS["r"], MACS["c"], IPS["c"], IPS["r"], lo_c, nseq),
            (MACS["c"], MACS["r"], IPS["r"], IPS["c"], lo_r, nseq),
        ]

        def gen():
            its = [(dmac, smac, sip, dip, self.forgeries(session, lo, n, rnd))
                   for dmac, smac, sip, dip, lo, n in plans]
            while its:
                for it in list(its):
                    dmac, smac, sip, dip, msgs = it
                    m = next(msgs, None)
                    if m is None:
                        its.remove(it)
                        continue
                    yield nbctl.ctl_frame(dmac, smac, sip, dip, m)

        g = gen()
        total = 2 * 7 * (2 * 200 + 2 * nseq)
        t0 = time.monotonic()
        snd = Sender(atk, lambda i: next(g, None), pps=pps)
        snd.start()
        snd.join(total / pps * 3 + 20)
        sent = snd.finish()
        self.assertEqual(sent, total)
        took = time.monotonic() - t0
        # all of it within the test, or it proves less
        self.assertTrue(c.running(), "the test ended before the attack "
                        "did (%.1f s; log %s)" % (took, c.save()))
        end = self.check_exact(c, 2)
        print("\n  %d forged control messages of session %08x in %.1f s "
              "(client seq %d, responder seq %d)"
              % (sent, session, took, cseq, rseq))
        resp.wait_for(r"session %08x ended: done" % session)
        self.assertEqual(resp.count(r"session %08x ended" % session), 1,
                         resp.save())
        self.assertEqual(resp.count(r"session [0-9a-f]{8} opened"), 1)
        self.assertNotIn("the responder ended the test", c.err)
        # the forgeries arrived and decoded (so they were refused for
        # their address or tag, not for their form): the types a real
        # peer does not send in a good test, as each end logged them
        per_type = 2 * (200 + nseq)
        got_r = resp.count(r"ctl responder rx (ERROR|QUIT|RESULTS) session "
                           r"%08x seq \d+ ret 0" % session)
        got_c = c.count(r"ctl client rx (DONE|STOP|ERROR|PARAMS|QUIT) "
                        r"session %08x seq \d+ ret 0" % session)
        got = self.stop_responder(resp)
        bad_tag = got.get("bad tag", 0)
        foreign = got.get("not the session's client", 0)
        # a control lcore that falls behind the flood (a loaded 2-CPU host,
        # the ASan build, its own debug log) drops what its hand-off rings
        # cannot hold, and says how many: those were never decoded
        m = re.search(r"(\d+) control, ARP or ICMP frames dropped", resp.err)
        lost = int(m.group(1)) if m else 0
        print("  decoded: %d at the responder (of %d), %d at the client (of "
              "%d); the responder counted %d bad tags, %d foreign, dropped "
              "%d with its hand-off rings full"
              % (got_r, 3 * per_type, got_c, 5 * per_type, bad_tag,
                 foreign, lost))
        self.assertLessEqual(lost, total // 20, "more than 5 %% dropped")
        self.assertLessEqual(got_r, 3 * per_type)
        self.assertGreaterEqual(got_r, 3 * per_type - lost)
        m = re.search(r"(\d+) control, ARP or ICMP frames dropped", c.err)
        lost_c = int(m.group(1)) if m else 0
        self.assertLessEqual(lost_c, total // 20)
        self.assertLessEqual(got_c, 5 * per_type)
        self.assertGreaterEqual(got_c, 5 * per_type - lost_c)
        # toward the responder: 7 types x 2 variants x 200 from the
        # attacker's address and the untagged 7 x 2000 from the client's
        # are foreign; the tagged ones from the client's address (7 x
        # 2000) have a bad tag.  What was dropped unread is neither.
        want_foreign = 7 * 2 * 200 + 7 * nseq
        self.assertLessEqual(foreign, want_foreign)
        self.assertGreaterEqual(foreign, want_foreign - lost)
        self.assertLessEqual(bad_tag, 7 * nseq)
        self.assertGreaterEqual(bad_tag, 7 * nseq - lost)

    # --- 3 -------------------------------------------------------------------

    def wait_reply(self, cap, session, types, timeout=5):
        """The first control message of `session` and one of `types` the
        capture holds (waiting up to timeout s), decoded; None if none."""
        def want(f):
            u = nbctl.parse_udp(f)
            if not u.ok or u.sport != nbctl.CONTROL_PORT:
                return False
            try:
                m = nbctl.decode(u.payload)
            except ValueError:
                return False
            return m.session == session and m.type in types

        f = cap.wait_for(want, timeout)
        return nbctl.decode(nbctl.parse_udp(f).payload) if f else None

    def test_quit_refused(self):
        """A --no-auth responder without --allow-quit: a real client's
        --quit exits 1 with "QUIT refused"; the attacker's own HELLO ->
        WELCOME -> QUIT, with a valid cookie and a valid tag (no-key K
        computed here), gets a tagged REJECT code 10 (refused by policy);
        so does a QUIT inside a session the attacker opened with a valid
        PARAMS (the responder's ACCEPT came first): the session goes on
        (it ends when the attacker falls silent) and the responder then
        serves a test."""
        resp = self.responder(["--no-auth"])
        q = self.nbench("c", 1, ["--peer", MACS["r"], "--quit"], "quit")
        self.assertEqual(q.wait(60), 1, q.log)
        self.assertIn("QUIT refused", q.err)
        self.assertAlive(resp)

        atk = self.sock("a")
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        session = random.getrandbits(32) | 1
        cn, cookie, seq0, key = self.handshake(atk, cap, session)
        quit = nbctl.encode(nbctl.QUIT, session, 2,
                            nbctl.quit_body(cn, cookie),
                            auth=(key, cn, cookie))
        atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"], IPS["r"],
                                 quit))
        m = self.wait_reply(cap, session, (nbctl.REJECT, nbctl.ACK,
                                           nbctl.ERROR))
        self.assertIsNotNone(m, "no answer to the QUIT")
        self.assertEqual(m.type, nbctl.REJECT, m)
        code, reason = m.code_reason()
        self.assertEqual(code, nbctl.CODE_POLICY, reason)
        self.assertIn("QUIT refused", reason)
        self.assertEqual(m.seq, (seq0 + 1) & 0xffffffff or 1)
        self.assertTrue(m.verify(key, cn, cookie), "REJECT's tag")
        self.assertAlive(resp)
        self.assertEqual(resp.count(r"opened"), 0, resp.save())

        # a session of the attacker's own, then QUIT inside it
        session += 2
        cn, cookie, seq0, key = self.handshake(atk, cap, session)
        body = nbctl.params(cn, cookie, streams=1, sizes=(512,),
                            rate_num=1000, duration_ms=1000,
                            client_ip=nbctl.ip_int(IPS["a"]),
                            responder_ip=nbctl.ip_int(IPS["r"]),
                            client_mac=nbctl.mac_bytes(MACS["a"]),
                            responder_mac=nbctl.mac_bytes(MACS["r"]))
        atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"], IPS["r"],
                                 nbctl.encode(nbctl.PARAMS, session, 2, body,
                                              auth=(key, cn, cookie))))
        m = self.wait_reply(cap, session, (nbctl.ACCEPT, nbctl.REJECT), 10)
        self.assertIsNotNone(m, "no ACCEPT for the attacker's PARAMS")
        self.assertEqual(m.type, nbctl.ACCEPT, m)
        self.opened(resp)
        quit = nbctl.encode(nbctl.QUIT, session, 3,
                            nbctl.quit_body(cn, cookie),
                            auth=(key, cn, cookie))
        atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"], IPS["r"],
                                 quit))
        m = self.wait_reply(cap, session, (nbctl.REJECT,))
        self.assertIsNotNone(m, "no REJECT of the in-session QUIT")
        self.assertIn("QUIT refused", m.code_reason()[1])
        self.assertTrue(m.verify(key, cn, cookie), "REJECT's tag")
        resp.wait_for(r"session %08x ended: the client vanished" % session)
        self.assertNotIn("asked us to quit", resp.err)
        self.assertAlive(resp)
        # the client's and the attacker's two (more if a REJECT was lost
        # and a QUIT retransmitted), at most one line a second
        self.assertGreaterEqual(resp.count(r"QUIT refused"), 1, resp.save())

        c = self.client([], 1)
        self.opened(resp)
        self.check_exact(c, 1)
        got = self.stop_responder(resp)
        self.assertGreaterEqual(got.get("QUIT refused", 0), 3, resp.log)

    def test_quit_allowed(self):
        """With --allow-quit a client's --quit ends the responder (both
        exit 0)."""
        if not has_option("--allow-quit"):
            self.skipTest("this dpdk-nbench does not take --allow-quit yet")
        resp = self.responder(["--allow-quit"])
        q = self.nbench("c", 1, ["--peer", MACS["r"], "--quit"], "quit")
        self.assertEqual(q.wait(60), 0, q.log)
        self.assertEqual(resp.wait(30), 0, resp.log)
        self.assertIn("the client asked us to quit", resp.err)

    # --- 4 -------------------------------------------------------------------

    def test_hello_flood(self):
        """While the attacker floods HELLOs (from its own MAC with ever new
        session ids, and from random forged MACs and IPv4s, 3000 a second
        in all) a client started during the flood completes its test with
        exact counts, no later than an undisturbed client's run plus one
        --peer-timeout; the attacker's own MAC gets at most 10 answers a
        second."""
        resp = self.responder()
        tool = ["--peer-timeout", "2"]
        base = self.client(tool, 2, name="base")
        self.check_exact(base, 1)

        atk = self.sock("a")
        cap = Capture(atk, keep=False)
        cap.start()
        self.addCleanup(cap.finish)
        rnd = random.Random(4)

        def hello(i):
            if i % 2:
                mac = bytes([rnd.getrandbits(8) & 0xfc | 2]) + \
                    rnd.randbytes(5)
                ip = bytes([10]) + rnd.randbytes(3)
            else:
                mac, ip = nbctl.mac_bytes(MACS["a"]), IPS["a"]
            cn, sess = rnd.randbytes(16), rnd.getrandbits(32) | 1
            msg = nbctl.encode(nbctl.HELLO, sess, 1, nbctl.conf(cn),
                               auth=nbctl.hello_auth(None, cn, sess))
            return nbctl.ctl_frame(MACS["r"], mac, ip, IPS["r"], msg)

        pps = 3000
        snd = Sender(atk, hello, pps=pps)
        t0 = time.monotonic()
        snd.start()
        self.addCleanup(snd.finish)
        while snd.frames < pps // 2:
            self.assertTrue(snd.is_alive(), snd.error)
            self.assertLess(time.monotonic() - t0, 10)
            time.sleep(0.05)
        c = self.client(tool, 2, name="flooded")
        self.check_exact(c, 1)
        self.assertTrue(snd.is_alive(), "the flood stopped early")
        sent = snd.finish()
        took = time.monotonic() - t0
        rate = sent / took
        print("\n  client: %.2f s undisturbed, %.2f s under a flood of %d "
              "HELLOs (%.0f/s); %d answers to the attacker's own MAC"
              % (base.elapsed, c.elapsed, sent, rate, cap.count))
        self.assertGreater(rate, pps * 0.7, "the flood was too thin")
        self.assertLessEqual(c.elapsed, base.elapsed + 2.0)
        cap.finish()
        self.assertLessEqual(cap.count, 10 + 10 * (took + 1))
        # the attacker's own HELLOs beyond its 10 a second were limited
        got = self.stop_responder(resp)
        self.assertGreaterEqual(got.get("rate-limited", 0),
                                sent // 2 - cap.count, resp.log)

    # --- 5 -------------------------------------------------------------------

    def inject(self, sock, frames, pps, client):
        """Send every frame from sock at about pps while the client's test
        runs (it must still run at the end); the count sent."""
        snd = Sender(sock, lambda i: frames[i] if i < len(frames) else None,
                     pps=pps)
        snd.start()
        snd.join(20)
        sent = snd.finish()
        self.assertEqual(sent, len(frames))
        self.assertTrue(client.running(), "the test ended before the "
                        "injection did (log %s)" % client.save())
        return sent

    def test_forged_data(self):
        """During a real test (2 streams, latency probes on) the attacker
        sends data frames built like the tool's, from its own MAC with the
        client's IPv4, with the sequence numbers the streams use and far
        beyond, plus warm-up and probe frames: the responder's receiver
        counts stay exact (received == sent, no duplicate, nothing out of
        order or of a bad stream), every forged frame is counted foreign,
        and no probe is reflected to the attacker."""
        resp = self.responder(debug=True)
        atk = self.sock("a")
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        c = self.client(["--latency-rate", "100"], 4, streams=2)
        session, _, _ = self.opened(resp)
        # the receivers poll once the test is set up (ACCEPT), and START
        # follows: inject from there
        resp.wait_for(r"ctl responder rx START session %08x" % session)
        rnd = random.Random(5)
        frames = []
        for i in range(2400):
            stream = i % 3      # 2 is no stream of this test
            seq = i // 3 if i % 2 else rnd.choice(
                (rnd.randrange(10000), rnd.randrange(1 << 47)))
            kind = i % 8
            args = (MACS["r"], MACS["a"], IPS["c"], IPS["r"], stream, seq,
                    rnd.getrandbits(48))
            if kind == 6:
                frames.append(nbctl.data_frame(*args, size=512,
                                               magic=nbctl.WARMUP_MAGIC))
            elif kind == 7:
                frames.append(nbctl.data_frame(*args, size=64,
                                               magic=nbctl.PROBE_MAGIC))
            else:
                frames.append(nbctl.data_frame(*args, size=512))
        sent = self.inject(atk, frames, 1500, c)
        end = self.check_exact(c, 2)
        rpmd = [p for p in end["ports"] if p.get("role") == "peer"]
        missed = rpmd[0]["pmd"]["imissed"] if rpmd else 0
        print("\n  %d forged data/warm-up/probe frames; rx_foreign %d, "
              "responder imissed %d" % (sent, end["rx_foreign"], missed))
        self.assertGreaterEqual(end["rx_foreign"], sent - missed)
        self.assertEqual(end["rx_bad_stream"], 0)
        self.assertEqual(end["rx_omitted_packets"], 0)
        # the client's own probes were reflected, the attacker's not
        self.assertGreater(end["rtt"]["probes_returned"], 0, c.log)
        cap.finish()
        refl = [f for f in cap.frames if nbctl.parse_udp(f).ok and
                nbctl.parse_udp(f).dport >= nbctl.SPORT_BASE]
        self.assertEqual(refl, [], "probes reflected to the attacker")
        self.assertAlive(resp)

    def test_forged_tcp(self):
        """During a closed-loop TCP test (--tcp) the attacker opens
        connections of its own to the responder's port 5201 (SYNs from its
        address: each answered by a RST, never a SYN-ACK), and sends
        segments with the client's IPv4 address and ports from its own MAC
        (data, RSTs and FINs at sequence numbers all over): none reaches
        the connection (counted foreign), which delivers every byte, each
        checked, and closes cleanly."""
        resp = self.responder(debug=True)
        atk = self.sock("a")
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        # the responder's switch port: its SYN-ACKs to the client
        rport = socket_in(self.ns["s"], "sr")
        self.addCleanup(rport.close)
        rcap = Capture(rport)
        rcap.start()
        self.addCleanup(rcap.finish)
        c = self.nbench("c", 1, ["--peer", MACS["r"], "--tcp", "--time", "4",
                                 "--json"], "client")
        session, _, _ = self.opened(resp)
        resp.wait_for(r"ctl responder rx START session %08x" % session)
        rnd = random.Random(11)
        frames = []
        for i in range(1500):
            if i % 3 == 0:  # a connection of the attacker's own
                frames.append(nbctl.tcp_frame(
                    MACS["r"], MACS["a"], IPS["a"], IPS["r"], 40000 + i,
                    5201, rnd.getrandbits(32), 0, nbctl.TCP_SYN))
                continue
            flags = (nbctl.TCP_ACK | nbctl.TCP_PSH, nbctl.TCP_RST,
                     nbctl.TCP_FIN | nbctl.TCP_ACK)[i % 3 - 1 + (i % 2)]
            frames.append(nbctl.tcp_frame(
                MACS["r"], MACS["a"], IPS["c"], IPS["r"], 49152, 5201,
                rnd.getrandbits(32), rnd.getrandbits(32), flags,
                payload=b"\xa5" * (100 if flags & nbctl.TCP_PSH else 0)))
        sent = self.inject(atk, frames, 1000, c)
        rc = c.wait(60)
        self.assertEqual(rc, 0, "client failed (log %s):\n%s"
                         % (c.log, c.err[-3000:]))
        d = c.json()
        nb, e = d["nbench"], d["end"]
        self.assertEqual(nb["connections_closed"], 1, c.log)
        self.assertEqual(nb["bad_bytes"], 0, c.log)
        self.assertEqual(nb["payload"], "checked", c.log)
        self.assertGreater(e["sum_sent"]["bytes"], 0)
        self.assertEqual(e["sum_received"]["bytes"], e["sum_sent"]["bytes"])
        rsp = nb["responder"]
        missed = rsp["pmd"]["imissed"]
        syns, forged = len(frames[::3]), len(frames) - len(frames[::3])
        print("\n  %d SYNs of the attacker's, %d forged segments; "
              "responder stray %d, foreign %d, imissed %d"
              % (syns, forged, rsp["stray"], rsp["foreign"], missed))
        self.assertGreaterEqual(rsp["stray"], syns - missed)
        self.assertGreaterEqual(rsp["foreign"], forged - missed)
        cap.finish()
        seen = [nbctl.parse_tcp(f) for f in cap.frames]
        to_atk = [t for t in seen if t and t[1] == IPS["a"]]
        self.assertEqual([t for t in to_atk if t[4] & nbctl.TCP_SYN], [],
                         "a SYN-ACK went to the attacker")
        # RSTs are best effort (none waits for a full TX queue): most of
        # the SYNs get theirs
        rsts = len([t for t in to_atk if t[4] & nbctl.TCP_RST])
        self.assertGreater(rsts, syns // 2)
        self.assertLessEqual(rsts, syns)
        self.assertLessEqual(rsp["stray"], syns)
        # no segment of the client's connection went to the attacker
        self.assertEqual([t for t in seen if t and t[1] == IPS["c"]], [])
        self.assertAlive(resp)
        # the responder's end took an RFC 6528 ISN, not 0 (a blind
        # spoofer's guess): its SYN-ACK's sequence number
        rcap.finish()
        isns = {struct.unpack_from("!I", f, 14 + (f[14] & 15) * 4 + 4)[0]
                for f in rcap.frames
                if nbctl.parse_tcp(f) and f[6:12] == nbctl.mac_bytes(MACS["r"])
                and nbctl.parse_tcp(f)[4] & 0x12 == 0x12}
        print("  the responder's SYN-ACK ISNs: %s"
              % ", ".join("%08x" % i for i in sorted(isns)))
        self.assertGreater(len(isns), 0, "no SYN-ACK of the responder's")
        self.assertNotIn(0, isns)

    # --- 6 -------------------------------------------------------------------

    def key_file(self, name, raw=None, mode=0o600):
        path = os.path.join(self.tmpdir, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        os.write(fd, raw if raw is not None
                 else base64.b64encode(os.urandom(32)) + b"\n")
        os.close(fd)
        os.chmod(path, mode)
        return path

    def test_auth_key(self):
        """A responder with --auth-key K1 refuses a client without a key
        (exit 1, the message says how to get one) and one with K2 ("wrong
        key"); an attacker's HELLO without the key flag, and one with the
        flag but no key, each get REJECT code 11 and no WELCOME (nothing
        of the responder's description); a client with K1 runs a test with
        exact counts; its --quit is refused without --allow-quit.  A
        --no-auth responder refuses a client with a key.  Key files open
        to group or others, or shorter than 32 bytes, are refused (exit
        2)."""
        k1, k2 = self.key_file("k1"), self.key_file("k2")
        resp = self.responder(["--auth-key", k1])

        c = self.client([], 1, name="nokey", key=False)
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("serves key holders only", c.err)
        self.assertIn("--auth-key FILE", c.err)
        c = self.client(["--auth-key", k2], 1, name="k2")
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("wrong key", c.err)
        self.assertEqual(resp.count(r"opened"), 0, resp.save())

        atk = self.sock("a")
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)
        for flags in (0, nbctl.CONF_F_KEY):
            session = random.getrandbits(32) | 1
            cn = nbctl.nonce()
            hello = nbctl.encode(nbctl.HELLO, session, 1,
                                 nbctl.conf(cn, flags=flags),
                                 auth=nbctl.hello_auth(None, cn, session))
            atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"],
                                     IPS["r"], hello))
            m = self.wait_reply(cap, session, (nbctl.REJECT, nbctl.WELCOME))
            self.assertIsNotNone(m, "no answer to a HELLO (flags %d)"
                                 % flags)
            self.assertEqual(m.type, nbctl.REJECT, m)
            self.assertFalse(m.tagged)
            self.assertEqual(m.code_reason()[0], nbctl.CODE_AUTH)
            self.assertLessEqual(len(m.raw), len(hello))
        self.assertEqual([f for f in cap.frames
                          if nbctl.parse_udp(f).ok and
                          nbctl.parse_udp(f).sport == nbctl.CONTROL_PORT and
                          nbctl.decode(nbctl.parse_udp(f).payload).type ==
                          nbctl.WELCOME], [])

        c = self.client(["--auth-key", k1], 1, name="k1")
        resp.wait_for(r"opened: .*, authenticated")
        self.check_exact(c, 1)
        q = self.nbench("c", 1, ["--peer", MACS["r"], "--quit",
                                 "--auth-key", k1], "quit")
        self.assertEqual(q.wait(60), 1, q.log)
        self.assertIn("QUIT refused", q.err)
        self.stop_responder(resp)

        resp = self.responder(["--no-auth"])
        c = self.client(["--auth-key", k1], 1, name="k1nokey")
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("has no key (--no-auth)", c.err)
        self.assertAlive(resp)
        self.stop_responder(resp)

        for path, want in ((self.key_file("open", mode=0o640), "chmod 600"),
                           (self.key_file("other", mode=0o604), "chmod 600"),
                           (self.key_file("short", raw=b"x" * 31),
                            "31 bytes")):
            r = self.nbench("r", 0, ["--auth-key", path], "badkey")
            self.assertEqual(r.wait(30), 2, r.log)
            self.assertIn(want, r.err)

    # --- 7: secure by default ------------------------------------------------

    def test_default_posture(self):
        """A responder with no options makes a key of its own: a file of
        mode 0600 whose SHA-256 starts with the fingerprint it prints; a
        keyless client is told how to get the key (exit 1), a client with
        the file runs a test with exact counts; at exit the file is gone.
        A --no-auth responder says what it allows, serves a keyless
        client, and refuses what passes its lower caps (1 Gbit/s, 60 s)."""
        resp = self.responder()
        path = self.resp_key
        st = os.stat(path)
        self.assertEqual(st.st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(os.path.dirname(path)).st_mode & 0o777,
                         0o700)
        self.assertTrue(path.endswith(".key"))
        key = self.psk()
        self.assertEqual(len(base64.b64decode(key)), 32)
        fp = re.search(r"fingerprint ([0-9a-f:]{23})", resp.out).group(1)
        import hashlib
        self.assertEqual(fp, ":".join("%02x" % b for b in
                                      hashlib.sha256(key).digest()[:8]))
        c = self.client([], 1, name="nokey", key=False)
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("serves key holders only", c.err)
        self.assertIn("--auth-key FILE", c.err)
        c = self.client([], 1)
        self.opened(resp)
        self.check_exact(c, 1)
        got = self.stop_responder(resp)
        self.assertEqual(got.get("client without the key"), 1, resp.log)
        self.assertFalse(os.path.exists(path), "key file left behind")

        resp = self.responder(["--no-auth"])
        self.assertIn("any host on this segment can start tests towards "
                      "any address, up to 1000 Mbit/s for 60 s", resp.out)
        c = self.client([], 1)
        self.opened(resp)
        self.check_exact(c, 1)
        c = self.client([], 1, rate="2G", name="fast")
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("--max-rate", c.err)
        c = self.client([], 61, name="long")
        self.assertEqual(c.wait(60), 1, c.log)
        self.assertIn("--max-time", c.err)
        self.stop_responder(resp)

    def test_replay(self):
        """The control frames of a real keyed --reverse session, as a
        mirror of the client's port saw them, sent again from the
        attacker's port with the client's addresses, 2 s and 18 s after
        (both within the 32 s a cookie lives): no data frame reaches the
        client or the attacker, no session opens, and the responder counts
        each replayed PARAMS as a replayed session."""
        resp = self.responder()
        mirror = []
        # the client's switch port: what the client sends comes in there
        # (the tool's af_packet frames bypass the qdisc, so a socket on
        # the client's own interface would not see them)
        own = socket_in(self.ns["s"], "sc")
        self.addCleanup(own.close)
        stop = threading.Event()

        def keep():
            while not stop.is_set():
                try:
                    f, addr = own.recvfrom(65535)
                except socket.timeout:
                    continue
                u = nbctl.parse_udp(f)
                if (addr[2] != socket.PACKET_OUTGOING and u.ok and
                        u.dport == nbctl.CONTROL_PORT and
                        f[6:12] == nbctl.mac_bytes(MACS["c"])):
                    mirror.append(f)

        t = threading.Thread(target=keep, daemon=True)
        t.start()
        c = self.client(["--reverse"], 1, rate="10M")
        self.check_exact(c, 1)
        resp.wait_for(r"ended: done")
        stop.set()
        t.join(5)
        kinds = [nbctl.decode(nbctl.parse_udp(f).payload).type
                 for f in mirror]
        self.assertIn(nbctl.PARAMS, kinds)
        self.assertIn(nbctl.START, kinds)
        print("\n  captured %d control frames of the client's (%s)"
              % (len(mirror), ",".join(sorted({nbctl.TYPE_NAMES[k]
                                               for k in kinds}))))
        victim = Capture(self.sock("c"))
        victim.start()
        self.addCleanup(victim.finish)
        acap = Capture(self.sock("a"))
        acap.start()
        self.addCleanup(acap.finish)
        atk = self.sock("a")
        t_done = time.monotonic()
        for when in (2, 18):
            while time.monotonic() < t_done + when:
                time.sleep(0.05)
            for f in mirror:
                atk.send(f)
                time.sleep(0.002)
            time.sleep(1.5)
        victim.finish()
        acap.finish()
        data = [f for f in victim.frames + acap.frames
                if nbctl.parse_udp(f).ok and
                (nbctl.parse_udp(f).sport >= nbctl.SPORT_BASE or
                 nbctl.parse_udp(f).dport == nbctl.DPORT)]
        self.assertEqual(data, [], "data frames after the replay")
        self.assertEqual(resp.count(r"session [0-9a-f]{8} opened"), 1,
                         resp.save())
        got = self.stop_responder(resp)
        self.assertGreaterEqual(got.get("replayed session", 0),
                                2 * kinds.count(nbctl.PARAMS), resp.log)

    def learning_bridge(self):
        """Make the switch a plain learning bridge for the attacker and
        the victim: their ports learn and flood, the victim's MAC is no
        longer pinned to its port."""
        s = self.ns["s"]
        sh("ip", "netns", "exec", s, "bridge", "fdb", "del", MACS["v"],
           "dev", "sv", "master", "static")
        for port in ("sa", "sv"):
            sh("ip", "netns", "exec", s, "bridge", "link", "set", "dev",
               port, "flood", "on", "learning", "on")

    def test_mac_stealing(self):
        """The review's attack 3 against a default responder on a learning
        bridge: the attacker sends HELLO, PARAMS (a reverse test at 1
        Gbit/s) and START with the victim's MAC and IPv4 (the bridge then
        delivers the victim's frames to the attacker), and the victim
        speaks in between (as an ARP request of the attacker's makes it),
        so the bridge moves its MAC back and forth: the HELLO is refused
        (no key), no session opens, 0 data frames reach the victim or the
        attacker."""
        self.learning_bridge()
        resp = self.responder()
        vsock = self.sock("v")
        victim = Capture(self.sock("v"))
        victim.start()
        self.addCleanup(victim.finish)
        atk = self.sock("a")
        acap = Capture(atk)
        acap.start()
        self.addCleanup(acap.finish)
        vmac, vip = MACS["v"], IPS["v"]
        for i in range(20):
            session = random.getrandbits(32) | 1
            cn = nbctl.nonce()
            hello = nbctl.encode(nbctl.HELLO, session, 1, nbctl.conf(
                cn, flags=nbctl.CONF_F_KEY, mac=nbctl.mac_bytes(vmac),
                ipv4=nbctl.ip_int(vip)),
                auth=nbctl.hello_auth(None, cn, session))
            atk.send(nbctl.ctl_frame(MACS["r"], vmac, vip, IPS["r"], hello))
            body = nbctl.params(cn, os.urandom(16),
                                direction=nbctl.DIR_REVERSE, sizes=(1518,),
                                rate_num=81274, duration_ms=5000,
                                client_ip=nbctl.ip_int(vip),
                                responder_ip=nbctl.ip_int(IPS["r"]),
                                client_mac=nbctl.mac_bytes(vmac),
                                responder_mac=nbctl.mac_bytes(MACS["r"]))
            key = nbctl.session_key(None, cn, b"\0" * 16, session)
            atk.send(nbctl.ctl_frame(MACS["r"], vmac, vip, IPS["r"],
                     nbctl.encode(nbctl.PARAMS, session, 2, body,
                                  auth=(key, cn, b"\0" * 16))))
            atk.send(nbctl.ctl_frame(MACS["r"], vmac, vip, IPS["r"],
                     nbctl.encode(nbctl.START, session, 3, nbctl.start(),
                                  auth=(key, cn, b"\0" * 16))))
            time.sleep(0.05)
            # the victim speaks (the attacker's ARP request made it
            # answer): the bridge learns its MAC back on its own port
            vsock.send(arp_frame(vmac, vip, IPS["r"]))
            time.sleep(0.05)
        time.sleep(2)
        victim.finish()
        acap.finish()
        everyone = victim.frames + acap.frames
        data = [f for f in everyone if nbctl.parse_udp(f).ok and
                nbctl.parse_udp(f).sport >= nbctl.SPORT_BASE]
        self.assertEqual(data, [], "data frames went out")
        answers = [nbctl.decode(nbctl.parse_udp(f).payload) for f in everyone
                   if nbctl.parse_udp(f).ok and
                   nbctl.parse_udp(f).sport == nbctl.CONTROL_PORT]
        self.assertGreater(len(answers), 0, "the responder said nothing")
        self.assertEqual({m.type for m in answers}, {nbctl.REJECT})
        self.assertEqual(resp.count(r"opened"), 0, resp.save())
        self.assertAlive(resp)

    def test_vlan_refused(self):
        """An untagged neighbour's PARAMS asking for VLAN 20 (a --no-auth
        responder, so the attacker gets that far): REJECT code 5 that
        names the VLAN, and no tagged frame on the responder's switch
        port; with --allow-vlan 20 the same PARAMS is accepted."""
        resp = self.responder(["--no-auth"])
        port = socket_in(self.ns["s"], "sr")
        self.addCleanup(port.close)
        tagged = Capture(port)
        tagged.start()
        self.addCleanup(tagged.finish)
        atk = self.sock("a")
        cap = Capture(atk)
        cap.start()
        self.addCleanup(cap.finish)

        def ask(session):
            cn, cookie, seq0, key = self.handshake(atk, cap, session)
            body = nbctl.params(cn, cookie, direction=nbctl.DIR_REVERSE,
                                vlan=20, sizes=(512,), rate_num=4000,
                                duration_ms=1000,
                                client_ip=nbctl.ip_int(IPS["a"]),
                                responder_ip=nbctl.ip_int(IPS["r"]),
                                client_mac=nbctl.mac_bytes(MACS["a"]),
                                responder_mac=nbctl.mac_bytes(MACS["r"]))
            atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"],
                                     IPS["r"],
                                     nbctl.encode(nbctl.PARAMS, session, 2,
                                                  body,
                                                  auth=(key, cn, cookie))))
            return self.wait_reply(cap, session, (nbctl.ACCEPT,
                                                  nbctl.REJECT), 10)

        m = ask(random.getrandbits(32) | 1)
        self.assertIsNotNone(m)
        self.assertEqual(m.type, nbctl.REJECT, m)
        code, reason = m.code_reason()
        self.assertEqual(code, nbctl.CODE_PARAMS)
        self.assertIn("VLAN 20", reason)
        time.sleep(1)
        tagged.finish()
        vlan = [f for f in tagged.frames if f[12:14] == b"\x81\x00"]
        self.assertEqual(vlan, [], "tagged frames left the responder")
        self.stop_responder(resp)

        resp = self.responder(["--no-auth", "--allow-vlan", "20"])
        m = ask(random.getrandbits(32) | 1)
        self.assertIsNotNone(m)
        self.assertEqual(m.type, nbctl.ACCEPT, m)
        self.stop_responder(resp)

    def test_no_amplification(self):
        """Every message type in its smallest form (untagged, tagged with
        a random tag, another protocol version, a bare header), from the
        attacker's address to a keyed and to a --no-auth responder: what
        comes back to each datagram is never more bytes than it."""
        for extra in ([], ["--no-auth"]):
            resp = self.responder(extra)
            atk = self.sock("a")
            cap = Capture(atk)
            cap.start()
            msgs = []
            for t in range(1, 17):
                cn = nbctl.nonce()
                body = {nbctl.HELLO: nbctl.conf(cn),
                        nbctl.QUIT: nbctl.quit_body(cn, nbctl.nonce())}
                b = body.get(t, b"")
                sess = random.getrandbits(32) | 1
                msgs.append(nbctl.encode(t, sess, 1, b))
                msgs.append(nbctl.encode(t, sess, 1, b,
                                         tag_bytes=os.urandom(16)))
                if t == nbctl.HELLO:
                    msgs.append(nbctl.encode(t, sess, 1, b,
                                             auth=nbctl.hello_auth(
                                                 None, cn, sess)))
            cn = nbctl.nonce()
            old = nbctl.encode(nbctl.HELLO, 7, 1, nbctl.conf(cn), version=8)
            msgs += [old, old[:16], old[:20]]
            worst = 0
            for m in msgs:
                n0, b0 = cap.count, cap.bytes
                atk.send(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"],
                                         IPS["r"], m))
                time.sleep(0.15)
                out = cap.bytes - b0
                sent = len(nbctl.ctl_frame(MACS["r"], MACS["a"], IPS["a"],
                                           IPS["r"], m))
                worst = max(worst, out / sent)
                self.assertLessEqual(out, sent, "%d B in, %d B (%d frames) "
                                     "out for %r" % (sent, out,
                                                     cap.count - n0, m[:8]))
            cap.finish()
            print("\n  %s: %d datagrams, the largest answer %.2f x its "
                  "datagram" % (extra or "keyed", len(msgs), worst))
            self.stop_responder(resp)

    def flood(self, tool, check):
        """A flood of unauthenticated control frames (HELLOs claiming the
        key from ever new sources, PARAMS with made-up cookies, messages of
        made-up sessions) at the highest rate this test's sender reaches,
        while a key holder runs the test `tool`: check(client's JSON end)
        judges it; the responder's stderr stays under one line per cause
        per second.  The flood runs at FLOOD_PPS, five times the
        responder's global budget of checked HELLOs (10,000 a second),
        which a key holder's HELLO competes for, retrying (the link's
        retransmissions, at most 400 ms apart): the responder gets
        --peer-timeout 10, the client 30.  Unpaced, this sender reached
        60,000 to 100,000 frames a second here, and a key holder's 3 s
        test then took up to 25 s from the flood's start (most of it the
        wait for its WELCOME); with 10 s a third of the runs failed."""
        debug = bool(os.environ.get("NB_FLOOD_DEBUG"))
        resp = self.responder(["--peer-timeout", "10"], debug=debug)
        atk = self.sock("a")
        rnd = random.Random(9)
        frames = []
        for i in range(3000):
            mac = bytes([rnd.getrandbits(8) & 0xfc | 2]) + rnd.randbytes(5)
            ip = "198.18.%d.%d" % (rnd.getrandbits(7), rnd.getrandbits(8))
            cn, sess = rnd.randbytes(16), rnd.getrandbits(32) | 1
            kind = i % 3
            if kind == 0:
                # claiming the key: nothing cheap tells these apart
                msg = nbctl.encode(nbctl.HELLO, sess, 1, nbctl.conf(
                    cn, flags=nbctl.CONF_F_KEY),
                    auth=nbctl.hello_auth(None, cn, sess))
            elif kind == 1:
                msg = nbctl.encode(nbctl.PARAMS, sess, 2, nbctl.params(
                    cn, rnd.randbytes(16)), tag_bytes=rnd.randbytes(16))
            else:
                msg = nbctl.encode(nbctl.STOP, sess, 5, b"",
                                   tag_bytes=rnd.randbytes(16))
            frames.append(nbctl.ctl_frame(MACS["r"], nbctl.mac_bytes(
                ":".join("%02x" % b for b in mac)), ip, IPS["r"], msg))
        snd = Sender(atk, lambda i: frames[i % len(frames)],
                     pps=FLOOD_PPS)
        t0 = time.monotonic()
        lines0 = len(resp.lines["err"])
        snd.start()
        self.addCleanup(snd.finish)
        while snd.frames < 5000:
            self.assertTrue(snd.is_alive(), snd.error)
            self.assertLess(time.monotonic() - t0, 20)
            time.sleep(0.05)
        c = self.nbench("c", 1, ["--peer", MACS["r"], "--peer-timeout",
                                 "30", "--json"] + tool, "client", debug)
        rc = c.wait(60)
        self.assertEqual(rc, 0, "client failed (log %s):\n%s"
                         % (c.log, c.err[-3000:]))
        self.assertTrue(snd.is_alive(), "the flood stopped early")
        figures = check(c.json()["end"], c)
        flood = snd.finish()
        took = time.monotonic() - t0
        lines = len(resp.lines["err"]) - lines0
        causes = self.stop_responder(resp)
        print("\n  flood: %d frames in %.1f s (%.0f/s) during %s; %s; "
              "responder: %d log lines, refused %s"
              % (flood, took, flood / took, " ".join(tool), figures, lines,
                 causes))
        # session open/end lines, plus at most one line per cause a second
        if not debug:
            self.assertLessEqual(lines, 6 + len(causes) * (took + 1),
                                 resp.save())

    def test_flood_with_client(self):
        """A UDP test through the flood: it completes, and its counts add
        up per stream, nothing duplicated or reordered.  Frames are lost
        on the way: the flood's sender, the veths, the bridge and the
        responder's control lcore share this host's two CPUs with both
        workers, and the responder's af_packet ring overflows (its PMD
        does not count that as imissed); the loss is reported, not
        asserted (docs/performance.md has the figures)."""
        def check(end, c):
            sent = end["sum_sent"]["packets"]
            lost = end["sum_received"]["lost_packets"]
            self.assertGreater(sent, 0)
            self.assertEqual(end["sum_received"]["packets"] + lost, sent)
            for st in end["streams"]:
                rx, tx = st["receiver"], st["sender"]
                self.assertEqual(rx["packets"] + rx["lost_packets"],
                                 tx["packets"], c.log)
                self.assertEqual(rx.get("duplicates", 0), 0, c.log)
                self.assertEqual(rx.get("out_of_order", 0), 0, c.log)
            return "its loss %d of %d" % (lost, sent)

        self.flood(["--rate", "20M", "--size", "512", "--time", "3",
                    "--streams", "2"], check)

    def test_flood_with_tcp_client(self):
        """A closed-loop TCP test (--tcp -P 2) through the flood (the TCP
        worker hands the session's control frames over on the peer's own
        ring too): every byte delivered, checked, both connections closed
        cleanly."""
        def check(end, c):
            d = c.json()["nbench"]
            self.assertEqual(d["connections_closed"], 2, c.log)
            self.assertEqual(d["bad_bytes"], 0, c.log)
            sent = end["sum_sent"]["bytes"]
            self.assertGreater(sent, 0)
            self.assertEqual(end["sum_received"]["bytes"], sent, c.log)
            return "%d bytes, %d retransmits" % (
                sent, end["sum_sent"].get("retransmits", 0))

        self.flood(["--tcp", "-P", "2", "--time", "3"], check)


if __name__ == "__main__":
    nbe2e.main()
