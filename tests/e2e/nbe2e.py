# SPDX-License-Identifier: BSD-3-Clause
"""Helpers every e2e test uses: run real dpdk-nbench processes on vdevs.

- unique --file-prefix and memif socket path per process;
- an lcore map that works on a 2-CPU host (control and stats sleep and share
  CPU 0 with one worker; each further worker gets its own CPU);
- --no-pci, so a test never touches a NIC of the host;
- a hard time bound per process; only processes this module started are
  ended, by PID;
- logs kept under $NB_E2E_LOGS (default build/e2e-logs) and printed when a
  test fails;
- veth pairs across two network namespaces for af_packet tests;
- the suite's key (with_suite_key): a responder is keyed by default and
  serves key holders only, so every responder and client this suite starts
  gets --auth-key SUITE_KEY unless it names --auth-key or --no-auth itself
  (test_security.py, which tests the defaults, turns this off);
- no hugepage file left behind: once a dpdk-nbench process the harness
  started has ended (Nbench.run, and Nbench.start's CheckedPopen at
  communicate()), every hugetlbfs mount (and its --huge-dir) is looked at
  for files of its --file-prefix, and any left fail the case; one killed
  by SIGKILL cannot tidy up, and dpdk-testpmd is not ours: their files
  are removed, not failed on;
- every JSON document a test reads from dpdk-nbench (Run.json(), loads(),
  load()) checked against docs/nbench-result.schema.json: a document that
  does not match fails the test with the path of the offending key.
"""
import base64
import fcntl
import functools
import itertools
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import json_schema_check

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("NBENCH_BIN", "")
LOGDIR = os.environ.get("NB_E2E_LOGS", os.path.join(os.getcwd(), "e2e-logs"))

# Two processes on this host's two CPUs (a responder and its client, or a
# generator and a sink): each keeps to a CPU of its own, its control and
# stats lcores beside its own worker.  A thread of one process sharing a CPU
# with another process's busy worker can be starved there for seconds: each
# process is a scheduler group of its own (autogroups), and on this kernel
# (Linux 6.18, EEVDF) a runnable control lcore next to another group's
# worker was seen to get no CPU for 2.5 s while CPU 1 idled.
RESPONDER_LCORES = "0@0,1@0,2@0"
CLIENT_LCORES = "0@1,1@1,2@1"
_counter = itertools.count()

# Lines that fail any run, whatever its exit status: a mempool whose mbufs
# did not all come back at exit (app/main.c), and the sanitizers' reports
# (the ASan/UBSan build runs this suite too).
EXIT_PROBLEMS = (
    "still in use at exit",
    "runtime error:",                 # UBSan
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
)
# For the sanitizer build: a report ends the process with an error (UBSan
# would print and carry on), LeakSanitizer stays on.  DPDK maps hugepage
# memory itself, which ASan does not track, so nothing there is reported.
SAN_ENV = {
    "ASAN_OPTIONS": "halt_on_error=1:abort_on_error=0:detect_leaks=1:"
                    "print_summary=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    "LSAN_OPTIONS": "suppressions=%s:print_suppressions=0"
                    % os.path.join(HERE, "lsan.supp"),
}


# True against the ASan/UBSan build (set by tests/e2e/meson.build): the
# binary runs several times slower, so a test that asserts on achieved
# rates or timing may relax them when this is set.
SANITIZED = os.environ.get("NB_E2E_SANITIZE", "none") not in ("", "none")


def exit_problems(err):
    """The lines of stderr that fail a run (EXIT_PROBLEMS), or []."""
    return [l for l in (err or "").splitlines()
            if any(k in l for k in EXIT_PROBLEMS)]


HUGE_FILE = "%smap_%s"


def hugetlbfs_mounts():
    """Every hugetlbfs mount point (/proc/mounts)."""
    out = []
    with open("/proc/mounts") as f:
        for line in f:
            parts = line.split()
            if len(parts) > 2 and parts[2] == "hugetlbfs":
                out.append(parts[1])
    return out


