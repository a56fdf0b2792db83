# SPDX-License-Identifier: BSD-3-Clause
"""The host's end of the guest suite: a network namespace that holds
QEMU's taps and wires (scripts/guest.sh boot runs inside it) and the
host's end of the guest's seventh NIC (00:0a.0, tap nbgp0).

That tap is wired by tc mirred, both ways, to a veth pair (nbgk0, nbgk1)
whose far end nbgk1 is the host: its own dpdk-nbench responder
(af_packet), its kernel (198.19.0.100/15, a TCP sink from
tests/e2e/tcp_peer.py on port 5201) and a capture (dumpcap, host-cap.pcapng
in the job directory).  The veth in between has no checksum offload: a
frame whose checksum the guest's NIC left to the host (virtio's offload
reaches a tap unfinished) gets it finished on its way into the veth, by
the kernel from the guest's own offsets, so the capture, the responder
and the kernel see what a wire would carry and what a NIC that honours
the offload would have sent.  The responder's MAC is nbgk1's, set here;
the guest gets the responder's key on its job disk."""
import base64
import os
import signal
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SINK = os.path.join(os.path.dirname(HERE), "e2e", "tcp_peer.py")
TAP = "nbgp0"
# the veth pair between the tap and the host's end (HOST_IF)
WIRE, HOST_IF = "nbgk0", "nbgk1"
TAP_MAC = "02:00:00:0a:ff:01"     # HOST_IF's: the responder's and kernel's
GUEST_MAC = "02:00:00:0a:00:00"   # the guest's NIC on the tap
KERNEL_IP = "198.19.0.100"
SINK_PORT = 5201
# the responder's frames ring: the default 512 frames drop bursts
RING = ",framesz=2048,framecnt=4096"


def sh(*args, check=True):
    return subprocess.run(list(args), check=check, capture_output=True,
                          text=True, timeout=60)


