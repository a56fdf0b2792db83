# SPDX-License-Identifier: BSD-3-Clause
"""--metrics: /metrics over HTTP, parsed by Prometheus' own text parser
(Debian's python3-prometheus-client), during a test and after it; its
counters against the test's JSON; label cardinality bounded; a port in
use, a wrong path and a wrong method refused clearly."""
import os
import socket
import sys
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

import nbe2e

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import nbench  # noqa: E402

RATE = "200M" if nbe2e.SANITIZED else "1G"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape(port, path="/metrics"):
    """{(name, labels as a sorted tuple): value} of every sample, with
    the families' types under ("TYPE", name)."""
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path),
                                timeout=10) as r:
        ctype = r.headers["Content-Type"]
        text = r.read().decode()
    assert ctype.startswith("text/plain; version=0.0.4"), ctype
    out = {}
    for fam in text_string_to_metric_families(text):
        out[("TYPE", fam.name)] = fam.type
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def wait_for(port, timeout=60):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            return scrape(port)
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise AssertionError("no /metrics on port %d" % port)


class Metrics(nbe2e.E2ECase):

    def streams_of(self, m, name):
        return {dict(k[1])["stream"]: v for k, v in m.items()
                if k[0] == name and k[1]}

    def test_serve_scrapes_match_the_document(self):
        port = free_port()
        api = "unix:" + os.path.join(self.tmpdir, "api.sock")
        p, argv, log = self.nb.start(
            self.nb.eal(self.nb.memif_pair()),
            ["--serve", "--api", api, "--tx-port", "0", "--rx-port", "1",
             "--rate", RATE, "--metrics", "tcp:127.0.0.1:%d" % port],
            name="serve-metrics")
        self.addCleanup(lambda: p.poll() is None and p.kill())
        m = wait_for(port)
        self.assertEqual(m[("nbench_test_running", ())], 0)
        t0 = time.monotonic()
        while not os.path.exists(api[5:]) and time.monotonic() - t0 < 60:
            time.sleep(0.1)
        with nbench.Client(api) as c, nbench.Client(api) as w:
            c.start(time=3, streams=3)
            # during the test: parsed, running, counting
            seen = []
            for ev in w.intervals():
                if ev["event"] == "interval":
                    seen.append(scrape(port))
            self.assertGreaterEqual(len(seen), 2)
            live = [s for s in seen if s[("nbench_test_running", ())] == 1]
            self.assertTrue(live)
            self.assertGreater(live[0][("nbench_tx_packets_total", ())], 0)
            self.assertEqual(live[0][("TYPE", "nbench_latency_seconds")],
                             "histogram")
            doc = c.result()
            end = doc["end"]
            # after it: the test's counters, as its document has them
            m = scrape(port)
            self.assertEqual(m[("nbench_test_running", ())], 0)
            self.assertEqual(m[("nbench_tests_total", ())], 1)
            self.assertEqual(m[("nbench_tx_packets_total", ())],
                             end["sum_sent"]["packets"])
            self.assertEqual(m[("nbench_rx_packets_total", ())],
                             end["sum_received"]["packets"])
            self.assertEqual(m[("nbench_lost_packets", ())],
                             end["sum_received"]["lost_packets"])
            tx = self.streams_of(m, "nbench_stream_tx_packets_total")
            rx = self.streams_of(m, "nbench_stream_rx_packets_total")
            self.assertEqual(len(tx), 3)
            for k, s in enumerate(end["streams"]):
                self.assertEqual(tx[str(k)], s["sender"]["packets"])
                self.assertEqual(rx[str(k)], s["receiver"]["packets"])
            # the histogram: cumulative, +Inf its count, one sample a frame
            buckets = sorted((float(dict(k[1])["le"]), v)
                             for k, v in m.items()
                             if k[0] == "nbench_latency_seconds_bucket")
            counts = [v for _, v in buckets]
            self.assertEqual(counts, sorted(counts))
            self.assertEqual(buckets[-1][1],
                             m[("nbench_latency_seconds_count", ())])
            self.assertEqual(m[("nbench_latency_seconds_count", ())],
                             end["sum_received"]["packets"])
            # the PMD's counts beside the tool's, per port
            pmd_rx = sum(v for k, v in m.items()
                         if k[0] == "nbench_port_pmd_rx_packets_total")
            self.assertGreaterEqual(pmd_rx, end["sum_received"]["packets"])
            self.assertGreater(m[("nbench_tsc_hz", ())], 1e8)
            # bounded cardinality: 100 streams, 64 labelled
            c.run(time=1, streams=100)
            m = scrape(port)
            self.assertEqual(m[("nbench_streams", ())], 100)
            self.assertEqual(m[("nbench_streams_labelled", ())], 64)
            self.assertEqual(
                len(self.streams_of(m, "nbench_stream_tx_packets_total")),
                64)
            # a wrong path, a wrong method
            with self.assertRaises(urllib.error.HTTPError) as e:
                scrape(port, "/other")
            self.assertEqual(e.exception.code, 404)
            req = urllib.request.Request(
                "http://127.0.0.1:%d/metrics" % port, data=b"x",
                method="POST")
            with self.assertRaises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(req, timeout=10)
            self.assertEqual(e.exception.code, 405)
            # the port in use: a second process is refused, clearly
            r = self.nb.run(self.nb.eal(["--vdev", "net_null0"]),
                            ["--rx-port", "0", "--time", "1", "--metrics",
                             "tcp:127.0.0.1:%d" % port], name="metrics2")
            self.assertEqual(r.rc, 1)
            self.assertIn("--metrics tcp:127.0.0.1:%d: cannot listen" % port,
                          r.err)
            c.shutdown()
        p.wait(30)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err[-2000:])

    def test_cli_run_scraped_while_it_runs(self):
        port = free_port()
        p, argv, log = self.nb.start(
            self.nb.eal(self.nb.memif_pair()),
            ["--tx-port", "0", "--rx-port", "1", "--rate", RATE, "--time",
             "4", "--json", "--metrics", "tcp:127.0.0.1:%d" % port],
            name="cli-metrics")
        self.addCleanup(lambda: p.poll() is None and p.kill())
        m1 = wait_for(port)
        t0 = time.monotonic()
        while m1[("nbench_test_running", ())] == 0 and \
                time.monotonic() - t0 < 30:
            time.sleep(0.2)
            m1 = scrape(port)
        time.sleep(1)
        m2 = scrape(port)
        self.assertEqual(m2[("nbench_test_running", ())], 1)
        self.assertGreater(m2[("nbench_tx_packets_total", ())],
                           m1[("nbench_tx_packets_total", ())])
        info = [k for k in m2 if k[0] == "nbench_info"]
        self.assertEqual(dict(info[0][1])["mode"], "loopback")
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err[-2000:])
        end = nbe2e.loads(out)["end"]
        self.assertGreaterEqual(end["sum_sent"]["packets"],
                                m2[("nbench_tx_packets_total", ())])


if __name__ == "__main__":
    nbe2e.main()