def _eal_value(argv, name):
    """The value of EAL option name in argv (--name V or --name=V)."""
    argv = list(argv)
    for i, a in enumerate(argv):
        if a == "--":
            break
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def hugepage_files(prefix, argv=()):
    """The hugepage files of file prefix `prefix` ("<prefix>map_<n>") in
    every hugetlbfs mount and in argv's --huge-dir."""
    dirs = hugetlbfs_mounts()
    hd = _eal_value(argv, "--huge-dir")
    if hd and hd not in dirs:
        dirs.append(hd)
    pat = re.compile(re.escape(prefix) + r"map_\d+$")
    found = []
    for d in dirs:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        found += [os.path.join(d, n) for n in sorted(names) if pat.match(n)]
    return found


def _held(path, lock=fcntl.flock):
    """Whether a live process holds `path`: EAL keeps a flock() on each of
    its hugepage files and a POSIX lock (fcntl.lockf) on its runtime
    directory's config."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        lock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def remove_prefix_files(prefix, argv=()):
    """Remove what a process of file prefix `prefix` that has ended left:
    its hugepage files and its runtime directory, never what a live
    process holds, nor DPDK's default prefix (a process the tests did not
    start may use it)."""
    if not prefix or prefix == "rte" or "/" in prefix or prefix in (".", ".."):
        return
    for path in hugepage_files(prefix, argv):
        if _held(path):
            continue
        try:
            os.unlink(path)
        except OSError:
            pass
    rundir = os.path.join("/var/run/dpdk", prefix)
    if not _held(os.path.join(rundir, "config"), fcntl.lockf):
        shutil.rmtree(rundir, ignore_errors=True)


def check_no_leftovers(argv, rc, log):
    """After a dpdk-nbench process has ended: its hugepage files must be
    gone (AssertionError naming them and the log); one killed by SIGKILL
    could not remove them, so they are removed here."""
    argv = list(argv)
    if BIN not in argv:
        return
    tool = argv[argv.index(BIN):]
    prefix = _eal_value(tool, "--file-prefix") or "rte"
    if rc == -signal.SIGKILL or rc is None:
        remove_prefix_files(prefix, tool)
        return
    left = hugepage_files(prefix, tool)
    if left:
        remove_prefix_files(prefix, tool)   # not to burden later cases
        raise AssertionError("%d hugepage files of prefix %s left after "
                             "exit %s: %s\nlog: %s"
                             % (len(left), prefix, rc, " ".join(left[:8]),
                                log))


def group_kw(session):
    """Popen arguments that make the child a process group leader (the
    tests end whole groups with killpg): in a session of its own, or only
    a group of its own in ours."""
    return {"start_new_session": True} if session else {"process_group": 0}


# The suite's key: one file per test program, readable by its owner only.
AUTO_KEY = True
_suite_key = None
# with these a process runs no peer test, or takes no key: left alone
_NOT_PEER = {"--tx-port", "--rx-port", "--list-ports", "--help", "-h",
             "--version", "-V", "--reflector", "--config", "--auth-key",
             "--no-auth", "--iperf3-server"}


def suite_key():
    global _suite_key
    if _suite_key is None:
        d = tempfile.mkdtemp(prefix="nbkey")
        _suite_key = os.path.join(d, "suite.key")
        fd = os.open(_suite_key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, base64.b64encode(os.urandom(32)) + b"\n")
        os.close(fd)
    return _suite_key


def with_suite_key(argv):
    """argv with --auth-key SUITE_KEY after the tool's "--" when it is a
    dpdk-nbench responder or client that names no key of its own."""
    if not AUTO_KEY or not BIN or not isinstance(argv, (list, tuple)):
        return argv
    argv = list(argv)
    if BIN not in argv or "--" not in argv[argv.index(BIN):]:
        return argv
    at = argv.index("--", argv.index(BIN)) + 1
    if _NOT_PEER.intersection(argv[at:]):
        return argv
    # a test of many ports is a loopback one, unless with --peer
    if {"--ports", "--mesh"}.intersection(argv[at:]) and \
            "--peer" not in argv[at:]:
        return argv
    return argv[:at] + ["--auth-key", suite_key()] + argv[at:]


_Popen_init = subprocess.Popen.__init__


def _popen_init(self, args, *a, **kw):
    _Popen_init(self, with_suite_key(args), *a, **kw)


subprocess.Popen.__init__ = _popen_init


def child_env(env=None):
    e = dict(os.environ)
    for k, v in SAN_ENV.items():
        e.setdefault(k, v)
    e.update(env or {})
    return e


def thread_stacks(pid):
    """Every thread's backtrace of a live process (gdb, batch mode), or
    why there is none."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return "(no gdb to show where it hangs)"
    try:
        r = subprocess.run([gdb, "-p", str(pid), "-batch", "-nx",
                            "-ex", "thread apply all bt 30", "-ex", "detach"],
                           capture_output=True, text=True, timeout=120)
        return r.stdout + r.stderr[-2000:]
    except (subprocess.TimeoutExpired, OSError) as e:
        return "(gdb: %s)" % e


