# SPDX-License-Identifier: BSD-3-Clause
"""The kernel's end of test_tcp_kernel.py, run inside a network namespace.

    tcp_peer.py sink PORT [ADDR]     accept one connection, count its bytes
                                     to EOF, print "bytes N eof", close
                                     (ADDR: 0.0.0.0, or :: for IPv6)
    tcp_peer.py echo PORT [ADDR]     accept one connection, send back what
                                     comes, print "echoed N eof"
    tcp_peer.py send HOST PORT N     connect, send N bytes of dpdk-nbench's
                                     stream pattern (docs/protocol.md),
                                     shut down, wait for the peer's FIN

The pattern is computed here from its definition, not taken from the tool:
x = x * 1664525 + 1013904223 (mod 2^32) from x = 1, byte = x >> 24, a
period of 65521 bytes."""
import socket
import sys
import time

PERIOD = 65521


def pattern():
    x, t = 1, bytearray(PERIOD)
    for i in range(PERIOD):
        x = (x * 1664525 + 1013904223) & 0xffffffff
        t[i] = x >> 24
    return bytes(t)


def listener(port, addr):
    s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    return s


def sink(port, addr):
    s = listener(port, addr)
    s.listen(1)
    print("listening", flush=True)
    c, _ = s.accept()
    n = 0
    while True:
        b = c.recv(1 << 20)
        if not b:
            break
        n += len(b)
    print("bytes %d eof" % n, flush=True)
    c.close()


def echo(port, addr):
    """Send back every byte, until EOF (a request/response server)."""
    s = listener(port, addr)
    s.listen(1)
    print("listening", flush=True)
    c, _ = s.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    n = 0
    while True:
        b = c.recv(65536)
        if not b:
            break
        c.sendall(b)
        n += len(b)
    print("echoed %d eof" % n, flush=True)
    c.close()


def send(host, port, total):
    t = pattern()
    chunk = t * 16
    deadline = time.monotonic() + 20
    while True:     # the tool's listener may not answer ARP yet
        try:
            s = socket.create_connection((host, port), timeout=5)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    sent = 0
    while sent < total:
        off = sent % PERIOD
        n = min(total - sent, len(chunk) - PERIOD)
        s.sendall(chunk[off:off + n])
        sent += n
    s.shutdown(socket.SHUT_WR)
    while s.recv(65536):
        pass
    s.close()
    print("sent %d" % sent, flush=True)


if __name__ == "__main__":
    if sys.argv[1] in ("sink", "echo"):
        where = sys.argv[3] if len(sys.argv) > 3 else "0.0.0.0"
        (sink if sys.argv[1] == "sink" else echo)(int(sys.argv[2]), where)
    else:
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
