# SPDX-License-Identifier: BSD-3-Clause
"""Run inside a network namespace: hostile and foreign frames at a
responder through a raw AF_PACKET socket.

    wire_inject.py IFACE DST_MAC DST_IP SRC_IP COUNT [KEY_FILE]

1. A HELLO of the control protocol version after ours: the
   responder must answer with an ERROR that says "version mismatch"
   (printed as VERSION-ERROR: ...).
2. COUNT fuzzed frames: random bytes, truncated and bit-flipped control
   datagrams (seeded with a valid HELLO of this version: the 562-byte body with
   a client nonce; the responder must answer it WELCOME first), bad
   checksums, odd ethertypes.  The caller then checks
   the responder is alive and still serving.
Prints one JSON line with what was sent and received.  Control messages
come from nbctl.py (in this directory)."""
import json
import random
import socket
import struct
import sys
import time

import nbctl


def udp_frame(dst_mac, src_mac, src_ip, dst_ip, payload, sport=7201,
              dport=7201):
    return nbctl.udp_frame(dst_mac, src_mac, src_ip, dst_ip, payload,
                           sport=sport, dport=dport)


def hello(version, src_mac, src_ip, session=0x1234567, seq=1, nonce=None,
          psk=None):
    """A HELLO as a client sends it (562 bytes of body with the client
    nonce and flags, tagged with the HELLO key of psk, or of no key);
    `version` in the header only."""
    cn = nonce or bytes(range(16))
    body = nbctl.conf(cn, mac=src_mac, ipv4=nbctl.ip_int(src_ip),
                      host="wire_inject",
                      flags=nbctl.CONF_F_KEY if psk else 0)
    return nbctl.encode(nbctl.HELLO, session, seq, body, version=version,
                        auth=nbctl.hello_auth(psk, cn, session))


def main():
    iface, dmac, dip, sip, count = sys.argv[1:6]
    psk = None
    if len(sys.argv) > 6:   # the responder's key file
        with open(sys.argv[6], "rb") as f:
            psk = f.read().rstrip(b"\r\n")
    dst_mac = bytes.fromhex(dmac.replace(":", ""))
    dst_ip = socket.inet_aton(dip)
    src_ip = socket.inet_aton(sip)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    src_mac = s.getsockname()[4]
    s.settimeout(0.2)
    out = {"sent": 0, "version_error": None}

    # 1. version mismatch
    frame = udp_frame(dst_mac, src_mac, src_ip, dst_ip,
                      hello(nbctl.VERSION + 1, src_mac, src_ip))
    deadline = time.monotonic() + 5
    while out["version_error"] is None and time.monotonic() < deadline:
        s.send(frame)
        out["sent"] += 1
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            try:
                f = s.recv(2048)
            except socket.timeout:
                break
            if len(f) < 42 or f[12:14] != b"\x08\x00" or f[23] != 17:
                continue
            ihl = (f[14] & 15) * 4
            sport, = struct.unpack("!H", f[14 + ihl:16 + ihl])
            payload = f[14 + ihl + 8:]
            if sport == 7201 and len(payload) >= 16 and payload[5] == 15:
                reason = payload[18:18 + 128].split(b"\0")[0].decode()
                out["version_error"] = reason
                break

    # 2. fuzz, from a HELLO the responder takes: it answers WELCOME
    good = hello(nbctl.VERSION, src_mac, src_ip, psk=psk)
    out["welcome"] = False
    frame = udp_frame(dst_mac, src_mac, src_ip, dst_ip, good)
    deadline = time.monotonic() + 5
    while not out["welcome"] and time.monotonic() < deadline:
        s.send(frame)
        out["sent"] += 1
        end = time.monotonic() + 0.3
        while time.monotonic() < end and not out["welcome"]:
            try:
                f = s.recv(2048)
            except socket.timeout:
                break
            u = nbctl.parse_udp(f)
            if u.ok and u.sport == nbctl.CONTROL_PORT:
                try:
                    m = nbctl.decode(u.payload)
                except ValueError:
                    continue
                out["welcome"] = m.type == nbctl.WELCOME and m.tagged
    rnd = random.Random(int(count))
    for i in range(int(count)):
        k = i % 6
        if k == 0:
            f = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(14, 300)))
        elif k == 1:
            p = bytearray(good)
            for _ in range(rnd.randint(1, 8)):
                p[rnd.randrange(len(p))] = rnd.getrandbits(8)
            f = udp_frame(dst_mac, src_mac, src_ip, dst_ip, bytes(p))
        elif k == 2:
            f = udp_frame(dst_mac, src_mac, src_ip, dst_ip,
                          good[:rnd.randint(0, len(good) - 1)])
        elif k == 3:
            f = bytearray(udp_frame(dst_mac, src_mac, src_ip, dst_ip, good))
            f[rnd.randrange(14, len(f))] ^= 1 << rnd.randrange(8)
            f = bytes(f)
        elif k == 4:
            f = dst_mac + src_mac + struct.pack("!H", rnd.getrandbits(16)) + \
                bytes(rnd.getrandbits(8) for _ in range(50))
        else:
            # an ordinary-looking data frame with a bogus stamp
            f = udp_frame(dst_mac, src_mac, src_ip, dst_ip,
                          b"NB" + bytes(rnd.getrandbits(8) for _ in range(20)),
                          sport=49152, dport=5001)
        s.send(f)
        out["sent"] += 1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
