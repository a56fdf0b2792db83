# SPDX-License-Identifier: BSD-3-Clause
"""dpdk-nbench control protocol version 10 on the wire, written from the
specification (docs/protocol.md, nb_ctl.h, nb_auth.h) rather than from the
C code: the e2e tests talk to a real responder with it, so it must stay an
independent implementation.

    header (16 B, big endian): magic "NBCM" u32, version u8, type u8
    (| 0x80 when a 16-byte tag ends the message), length u16 (the whole
    UDP payload), session u32, seq u32; then the body; then the tag.

    K   = HMAC-SHA256(PSK or b"dpdk-nbench no key",
                      b"nbench session" | cn | cookie | session_be32)
    tag = HMAC-SHA256(K, cn | cookie | message without its tag)[:16]
    K_hello = HMAC-SHA256(PSK or b"dpdk-nbench no key",
                      b"nbench hello" | cn | 16 zeros | session_be32),
          the HELLO's tag key (with 16 zeros in the cookie's place)
    The cookie is opaque to a client (8 fresh bytes of the responder's and
    8 of its MAC); QUIT's body ends with 130 zero bytes of padding.

Also: Ethernet/IPv4/UDP frames for raw AF_PACKET sockets, and data frames
built like the tool's (the stamp: magic, 48-bit seq, 48-bit timestamp; the
stream id in the IPv4 Identification field)."""
import hashlib
import hmac
import os
import socket
import struct

MAGIC = 0x4E42434D
VERSION = 12
HDR_LEN = 16
F_TAG = 0x80
TAG_LEN = 16
NONCE = 16
CONTROL_PORT = 7201
NO_KEY = b"dpdk-nbench no key"

(HELLO, WELCOME, BUSY, PARAMS, ACCEPT, REJECT, START, KEEPALIVE, STOP,
 RESULTS_REQ, RESULTS, DONE, QUIT, ACK, ERROR, INTERVAL) = range(1, 17)
TYPE_NAMES = {v: k for k, v in dict(
    HELLO=HELLO, WELCOME=WELCOME, BUSY=BUSY, PARAMS=PARAMS, ACCEPT=ACCEPT,
    REJECT=REJECT, START=START, KEEPALIVE=KEEPALIVE, STOP=STOP,
    RESULTS_REQ=RESULTS_REQ, RESULTS=RESULTS, DONE=DONE, QUIT=QUIT, ACK=ACK,
    ERROR=ERROR, INTERVAL=INTERVAL).items()}

(CODE_VERSION, CODE_MALFORMED, CODE_STATE, CODE_SESSION, CODE_PARAMS,
 CODE_RESOURCES, CODE_PORT, CODE_TIMEOUT, CODE_INTERNAL, CODE_POLICY,
 CODE_AUTH) = range(1, 12)

CONF_LEN = 562
OFFER_PORTS = 16
CONF_NONCE_OFF = 348
CONF_FLAGS_OFF = 364
CONF_F_KEY = 1
MACS_MAX = 7
PARAMS_LEN = 704
MESH_LEN = 420
PROOF_LEN = 32
QUIT_PAD = 130
ZERO_SN = b"\0" * 16
BUSY_LEN = 68
REJECT_LEN = 130
KEEPALIVE_LEN = 24

DIR_FORWARD, DIR_REVERSE, DIR_BIDIR = 0, 1, 2

DATA_MAGIC, WARMUP_MAGIC, PROBE_MAGIC = 0x4E42, 0x4E57, 0x4E50
SPORT_BASE, DPORT = 49152, 5001


def _str(s, n):
    b = s.encode() if isinstance(s, str) else bytes(s)
    b = b[:n - 1]
    return b + b"\0" * (n - len(b))


def _cstr(b):
    return b.split(b"\0", 1)[0].decode(errors="replace")


# --- bodies ------------------------------------------------------------------

