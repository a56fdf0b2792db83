# SPDX-License-Identifier: BSD-3-Clause
"""dpdk-nbench --serve driven through the in-tree Python client
(python/nbench) over memif: version, ports, back-to-back runs with no EAL
start-up, streamed interval events that add up to the result, stop
mid-test, the CLI's own messages for bad options, busy, key proofs on a
TCP socket, API version mismatch, malformed and oversized requests, a
status flood, shutdown (exit 0, no hugepage files left).  And the
MLRsearch-shaped measurer's search through the tbf bridge finds the limit
the server's own --test throughput finds."""
import json
import os
import socket
import subprocess
import sys
import time

import jsonschema

import json_schema_check
import nbe2e
import test_suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import nbench  # noqa: E402
from nbench.mlrsearch import Measurer, bisect_ndr  # noqa: E402

RATE = "200M" if nbe2e.SANITIZED else "1G"
# a run of T seconds answers within T + this (no EAL start-up per run)
SLACK = 1.0 if nbe2e.SANITIZED else 0.2


with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "..", "docs", "nbench-api.schema.json")) as _f:
    _API_SCHEMA = json.load(_f)
API = jsonschema.validators.validator_for(_API_SCHEMA)(_API_SCHEMA)


def read_msg(f):
    """One line from the server, checked against the API's schema."""
    m = json.loads(f.readline())
    API.validate(m)
    return m