class HostSide:
    def __init__(self, binary, job):
        self.ns = "nbg%d" % (os.getpid() % 100000)
        self.binary, self.job = binary, job
        self.procs = {}

    def up(self):
        ns = self.ns
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", ns, "tuntap", "add", "dev", TAP, "mode", "tap")
        sh("ip", "-n", ns, "link", "add", WIRE, "type", "veth", "peer",
           "name", HOST_IF)
        for dev in (TAP, WIRE, HOST_IF):
            sh("ip", "netns", "exec", ns, "sysctl", "-qw",
               "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            # no checksum left unfinished on the way out: the guest's
            # finished on entering WIRE, the kernel's own on HOST_IF
            sh("ip", "netns", "exec", ns, "ethtool", "-K", dev, "tx", "off",
               "tso", "off", "gso", "off", check=False)
        sh("ip", "-n", ns, "link", "set", HOST_IF, "address", TAP_MAC)
        sh("ip", "-n", ns, "addr", "add", KERNEL_IP + "/15", "dev", HOST_IF)
        for dev in (TAP, WIRE, HOST_IF):
            sh("ip", "-n", ns, "link", "set", dev, "up")
        # the cable: what enters one end leaves by the other
        for a, b in ((TAP, WIRE), (WIRE, TAP)):
            sh("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", a,
               "clsact")
            sh("ip", "netns", "exec", ns, "tc", "filter", "add", "dev", a,
               "ingress", "u32", "match", "u32", "0", "0", "action",
               "mirred", "egress", "redirect", "dev", b)
        key = os.path.join(self.job, "host.key")
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, base64.b64encode(os.urandom(32)) + b"\n")
        os.close(fd)
        self.key = key

    def wrap(self, argv):
        return ["ip", "netns", "exec", self.ns] + argv

    def start(self, name, argv, ready):
        """A process in the namespace, its output in the job directory;
        waits for `ready` in its stdout's first line."""
        out = open(os.path.join(self.job, "host-%s.out" % name), "w+")
        err = open(os.path.join(self.job, "host-%s.err" % name), "w")
        p = subprocess.Popen(self.wrap(argv), stdout=subprocess.PIPE,
                             stderr=err, text=True, start_new_session=True)
        line = p.stdout.readline()
        out.write(line)
        if ready not in line:
            raise RuntimeError("%s did not start: %r (see %s)"
                               % (name, line, err.name))
        self.procs[name] = (p, out, err)
        return p

    def wait_carrier(self, boot, timeout=120):
        """Until QEMU has opened the tap (carrier 1), or boot ended."""
        path = "/sys/class/net/%s/carrier" % TAP
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and boot.poll() is None:
            r = sh("ip", "netns", "exec", self.ns, "cat", path, check=False)
            if r.stdout.strip() == "1":
                return
            time.sleep(0.2)
        raise RuntimeError("QEMU did not open the tap %s" % TAP)

    def servers(self):
        """The capture, the responder (CPU 0, beside QEMU: it busy-polls)
        and the kernel's sink."""
        self.capture()
        self.start("responder", [
            self.binary, "--no-pci", "--lcores", "0@0,1@0,2@0",
            "--file-prefix", "nbghost", "--log-level", "lib.eal:error",
            "--vdev", "net_af_packet0,iface=%s%s" % (HOST_IF, RING), "--",
            "--auth-key", self.key], "responder on port 0")
        self.start("sink", ["/usr/bin/python3", SINK, "sink",
                            str(SINK_PORT)], "listening")

    def capture(self, timeout=20):
        """dumpcap on HOST_IF (the guest's frames as the host receives
        them), until finish("capture"); waits until it captures."""
        self.pcap = os.path.join(self.job, "host-cap.pcapng")
        errname = os.path.join(self.job, "host-capture.err")
        err = open(errname, "w")
        out = open(os.path.join(self.job, "host-capture.out"), "w+")
        p = subprocess.Popen(self.wrap([
            "dumpcap", "-q", "-i", HOST_IF, "-B", "64", "-f",
            "ether src %s" % GUEST_MAC, "-w", self.pcap]),
            stdout=out, stderr=err, text=True, start_new_session=True)
        self.procs["capture"] = (p, out, err)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and p.poll() is None:
            with open(errname) as f:
                if "Capturing on" in f.read():
                    return
            time.sleep(0.1)
        raise RuntimeError("dumpcap did not start (see %s)" % errname)

    def client(self, name, tool, timeout=60):
        """The host's own client on HOST_IF to the guest's responder
        (GUEST_MAC), run to its end: (exit status, stdout); its stderr in
        the job directory."""
        argv = self.wrap([
            self.binary, "--no-pci", "--lcores", "0@0,1@0,2@1",
            "--file-prefix", "nbghostc", "--log-level", "lib.eal:error",
            "--vdev", "net_af_packet0,iface=%s%s" % (HOST_IF, RING), "--",
            "--peer", GUEST_MAC, "--auth-key", self.key] + tool)
        with open(os.path.join(self.job, "host-%s.err" % name), "w") as err:
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=err,
                               text=True, timeout=timeout)
        with open(os.path.join(self.job, "host-%s.out" % name), "w") as f:
            f.write(r.stdout)
        return r.returncode, r.stdout

    def finish(self, name, sig=None, timeout=30):
        """Ends a process (sig, or on its own) and returns (rc, stdout)."""
        p, out, err = self.procs.pop(name)
        if sig is not None and p.poll() is None:
            os.killpg(p.pid, sig)       # our own process group only
        try:
            rest, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rest, _ = p.communicate()
        if rest:
            out.write(rest)
        out.seek(0)
        text = out.read()
        out.close()
        err.close()
        return p.returncode, text

    def down(self):
        for name in list(self.procs):
            self.finish(name, signal.SIGKILL)
        sh("ip", "netns", "del", self.ns, check=False)
