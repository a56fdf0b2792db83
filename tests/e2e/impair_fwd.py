#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""An independent instrument for the e2e tests: a forwarder between two
interfaces (run inside the network namespace that holds them) that drops,
duplicates, reorders and delays chosen dpdk-nbench data frames, and logs
exactly what it did.  It parses frames from docs/protocol.md's byte table,
not from the tool's code.

    impair_fwd.py IN OUT PLAN.json LOG.jsonl READY_FILE

PLAN: {"drop": [[stream, seq], ...], "dup": [...], "swap": [...],
       "delay_us": 0, "jitter_us": 0, "both_ways": false, "idle_s": 3,
       "stall": [stream, seq, ms]}
  swap [s, q]: frame q of stream s is held and sent right after q + 1.
  stall: when frame seq of stream is due, nothing leaves for ms
    milliseconds (then everything due goes at once); the summary's
    "stall_ns" is [start, end].
  delay_us: every data frame leaves that long after it arrived.
  jitter_us: frames with an odd seq are held that much longer.
  both_ways: also forward OUT -> IN, untouched (a peer's answers).
Everything else (control, ARP, warm-up) is forwarded untouched.  The
forwarder ends when no frame has come for idle_s seconds after the first
one, or on SIGTERM.  LOG has one JSON object per data frame it saw:
  {"s": stream, "q": seq, "act": "fwd"|"drop"|"dup"|"swap",
   "tx_ns": stamp, "in_ns": arrival, "out_ns": [send times]}
(times from CLOCK_MONOTONIC; the stamp from the frame, in the sender's
clock), then {"summary": {...}}.
"""
import heapq
import json
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
MAGIC_DATA = 0x4E42


def parse(frame):
    """(stream, seq, tx_ns) of a dpdk-nbench UDP data frame, else None."""
    off = 14
    if len(frame) < 14:
        return None
    etype = struct.unpack_from("!H", frame, 12)[0]
    if etype == 0x8100:
        off = 18
        etype = struct.unpack_from("!H", frame, 16)[0]
    if etype != 0x0800 or len(frame) < off + 20 + 8 + 14:
        return None
    if frame[off + 9] != 17:                 # UDP
        return None
    ihl = (frame[off] & 15) * 4
    l4 = off + ihl
    sport, dport = struct.unpack_from("!HH", frame, l4)
    if dport != 5001:
        return None
    magic = struct.unpack_from("!H", frame, l4 + 8)[0]
    if magic != MAGIC_DATA:
        return None
    seq = int.from_bytes(frame[l4 + 10:l4 + 16], "big")
    ts = int.from_bytes(frame[l4 + 16:l4 + 22], "big")
    return sport - 49152, seq, ts


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def main():
    iface_in, iface_out, plan_path, log_path, ready = sys.argv[1:6]
    with open(plan_path) as f:
        plan = json.load(f)
    drop = {tuple(x) for x in plan.get("drop", [])}
    dup = {tuple(x) for x in plan.get("dup", [])}
    swap = {tuple(x) for x in plan.get("swap", [])}
    delay = plan.get("delay_us", 0) * 1000
    jitter = plan.get("jitter_us", 0) * 1000
    idle_s = plan.get("idle_s", 3)
    stall = tuple(plan["stall"][:2]) if plan.get("stall") else None
    stall_ns = plan["stall"][2] * 1000000 if stall else 0
    pause_until = 0

    rin = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                        socket.htons(ETH_P_ALL))
    rin.bind((iface_in, 0))
    rout = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_ALL))
    rout.bind((iface_out, 0))
    for s in (rin, rout):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 24)
    socks = [rin] + ([rout] if plan.get("both_ways") else [])
    log = open(log_path, "w")
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    heap = []   # (due_ns, order, frame, record)
    order = 0
    held = {}   # (stream, seq + 1) -> (frame, record) waiting for its swap
    counts = {"fwd": 0, "drop": 0, "dup": 0, "swap": 0, "other": 0,
              "back": 0}
    first = last = None
    with open(ready, "w") as f:
        f.write("ready\n")

    def send(frame, rec):
        rout.send(frame)
        rec["out_ns"].append(now_ns())

    def flush_record(rec):
        if not rec.get("_open"):
            log.write(json.dumps({k: v for k, v in rec.items()
                                  if not k.startswith("_")}) + "\n")

    while not stop:
        t = now_ns()
        while heap and heap[0][0] <= t and t >= pause_until:
            item = heapq.heappop(heap)
            _, _, frame, rec, final = item
            if stall == (rec["s"], rec["q"]) and "stall_ns" not in counts:
                pause_until = t + stall_ns
                counts["stall_ns"] = [t, pause_until]
                heapq.heappush(heap, item)
                break
            send(frame, rec)
            if final:
                flush_record(rec)
        if last is not None and t - last > idle_s * 1e9 and not heap \
                and not held:
            break
        timeout = 0.05
        if heap:
            due = max(heap[0][0], pause_until)
            timeout = max(0.0, min(timeout, (due - t) / 1e9))
        r, _, _ = select.select(socks, [], [], timeout)
        for s in r:
            data, addr = s.recvfrom(65535)
            if addr[2] == PACKET_OUTGOING:
                continue
            if s is rout:           # the other way: untouched
                rin.send(data)
                counts["back"] += 1
                continue
            arrived = now_ns()
            p = parse(data)
            if p is None:
                rout.send(data)
                counts["other"] += 1
                continue
            if first is None:
                first = arrived
            last = arrived
            key = (p[0], p[1])
            rec = {"s": p[0], "q": p[1], "act": "fwd", "tx_ns": p[2],
                   "in_ns": arrived, "out_ns": []}
            due = arrived + delay + (jitter if p[1] % 2 else 0)
            if key in drop:
                rec["act"] = "drop"
                counts["drop"] += 1
                flush_record(rec)
                continue
            copies = 1
            if key in dup:
                rec["act"] = "dup"
                counts["dup"] += 1
                copies = 2
            if key in swap:
                rec["act"] = "swap"
                counts["swap"] += 1
                held[(p[0], p[1] + 1)] = (data, rec)
                continue
            for i in range(copies):
                order += 1
                heapq.heappush(heap, (due, order, data, rec,
                                      i == copies - 1))
            counts["fwd"] += 1
            if key in held:         # the held one goes right after this
                hdata, hrec = held.pop(key)
                order += 1
                heapq.heappush(heap, (due, order, hdata, hrec, True))
    # whatever is still held goes out now
    for hdata, hrec in held.values():
        send(hdata, hrec)
        flush_record(hrec)
    while heap:
        _, _, frame, rec, final = heapq.heappop(heap)
        send(frame, rec)
        if final:
            flush_record(rec)
    log.write(json.dumps({"summary": counts}) + "\n")
    log.close()


if __name__ == "__main__":
    main()
