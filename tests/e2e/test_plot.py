# SPDX-License-Identifier: BSD-3-Clause
"""scripts/nbench-plot turns a recorded --json result into PNG charts.

No DPDK, no hugepages: it only reads tests/data/memif-imix-2G.json,
memif-suite.json and memif-sweep.jsonl (and documents derived from them)
and checks the PNGs it writes.
"""
import copy
import json
import os
import struct
import subprocess
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(
    __file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "nbench-plot")
RESULT = os.path.join(ROOT, "tests", "data", "memif-imix-2G.json")
# recorded over a memif pair (EAL: two net_memif vdevs on one socket):
#   -- --tx-port 0 --rx-port 1 --test throughput,latency --size 256,1518 \
#      --rate 2G --trial-time 0.5 --settle 0 --json
#   -- --tx-port 0 --rx-port 1 --size 64:1518:*4 --rate 1G --time 0.3 \
#      --settle 0 --json-stream
SUITE = os.path.join(ROOT, "tests", "data", "memif-suite.json")
SUITE_STREAM = os.path.join(ROOT, "tests", "data", "memif-sweep.jsonl")
# recorded on a Linux bridge of four veth ports (af_packet), the bridge
# port of port 3 capped by a 50 Mbit/s tbf:
#   -- --ports 0,1,2,3 --rate 400M --size 1518 --time 1 --json
MESH = os.path.join(ROOT, "tests", "data", "bridge-mesh4.json")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHARTS = ["throughput", "loss", "latency-hist", "latency-cdf"]


def run(args, stdin=None):
    return subprocess.run([SCRIPT] + args, capture_output=True, text=True,
                          input=stdin, timeout=60)


def png_size(path):
    """(width, height) from the IHDR chunk; fails if not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == PNG_SIGNATURE, f"{path}: no PNG signature"
    length, ctype = struct.unpack(">I4s", head[8:16])
    assert ctype == b"IHDR" and length == 13, f"{path}: first chunk not IHDR"
    return struct.unpack(">II", head[16:24])


class Plot(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="nbench-plot-")
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name
        with open(RESULT, encoding="utf-8") as f:
            self.doc = json.load(f)

    def write_json(self, name, doc):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path

    def assert_pngs(self, p, names):
        """Exit 0, stdout lists exactly `names` (in self.dir/out), and each
        is a PNG larger than 200x200."""
        self.assertEqual(p.returncode, 0, p.stderr)
        expected = [os.path.join(self.dir, "out", n) for n in names]
        self.assertEqual(sorted(p.stdout.splitlines()), sorted(expected))
        for path in expected:
            with self.subTest(png=os.path.basename(path)):
                self.assertTrue(os.path.isfile(path), path)
                w, h = png_size(path)
                self.assertGreater(w, 200)
                self.assertGreater(h, 200)

    def test_recorded_result(self):
        p = run(["-o", os.path.join(self.dir, "out"), RESULT])
        self.assert_pngs(p, [f"memif-imix-2G-{c}.png" for c in CHARTS])

    def test_help(self):
        p = run(["-h"])
        self.assertEqual(p.returncode, 0)
        for opt in ["-o", "--prefix", "--title", "RESULT"]:
            self.assertIn(opt, p.stdout)

    def test_not_json(self):
        path = os.path.join(self.dir, "garbage.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write("dpdk-nbench: this is not JSON\n")
        p = run(["-o", self.dir, path])
        self.assertEqual(p.returncode, 2)
        self.assertIn("garbage.json", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_missing_file(self):
        p = run(["-o", self.dir, os.path.join(self.dir, "nope.json")])
        self.assertEqual(p.returncode, 2)
        self.assertIn("nope.json", p.stderr)

    def test_not_a_result(self):
        for name, doc in (("other.json", {"intervals": [], "sum": {}}),
                          ("list.json", [1, 2, 3]),
                          ("error-only.json", {"error": "no responder"}),
                          # what dpdk-nbench --json writes when no test ran
                          ("error-doc.json",
                           {"start": {"version": "dpdk-nbench 0.1.0"},
                            "intervals": [], "end": {},
                            "error": "no free hugepages"})):
            with self.subTest(name=name):
                p = run(["-o", self.dir, self.write_json(name, doc)])
                self.assertEqual(p.returncode, 2)
                self.assertIn(name, p.stderr)
                self.assertEqual(p.stdout, "")
        self.assertEqual(
            [f for f in os.listdir(self.dir) if f.endswith(".png")], [])

    def test_no_intervals_still_plots_latency(self):
        doc = copy.deepcopy(self.doc)
        doc["intervals"] = []
        path = self.write_json("peer.json", doc)
        p = run(["-o", os.path.join(self.dir, "out"), "--prefix", "pm",
                 path])
        self.assert_pngs(p, ["pm-latency-hist.png", "pm-latency-cdf.png"])
        self.assertIn("interval", p.stderr)

    def test_rtt_reverse_and_error_from_stdin(self):
        # a peer bidir result: round-trip probes, a reverse document, and
        # an error recorded with partial results
        doc = copy.deepcopy(self.doc)
        rtt = copy.deepcopy(doc["end"]["sum_received"]["latency"])
        rtt.update(method="rtt", probes_sent=1000, probes_returned=999,
                   probes_lost=1)
        doc["end"]["rtt"] = rtt
        doc["reverse"] = copy.deepcopy(self.doc)
        doc["reverse"]["intervals"] = []
        doc["error"] = "control connection lost"
        p = run(["-o", os.path.join(self.dir, "out"), "--prefix", "bd",
                 "-"], stdin=json.dumps(doc))
        self.assert_pngs(
            p, [f"bd-{c}.png" for c in CHARTS] +
            ["bd-rtt-hist.png", "bd-rtt-cdf.png",
             "bd-latency-hist-reverse.png", "bd-latency-cdf-reverse.png"])
        self.assertIn("control connection lost", p.stderr)

    def test_suite_charts(self):
        """A suite (throughput and latency at two sizes): the three suite
        charts, from --json and from the same events as JSON lines."""
        p = run(["-o", os.path.join(self.dir, "out"), SUITE])
        self.assert_pngs(p, [f"memif-suite-suite-{c}.png"
                             for c in ("throughput", "latency", "trials")])
        p = run(["-o", os.path.join(self.dir, "out"), SUITE_STREAM])
        self.assert_pngs(p, [f"memif-sweep-suite-{c}.png"
                             for c in ("throughput", "latency", "trials")])
        # a suite without latency rows and trials still gives its
        # throughput chart, and says what it skipped
        with open(SUITE, encoding="utf-8") as f:
            doc = json.load(f)
        doc["suite"]["results"] = [r for r in doc["suite"]["results"]
                                   if r["test"] == "throughput"]
        doc["suite"]["trials"] = []
        path = self.write_json("thr.json", doc)
        p = run(["-o", os.path.join(self.dir, "out"), "--prefix", "t",
                 path])
        self.assert_pngs(p, ["t-suite-throughput.png"])
        self.assertIn("suite-latency", p.stderr)
        self.assertIn("suite-trials", p.stderr)

    def test_mesh_heatmap(self):
        """A test of many ports: the usual charts and the pair heatmap;
        a result without end.mesh has none."""
        p = run(["-o", os.path.join(self.dir, "out"), MESH])
        self.assert_pngs(p, [f"bridge-mesh4-{c}.png"
                             for c in CHARTS + ["mesh-loss"]])
        w, h = png_size(os.path.join(self.dir, "out",
                                     "bridge-mesh4-mesh-loss.png"))
        self.assertGreater(w, 400)


if __name__ == "__main__":
    unittest.main(verbosity=2)