def conf(nonce, flags=0, mac=b"\0" * 6, ipv4=0, host="nbctl",
         tool_version="nbctl", dpdk="", cpu="", os_name="", driver="",
         link_speed=0, nb_ports=1, nb_rxq=1, nb_txq=1, nb_workers=1,
         numa_node=-1, boot_id="", tsc_hz=0, tsc_bound_ppb=0, offer=()):
    """HELLO/WELCOME body, 562 bytes; offer: the (id, MAC[, link speed in
    Mbit/s]) of the ports offered to a mesh (since version 11; speeds
    since 12)."""
    b = (_str(tool_version, 16) + _str(dpdk, 32) + _str(host, 64) +
         _str(cpu, 64) + _str(os_name, 64) + _str(driver, 32) +
         struct.pack("!IHHHHh", link_speed, nb_ports, nb_rxq, nb_txq,
                     nb_workers, numa_node) + bytes(mac) +
         struct.pack("!I", ipv4) + _str(boot_id, 40) +
         struct.pack("!QI", tsc_hz, tsc_bound_ppb) + bytes(nonce) +
         struct.pack("!I", flags) + offer_bytes(offer))
    assert len(b) == CONF_LEN, len(b)
    return b


def parse_conf(b):
    assert len(b) == CONF_LEN
    o = {}
    pos = 0
    for name, n in (("tool_version", 16), ("dpdk", 32), ("host", 64),
                    ("cpu", 64), ("os", 64), ("driver", 32)):
        o[name] = _cstr(b[pos:pos + n])
        pos += n
    (o["link_speed"], o["nb_ports"], o["nb_rxq"], o["nb_txq"],
     o["nb_workers"], o["numa_node"]) = struct.unpack_from("!IHHHHh", b, pos)
    pos += 14
    o["mac"] = b[pos:pos + 6]
    o["ipv4"], = struct.unpack_from("!I", b, pos + 6)
    o["nonce"] = b[CONF_NONCE_OFF:CONF_NONCE_OFF + NONCE]
    o["flags"], = struct.unpack_from("!I", b, CONF_FLAGS_OFF)
    n = b[CONF_FLAGS_OFF + 4]
    speeds = CONF_FLAGS_OFF + 6 + 8 * OFFER_PORTS
    o["offer"] = [(struct.unpack_from("!H", b, CONF_FLAGS_OFF + 6 + 8 * i)[0],
                   b[CONF_FLAGS_OFF + 8 + 8 * i:CONF_FLAGS_OFF + 14 + 8 * i],
                   struct.unpack_from("!I", b, speeds + 4 * i)[0])
                  for i in range(n)]
    return o


def offer_bytes(offer):
    """The ports an end offers to a mesh (version 12): count, reserved
    0, 16 slots of (id u16, MAC), then 16 link speeds (u32 Mbit/s), the
    unused ones 0.  Each port (id, MAC) or (id, MAC, speed)."""
    b = bytes([len(offer), 0])
    for p in offer:
        b += struct.pack("!H", p[0]) + bytes(p[1])
    b += b"\0" * (8 * (OFFER_PORTS - len(offer)))
    for p in offer:
        b += struct.pack("!I", p[2] if len(p) > 2 else 0)
    return b + b"\0" * (4 * (OFFER_PORTS - len(offer)))


