# SPDX-License-Identifier: BSD-3-Clause
"""The tool on PCI NICs with their real DPDK drivers: a QEMU guest (TCG)
with two e1000e, two virtio-net-pci (2 queue pairs), two vmxnet3 NICs and
a seventh virtio-net facing the host (scripts/guest.sh), bound inside to
vfio-pci behind QEMU's intel-iommu (e1000e, virtio) and uio_pci_generic
(vmxnet3).  Each pair is wired to itself: the e1000e and vmxnet3 pairs by
QEMU's stream backends (TCP), the virtio pair by two taps with a tc
mirred cable between them; the seventh NIC's tap is cabled to the host's
own responder, kernel and capture (hostside.py), all in a network
namespace.

One boot runs every case (tests/guest/guest_run.sh); each test asserts on
what the tool printed there.  The first run builds the image (minutes);
later runs reuse it.  Skipped (77) only when QEMU is not there at all.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import hostside

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BIN = os.environ.get("NBENCH_BIN", os.path.join(ROOT, "build", "app",
                                                "dpdk-nbench"))
LOGS = os.environ.get("NB_GUEST_LOGS", "/tmp/nbench-guest-test")
# (name, DPDK driver, binding, PCI addresses of the pair)
NICS = [
    ("e1000e", "net_e1000_em", "vfio-pci", ["0000:00:04.0", "0000:00:05.0"]),
    ("virtio", "net_virtio", "vfio-pci", ["0000:00:06.0", "0000:00:07.0"]),
    ("vmxnet3", "net_vmxnet3", "uio_pci_generic",
     ["0000:00:08.0", "0000:00:09.0"]),
]
# frames each loopback sends, and its rate: TCG runs the guest's PMD and
# QEMU's device models instruction by instruction, tens of thousands of
# frames a second at best (docs/performance.md)
PACKETS = 100000
RATE = os.environ.get("NB_GUEST_RATE", "20000pps")
LCORES = "--lcores 0@0,1@0,2@0,3@1 --log-level lib.eal:error"
# the extended counters ethdev gives every port, first
# (lib/ethdev/rte_ethdev.c eth_dev_stats_strings)
ETHDEV_XSTATS = ["rx_good_packets", "tx_good_packets", "rx_good_bytes",
                 "tx_good_bytes", "rx_missed_errors", "rx_errors",
                 "tx_errors", "rx_mbuf_allocation_errors"]
# the NIC facing the host (hostside.py) and what crosses it
HOST_NIC = "0000:00:0a.0"
HOST_RATE = "5000pps"
HOST_PACKETS = 20000
TCP_BYTES = 2 * 1024 * 1024


def eal(addrs, prefix):
    return "%s --file-prefix %s %s" % (
        LCORES, prefix, " ".join("-a " + a for a in addrs))


def cases():
    """The guest's work, one line a case: NAME, EAL words, tool words."""
    out = []
    for name, _, _, addrs in NICS:
        out.append(("ports-" + name, eal(addrs, "p" + name),
                    "--list-ports --json"))
        out.append(("ports-text-" + name, eal(addrs, "t" + name),
                    "--list-ports"))
        for size in (64, 1518):
            out.append(("loop-%s-%d" % (name, size),
                        eal(addrs, "l" + name),
                        "--tx-port 0 --rx-port 1 --packets %d --size %d "
                        "--rate %s --streams 2 --json"
                        % (PACKETS, size, RATE)))
    # RFC 2544 throughput over the virtio pair: the seed's "step -b until
    # loss appears" on a guest NIC, as a search
    out.append(("rfc2544-virtio", eal(NICS[1][3], "rvirtio"),
                "--tx-port 0 --rx-port 1 --test throughput --size 64 "
                "--rate 100M --trial-time 2 --settle 0.2 --precision 2M "
                "--json"))
    # a peer test across the e1000e pair with the client's link taken down
    # and up from the host (guest_flap.sh; Guest.flap drives the monitor)
    out.append(("flap", "!", "bash ./flap.sh"))
    # the guest's seventh NIC (virtio, 00:0a.0) to the host's responder
    # on its tap, both ways, and to the host kernel's TCP sink
    host = eal([HOST_NIC], "h")
    # (--peer-timeout 10: TCG and the host's busy responder delay the
    # control frames past the default 2 s now and then.)  The NIC's own
    # checksums, which reach the tap unfinished; the host finishes them
    # from the guest's offsets (hostside.py) and its capture checks them.
    peer = "--peer %s --auth-key /job/host.key --rate %s --packets %d " \
        "--peer-timeout 10 --json" % (
            hostside.TAP_MAC, HOST_RATE, HOST_PACKETS)
    out.append(("host-peer", host, peer))
    out.append(("host-peer-reverse", host, peer + " --reverse"))
    out.append(("host-tcp", host, "--tx-port 0 --tcp --dst-ip %s -n %d "
                "--json" % (hostside.KERNEL_IP, TCP_BYTES)))
    # the other way round: a responder in the guest, the host's client
    # (guest_serve.sh; Guest.serve_guest runs the client)
    out.append(("serve", "!", "bash ./serve.sh"))
    # virtio's two queue pairs: 32 streams over both (the host's tun picks
    # each stream's RX queue by a hash seeded at boot: with 32, both get
    # some but once in 2^31 boots), a row per queue in the report
    out.append(("queues-virtio", eal(NICS[1][3], "qvirtio"),
                "--tx-port 0 --rx-port 1 --queues 2 --streams 32 --packets "
                "%d --size 64 --rate %s --json" % (PACKETS, RATE)))
    return out