class CheckedPopen(subprocess.Popen):
    """A Popen whose communicate() fails (AssertionError) once the process
    has ended with an exit problem on stderr: every process started through
    Nbench is checked, however the test ends it."""

    log = None
    _tidy_checked = False

    def communicate(self, *a, **kw):
        try:
            out, err = super().communicate(*a, **kw)
        except subprocess.TimeoutExpired:
            # not ended in time: every thread's stack beside the log and
            # on the test's stderr, so a rare hang seen once in CI can be
            # read afterwards; the caller still gets TimeoutExpired
            where = thread_stacks(self.pid)
            if self.log:
                with open(self.log + ".stacks", "w") as f:
                    f.write(where)
            sys.stderr.write("\n%s did not end in time; its threads:\n%s\n"
                             % (" ".join(self.args), where[-6000:]))
            raise
        bad = exit_problems(err) if self.returncode is not None else []
        if self.returncode is not None and not self._tidy_checked:
            self._tidy_checked = True
            try:
                check_no_leftovers(self.args, self.returncode, self.log)
            except AssertionError:
                if self.log:
                    Nbench._log(self.log, self.args, self.returncode, out,
                                err)
                raise
        if bad:
            if self.log:
                Nbench._log(self.log, self.args, self.returncode, out, err)
            raise AssertionError("%s:\n%s\nlog: %s"
                                 % (" ".join(self.args), "\n".join(bad[:20]),
                                    self.log))
        return out, err


def lcore_map(workers=2):
    """control=0, stats=1 on CPU 0; workers from lcore 2. The first worker
    shares CPU 0 with the sleeping lcores, the others get a CPU each."""
    ncpu = os.cpu_count() or 1
    if workers - 1 > max(ncpu - 1, 0):
        raise unittest.SkipTest("needs %d CPUs" % workers)
    parts = ["0@0", "1@0", "2@0"]
    for i in range(1, workers):
        parts.append("%d@%d" % (2 + i, i))
    return ",".join(parts)


def qdisc_stats(ns, dev):
    """(packets sent, packets dropped) by the qdiscs of dev in network
    namespace ns, from tc's own counters (tc -s -j)."""
    q = json.loads(subprocess.run(
        ["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show",
         "dev", dev], check=True, capture_output=True, text=True,
        timeout=30).stdout)
    return (sum(x.get("packets", 0) for x in q),
            sum(x.get("drops", 0) for x in q))


def htb_sent(ns, dev):
    """{class id ("1:10"): packets sent} of the HTB classes of dev in
    network namespace ns, from tc's text (iproute2 6.1 prints no JSON
    for HTB classes)."""
    out = subprocess.run(
        ["ip", "netns", "exec", ns, "tc", "-s", "class", "show", "dev",
         dev], check=True, capture_output=True, text=True,
        timeout=30).stdout
    sent, cls = {}, None
    for line in out.splitlines():
        w = line.split()
        if w[:2] == ["class", "htb"]:
            cls = w[2]
        elif w[:1] == ["Sent"] and cls is not None:
            sent[cls] = int(w[3])
            cls = None
    return sent


def unique(tag):
    return "nbe%d_%s_%d" % (os.getpid(), tag, next(_counter))


def loads(text, what="output"):
    """A JSON document (or one --json-stream line) dpdk-nbench wrote,
    checked against the schema."""
    return json_schema_check.check(json.loads(text), what)


def load(f, what=None):
    """The same from a file (--json-file)."""
    return loads(f.read(), what or getattr(f, "name", "file"))


class Run:
    """One finished dpdk-nbench process."""

    def __init__(self, args, rc, out, err, elapsed, log):
        self.args, self.rc, self.out, self.err = args, rc, out, err
        self.elapsed, self.log = elapsed, log

    def json(self):
        try:
            doc = json.loads(self.out)
        except ValueError as e:
            raise AssertionError("stdout is not JSON (%s); log: %s\n%s"
                                 % (e, self.log, self.out[:2000]))
        return json_schema_check.check(doc, "stdout (log: %s)" % self.log)