def params(cn, cookie, direction=DIR_FORWARD, proto=17, vlan=0, streams=1,
           sizes=(512,), pattern=(0,), rate_num=1000, rate_den=1, packets=0,
           duration_ms=1000, omit_ms=0, latency_rate=0, client_ip=0,
           responder_ip=0, client_mac=b"\0" * 6, responder_mac=b"\0" * 6,
           sport_base=SPORT_BASE, dport=DPORT, interval_ms=0, tcp=0,
           tcp_flags=0, tcp_cc=0, tcp_window=0, tcp_msg=0, nbytes=0,
           client_macs=(), peer_timeout_ms=2000, mesh=b"\0" * MESH_LEN):
    """PARAMS body, 704 bytes, ending in the proof (cn, cookie); the
    closed-loop TCP fields (since version 7), the client's peer timeout
    (since version 10), its other source MACs (since version 8) and a
    mesh across hosts (since version 11; 420 zeros: none) before it."""
    sz = list(sizes) + [0] * (16 - len(sizes))
    pat = list(pattern) + [0] * (64 - len(pattern))
    b = (struct.pack("!BBHIH", direction, proto, vlan, streams, len(sizes)) +
         struct.pack("!16H", *sz) + struct.pack("!H", len(pattern)) +
         bytes(pat) +
         struct.pack("!6Q", rate_num, rate_den, packets, duration_ms,
                     omit_ms, latency_rate) +
         struct.pack("!II", client_ip, responder_ip) + bytes(client_mac) +
         bytes(responder_mac) + struct.pack("!HHI", sport_base, dport,
                                             interval_ms) +
         struct.pack("!BBBBIIQ", tcp, tcp_flags, tcp_cc, 0, tcp_window,
                     tcp_msg, nbytes) +
         struct.pack("!I", peer_timeout_ms) +
         macs(client_macs) + bytes(mesh) + proof(cn, cookie))
    assert len(b) == PARAMS_LEN, len(b)
    return b


def macs(lst):
    """A MAC list (since version 8): count, reserved 0, MACS_MAX slots
    of 6 bytes, the unused ones 0."""
    lst = [bytes(m) for m in lst]
    return bytes([len(lst), 0]) + b"".join(lst) + \
        b"\0" * (6 * (MACS_MAX - len(lst)))


def proof(cn, cookie):
    """The end of PARAMS: client nonce | cookie."""
    b = bytes(cn) + bytes(cookie)
    assert len(b) == PROOF_LEN
    return b


def quit_body(cn, cookie):
    """QUIT body (version 9): the proof, then 130 zero bytes."""
    return proof(cn, cookie) + b"\0" * QUIT_PAD


def reject(code, reason):
    return struct.pack("!H", code) + _str(reason, 128)


error = reject  # same layout


def busy(asked_session, reason):
    return struct.pack("!I", asked_session) + _str(reason, 64)


def keepalive(sender_ns, echo_ns=0, echo_delay_ns=0):
    return struct.pack("!QQQ", sender_ns, echo_ns, echo_delay_ns)


def start(delay_ms=200, rx_offset_ns=0):
    return struct.pack("!Iq", delay_ms, rx_offset_ns)


def accept(rx_queues=1, responder_macs=(), offload_flags=0, flow_control=0,
           numa=(0, -1, 0, 0), whys=("", "", "", "")):
    """ACCEPT body, 704 bytes: rx_queues, then (since version 8) the
    responder's other source MACs, its offloads (flags, flow control, 3
    reserved), its NUMA layout (nodes, port node, workers, workers on
    another node) and the four reasons (checksum, RSS, timestamps, rate
    limit), 160 bytes each."""
    b = (struct.pack("!I", rx_queues) + macs(responder_macs) +
         struct.pack("!IBBH", offload_flags, flow_control, 0, 0) +
         struct.pack("!HhHH", *numa) + b"".join(_str(w, 160) for w in whys))
    assert len(b) == 704, len(b)
    return b


DONE_LEAVING = 1


def done(flags=DONE_LEAVING):
    """DONE body (since version 6): flags u32 (LEAVING: the client
    closes its port next)."""
    return struct.pack("!I", flags)


def results_req(part=0):
    return struct.pack("!I", part)


