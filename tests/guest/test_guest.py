# SPDX-License-Identifier: BSD-3-Clause
"""The tool on PCI NICs with their real DPDK drivers: a QEMU guest (TCG)
with two e1000e, two virtio-net-pci (2 queue pairs) and two vmxnet3 NICs
(scripts/guest.sh), bound inside to vfio-pci in no-IOMMU mode (e1000e,
virtio) and uio_pci_generic (vmxnet3).  Each pair is wired to itself: the
e1000e and vmxnet3 pairs by QEMU's UDP datagram backends, the virtio pair
by two taps with a tc mirred cable between them on the host.

One boot runs every case (tests/guest/guest_run.sh); each test asserts on
what the tool printed there.  The first run builds the image (minutes);
later runs reuse it.  Exit 77 (skipped) only when QEMU cannot start."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

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


def eal(addrs, prefix):
    return "%s --file-prefix %s %s" % (
        LCORES, prefix, " ".join("-a " + a for a in addrs))


def cases():
    """The guest's work, one line a case: NAME, EAL words, tool words."""
    out = []
    for name, _, _, addrs in NICS:
        out.append(("ports-" + name, eal(addrs, "p" + name),
                    "--list-ports --json"))
        for size in (64, 1518):
            out.append(("loop-%s-%d" % (name, size),
                        eal(addrs, "l" + name),
                        "--tx-port 0 --rx-port 1 --packets %d --size %d "
                        "--rate %s --streams 2 --json"
                        % (PACKETS, size, RATE)))
    # virtio's two queue pairs: four streams over both (RSS as the PMD has
    # it), a row per queue in the report
    out.append(("queues-virtio", eal(NICS[1][3], "qvirtio"),
                "--tx-port 0 --rx-port 1 --queues 2 --streams 8 --packets "
                "%d --size 64 --rate %s --json" % (PACKETS, RATE)))
    return out


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
        with open(os.path.join(job, "cases.txt"), "w") as f:
            for c in cases():
                f.write("\t".join(c) + "\n")
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts",
                                                 "guest.sh"), "boot", job])
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
        self.assertEqual(self.rc, 0, open(os.path.join(
            self.job, "out", "run.log")).read()[-3000:])

    def check_ports(self, name, driver, addrs):
        d = self.ran("ports-" + name)
        ports = d["ports"]
        self.assertEqual([p["name"] for p in ports], addrs)
        for p in ports:
            self.assertEqual(p["driver"], driver)
            self.assertEqual(p["bus"], "pci")
            self.assertTrue(p["link_up"], p)
            self.assertIn(p["offloads"]["tx_checksum"], ("hw", "sw"))
            prof = p["profile"]
            self.assertIsNotNone(prof, "no profile for %s" % driver)
            self.assertTrue(prof["agrees"], "%s: the PMD reports %s, the "
                            "profile says %s" % (driver, p["device"], prof))
        return ports

    def test_ports_e1000e(self):
        ports = self.check_ports(*self.nic("e1000e"))
        # QEMU's e1000e is an 82574: two queue pairs; the NIC's checksums
        # used (the em PMD has no vector path to lose)
        for p in ports:
            self.assertEqual(p["device"]["max_rx_queues"], 2)
            self.assertEqual(p["offloads"]["tx_checksum"], "hw")

    def test_ports_virtio(self):
        for p in self.check_ports(*self.nic("virtio")):
            self.assertGreaterEqual(p["device"]["max_rx_queues"], 2)

    def test_ports_vmxnet3(self):
        self.check_ports(*self.nic("vmxnet3"))

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
    unittest.main(verbosity=2)
