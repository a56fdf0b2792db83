# SPDX-License-Identifier: BSD-3-Clause
"""A tidy exit and clear start-up errors (issue 34).

After rte_eal_cleanup() dpdk-nbench removes its own prefix's hugepage
files and runtime directory on every exit path (0; 1 from a fatal error;
2, a usage error found after EAL init; SIGINT and SIGTERM), never another
prefix's, and leaves alone what --huge-unlink and --in-memory leave (the
harness, nbe2e, fails any run that leaves hugepage files; these cases
also look at the runtime directory and at other prefixes' files).  At
start-up, a shortage of hugepages, a pool that cannot be made, a memif
socket in use and a device that does not come up each say what is
missing and how much.

Small hugetlbfs mounts of the test's own (mount -o size=) stand in for a
host short of hugepages: the host's pages are shared with other jobs.
"""
import errno
import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import nbe2e

MIB = 1 << 20
PAGE = 2 * MIB
# struct rte_mbuf (2 cache lines), RTE_PKTMBUF_HEADROOM, the default data
# room, and the mempool's object header (1 cache line) in DPDK 22.11
MBUF_STRUCT, HEADROOM, DATAROOM, OBJ_HEADER = 128, 128, 2048, 64


def rundir(prefix):
    return os.path.join("/var/run/dpdk", prefix)


# A process that holds files in a hugetlbfs mount as a DPDK process
# does (a shared flock on each, which is what EAL's own clean-up and
# dpdk-nbench's respect), until its stdin closes.
HOLDER = r"""
import fcntl, os, sys
fds = []
for path in sys.argv[1:]:
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.posix_fallocate(fd, 0, 2 << 20)
    fcntl.flock(fd, fcntl.LOCK_SH)
    fds.append(fd)
print("held", flush=True)
sys.stdin.read()
"""