class Nbench:
    """Builds and runs dpdk-nbench command lines."""

    def __init__(self, tmpdir):
        self.tmpdir = tmpdir
        os.makedirs(LOGDIR, exist_ok=True)

    def memif_pair(self, rsize=14):
        """Two vdevs of one process facing each other: server and client on
        one socket.  rsize 14 = 16K-slot rings absorb scheduling stalls of
        a shared CI host."""
        sock = os.path.join(self.tmpdir, unique("sock") + ".sock")
        return ["--vdev", "net_memif0,role=server,socket=%s,rsize=%d"
                % (sock, rsize),
                "--vdev", "net_memif1,role=client,socket=%s,rsize=%d"
                % (sock, rsize)]

    def eal(self, vdevs, workers=2, prefix=None):
        return ["--no-pci", "--lcores", lcore_map(workers), "--file-prefix",
                prefix or unique("fp"), "--log-level", "lib.eal:error"] + vdevs

    def run(self, eal, tool, timeout=60, name="run", env=None, wrap=(),
            session=True):
        """wrap: what runs the tool, e.g. ["ip", "netns", "exec", NS].
        session=False: a process group of its own in our session (so in
        our scheduler autogroup, as when a user starts both ends from one
        shell) rather than a session of its own."""
        argv = list(wrap) + [BIN] + eal + ["--"] + tool
        log = os.path.join(LOGDIR, unique(name) + ".log")
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env=child_env(env), **group_kw(session))
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)   # our own process group only
            out, err = p.communicate()
            self._log(log, argv, None, out, err)
            check_no_leftovers(argv, None, log)
            raise AssertionError("timed out after %ss: %s (log %s)"
                                 % (timeout, " ".join(argv), log))
        self._log(log, argv, p.returncode, out, err)
        # every run, failed and interrupted ones too
        bad = exit_problems(err)
        if bad:
            raise AssertionError("%s:\n%s\nlog: %s"
                                 % (" ".join(argv), "\n".join(bad[:20]), log))
        check_no_leftovers(argv, p.returncode, log)
        return Run(argv, p.returncode, out, err, time.monotonic() - t0, log)

    def start(self, eal, tool, name="bg", env=None, wrap=(), session=True):
        """Start in the background; returns (Popen, argv, log path)."""
        argv = list(wrap) + [BIN] + eal + ["--"] + tool
        log = os.path.join(LOGDIR, unique(name) + ".log")
        p = CheckedPopen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env=child_env(env), **group_kw(session))
        p.log = log
        return p, argv, log

    @staticmethod
    def _log(path, argv, rc, out, err):
        with open(path, "w") as f:
            f.write("$ %s\nrc=%s\n--- stdout\n%s\n--- stderr\n%s\n"
                    % (" ".join(argv), rc, out, err))


class LineReader:
    """Lines from a pipe with a timeout.  select() and Python's buffered
    readline() do not mix (lines already buffered are invisible to
    select), so this reads the file descriptor itself."""

    def __init__(self, pipe):
        self.fd = pipe.fileno()
        self.buf = b""
        self.eof = False

    def readline(self, timeout):
        """One line (without the newline); None on timeout, "" at EOF."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.eof:
                line, self.buf = self.buf, b""
                return line.decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self.eof = True
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace") or " "


def telemetry(prefix, timeout=20):
    """A connection to a running process's DPDK telemetry socket."""
    path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise AssertionError("no telemetry socket at " + path)
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    json.loads(s.recv(16384))   # the greeting: version, max output
    return s


def telemetry_ask(s, cmd):
    s.send(cmd.encode())
    return json.loads(s.recv(1 << 20))[cmd.split(",")[0]]


class ForeignPopen(subprocess.Popen):
    """A DPDK program that is not ours (dpdk-testpmd): it leaves its
    hugepage files and runtime directory behind, which are removed once
    it has ended (wait(), which communicate() calls too)."""

    def wait(self, *a, **kw):
        rc = super().wait(*a, **kw)
        prefix = _eal_value(self.args, "--file-prefix")
        if prefix:
            remove_prefix_files(prefix, self.args)
        return rc


