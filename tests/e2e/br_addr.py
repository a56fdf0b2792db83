#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Helpers run inside a test's network namespace (ip netns exec NS
/usr/bin/python3 br_addr.py ...) for test_rfc2889_addr.py:

  fdb-max BRIDGE N   set the bridge's IFLA_BR_FDB_MAX_LEARNED to N by a raw
                     rtnetlink RTM_NEWLINK (Debian's iproute2 6.1 has no
                     keyword for it); prints the value read back
  forget DEV BRIDGE  send one frame from a fresh MAC out of DEV (a veth
                     whose peer is a port of BRIDGE), wait until the
                     bridge has learned it, then time how long the bridge
                     keeps it: prints the seconds
"""
import os
import socket
import struct
import subprocess
import sys
import time

RTM_NEWLINK, RTM_GETLINK, NLMSG_ERROR = 16, 18, 2
NLM_F_REQUEST, NLM_F_ACK = 1, 4
IFLA_LINKINFO, IFLA_INFO_KIND, IFLA_INFO_DATA = 18, 1, 2
IFLA_BR_FDB_MAX_LEARNED = 49


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("HH", n, kind) + payload + b"\0" * (-n % 4)


def attrs(buf):
    while len(buf) >= 4:
        n, kind = struct.unpack_from("HH", buf)
        if n < 4:
            break
        yield kind & 0x3fff, buf[4:n]
        buf = buf[(n + 3) & ~3:]


def request(kind, body, flags):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    msg = struct.pack("IHHII", 16 + len(body), kind, flags, 1, 0) + body
    s.send(msg)
    data = s.recv(65536)
    s.close()
    n, typ = struct.unpack_from("IH", data)
    if typ == NLMSG_ERROR:
        err = struct.unpack_from("i", data, 16)[0]
        if err:
            raise OSError(-err, os.strerror(-err))
    return typ, data[16:n]


def fdb_max(br, n):
    ifi = struct.pack("BxHiII", 0, 0, socket.if_nametoindex(br), 0, 0)
    info = attr(IFLA_INFO_KIND, b"bridge\0") + attr(
        IFLA_INFO_DATA, attr(IFLA_BR_FDB_MAX_LEARNED, struct.pack("I", n)))
    request(RTM_NEWLINK, ifi + attr(IFLA_LINKINFO, info),
            NLM_F_REQUEST | NLM_F_ACK)
    _, body = request(RTM_GETLINK, ifi, NLM_F_REQUEST)
    for kind, val in attrs(body[16:]):
        if kind != IFLA_LINKINFO:
            continue
        for k2, v2 in attrs(val):
            for k3, v3 in attrs(v2) if k2 == IFLA_INFO_DATA else ():
                if k3 == IFLA_BR_FDB_MAX_LEARNED:
                    return struct.unpack("I", v3[:4])[0]
    return None


def held(br, mac):
    out = subprocess.run(["bridge", "fdb", "show", "br", br],
                         capture_output=True, text=True, check=True).stdout
    return any(line.split()[0] == mac for line in out.splitlines() if line)


def forget(dev, br):
    mac = "02:4e:42:ff:%02x:%02x" % (os.getpid() >> 8 & 255, os.getpid() & 255)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    frame = (b"\xff" * 6 + bytes.fromhex(mac.replace(":", "")) +
             b"\x88\xb5" + b"\0" * 46)   # a local experimental ethertype
    s.send(frame)
    t0 = time.monotonic()
    while not held(br, mac):
        if time.monotonic() - t0 > 5:
            raise SystemExit("the bridge did not learn " + mac)
        time.sleep(0.005)
    t1 = time.monotonic()
    while held(br, mac):
        if time.monotonic() - t1 > 600:
            raise SystemExit("the bridge did not forget " + mac)
        time.sleep(0.01)
    return time.monotonic() - t0


if __name__ == "__main__":
    if sys.argv[1] == "fdb-max":
        print(fdb_max(sys.argv[2], int(sys.argv[3])))
    elif sys.argv[1] == "forget":
        print("%.3f" % forget(sys.argv[2], sys.argv[3]))
