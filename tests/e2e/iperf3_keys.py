# SPDX-License-Identifier: BSD-3-Clause
"""Real iperf3 runs on 127.0.0.1 and the key paths of their JSON, to hold
dpdk-nbench's documents to iperf3 3.12's keys (docs/usage.md, "iperf3's
keys")."""
import json
import os
import signal
import subprocess
import time


def run(client_args, timeout=30):
    """A real iperf3 test on loopback: its -J document."""
    port = 20000 + os.getpid() % 20000
    srv = subprocess.Popen(["iperf3", "-s", "-1", "-B", "127.0.0.1", "-p",
                            str(port)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        d = {}
        for _ in range(50):
            c = subprocess.run(["iperf3", "-c", "127.0.0.1", "-p", str(port),
                                "-J", "-t", "1"] + list(client_args),
                               capture_output=True, text=True,
                               timeout=timeout)
            d = json.loads(c.stdout)
            if "error" not in d:
                return d
            time.sleep(0.1)   # the server was not listening yet
        raise AssertionError("iperf3 did not run: %s" % d.get("error"))
    finally:
        if srv.poll() is None:
            os.killpg(srv.pid, signal.SIGTERM)
        srv.wait(timeout=10)


def kind(v):
    """A JSON value's type as a reader sees it: iperf3 (cJSON) writes 5.0
    as 5, so integers and reals are one kind."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "null"
    return "array" if isinstance(v, list) else "object"


def paths(doc, prefix=""):
    """{".end.streams[].udp.bytes": "number", ...}: every leaf's path, with
    array elements merged (each element must give the same kind)."""
    out = {}

    def walk(o, p):
        if isinstance(o, dict):
            for k, v in o.items():
                walk(v, p + "." + k)
        elif isinstance(o, list):
            for v in o:
                walk(v, p + "[]")
        else:
            k = kind(o)
            if out.setdefault(p, k) != k:
                out[p] = "mixed"
    walk(doc, prefix)
    return out


def differences(ref, ours, allowed=()):
    """Paths of iperf3's document that ours lacks or types differently,
    less the allowed ones (prefixes): a list of readable lines."""
    want, have = paths(ref), paths(ours)
    bad = []
    for p, k in sorted(want.items()):
        if any(p.startswith(a) for a in allowed):
            continue
        if p not in have:
            bad.append("missing %s (%s)" % (p, k))
        elif have[p] != k:
            bad.append("%s is %s, iperf3 has %s" % (p, have[p], k))
    return bad