def testpmd(prefix_argv, vdev, mode="macswap", extra=()):
    """dpdk-testpmd in forward mode `mode` on `vdev`, forwarding
    (interactive, so its counters can be asked for later).  prefix_argv
    runs it elsewhere, e.g. ["ip", "netns", "exec", NS].  Returns the Popen
    once "start" is handled; raises AssertionError if it is not within
    20 s.  (A memif server socket is abstract in DPDK 22.11: there is no
    file to wait for.)"""
    argv = list(prefix_argv) + [
        "stdbuf", "-oL", shutil.which("dpdk-testpmd") or "dpdk-testpmd",
        "--no-pci", "-l", "0,1", "--file-prefix", unique("tp"),
        "--log-level", "lib.eal:error", "--vdev", vdev, "--", "-i",
        "--forward-mode=" + mode, "--nb-cores=1"] + list(extra)
    p = ForeignPopen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT, text=True,
                     start_new_session=True)
    # the echo of a marker command proves "start" has been handled
    p.stdin.write("start\nshow config fwd\n")
    p.stdin.flush()
    marker = mode + " packet"
    buf, deadline = "", time.monotonic() + 20
    while time.monotonic() < deadline and marker not in buf:
        line = p.stdout.readline()
        if not line:
            break
        buf += line
    if marker not in buf:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError("testpmd did not start:\n" + buf[-2000:])
    return p


def testpmd_macswap(prefix_argv, vdev):
    """dpdk-testpmd in macswap mode (see testpmd())."""
    return testpmd(prefix_argv, vdev)


def netns_up(prefix):
    subprocess.run(["bash", os.path.join(HERE, "netns.sh"), "up", prefix],
                   check=True, capture_output=True, text=True)


def netns_down(prefix):
    subprocess.run(["bash", os.path.join(HERE, "netns.sh"), "down", prefix],
                   capture_output=True, text=True)


def have_hugepages():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("HugePages_Free:"):
                    return int(line.split()[1]) > 0
    except OSError:
        pass
    return False