def raw(path):
    """A bare socket to the API: (socket, file, hello)."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(path)
    f = s.makefile("rb")
    return s, f, read_msg(f)


def ask(s, f, line):
    s.sendall(line if isinstance(line, bytes) else line.encode())
    while True:
        m = read_msg(f)
        if "id" in m:
            return m


class Serve(nbe2e.E2ECase):

    def serve(self, extra=(), api=None, vdevs=None):
        """A --serve on a memif pair; (Popen, argv, api address)."""
        api = api or "unix:" + os.path.join(self.tmpdir, "api.sock")
        self.vdevs = vdevs or self.nb.memif_pair()
        eal = self.nb.eal(self.vdevs)
        p, argv, log = self.nb.start(
            eal, ["--serve", "--api", api, "--tx-port", "0", "--rx-port",
                  "1", "--rate", RATE] + list(extra), name="serve")
        self.addCleanup(self.end, p)
        # ready once it says so (the ports up, the socket listening)
        r = nbe2e.LineReader(p.stderr)
        t0 = time.monotonic()
        err = ""
        while time.monotonic() - t0 < 60:
            line = r.readline(1)
            if not line:
                if p.poll() is not None:
                    break
                continue
            err += line
            if "serve: API" in line:
                p.reader = r
                return p, argv, api
        p.kill()
        out, rest = p.communicate(timeout=30)
        self.fail("the server did not come up:\n%s%s" % (err, rest))

    def end(self, p):
        if p.poll() is None:
            p.terminate()
        try:
            p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()

    def finish(self, p, c):
        """shutdown: exit 0, no hugepage files (CheckedPopen checks)."""
        self.assertEqual(c.shutdown(), {"shutting_down": True})
        c.close()
        p.wait(30)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err[-2000:])
        return err

    def exact(self, doc):
        json_schema_check.check(doc, "run's document")
        end = doc["end"]
        sent = end["sum_sent"]["packets"]
        self.assertGreater(sent, 0)
        self.assertEqual(end["sum_received"]["packets"], sent)
        self.assertEqual(end["sum_received"]["lost_packets"], 0)
        return sent

    def test_version_ports_and_runs_back_to_back(self):
        p, argv, api = self.serve()
        with nbench.Client(api) as c:
            v = c.version()
            self.assertEqual(v["api_version"], nbench.API_VERSION)
            self.assertEqual(v["tool"], "dpdk-nbench")
            self.assertTrue(v["dpdk"].startswith("DPDK 22.11"), v)
            ports = c.ports()
            self.assertEqual([x["driver"] for x in ports],
                             ["net_memif", "net_memif"])
            self.assertIn("offloads", ports[0])
            took = []
            for i in range(10):
                t0 = time.monotonic()
                doc = c.run(time=1, streams=1 + i % 3)
                took.append(time.monotonic() - t0)
                self.assertNotIn("error", doc)
                self.exact(doc)
                self.assertEqual(len(doc["end"]["streams"]), 1 + i % 3)
                self.assertFalse(doc["end"]["interrupted"])
            print("\n  10 runs of 1 s answered in %s s"
                  % " ".join("%.3f" % t for t in took))
            self.assertLessEqual(max(took), 1 + SLACK, took)
            self.assertEqual(c.status()["run"], 10)
            self.finish(p, c)

    def test_intervals_add_up_and_stop(self):
        p, argv, api = self.serve()
        with nbench.Client(api) as c, nbench.Client(api) as w:
            run = c.start(time=3, streams=2)
            self.assertEqual(run, 1)
            ev = list(w.intervals())
            kinds = [e["event"] for e in ev]
            self.assertEqual(kinds[0], "start")
            self.assertEqual(kinds[-1], "end")
            self.assertEqual([e["index"] for e in ev], list(range(len(ev))))
            ivs = [e["data"] for e in ev if e["event"] == "interval"]
            self.assertGreaterEqual(len(ivs), 3)
            doc = c.result()
            sent = self.exact(doc)
            for k in range(2):
                self.assertEqual(
                    sum(iv["streams"][k]["packets"] for iv in ivs),
                    doc["end"]["streams"][k]["receiver"]["packets"])
            self.assertEqual(sum(iv["sum"]["packets"] for iv in ivs), sent)
            # stop mid-test: a partial result, marked interrupted
            c.start(time=60)
            it = w.intervals()
            for e in it:
                if e["event"] == "interval":
                    break
            t0 = time.monotonic()
            part = c.stop()
            self.assertLess(time.monotonic() - t0, 10)
            self.assertTrue(part["end"]["interrupted"])
            self.exact(part)
            self.assertLess(part["end"]["sum_sent"]["seconds"], 30)
            self.assertEqual(list(it)[-1]["event"], "end")
            st = c.status()
            self.assertEqual((st["state"], st["run"], st["exit_code"]),
                             ("done", 2, 1))
            # and the server goes on: a run after the stop is whole
            self.exact(c.run(time=1))
            self.finish(p, c)

    def test_errors_busy_and_bad_requests(self):
        p, argv, api = self.serve()
        path = api[5:]
        with nbench.Client(api) as c, nbench.Client(api) as d:
            # a bad option: the CLI's own message, through the same path
            cli = subprocess.run(
                [nbe2e.BIN, "--", "--tx-port", "0", "--rx-port", "1",
                 "--rate", "fast"], capture_output=True, text=True)
            self.assertEqual(cli.returncode, 2)
            msg = cli.stderr.splitlines()[0].split(": ", 1)[1]
            with self.assertRaises(nbench.BadParams) as e:
                c.run(rate="fast")
            self.assertEqual(e.exception.message, msg)
            with self.assertRaises(nbench.BadParams) as e:
                c.run(queues=2)
            self.assertIn("--queues", e.exception.message)
            with self.assertRaises(nbench.BadParams) as e:
                c.run(peer="02:00:00:00:00:01")
            with self.assertRaises(nbench.BadParams) as e:
                c.run(serve=True)
            self.assertIn("not an option of a run", e.exception.message)
            # busy: one test at a time
            c.start(time=30)
            with self.assertRaises(nbench.Busy) as e:
                d.run(time=1)
            self.assertIn("run 1 is in progress", e.exception.message)
            # another API major version: named both ways
            s, f, hello = raw(path)
            self.assertEqual(hello["params"]["api_version"],
                             nbench.API_VERSION)
            m = ask(s, f, '{"jsonrpc":"2.0","id":1,"method":"status",'
                    '"nbench_api":"2.3"}\n')
            self.assertEqual(m["error"]["code"], -32001)
            self.assertIn("the client speaks 2.3, this server 1.0",
                          m["error"]["message"])
            # malformed JSON, not a request, no method, over 1 MiB: each
            # answered, and the connection keeps serving
            m = ask(s, f, b'{"jsonrpc": "2.0", "id": 2, "method": \n')
            self.assertEqual(m["error"]["code"], -32700)
            m = ask(s, f, b'[1, 2]\n')
            self.assertEqual(m["error"]["code"], -32600)
            m = ask(s, f, '{"jsonrpc":"2.0","id":3,"method":"fly"}\n')
            self.assertEqual(m["error"]["code"], -32601)
            big = b'{"jsonrpc":"2.0","id":4,"method":"status","params":' \
                b'{"x":"' + b"a" * (1 << 20) + b'"}}\n'
            m = ask(s, f, big)
            self.assertEqual(m["error"]["code"], -32004)
            m = ask(s, f, '{"jsonrpc":"2.0","id":5,"method":"status"}\n')
            self.assertEqual(m["result"]["state"], "running")
            # a status flood at 1,000 requests/s while the test runs
            n, t0 = 2000, time.monotonic()
            for i in range(n):
                s.sendall(('{"jsonrpc":"2.0","id":%d,"method":"status"}\n'
                           % (100 + i)).encode())
                ahead = t0 + (i + 1) / 1000.0 - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
            got = [read_msg(f) for _ in range(n)]
            self.assertEqual([g["id"] for g in got],
                             list(range(100, 100 + n)))
            self.assertTrue(all(g["result"]["state"] == "running"
                                for g in got))
            s.close()
            # the test it ran beside is still exact
            part = c.stop()
            self.exact(part)
            # a second server on the same socket path: refused, clearly
            r = self.nb.run(self.nb.eal(self.nb.memif_pair()),
                            ["--serve", "--api", api, "--tx-port", "0",
                             "--rx-port", "1"], name="serve2")
            self.assertEqual(r.rc, 1)
            self.assertIn("the socket is in use: another --serve listens "
                          "there", r.err)
            # a second server on the same ports (the same memif socket):
            # its port does not come up, said clearly; the first one
            # serves on, exactly
            r = self.nb.run(self.nb.eal(self.vdevs),
                            ["--serve", "--api", "unix:" + os.path.join(
                                self.tmpdir, "api2.sock"), "--tx-port", "0",
                             "--rx-port", "1"], name="serve3")
            self.assertEqual(r.rc, 1)
            self.assertIn("--vdev net_memif0 did not come up", r.err)
            self.exact(c.run(time=1))
            self.assertEqual(c.version()["api_version"], "1.0")
            self.finish(p, c)

    def test_key_on_tcp(self):
        key = os.path.join(self.tmpdir, "api.key")
        with open(key, "wb") as f:
            f.write(os.urandom(32).hex().encode() + b"\n")
        os.chmod(key, 0o600)
        port = 17301 + os.getpid() % 1000
        api = "tcp:127.0.0.1:%d" % port
        p, argv, _ = self.serve(["--auth-key", key], api=api)
        with self.assertRaises(nbench.AuthError):
            nbench.Client(api)            # no key
        with self.assertRaises(nbench.AuthError):
            nbench.Client(api, key=os.urandom(32))
        # nothing before the proof
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        f = s.makefile("rb")
        hello = read_msg(f)
        self.assertEqual(hello["params"]["auth"], "hmac-sha256")
        m = ask(s, f, '{"jsonrpc":"2.0","id":1,"method":"version"}\n')
        self.assertEqual(m["error"]["code"], -32005)
        s.close()
        with nbench.Client(api, key=key) as c:
            self.exact(c.run(time=1))
            self.finish(p, c)

    def test_client_of_another_major(self):
        p, argv, api = self.serve()
        old = nbench.API_VERSION
        nbench.API_VERSION = "2.0"
        try:
            with self.assertRaises(nbench.VersionMismatch) as e:
                nbench.Client(api)
            self.assertIn("this client speaks 2.0, the server 1.0",
                          str(e.exception))
        finally:
            nbench.API_VERSION = old
        with nbench.Client(api) as c:
            self.finish(p, c)


class ServeBridge(test_suite.BridgeBase):
    """The measurer's search through the tbf-limited bridge against the
    server's own --test throughput on the same ports."""

    def test_measurer_finds_the_suite_limit(self):
        if nbe2e.SANITIZED:
            self.skipTest("a search's figures: the plain build's round "
                          "(the same code is under the Serve cases)")
        limit, size = 50e6, 1518
        self.limit(limit)
        api = "unix:" + os.path.join(self.tmpdir, "api.sock")
        eal = ["--no-pci", "--lcores", nbe2e.lcore_map(2), "--file-prefix",
               nbe2e.unique("sbr"), "--log-level", "lib.eal:error",
               "--vdev", "net_af_packet0,iface=tA",
               "--vdev", "net_af_packet1,iface=tB"]
        p, argv, log = self.nb.start(
            eal, ["--serve", "--api", api, "--tx-port", "0", "--rx-port",
                  "1", "--size", str(size)],
            wrap=["ip", "netns", "exec", self.t], name="serve-br")
        self.addCleanup(lambda: p.poll() is None and p.kill())
        t0 = time.monotonic()
        while not os.path.exists(api[5:]) and time.monotonic() - t0 < 60:
            time.sleep(0.1)
        prec_bps = 1e6
        with nbench.Client(api) as c:
            with self.assertRaises(nbench.BadParams):
                c.suite(trial_time=4)
            d = c.suite(test="throughput", trial_time=4, settle=0.5,
                        rate="400M", precision="1M")
            b = self.check_found_limit(d, limit, prec_bps, size=size)
            m = Measurer(c)
            l1 = (size + 20) * 8
            lo, hi = bisect_ndr(m, 0.0, 400e6 / l1, prec_bps / l1,
                                duration=4.0)
            print("\n  suite: %.1f..%.1f fps; measurer: %.1f..%.1f fps in "
                  "%d trials" % (b["pps"], b["upper_pps"], lo, hi,
                                 len(m.trials)))
            for t in m.trials:
                self.assertEqual(t.offered_count - t.loss_count,
                                 t.forwarding_count)
            self.assertLess(abs(lo - b["pps"]),
                            prec_bps / l1 + 0.02 * b["pps"])
            self.assertIsNotNone(hi)
            self.assertEqual(c.shutdown(), {"shutting_down": True})
        p.wait(60)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err[-2000:])


if __name__ == "__main__":
    nbe2e.main()