def results(chunk, part=0, total_len=None):
    """One RESULTS part; by default the whole blob is this chunk."""
    total = len(chunk) if total_len is None else total_len
    nb_parts = max(1, (total + 1023) // 1024)
    return struct.pack("!IIIH", part, nb_parts, total, len(chunk)) + chunk


# --- messages ----------------------------------------------------------------

def session_key(psk, cn, cookie, session):
    """K = HMAC(PSK, "nbench session" | cn | cookie | session_be32)."""
    return hmac.new(psk or NO_KEY, b"nbench session" + bytes(cn) +
                    bytes(cookie) + struct.pack("!I", session),
                    hashlib.sha256).digest()


def hello_key(psk, cn, session):
    """K_hello = HMAC(PSK, "nbench hello" | cn | 16 zeros | session)."""
    return hmac.new(psk or NO_KEY, b"nbench hello" + bytes(cn) + ZERO_SN +
                    struct.pack("!I", session), hashlib.sha256).digest()


def hello_auth(psk, cn, session):
    """The auth triple that signs a HELLO (for encode)."""
    return (hello_key(psk, cn, session), cn, ZERO_SN)


def tag(key, cn, cookie, msg_without_tag):
    return hmac.new(key, bytes(cn) + bytes(cookie) + msg_without_tag,
                    hashlib.sha256).digest()[:TAG_LEN]


def encode(mtype, session, seq, body=b"", auth=None, tag_bytes=None,
           version=VERSION):
    """A control message.  auth = (K, cn, cookie): signed; tag_bytes: any
    16 bytes as the tag (a forger's guess); neither: untagged."""
    tagged = auth is not None or tag_bytes is not None
    length = HDR_LEN + len(body) + (TAG_LEN if tagged else 0)
    m = struct.pack("!IBBHII", MAGIC, version,
                    mtype | (F_TAG if tagged else 0), length, session,
                    seq) + body
    if auth is not None:
        return m + tag(auth[0], auth[1], auth[2], m)
    if tag_bytes is not None:
        assert len(tag_bytes) == TAG_LEN
        return m + bytes(tag_bytes)
    return m


class Msg:
    """A decoded control message (header fields, body bytes, tag)."""

    def __init__(self, raw):
        if len(raw) < HDR_LEN:
            raise ValueError("short")
        (self.magic, self.version, t, self.length, self.session,
         self.seq) = struct.unpack_from("!IBBHII", raw)
        if self.magic != MAGIC:
            raise ValueError("bad magic")
        if self.length != len(raw):
            raise ValueError("length %d != %d" % (self.length, len(raw)))
        self.raw = raw
        self.tagged = bool(t & F_TAG)
        self.type = t & ~F_TAG
        end = len(raw) - (TAG_LEN if self.tagged else 0)
        self.body = raw[HDR_LEN:end]
        self.tag = raw[end:] if self.tagged else None

    @property
    def name(self):
        return TYPE_NAMES.get(self.type, "UNKNOWN")

    def verify(self, key, cn, cookie):
        return self.tagged and hmac.compare_digest(
            self.tag, tag(key, cn, cookie, self.raw[:-TAG_LEN]))

    def code_reason(self):
        """REJECT/ERROR: (code, reason)."""
        code, = struct.unpack_from("!H", self.body)
        return code, _cstr(self.body[2:])

    def __repr__(self):
        return "<%s session %08x seq %u%s len %d>" % (
            self.name, self.session, self.seq,
            " tagged" if self.tagged else "", self.length)


def decode(raw):
    return Msg(raw)


# --- frames ------------------------------------------------------------------

def mac_bytes(s):
    return bytes.fromhex(s.replace(":", "")) if isinstance(s, str) else s


def ip_bytes(s):
    return socket.inet_aton(s) if isinstance(s, str) else s


def ip_int(s):
    return struct.unpack("!I", ip_bytes(s))[0]


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def udp_frame(dst_mac, src_mac, src_ip, dst_ip, payload,
              sport=CONTROL_PORT, dport=CONTROL_PORT, ip_id=0, pad_to=60):
    """Ethernet II + IPv4 (no options) + UDP with correct checksums,
    padded to pad_to bytes (60: the minimum frame without FCS)."""
    src_ip, dst_ip = ip_bytes(src_ip), ip_bytes(dst_ip)
    ulen = 8 + len(payload)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + ulen, ip_id, 0x4000, 64,
                     17, 0, src_ip, dst_ip)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    pseudo = src_ip + dst_ip + struct.pack("!BBH", 0, 17, ulen)
    udp = struct.pack("!HHHH", sport, dport, ulen, 0) + payload
    c = csum(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack("!H", c) + udp[8:]
    frame = mac_bytes(dst_mac) + mac_bytes(src_mac) + b"\x08\x00" + ip + udp
    return frame + b"\0" * max(0, pad_to - len(frame))


TCP_FIN, TCP_SYN, TCP_RST, TCP_PSH, TCP_ACK = 0x01, 0x02, 0x04, 0x08, 0x10


def tcp_frame(dst_mac, src_mac, src_ip, dst_ip, sport, dport, seq, ack,
              flags, payload=b"", window=65535, pad_to=60):
    """Ethernet II + IPv4 + TCP (no options) with valid checksums."""
    src_ip, dst_ip = ip_bytes(src_ip), ip_bytes(dst_ip)
    tlen = 20 + len(payload)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + tlen, 0, 0x4000, 64,
                     6, 0, src_ip, dst_ip)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xffffffff,
                      ack & 0xffffffff, 5 << 4, flags, window, 0, 0) + payload
    pseudo = src_ip + dst_ip + struct.pack("!BBH", 0, 6, tlen)
    tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
    frame = mac_bytes(dst_mac) + mac_bytes(src_mac) + b"\x08\x00" + ip + tcp
    return frame + b"\0" * max(0, pad_to - len(frame))