class TidyExit(nbe2e.E2ECase):

    def mount(self, size_mb):
        """A hugetlbfs mount of 2 MiB pages limited to size_mb, gone
        after the case."""
        d = tempfile.mkdtemp(prefix="nbhuge")
        r = subprocess.run(["mount", "-t", "hugetlbfs", "-o",
                            "pagesize=2M,size=%dM" % size_mb, "nodev", d],
                           capture_output=True, text=True)
        if r.returncode != 0:
            os.rmdir(d)
            self.skipTest("cannot mount hugetlbfs: " + r.stderr.strip())
        self.addCleanup(os.rmdir, d)
        self.addCleanup(subprocess.run, ["umount", "-l", d])
        return d

    def hold(self, paths):
        """HOLDER on paths; released (and the process ended) after the
        case."""
        p = subprocess.Popen([sys.executable, "-c", HOLDER] + list(paths),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
        self.addCleanup(p.communicate)
        self.assertEqual(p.stdout.readline().strip(), "held")
        return p

    def assertNothingLeft(self, prefix, run):
        self.assertEqual(nbe2e.hugepage_files(prefix), [], run.log)
        self.assertFalse(os.path.exists(rundir(prefix)),
                         "%s still there; log %s" % (rundir(prefix),
                                                     run.log))

    def exit_line(self, err, prefix):
        """(files, MiB) of the debug line the tidy-up writes."""
        m = re.search(r"exit: (\d+) hugepage files of prefix %s removed "
                      r"\(([\d.]+) MiB\)" % re.escape(prefix), err)
        self.assertIsNotNone(m, err[-2000:])
        return int(m.group(1)), float(m.group(2))

    def test_exit0_removes_its_files_secondaries_work_meanwhile(self):
        """A successful memif loopback (socket files, not abstract): while
        it runs its files are there and telemetry (a client of its
        runtime directory) answers; after exit 0 none of its hugepage
        files, runtime directory or memif socket file is left."""
        prefix = nbe2e.unique("tidy0")
        sock = os.path.join(self.tmpdir, "m.sock")
        vdevs = ["--vdev", "net_memif0,role=server,socket=%s,"
                 "socket-abstract=no" % sock,
                 "--vdev", "net_memif1,role=client,socket=%s,"
                 "socket-abstract=no" % sock]
        eal = self.nb.eal(vdevs, prefix=prefix) + [
            "--log-level", "nbench:debug"]
        p, argv, log = self.nb.start(eal, ["--tx-port", "0", "--rx-port",
                                           "1", "--rate", "100Mpps",
                                           "--time", "3"])
        try:
            line, deadline = "", time.monotonic() + 30
            while not re.match(r"\[\s*(0|SUM)\]\s+[\d.]+-", line):
                self.assertLess(time.monotonic(), deadline)
                line = p.stdout.readline()
                self.assertTrue(line or p.poll() is None, "ended early")
            running = nbe2e.hugepage_files(prefix)
            self.assertTrue(os.path.exists(sock))   # a file, not abstract
            s = nbe2e.telemetry(prefix)
            self.assertEqual(nbe2e.telemetry_ask(s, "/ethdev/list"), [0, 1])
            s.close()
            out, err = p.communicate(timeout=30)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        run = nbe2e.Run(argv, p.returncode, out, err, 0, log)
        self.assertOk(run, 0)
        # EAL's pages were in the mount while it ran (2 MiB each)...
        self.assertGreaterEqual(len(running), 1)
        files, mib = self.exit_line(err, prefix)
        self.assertEqual(mib, files * PAGE / MIB)
        # ...and the tidy-up removed what rte_eal_cleanup() left
        self.assertGreaterEqual(files, 1)
        self.assertNothingLeft(prefix, run)
        self.assertFalse(os.path.exists(sock))

    def test_exit2_usage_error_after_eal(self):
        """No port: found after EAL init, exit 2 through die()."""
        prefix = nbe2e.unique("tidy2")
        r = self.nb.run(self.nb.eal([], prefix=prefix),
                        ["--tx-port", "0", "--rx-port", "1"], name="noport")
        self.assertOk(r, 2)
        self.assertIn("no ports: give a device", r.err)
        self.assertNothingLeft(prefix, r)

    def test_exit1_device_missing_names_it(self):
        """An af_packet vdev on an interface that does not exist: EAL
        logs its probe failure and carries on; the tool names the device
        and the interface, exits 1 through die(), and leaves nothing."""
        prefix = nbe2e.unique("tidy1")
        iface = "nbx%d" % (os.getpid() % 100000)
        r = self.nb.run(self.nb.eal(["--vdev", "net_af_packet0,iface=" +
                                     iface, "--vdev", "net_null1"],
                                    prefix=prefix),
                        ["--tx-port", "0", "--rx-port", "1", "--json"],
                        name="noiface")
        self.assertOk(r, 1)
        msg = ("--vdev net_af_packet0: network interface %s does not "
               "exist (in this network namespace): No such device" % iface)
        self.assertIn("dpdk-nbench: " + msg, r.err)
        self.assertEqual(r.json()["error"], msg)
        self.assertNothingLeft(prefix, r)

    def test_signals_while_running(self):
        """SIGINT and SIGTERM mid-test: the tool stops within 5 s, exit 1,
        and leaves nothing."""
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(sig=sig.name):
                prefix = nbe2e.unique("tidys")
                eal = self.nb.eal(["--vdev", "net_null0", "--vdev",
                                   "net_null1"], prefix=prefix)
                p, argv, log = self.nb.start(
                    eal, ["--tx-port", "0", "--rx-port", "1", "--rate",
                          "1Mpps", "--time", "60"])
                try:
                    line, deadline = "", time.monotonic() + 30
                    while not re.match(r"\[\s*(0|SUM)\]\s+[\d.]+-", line):
                        self.assertLess(time.monotonic(), deadline)
                        line = p.stdout.readline()
                        self.assertTrue(line or p.poll() is None)
                    t0 = time.monotonic()
                    p.send_signal(sig)
                    out, err = p.communicate(timeout=15)
                    took = time.monotonic() - t0
                finally:
                    if p.poll() is None:
                        os.killpg(p.pid, signal.SIGKILL)
                        p.communicate()
                run = nbe2e.Run(argv, p.returncode, out, err, took, log)
                self.assertOk(run, 1)
                self.assertLess(took, 5)
                self.assertIn("interrupted", out)
                self.assertNothingLeft(prefix, run)

    def test_huge_unlink_and_in_memory_respected(self):
        """--huge-unlink and --in-memory leave no hugepage files of their
        own: the tidy-up finds none to remove and says no error."""
        for opt in ("--huge-unlink", "--in-memory"):
            with self.subTest(opt=opt):
                prefix = nbe2e.unique("tidyu")
                eal = self.nb.eal(["--vdev", "net_null0", "--vdev",
                                   "net_null1"], prefix=prefix) + [
                    opt, "--log-level", "nbench:debug"]
                r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1",
                                      "--packets", "100000"], name="unlink")
                self.assertOk(r, 0)
                self.assertEqual(self.exit_line(r.err, prefix), (0, 0.0))
                self.assertNothingLeft(prefix, r)

    def test_hugepages_held_by_other_prefixes_untouched(self):
        """A --huge-dir of 4 pages, 2 of them held by files of two other
        prefixes (one that begins with ours): the tool cannot make its
        pools, says which prefixes hold how much and that no DPDK process
        of theirs runs, exits 1, and leaves their files alone."""
        mnt = self.mount(8)
        prefix = nbe2e.unique("tidyh")
        others = [prefix + "0", nbe2e.unique("other")]
        held = [os.path.join(mnt, o + "map_0") for o in others]
        self.hold(held)
        eal = self.nb.eal(["--vdev", "net_null0", "--vdev", "net_null1"],
                          prefix=prefix) + ["--huge-dir", mnt]
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1"],
                        name="held")
        self.assertOk(r, 1)
        self.assertIn("--huge-dir %s holds at most 4 pages (8 MiB)" % mnt,
                      r.err)
        for o in others:
            self.assertIn("%s (1 file, 2 MiB in %s, no DPDK process with "
                          "that prefix runs, but another process still "
                          "holds 1 of them)" % (o, mnt), r.err)
        for path in held:
            self.assertEqual(os.stat(path).st_blocks * 512, PAGE, path)
        self.assertNothingLeft(prefix, r)

    def test_huge_dir_too_small_stale_files_elsewhere(self):
        """A --huge-dir of 4 pages (8 MiB) cannot hold the RX pool: the
        message gives the mbufs and MiB the pool needs, the mount's limit,
        and the stale files of a gone process in another mount (2 pages),
        which it leaves for the user to remove; exit 1, the same in the
        JSON's "error"."""
        mnt = self.mount(8)
        other = self.mount(4)
        stale = nbe2e.unique("stale")
        for i in range(2):
            fd = os.open(os.path.join(other, "%smap_%d" % (stale, i)),
                         os.O_CREAT | os.O_RDWR, 0o600)
            os.posix_fallocate(fd, 0, PAGE)
            os.close(fd)
        prefix = nbe2e.unique("tidyd")
        lcores = nbe2e.lcore_map(2).count("@")
        eal = self.nb.eal(["--vdev", "net_null0", "--vdev", "net_null1"],
                          prefix=prefix) + ["--huge-dir", mnt]
        r = self.nb.run(eal, ["--tx-port", "0", "--rx-port", "1", "--json"],
                        name="small")
        self.assertOk(r, 1)
        # the RX pool: 1024 descriptors, 512 per lcore, 4096 in hand
        # (pmd_glue's nb_setup_ports); each mbuf an object of header,
        # struct, headroom and data room, and a ring slot (8 B)
        n = 1024 + 512 * lcores + 4096
        obj = OBJ_HEADER + MBUF_STRUCT + HEADROOM + DATAROOM
        need = "%.1f" % (n * (obj + 8) / MIB)
        err = r.json()["error"]
        self.assertTrue(err.startswith(
            "port 0: cannot create RX mbuf pool of %d mbufs on NUMA node "
            "0: Cannot allocate memory: %d mbufs of %d B need %s MiB; "
            % (n, n, obj, need)), err)
        self.assertRegex(err, r"--huge-dir %s holds at most 4 pages "
                         r"\(8 MiB\), [0-4] free" % re.escape(mnt))
        self.assertIn("%s (2 files, 4 MiB in %s, from a process no longer "
                      "running)" % (stale, other), err)
        self.assertIn("remove the files of processes no longer running "
                      "(see hugepages.md, 'Hugepage files left behind')",
                      err)
        self.assertIn("dpdk-nbench: " + err, r.err)
        self.assertEqual(sorted(os.listdir(other)),
                         ["%smap_0" % stale, "%smap_1" % stale])
        self.assertNothingLeft(prefix, r)

    def test_memory_asked_beyond_the_host(self):
        """-m one page more than the host has reserved: EAL stops at
        start; the message gives what was asked for and the host's free
        and reserved pages, exit 1, and nothing of the prefix is left."""
        hp = "/sys/kernel/mm/hugepages/hugepages-2048kB/"
        with open(hp + "nr_hugepages") as f:
            total = int(f.read())
        ask = (total + 1) * PAGE // MIB
        prefix = nbe2e.unique("tidyx")
        r = self.nb.run(self.nb.eal(["--vdev", "net_null0"], prefix=prefix)
                        + ["-m", str(ask)], ["--list-ports"], name="bigm")
        self.assertOk(r, 1)
        m = re.search(r"dpdk-nbench: EAL init failed: Cannot allocate "
                      r"memory\. Hugepages: -m/--socket-mem asks for "
                      r"(\d+) MiB at start; 2048kB pages: (\d+) of (\d+) "
                      r"free on the host", r.err)
        self.assertIsNotNone(m, r.err[-2000:])
        self.assertEqual(int(m.group(1)), ask)
        self.assertEqual(int(m.group(3)), total)
        self.assertLessEqual(int(m.group(2)), total)
        self.assertNothingLeft(prefix, r)

    def test_memif_socket_in_use_or_left_behind(self):
        """A memif server on a socket file (socket-abstract=no) where
        another process listens: exit 1, "in use"; where only a file is
        left (its listener gone): exit 1, "left behind", remove it.  The
        file is not ours: it stays."""
        path = os.path.join(self.tmpdir, "busy.sock")
        lst = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        lst.bind(path)
        lst.listen(1)
        vdev = ("net_memif0,role=server,socket=%s,socket-abstract=no"
                % path)
        cases = [
            ("is in use: another process listens on it (give this server "
             "a socket path of its own)"),
            ("already exists, and no process listens on it (Connection "
             "refused): a socket file left behind by a process no longer "
             "running; remove it"),
        ]
        for i, tail in enumerate(cases):
            with self.subTest(listening=i == 0):
                if i == 1:
                    lst.close()          # the file stays, nobody listens
                prefix = nbe2e.unique("tidym")
                r = self.nb.run(self.nb.eal(["--vdev", vdev, "--vdev",
                                             "net_null1"], prefix=prefix),
                                ["--tx-port", "0", "--rx-port", "1"],
                                name="memifbusy")
                self.assertOk(r, 1)
                self.assertIn("dpdk-nbench: --vdev net_memif0: memif "
                              "socket %s %s" % (path, tail), r.err)
                self.assertTrue(os.path.exists(path))
                self.assertNothingLeft(prefix, r)


if __name__ == "__main__":
    nbe2e.main()