class E2ECase(unittest.TestCase):
    """Base class: a temp dir, an Nbench runner, hugepages required."""

    def setUp(self):
        if not BIN or not os.access(BIN, os.X_OK):
            self.fail("NBENCH_BIN is not set to the built dpdk-nbench")
        if not have_hugepages():
            self.fail("no free hugepages: run scripts/setup.sh "
                      "(see hugepages.md)")
        self.tmpdir = tempfile.mkdtemp(prefix="nbe2e")
        self.nb = Nbench(self.tmpdir)

    def tearDown(self):
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def tshark(self, argv):
        """tshark (argv: its arguments, run through self.wrap when set),
        once it says it captures; the test fails if it does not within
        20 s.  tshark_end() waits for it."""
        p = subprocess.Popen(getattr(self, "wrap", []) + argv,
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        line, deadline = "", time.monotonic() + 20
        while "Capturing on" not in line and time.monotonic() < deadline:
            line = p.stderr.readline()
            if not line and p.poll() is not None:
                break
        if "Capturing on" not in line:
            self.tshark_end(p, 0)
            self.fail("tshark did not start: " + line)
        return p

    @staticmethod
    def tshark_end(p, timeout=60):
        """Wait up to timeout s for tshark p to end, then end it."""
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            p.stderr.close()

    @staticmethod
    def netns_nbench(ns, dev, cpu, tool):
        """dpdk-nbench started in network namespace ns on af_packet over
        dev (two queue pairs), every lcore on CPU cpu; a Popen of its own
        process group (text pipes)."""
        eal = ["--no-pci", "--lcores", "0@%d,1@%d,2@%d" % (cpu, cpu, cpu),
               "--file-prefix", unique(dev), "--log-level",
               "lib.eal:error", "--vdev",
               "net_af_packet0,iface=%s,qpairs=2" % dev]
        argv = ["ip", "netns", "exec", ns, BIN] + eal + ["--"] + tool
        return subprocess.Popen(argv, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    def iperf3_namespace(self, tag, kernel_ip):
        """A namespace (veth_namespace) whose pa is a kernel host at
        kernel_ip/24 for a stock iperf3, pb the tool's af_packet port:
        lo up, pa's TX offloads off (af_packet hands the tool what the
        veth carries: the kernel's frames with their checksums, whole).
        Skips the test without iperf3.  Sets self.port (the test's
        iperf3 port) and self.eal (the tool's EAL on pb)."""
        if not os.access("/usr/bin/iperf3", os.X_OK):
            self.skipTest("needs iperf3 (apt-get install iperf3)")
        wrap = self.veth_namespace(tag)
        for cmd in (["ip", "link", "set", "lo", "up"],
                    ["ip", "addr", "add", kernel_ip + "/24", "dev", "pa"],
                    ["ethtool", "-K", "pa", "tx", "off", "tso", "off", "gso",
                     "off"]):
            subprocess.run(wrap + cmd, check=True, capture_output=True,
                           text=True)
        self.port = 5300 + os.getpid() % 500
        self.eal = self.nb.eal(["--vdev", "net_af_packet0,iface=pb"])

    def veth_namespace(self, tag, pairs=(("pa", "pb"),), bridge=None):
        """A network namespace of this test (removed at its end) with veth
        pairs, up, IPv6 off on each end (no frames of the kernel's own on
        the wire: DAD, router solicitations); with bridge, a Linux bridge
        of that name takes the second end of every pair.  Skips the test
        unless root.  Sets self.ns and self.wrap (what runs a command in
        it)."""
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        self.ns = "%s%d" % (tag, os.getpid() % 100000)
        ip = ["ip", "-n", self.ns]
        self.wrap = ["ip", "netns", "exec", self.ns]
        run = functools.partial(subprocess.run, check=True,
                                capture_output=True, text=True)
        run(["ip", "netns", "add", self.ns])
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns],
                        capture_output=True)
        devs = [d for pair in pairs for d in pair]
        if bridge:
            run(ip + ["link", "add", bridge, "type", "bridge"])
            devs.append(bridge)
        for a, b in pairs:
            run(ip + ["link", "add", a, "type", "veth", "peer", "name", b])
            if bridge:
                run(ip + ["link", "set", b, "master", bridge])
        for d in devs:
            run(self.wrap + ["sysctl", "-qw",
                             "net.ipv6.conf.%s.disable_ipv6=1" % d])
            run(ip + ["link", "set", d, "up"])
        return self.wrap

    def assertOk(self, run, code=0):
        if run.rc != code:
            self.fail("exit %s, expected %s: %s\nlog: %s\nstderr tail:\n%s"
                      % (run.rc, code, " ".join(run.args), run.log,
                         run.err[-3000:]))
        # a clean exit: no EAL error on the way out (the memif close race
        # printed "EAL: Error: Invalid memory" from a double rte_free)
        if code == 0 and "EAL: Error" in run.err:
            self.fail("EAL error in a successful run: %s\nlog: %s\n%s"
                      % (" ".join(run.args), run.log, run.err[-3000:]))


    def interrupt_after_first_interval(self, eal, tool):
        """Start a run, wait for its first interval line, SIGINT it: it
        must stop within 5 s, exit 1 and say it was interrupted.  Returns
        (stdout, stderr)."""
        p, argv, log = self.nb.start(eal, tool)
        try:
            line, deadline = "", time.monotonic() + 30
            iv = re.compile(r"\[\s*(0|SUM)\]\s+[\d.]+-")
            while not iv.match(line) and time.monotonic() < deadline:
                line = p.stdout.readline()
                if not line and p.poll() is not None:
                    break
            self.assertRegex(line, iv)
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=15)
            took = time.monotonic() - t0
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        self.assertEqual(p.returncode, 1, err[-2000:])
        self.assertLess(took, 5)
        self.assertIn("interrupted", out)
        return out, err


def main():
    """Run the module's tests.  Skipped cases are said on stdout ("skipped
    cases: N", which scripts/test.sh adds up) and, when every case was
    skipped, the exit status is 77, which meson records as SKIP."""
    prog = unittest.main(verbosity=2, buffer=False, exit=False)
    res = prog.result
    if res.skipped:
        print("skipped cases: %d" % len(res.skipped))
        for case, why in res.skipped:
            print("  skipped %s: %s" % (case.id(), why))
    if not res.wasSuccessful():
        sys.exit(1)
    if res.testsRun and len(res.skipped) == res.testsRun:
        sys.exit(77)
    sys.exit(0)


if __name__ == "__main__":
    sys.exit("library module")