def parse_tcp(f):
    """(src_ip, dst_ip, sport, dport, flags) of an untagged IPv4/TCP
    frame, or None."""
    if len(f) < 54 or f[12:14] != b"\x08\x00" or f[23] != 6:
        return None
    ihl = (f[14] & 15) * 4
    t = 14 + ihl
    sport, dport = struct.unpack_from("!HH", f, t)
    return (socket.inet_ntoa(f[26:30]), socket.inet_ntoa(f[30:34]), sport,
            dport, f[t + 13])


def ctl_frame(dst_mac, src_mac, src_ip, dst_ip, msg):
    return udp_frame(dst_mac, src_mac, src_ip, dst_ip, msg)


def data_frame(dst_mac, src_mac, src_ip, dst_ip, stream, seq, ts=0,
               size=512, magic=DATA_MAGIC):
    """A UDP data frame as the tool builds it: `size` bytes with FCS (so
    size - 4 on the wire), from port 49152 + stream to 5001, the stream
    id in the IPv4 Identification, the stamp at the start of the UDP
    payload (magic u16, seq u48, ts u48), zero padding."""
    plen = size - 4 - 42
    stamp = struct.pack("!H", magic) + seq.to_bytes(6, "big") + \
        ts.to_bytes(6, "big")
    payload = stamp + b"\0" * (plen - len(stamp))
    return udp_frame(dst_mac, src_mac, src_ip, dst_ip, payload,
                     sport=SPORT_BASE + stream, dport=DPORT, ip_id=stream)


class Udp:
    """An IPv4/UDP frame taken apart (None fields if it is not one)."""

    def __init__(self, f):
        self.frame = f
        self.dst_mac, self.src_mac = f[0:6], f[6:12]
        self.ok = len(f) >= 42 and f[12:14] == b"\x08\x00" and f[23] == 17
        if not self.ok:
            return
        ihl = (f[14] & 15) * 4
        self.src_ip, self.dst_ip = f[26:30], f[30:34]
        self.sport, self.dport, ulen = struct.unpack_from("!HHH", f,
                                                          14 + ihl)
        self.payload = f[14 + ihl + 8:14 + ihl + ulen]


def parse_udp(f):
    return Udp(f)


def raw_socket(iface, timeout=0.2):
    """A raw AF_PACKET socket on iface (every protocol)."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    s.settimeout(timeout)
    return s


def nonce():
    return os.urandom(NONCE)