def monitor(job, cmd):
    """One command to QEMU's human monitor (scripts/guest.sh boot's
    JOBDIR/monitor.sock)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(os.path.join(job, "monitor.sock"))
        s.sendall(cmd.encode() + b"\n")
        time.sleep(0.2)     # the monitor answers nothing we need
    return cmd


def console_lines(job, tag):
    """The words of each line of the guest's console (scripts/guest.sh
    boot's JOBDIR/console.log) that carries TAG (e.g. "nbflap: ") after
    it, as written so far."""
    try:
        with open(os.path.join(job, "console.log"), errors="replace") as f:
            # (a line QEMU is still writing may be cut short)
            return [w for w in (l.split(tag, 1)[1].split()
                                for l in f.read().splitlines()
                                if tag in l) if w]
    except FileNotFoundError:
        return []


def flap(job, boot):
    """While the guest boots and runs its cases: when the flap case's
    client has run 4 intervals (2 s), take its NIC's link down (e0:
    00:04.0) for 2 s, then bring it back.  (A peer client prints no
    interval while the link is down: the responder's half of each row
    cannot reach it, so the outage's length is the host's.)  Driven by
    the lines guest_flap.sh writes to the console.  Returns what was done,
    with the host's monotonic times."""
    done = []
    while boot.poll() is None:
        lines = console_lines(job, "nbflap: ")
        if any(w[0] == "end" for w in lines):
            break
        if sum(1 for w in lines if w[0] == "interval") >= 4:
            done.append((time.monotonic(), monitor(job, "set_link e0 off")))
            time.sleep(2)       # the fault itself: 2 s without a link
            done.append((time.monotonic(), monitor(job, "set_link e0 on")))
            break
        time.sleep(0.1)
    return done


def serve_guest(job, boot, host):
    """When the serve case's responder is up in the guest (guest_serve.sh's
    console line): the host's responder ends (SIGINT; it held the same
    interface, and the client takes its MAC), and the host's client runs
    a forward and a reverse test to the guest's responder, then --quit.
    Returns the host responder's (rc, stdout) and the client runs'
    {name: (rc, stdout)}."""
    runs = {}
    while boot.poll() is None:
        if any(w[0] == "end" for w in console_lines(job, "nbserve: ")):
            break
        if any(w[0] == "responder" for w in console_lines(job, "nbserve: ")):
            resp = host.finish("responder", signal.SIGINT)
            tool = ["--rate", HOST_RATE, "--packets", str(HOST_PACKETS),
                    "--peer-timeout", "10", "--json"]
            runs["client"] = host.client("client", tool)
            runs["client-reverse"] = host.client("client-reverse",
                                                 tool + ["--reverse"])
            runs["client-quit"] = host.client("client-quit", ["--quit"])
            return resp, runs
        time.sleep(0.1)
    return host.finish("responder", signal.SIGINT), runs


