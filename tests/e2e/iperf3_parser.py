# SPDX-License-Identifier: BSD-3-Clause
"""A results parser written for iperf3's JSON (iperf3 -J), the way CI
scripts and dashboards read it.  It knows nothing of dpdk-nbench: the test
runs it on real iperf3 output first, then on dpdk-nbench's, unchanged."""
import json
import sys


def summarize(doc):
    """The numbers a typical iperf3 consumer takes from one result."""
    if "error" in doc and not doc.get("end"):
        return {"error": doc["error"]}
    ts = doc["start"]["test_start"]
    end = doc["end"]
    out = {
        "protocol": ts["protocol"],
        "num_streams": ts["num_streams"],
        "duration": ts["duration"],
        "omit": ts["omit"],
        "sent_bytes": end["sum_sent"]["bytes"],
        "sent_bps": end["sum_sent"]["bits_per_second"],
        "sent_seconds": end["sum_sent"]["seconds"],
        "received_bytes": end["sum_received"]["bytes"],
        "received_bps": end["sum_received"]["bits_per_second"],
        "received_seconds": end["sum_received"]["seconds"],
        "intervals": [],
        "streams": [],
    }
    if ts["protocol"] == "UDP":
        s = end["sum"]
        out.update(udp_packets=s["packets"], udp_lost=s["lost_packets"],
                   udp_lost_percent=s["lost_percent"],
                   udp_jitter_ms=s["jitter_ms"])
        for st in end["streams"]:
            u = st["udp"]
            out["streams"].append((u["socket"], u["bytes"],
                                   u["bits_per_second"], u["lost_packets"]))
    else:
        for st in end["streams"]:
            out["streams"].append((st["sender"]["bytes"],
                                   st["receiver"]["bytes"]))
    for iv in doc["intervals"]:
        s = iv["sum"]
        if s["omitted"]:
            continue
        out["intervals"].append((s["start"], s["end"], s["bytes"],
                                 s["bits_per_second"],
                                 len(iv["streams"])))
    if "error" in doc:
        out["error"] = doc["error"]
    return out


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps(summarize(json.load(f)), indent=1))