class Guest(unittest.TestCase):
    job = None
    rc = None

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(BIN):
            raise unittest.SkipTest("no binary at %s" % BIN)
        os.makedirs(LOGS, exist_ok=True)
        t0 = time.monotonic()
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "guest.sh"),
                        "build"], check=True)
        job = tempfile.mkdtemp(prefix="job.", dir=LOGS)
        shutil.copy(BIN, os.path.join(job, "dpdk-nbench"))
        shutil.copy(os.path.join(ROOT, "tests", "guest", "guest_run.sh"),
                    os.path.join(job, "run.sh"))
        with open(os.path.join(job, "binds.txt"), "w") as f:
            for _, _, drv, addrs in NICS:
                for a in addrs:
                    f.write("%s %s\n" % (a, drv))
            f.write("%s vfio-pci\n" % HOST_NIC)
        with open(os.path.join(job, "cases.txt"), "w") as f:
            for c in cases():
                f.write("\t".join(c) + "\n")
        for script in ("flap", "serve", "lib"):
            shutil.copy(os.path.join(ROOT, "tests", "guest",
                                     "guest_%s.sh" % script),
                        os.path.join(job, "%s.sh" % script))
        host = hostside.HostSide(BIN, job)
        p = None
        try:
            host.up()
            # a session of its own: QEMU and guest.sh end together if
            # this ends early (killpg below)
            p = subprocess.Popen(host.wrap([
                "bash", os.path.join(ROOT, "scripts", "guest.sh"), "boot",
                job]), start_new_session=True)
            # the servers once QEMU holds the tap (its carrier): the
            # responder waits for its link
            host.wait_carrier(p)
            host.servers()
            cls.flap_log = flap(job, p)
            # the host's responder ends on SIGINT between tests (exit 0)
            # before the host's client takes its place
            cls.host_resp, cls.host_runs = serve_guest(job, p, host)
            p.wait()
            # the sink ends on its one connection's end
            cls.host_sink = host.finish("sink", signal.SIGKILL, timeout=5)
            host.finish("capture", signal.SIGINT)
            cls.host_pcap = host.pcap
        finally:
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait()
            host.down()
        cls.job, cls.rc = job, p.returncode
        if p.returncode == 77:
            raise unittest.SkipTest("QEMU could not start (see %s)" % job)
        print("guest: image and boot %.0f s, results in %s"
              % (time.monotonic() - t0, job), file=sys.stderr)

    def out(self, name, ext="out"):
        with open(os.path.join(self.job, "out", "%s.%s" % (name, ext))) as f:
            return f.read()

    def ran(self, name):
        """The case's JSON after checking it exited 0."""
        rc = int(self.out(name, "rc"))
        self.assertEqual(rc, 0, "%s exited %d:\n%s" % (
            name, rc, self.out(name, "err")[-3000:]))
        return json.loads(self.out(name))

    def test_bound(self):
        """run.sh bound every NIC (its exit status)."""
        self.assertEqual(self.rc, 0, self.out("run", "log")[-3000:])

    def check_ports(self, name, driver, addrs):
        d = self.ran("ports-" + name)
        ports = d["ports"]
        self.assertEqual([p["name"] for p in ports], addrs)
        for p in ports:
            self.assertEqual(p["driver"], driver)
            self.assertEqual(p["bus"], "pci")
            self.assertTrue(p["link_up"], p)
            # each of the three offers UDP/TCP checksums without a vector
            # path to lose: auto uses the NIC's
            self.assertEqual(p["offloads"]["tx_checksum"], "hw", p)
            prof = p["profile"]
            self.assertIsNotNone(prof, "no profile for %s" % driver)
            self.assertTrue(prof["agrees"], "%s: the PMD reports %s, the "
                            "profile says %s" % (driver, p["device"], prof))
            # the driver's own extended counters that the profile names
            # are the PMD's, after ethdev's basic ones
            names = p["device"]["xstats"]
            self.assertEqual(prof["xstats_missing"], [], names)
            for x in prof["xstats"]:
                self.assertIn(x, names)
            self.assertEqual(names[:len(ETHDEV_XSTATS)], ETHDEV_XSTATS)
        return ports

    def test_ports_e1000e(self):
        ports = self.check_ports(*self.nic("e1000e"))
        # QEMU's e1000e is an 82574: two queue pairs; the NIC's checksums
        # used (the em PMD has no vector path to lose).  The em PMD has
        # no extended counters of its own (its profile names none):
        # ethdev's alone
        for p in ports:
            self.assertEqual(p["device"]["max_rx_queues"], 2)
            self.assertEqual(p["offloads"]["tx_checksum"], "hw")
            self.assertEqual(p["device"]["xstats"], ETHDEV_XSTATS)
            self.assertEqual(p["profile"]["xstats"], [])

    def test_ports_virtio(self):
        for p in self.check_ports(*self.nic("virtio")):
            self.assertGreaterEqual(p["device"]["max_rx_queues"], 2)
            self.assertGreater(len(p["profile"]["xstats"]), 0)

    def test_ports_vmxnet3(self):
        for p in self.check_ports(*self.nic("vmxnet3")):
            self.assertGreater(len(p["profile"]["xstats"]), 0)

    def test_ports_text(self):
        """The text form: a device line a port, saying the profile
        agrees."""
        for name, driver, _, addrs in NICS:
            out = self.out("ports-text-" + name)
            for a in addrs:
                self.assertIn("%s driver %s" % (a, driver), out)
            self.assertEqual(out.count("  device: bus pci, "), 2, out)
            self.assertEqual(out.count("; as its profile says\n"), 2, out)

    def nic(self, name):
        n = [x for x in NICS if x[0] == name][0]
        return n[0], n[1], n[3]

    def check_loop(self, name):
        d = self.ran(name)
        e = d["end"]
        sent = e["sum_sent"]["packets"]
        self.assertEqual(sent, PACKETS)
        self.assertEqual(e["sum_received"]["packets"], sent)
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        self.assertEqual(e["sum_received"]["duplicates"], 0)
        for p in e["ports"]:
            self.assertEqual(p["tool_tx_packets"], p["pmd"]["opackets"], p)
            self.assertEqual(p["tool_rx_packets"], p["pmd"]["ipackets"], p)
        # the frames went out with the NIC's checksums
        for p in d["start"]["ports"]:
            self.assertEqual(p["offloads"]["tx_checksum"], "hw", p)
        return e

    def test_loop_e1000e(self):
        for size in (64, 1518):
            self.check_loop("loop-e1000e-%d" % size)

    def test_loop_virtio(self):
        for size in (64, 1518):
            self.check_loop("loop-virtio-%d" % size)

    def test_loop_vmxnet3(self):
        for size in (64, 1518):
            self.check_loop("loop-vmxnet3-%d" % size)

    def test_link_flap(self):
        """The host took the client's link down (QEMU set_link) 2 s into a
        12-s peer test and back 2 s later:
        one outage, as long as the intervals say, every frame sent
        received or lost, the responder served to its --quit."""
        self.assertEqual([c for _, c in self.flap_log],
                         ["set_link e0 off", "set_link e0 on"],
                         self.flap_log)
        rc = int(self.out("flap", "rc"))
        self.assertEqual(rc, 0, self.out("flap", "err")[-3000:] +
                         self.out("flap", "txt")[-3000:])
        with open(os.path.join(self.job, "out", "flap.json")) as f:
            d = json.load(f)
        e = d["end"]
        self.assertEqual(e["link"]["outages"], 1, e["link"])
        down = e["link"]["down_seconds"]
        # as long as the host held it down (2 s between the commands, each
        # command's own 0.2 s and the guest's 10 ms look around them),
        # and up to 0.5 s more: QEMU's e1000e brings a link up after its
        # emulated autonegotiation (a 500 ms timer)
        (t_off, _), (t_on, _) = self.flap_log
        self.assertGreaterEqual(down, (t_on - t_off) - 0.5, e["link"])
        self.assertLessEqual(down, (t_on - t_off) + 1.0, e["link"])
        ivs = [iv["sum"] for iv in d["intervals"]]
        self.assertAlmostEqual(sum(s["link_down_seconds"] for s in ivs),
                               down, places=6)
        sent = e["sum_sent"]["packets"]
        self.assertEqual(sent, 2000 * 12)
        self.assertEqual(e["sum_received"]["packets"] +
                         e["sum_received"]["lost_packets"], sent)
        # the rows before the outage lost nothing
        first = min(k for k, s in enumerate(ivs) if s["link_down_seconds"])
        self.assertGreaterEqual(first, 3)
        for s in ivs[:first]:
            self.assertEqual(s["lost_packets"], 0, s)
        self.assertIn("exit 0", self.out("flap-resp", "rc"))

    def test_rfc2544_virtio(self):
        """A throughput search on the virtio pair finds a rate: the last
        passing trial's, below the first failing one's, every passing
        trial lossless."""
        d = self.ran("rfc2544-virtio")
        rows = d["suite"]["results"]
        self.assertEqual(len(rows), 1)
        b = rows[0]["bounds"][0]
        self.assertGreater(b["pps"], 0, b)
        trials = d["suite"]["trials"]
        for t in trials:
            if t["pass"]:
                self.assertEqual(t["rx_packets"], t["tx_packets"], t)
        self.assertTrue(any(t["pass"] and t["req_pps"] == b["pps"]
                            for t in trials), trials)
        if b["upper_pps"] is not None:
            self.assertGreater(b["upper_pps"], b["pps"])
            self.assertTrue(any(not t["pass"] and
                                t["req_pps"] == b["upper_pps"]
                                for t in trials), trials)
        print("\n  virtio-net under TCG: throughput %.0f pps at 64 B "
              "(upper %s) in %d trials" % (b["pps"], b["upper_pps"],
                                          len(trials)), file=sys.stderr)

    def check_host_peer(self, name):
        d = self.ran(name)
        e = d["end"]
        sent = e["sum_sent"]["packets"]
        self.assertEqual(sent, HOST_PACKETS)
        self.assertEqual(e["sum_received"]["packets"], sent, e["sum_received"])
        self.assertEqual(e["sum_received"]["lost_packets"], 0)
        # the guest's frames carry the NIC's checksums (the capture's
        # check: test_host_checksums)
        self.assertEqual(d["start"]["ports"][0]["offloads"]["tx_checksum"],
                         "hw", d["start"]["ports"][0])
        return e

    def test_host_peer(self):
        """The guest's client (virtio, vfio-pci) to the host's responder
        (af_packet on the tap's cable): every frame, counted at both
        ends.  (Its sender's worker sends the control lcore's frames on
        the one TX queue they share; they stopped with its last data
        frame, which tests/e2e/test_devices.py now covers on the host.)"""
        e = self.check_host_peer("host-peer")
        # the responder's PMD took in the data and the control frames
        pmd = e["ports"][1]["pmd"]
        self.assertGreater(pmd["ipackets"], HOST_PACKETS, pmd)

    def test_host_peer_reverse(self):
        """--reverse: the host's responder sends, the guest receives."""
        self.check_host_peer("host-peer-reverse")

    def test_host_responder_ended_well(self):
        """The host's responder served both sessions to a clean end and
        left on SIGINT with 0."""
        rc, out = self.host_resp
        self.assertEqual(rc, 0, out)
        with open(os.path.join(self.job, "host-responder.err")) as f:
            err = f.read()
        self.assertGreaterEqual(err.count("ended: done"), 2, err[-3000:])

    def test_host_checksums(self):
        """What the guest's virtio NIC sent with its checksum offload,
        captured by the host (tshark checks every IPv4, UDP and TCP
        checksum): the peer tests' UDP frames and the TCP test's
        segments, none bad."""
        r = subprocess.run(
            ["tshark", "-n", "-r", self.host_pcap,
             "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
             "-o", "tcp.check_checksum:TRUE", "-T", "fields",
             "-e", "ip.checksum.status", "-e", "udp.checksum.status",
             "-e", "tcp.checksum.status"],
            capture_output=True, text=True, timeout=300, check=True)
        # 0 bad, 1 good (Wireshark's checksum status)
        count = {}
        for line in r.stdout.splitlines():
            ip, udp, tcp = (line.split("\t") + ["", "", ""])[:3]
            for proto, st in (("ip", ip), ("udp", udp), ("tcp", tcp)):
                if st:
                    count[(proto, st)] = count.get((proto, st), 0) + 1
        print("\n  host capture of the guest's frames: %s" % sorted(
            count.items()), file=sys.stderr)
        for proto in ("ip", "udp", "tcp"):
            self.assertEqual(count.get((proto, "0"), 0), 0, count)
        # the forward peer test's data (and every control frame), and
        # the TCP test's 2 MiB in segments of at most 1460 bytes
        self.assertGreater(count.get(("udp", "1"), 0), HOST_PACKETS, count)
        self.assertGreater(count.get(("tcp", "1"), 0), TCP_BYTES // 1460,
                           count)

    def host_run(self, name):
        rc, out = self.host_runs[name]
        with open(os.path.join(self.job, "host-%s.err" % name)) as f:
            err = f.read()
        self.assertEqual(rc, 0, "host %s exited %d:\n%s" % (
            name, rc, err[-3000:]))
        return json.loads(out)

    def test_host_client(self):
        """The host's client (af_packet) to a responder in the guest
        (virtio, vfio-pci), forward and --reverse: every frame, counted at
        both ends; the host's tool counts are its PMD's, the guest's PMD
        saw the test's frames and a few control frames; then the
        client's --quit ended the guest's responder with 0."""
        self.assertIn("client", self.host_runs,
                      "the guest's responder did not start:\n"
                      + self.out("serve-resp", "err")[-3000:])
        for name in ("client", "client-reverse"):
            with self.subTest(name):
                d = self.host_run(name)
                e = d["end"]
                self.assertEqual(e["sum_sent"]["packets"], HOST_PACKETS)
                self.assertEqual(e["sum_received"]["packets"], HOST_PACKETS)
                self.assertEqual(e["sum_received"]["lost_packets"], 0)
                me, peer = e["ports"]
                self.assertEqual(me["driver"], "net_af_packet", me)
                self.assertEqual(me["tool_tx_packets"], me["pmd"]["opackets"])
                self.assertEqual(me["tool_rx_packets"], me["pmd"]["ipackets"])
                # the guest's PMD: the test's frames and a few control
                # frames of the session
                self.assertEqual(peer["driver"], "net_virtio", peer)
                pmd = peer["pmd"]
                extra = (pmd["ipackets"] if name == "client"
                         else pmd["opackets"]) - HOST_PACKETS
                self.assertGreaterEqual(extra, 1, pmd)
                self.assertLess(extra, 300, pmd)
        self.assertEqual(self.host_runs["client-quit"][0], 0,
                         self.host_runs["client-quit"])
        self.assertEqual(int(self.out("serve", "rc")), 0,
                         self.out("serve-resp", "err")[-3000:])
        err = self.out("serve-resp", "err")
        self.assertEqual(err.count("ended: done"), 2, err[-3000:])

    def test_host_tcp(self):
        """The guest's TCP client to the host kernel's listener: every
        byte, and the kernel read a clean end."""
        d = self.ran("host-tcp")
        rc, out = self.host_sink
        self.assertEqual(out.split()[-3:], ["bytes", str(TCP_BYTES), "eof"],
                         out)
        self.assertEqual(d["end"]["sum_sent"]["bytes"], TCP_BYTES)
        self.assertEqual(d["nbench"]["connections_closed"], 1)
        port = d["nbench"]["ports"][0]
        self.assertEqual(port["bad_checksum"], 0)

    def test_virtio_two_queues(self):
        e = self.check_loop("queues-virtio")
        rx = [p for p in e["ports"] if "rx" in p["role"]][0]
        for p, tool, pmd in ((e["ports"][0], "tool_tx_packets",
                              "pmd_opackets"),
                             (rx, "tool_rx_packets", "pmd_ipackets")):
            qs = p["queues"]
            self.assertEqual([q["queue"] for q in qs], [0, 1], p)
            for q in qs:
                self.assertEqual(q[tool], q[pmd], q)
            self.assertEqual(sum(q[tool] for q in qs), p[tool])
        # the sender's streams alternate over its queues; what reaches
        # each RX queue is the device's steering (RSS when the PMD
        # enables it): both receive
        self.assertTrue(all(q["tool_rx_packets"] > 0 for q in rx["queues"]),
                        rx["queues"])


if __name__ == "__main__":
    res = unittest.main(verbosity=2, exit=False).result
    if res.testsRun and len(res.skipped) == res.testsRun:
        # meson's "skipped": QEMU cannot start here at all
        print("guest suite skipped: %s" % res.skipped[0][1], file=sys.stderr)
        sys.exit(77)
    sys.exit(0 if res.wasSuccessful() else 1)
