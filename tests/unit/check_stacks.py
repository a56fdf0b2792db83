#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every header stack the generator builds, held against two oracles the
core does not share: scapy builds the same frame from the option's meaning
(checksums its own) and the bytes must be equal; tshark decodes them with
checksum validation on and must find nothing malformed, no bad checksum
and the fields asked for.  Then the parser reads scapy's frames, with the
variations a network adds (IPv6 extension headers, fragments, GRE's
optional fields, transparent Ethernet), and every truncation of them.

    check_stacks.py NB_FRAMES
Needs /usr/bin/python3 with scapy, and tshark; exits 77 (skipped) without.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    from scapy.all import (GRE, ICMPv6EchoRequest, IP, IPv6, IPv6ExtHdrDestOpt,
                           IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                           IPv6ExtHdrRouting, TCP, UDP, ARP, Dot1AD, Dot1Q,
                           Ether, Raw, wrpcap)
    from scapy.contrib.mpls import MPLS
    from scapy.layers.vxlan import VXLAN
except ImportError:
    print("scapy is missing: skipped")
    sys.exit(77)

NB = sys.argv[1]
SRC_MAC, DST_MAC = "02:00:00:00:00:01", "02:00:00:00:00:02"
BASE = ["--tx-port", "0", "--rx-port", "1", "--src-mac", SRC_MAC,
        "--dst-mac", DST_MAC, "--streams", "2"]
SEQ, TS = 0x123456789a, 0xfedcba9876
V4 = ("198.18.0.1", "198.19.0.1")
V6 = ("2001:2::1", "2001:2:0:1::1")
TUN4 = ("198.18.0.254", "198.19.0.254")
IN_SRC, IN_DST = "02:4e:42:00:00:01", "02:4e:42:00:00:02"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def stamp(seq, ts):
    return b"NB" + seq.to_bytes(6, "big") + ts.to_bytes(6, "big")


def l4(proto, s, size_left):
    """The stamped UDP datagram or TCP segment of stream s, padded so that
    the frame is size_left bytes from here (without FCS)."""
    seq = SEQ + s
    if proto == "tcp":
        seg = TCP(sport=49152 + s, dport=5001, seq=seq & 0xffffffff,
                  ack=TS & 0xffffffff, window=seq >> 32, urgptr=TS >> 32,
                  flags="PA", dataofs=5)
        return seg / Raw(b"NB" + bytes(size_left - 20 - 2))
    return UDP(sport=49152 + s, dport=5001) / Raw(
        stamp(seq, TS) + bytes(size_left - 8 - 14))


def ip(family, s, tos, src_dst=None):
    if family == 6:
        a = src_dst or V6
        return IPv6(src=a[0], dst=a[1], fl=s, hlim=64, tc=tos)
    a = src_dst or V4
    return IP(src=a[0], dst=a[1], id=s, flags="DF", ttl=64, tos=tos)


def hlen(pkt):
    return len(bytes(pkt))


def expect(case, s):
    """scapy's frame for stream s of a case: the layers before the inner
    IP, the inner IP, then the stamped L4 filling the size."""
    size = case["size"] - 4
    eth = Ether(src=SRC_MAC, dst=DST_MAC)
    pre = eth
    for tag in case.get("tags", []):
        pre = pre / tag
    tos = case.get("tos", lambda s: 0)(s)
    inner_ip = ip(case.get("family", 4), s, tos)
    outer = case.get("outer")
    if outer is not None:
        pre = pre / outer(s)
    head = pre / inner_ip
    return head / l4(case.get("proto", "udp"), s, size - hlen(head))


def vxlan(family, vni, tos=0):
    def outer(s):
        o = (IP(src=TUN4[0], dst=TUN4[1], id=0, flags="DF", ttl=64, tos=tos)
             if family == 4 else
             IPv6(src="2001:db8::1", dst="2001:db8::2", hlim=64, tc=tos))
        # the outer source port is the tool's hash of the inner flow:
        # filled from its frame below (and checked to vary and to lie in
        # 49152..65535)
        udp = UDP(sport=0, dport=4789, chksum=0 if family == 4 else None)
        return o / udp / VXLAN(flags=0x08, vni=vni) / Ether(
            src=IN_SRC, dst=IN_DST)
    return outer


CASES = [
    dict(name="ipv4-udp", opts=[], size=64),
    dict(name="ipv4-tcp-vlan", opts=["--proto", "tcp", "--vlan", "7"],
         size=64, proto="tcp", tags=[Dot1Q(vlan=7)]),
    dict(name="ipv6-udp", opts=["-6"], size=80, family=6),
    dict(name="ipv6-udp-addr", opts=["--dst-ip", "2001:2:0:1::1"],
         size=128, family=6),
    dict(name="ipv6-tcp", opts=["-6", "--proto", "tcp"], size=96,
         family=6, proto="tcp"),
    dict(name="qinq-88a8-pcp", opts=["--qinq", "200,100", "--pcp", "5"],
         size=128, tags=[Dot1AD(vlan=200, prio=5), Dot1Q(vlan=100, prio=5)]),
    dict(name="qinq-9100", opts=["--vlan", "300.42", "--tpid", "0x9100"],
         size=68, tags=[Dot1Q(type=0x8100, vlan=300), Dot1Q(vlan=42)],
         tpid=0x9100),
    dict(name="dscp-ecn", opts=["--dscp", "46,0", "--ecn", "1"], size=64,
         tos=lambda s: (46 << 2 | 1) if s == 0 else 1),
    dict(name="ipv6-dscp-qinq",
         opts=["-6", "--qinq", "10,20", "--dscp", "10", "--ecn", "2"],
         size=128, family=6, tos=lambda s: 10 << 2 | 2,
         tags=[Dot1AD(vlan=10), Dot1Q(vlan=20)]),
    dict(name="vxlan4", opts=["--encap", "vxlan:5000"], size=128,
         outer=vxlan(4, 5000)),
    dict(name="vxlan6", opts=["--encap", "vxlan:16777215", "--tunnel-src",
                              "2001:db8::1", "--tunnel-dst", "2001:db8::2"],
         size=160, outer=vxlan(6, 16777215)),
    dict(name="vxlan6-inner6-tcp",
         opts=["-6", "--proto", "tcp", "--encap", "vxlan:1", "--tunnel-src",
               "2001:db8::1", "--tunnel-dst", "2001:db8::2"],
         size=192, family=6, proto="tcp", outer=vxlan(6, 1)),
    dict(name="gre4", opts=["--encap", "gre"], size=96,
         outer=lambda s: IP(src=TUN4[0], dst=TUN4[1], id=0, flags="DF",
                            ttl=64) / GRE(proto=0x0800)),
    dict(name="gre4-key-inner6", opts=["-6", "--encap", "gre:77"], size=128,
         family=6,
         outer=lambda s: IPv6(src="2001:2::fe", dst="2001:2:0:1::fe",
                              hlim=64) / GRE(key_present=1, key=77,
                                             proto=0x86dd)),
    dict(name="mpls1", opts=["--encap", "mpls:100"], size=64,
         outer=lambda s: MPLS(label=100, s=1, ttl=64)),
    # DSCP and ECN copied to the outer header; MPLS's TC the class selector
    dict(name="vxlan4-dscp", opts=["--encap", "vxlan:7", "--dscp", "46,10",
                                   "--ecn", "1"], size=128,
         tos=lambda s: (46 if s == 0 else 10) << 2 | 1,
         outer=lambda s: vxlan(4, 7, (46 if s == 0 else 10) << 2 | 1)(s)),
    dict(name="gre6-dscp", opts=["--encap", "gre", "--tunnel-src",
                                 "2001:db8::1", "--tunnel-dst", "2001:db8::2",
                                 "--dscp", "34"], size=128,
         tos=lambda s: 34 << 2,
         outer=lambda s: IPv6(src="2001:db8::1", dst="2001:db8::2", hlim=64,
                              tc=34 << 2) / GRE(proto=0x0800)),
    dict(name="mpls-dscp", opts=["--encap", "mpls:5/6", "--dscp", "46"],
         size=72, tos=lambda s: 46 << 2,
         outer=lambda s: MPLS(label=5, s=0, ttl=64, cos=5) /
         MPLS(label=6, s=1, ttl=64, cos=5)),
    dict(name="mpls3-vlan",
         opts=["--vlan", "9", "--encap", "mpls:16/1048575/3"], size=96,
         tags=[Dot1Q(vlan=9)],
         outer=lambda s: MPLS(label=16, s=0, ttl=64) /
         MPLS(label=1048575, s=0, ttl=64) / MPLS(label=3, s=1, ttl=64)),
]


def nb(*args):
    r = subprocess.run([NB] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("nb-frames %s: %s" % (args, r.stderr))
    return r.stdout.split()


def parse(frames):
    r = subprocess.run([NB, "parse"] + [bytes(f).hex() for f in frames],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("nb-frames parse: %s" % r.stderr)
    return [json.loads(x) for x in r.stdout.splitlines()]


def fix_tpid(raw, tpid):
    return raw[:12] + tpid.to_bytes(2, "big") + raw[14:]


def build_cases():
    ours = []
    for c in CASES:
        got = nb("build", str(SEQ), str(TS), *(BASE + c["opts"] +
                                               ["--size", str(c["size"])]))
        if len(got) != 2:
            fail("%s: %d frames" % (c["name"], len(got)))
            continue
        sports = []
        for s in (0, 1):
            mine = bytes.fromhex(got[s])
            want = expect(c, s)
            if "vxlan" in c["name"]:
                # the outer UDP source port: the tool's, checked to lie
                # in the ephemeral range and to differ per stream
                o = want.getlayer(UDP)
                o.sport = int.from_bytes(
                    mine[len(want) - len(o):][:2], "big")
                sports.append(o.sport)
            raw = bytes(want)
            if "tpid" in c:
                raw = fix_tpid(raw, c["tpid"])
            if raw != mine:
                fail("%s stream %d: tool %s\n  scapy %s" %
                     (c["name"], s, mine.hex(), raw.hex()))
            ours.append((c, s, mine))
        if sports and (sports[0] == sports[1] or
                       not all(49152 <= p <= 65535 for p in sports)):
            fail("%s: outer UDP source ports %s" % (c["name"], sports))
    return ours


def group_macs():
    """To a group, without --dst-mac: the group's MAC (RFC 1112, 2464)."""
    for opts, want in ((["--dst-ip", "239.129.2.3"], "01005e010203"),
                       (["--dst-ip", "ff0e::1:2", "--src-ip", "2001:db8::1"],
                        "333300010002"),
                       (["--dst-ip", "239.1.1.1", "--dst-mac",
                         "02:00:00:00:00:05"], "020000000005")):
        got = nb("build", "0", "0", *([x for x in BASE if x not in (
            "--dst-mac", DST_MAC)] + opts))
        if got[0][:12] != want:
            fail("%s: destination MAC %s, wanted %s" %
                 (opts, got[0][:12], want))


def default_sizes():
    """Without --size the default 64 B grows to what the stack needs."""
    for opts, want in ((["-6"], 80), (["--encap", "vxlan:1"], 110),
                       (["--qinq", "1,2"], 68), ([], 64)):
        got = nb("build", "0", "0", *(BASE + opts))
        if len(bytes.fromhex(got[0])) + 4 != want:
            fail("%s without --size: %d B, wanted %d" %
                 (opts, len(got[0]) // 2 + 4, want))


def tshark_check(ours, tmp):
    path = os.path.join(tmp, "stacks.pcap")
    wrpcap(path, [Ether(m) for _, _, m in ours])
    prefs = ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
             "-o", "tcp.check_checksum:TRUE"]
    v = subprocess.run(["tshark", "-n", "-r", path, "-V"] + prefs,
                       capture_output=True, text=True)
    if v.returncode != 0:
        fail("tshark: %s" % v.stderr)
        return
    for bad in ("Malformed", "Status: Bad", "[Expert Info (Error",
                "Illegal"):
        if bad in v.stdout:
            fail("tshark reports %r" % bad)
    fields = ["ieee8021ad.id", "ieee8021ad.priority", "vlan.id",
              "vlan.priority", "ip.dsfield.dscp",
              "ip.dsfield.ecn", "ipv6.tclass.dscp", "ipv6.flow", "vxlan.vni",
              "gre.key", "mpls.label", "udp.dstport", "tcp.dstport"]
    f = subprocess.run(["tshark", "-n", "-r", path, "-T", "fields",
                        "-E", "separator=|", "-E", "occurrence=a"] +
                       sum([["-e", x] for x in fields], []) + prefs,
                       capture_output=True, text=True).stdout.splitlines()
    if len(f) != len(ours):
        fail("tshark read %d frames of %d" % (len(f), len(ours)))
        return
    for (c, s, _), line in zip(ours, f):
        got = dict(zip(fields, line.split("|")))
        opts = c["opts"]
        checks = []
        if c["name"] == "qinq-88a8-pcp":
            checks += [("ieee8021ad.id", "200"), ("vlan.id", "100"),
                       ("ieee8021ad.priority", "5"), ("vlan.priority", "5")]
        if c["name"] == "qinq-9100":
            checks.append(("vlan.id", "300,42"))
        if c["name"] == "dscp-ecn":
            checks.append(("ip.dsfield.dscp", "46" if s == 0 else "0"))
            checks.append(("ip.dsfield.ecn", "1"))
        if c["name"] == "ipv6-dscp-qinq":
            checks.append(("ipv6.tclass.dscp", "10"))
            checks += [("ieee8021ad.id", "10"), ("vlan.id", "20")]
        if c.get("family") == 6 and "outer" not in c:
            checks.append(("ipv6.flow", "0x%06x" % s))
        if c["name"] == "vxlan4":
            checks.append(("vxlan.vni", "5000"))
        if c["name"] == "vxlan6":
            checks.append(("vxlan.vni", "16777215"))
        if c["name"] == "gre4-key-inner6":
            checks.append(("gre.key", "0x0000004d"))
        if c["name"] == "mpls3-vlan":
            checks.append(("mpls.label", "16,1048575,3"))
        port = "tcp.dstport" if c.get("proto") == "tcp" else "udp.dstport"
        checks.append((port, None))
        for k, want in checks:
            have = got.get(k, "")
            if want is None:
                if not have:
                    fail("%s: tshark has no %s" % (c["name"], k))
            elif have != want and not (k == port and want in have):
                fail("%s stream %d: tshark %s=%r, wanted %r" %
                     (c["name"], s, k, have, want))


def parse_ours(ours):
    res = parse([m for _, _, m in ours])
    for (c, s, m), r in zip(ours, res):
        if (r["kind"], r["stream"], r["seq"], r["ts"]) != \
                ("data", s, SEQ + s, TS):
            fail("%s stream %d parsed as %s" % (c["name"], s, r))
        if r["v6"] != (c.get("family") == 6) or \
                r["inner"] != ("outer" in c):
            fail("%s stream %d: v6/inner %s" % (c["name"], s, r))


def variants():
    """scapy's frames of what a network may carry, and what each is."""
    udp = UDP(sport=1, dport=5001) / Raw(stamp(77, 99) + bytes(20))
    e = Ether(src=SRC_MAC, dst=DST_MAC)
    v6 = IPv6(src=V6[0], dst=V6[1], fl=5)
    inner4 = IP(src=V4[0], dst=V4[1], id=6) / udp
    return [
        ("v6 ext headers", e / v6 / IPv6ExtHdrHopByHop() /
         IPv6ExtHdrRouting() / IPv6ExtHdrDestOpt() / udp, "data", 5),
        ("v6 fragment", e / v6 / IPv6ExtHdrFragment(m=1) / udp, "fragment",
         None),
        ("v4 fragment", e / IP(src=V4[0], dst=V4[1], flags="MF") / udp,
         "fragment", None),
        ("v4 later fragment", e / IP(src=V4[0], dst=V4[1], frag=100) / udp,
         "fragment", None),
        ("gre csum key seq", e / IP() / GRE(chksum_present=1, key_present=1,
                                            seqnum_present=1, key=1,
                                            seqence_number=2) / inner4,
         "data", 6),
        ("gre teb", e / IP() / GRE(proto=0x6558) / Ether() / inner4, "data",
         6),
        ("vxlan in v6", e / IPv6() / UDP(sport=5, dport=4789) /
         VXLAN(vni=3) / Ether() / IPv6(fl=9) / udp, "data", 9),
        ("vxlan reserved flags", e / IP() / UDP(sport=5, dport=4789) /
         VXLAN(flags=0x88, vni=3) / Ether() / inner4, "data", 6),
        ("vxlan bad flags", e / IP() / UDP(sport=5, dport=4789) /
         VXLAN(flags=0, vni=3) / Ether() / inner4, "foreign", None),
        ("two tunnels", e / IP() / GRE() / IP() / UDP(dport=4789) / VXLAN() /
         Ether() / inner4, "foreign", None),
        ("qinq mpls", e / Dot1AD(vlan=2) / Dot1Q(vlan=3) /
         MPLS(label=5, s=1) / inner4, "data", 6),
        ("icmpv6", e / v6 / ICMPv6EchoRequest(), "icmp6", None),
        ("icmpv6 in a tunnel", e / IP() / GRE(proto=0x86dd) / v6 /
         ICMPv6EchoRequest(), "foreign", None),
        ("arp under qinq", e / Dot1AD(vlan=2) / Dot1Q(vlan=3) / ARP(),
         "arp", None),
        ("control in a tunnel", e / IP() / GRE() / IP() /
         UDP(dport=7201) / Raw(bytes(40)), "foreign", None),
        ("control over ipv6", e / v6 / UDP(sport=7201, dport=7201) /
         Raw(bytes(40)), "control", None),
        ("control over ipv6, hop-by-hop", e / v6 / IPv6ExtHdrHopByHop() /
         UDP(dport=7201) / Raw(bytes(40)), "control", None),
        ("three tags", e / Dot1AD(vlan=1) / Dot1Q(vlan=2) / Dot1Q(vlan=3) /
         inner4, "foreign", None),
        ("mpls no bottom", e / MPLS(label=1, s=0) / MPLS(label=2, s=0) /
         Raw(bytes(60)), "foreign", None),
    ]


def parse_variants():
    vs = variants()
    res = parse([f for _, f, _, _ in vs])
    for (name, f, kind, stream), r in zip(vs, res):
        if r["kind"] != kind or (stream is not None and
                                 (r["stream"], r["seq"], r["ts"]) !=
                                 (stream, 77, 99)):
            fail("%s: parsed as %s, wanted %s stream %s" %
                 (name, r, kind, stream))
    # every truncation of a tunnelled frame: never data, never a crash
    frames = [bytes(f) for _, f, k, _ in vs if k == "data"]
    cut = [f[:n] for f in frames for n in range(0, len(f) - 1)]
    for r, f in zip(parse(cut), cut):
        if r["kind"] == "data":
            fail("a truncated frame (%d B) parsed as data" % len(f))


def membership():
    """IGMPv2/v3 and MLDv2 frames a receiving port sends to join or leave:
    scapy reads each with the fields RFC 2236, 3376 and 3810 ask for, its
    checksums recomputed equal to the tool's, and tshark finds nothing
    wrong in them."""
    from scapy.contrib.igmp import IGMP
    from scapy.contrib.igmpv3 import IGMPv3, IGMPv3mr
    from scapy.layers.inet6 import ICMPv6MLReport2, IPv6ExtHdrHopByHop
    frames = []
    for kind, join, group in (("igmp2", "join", "239.1.2.3"),
                              ("igmp2", "leave", "239.1.2.3"),
                              ("igmp3", "join", "239.200.1.1"),
                              ("igmp3", "leave", "224.10.0.1"),
                              ("mld", "join", "ff0e::1:2"),
                              ("mld", "leave", "ff05::abcd")):
        raw = bytes.fromhex(nb("mcast", kind, join, group)[0])
        frames.append(raw)
        p = Ether(raw)
        name = "%s %s %s" % (kind, join, group)
        # scapy's own checksums over the same fields: the same bytes
        q = p.copy()
        for layer, field in ((IP, "chksum"), (IGMP, "chksum"),
                             (IGMPv3, "chksum"),
                             (ICMPv6MLReport2, "cksum")):
            if q.haslayer(layer):
                delattr(q[layer], field)
        if bytes(q) != raw:
            fail("%s: scapy's checksums differ: %s" % (name, raw.hex()))
        if kind == "igmp2":
            want_dst = group if join == "join" else "224.0.0.2"
            ok = (p[IP].ttl == 1 and p[IP].dst == want_dst and
                  p[IGMP].type == (0x16 if join == "join" else 0x17) and
                  p[IGMP].gaddr == group)
        elif kind == "igmp3":
            r = p[IGMPv3mr].records[0]
            ok = (p[IP].ttl == 1 and p[IP].dst == "224.0.0.22" and
                  p[IGMPv3].type == 0x22 and p[IGMPv3mr].numgrp == 1 and
                  r.maddr == group and
                  r.rtype == (4 if join == "join" else 3))
        else:
            r = p[ICMPv6MLReport2].records[0]
            ok = (p[IPv6].hlim == 1 and p[IPv6].dst == "ff02::16" and
                  p[IPv6].src.startswith("fe80::") and
                  p.haslayer(IPv6ExtHdrHopByHop) and
                  p[ICMPv6MLReport2].records_number == 1 and
                  r.dst == group and r.rtype == (4 if join == "join" else 3))
        # Router Alert present (IPv4 option 20 / hop-by-hop option 5)
        ra = b"\x94\x04" in raw[14:40] if kind != "mld" else \
            b"\x05\x02\x00\x00" in raw[54:62]
        # the group's Ethernet address (RFC 1112 / 2464), and MLD's
        # source the MAC's EUI-64 link-local address
        if kind == "igmp2":
            mac = "01:00:5e:01:02:03" if join == "join" else \
                "01:00:5e:00:00:02"
        else:
            mac = "01:00:5e:00:00:16" if kind == "igmp3" else \
                "33:33:00:00:00:16"
        ok = ok and p.dst == mac and p.src == "02:00:00:00:00:01"
        if kind == "mld":
            ok = ok and p[IPv6].src == "fe80::ff:fe00:1"
        if not ok or not ra:
            fail("%s: fields %s" % (name, p.show2(dump=True)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mcast.pcap")
        wrpcap(path, [Ether(f) for f in frames])
        v = subprocess.run(["tshark", "-n", "-r", path, "-V", "-o",
                            "ip.check_checksum:TRUE"],
                           capture_output=True, text=True).stdout
        for bad in ("Malformed", "Status: Bad", "[Expert Info (Error"):
            if bad in v:
                fail("tshark reports %r in the membership frames" % bad)
    return len(frames)


def neighbour_discovery():
    """RFC 4861's solicitation and advertisement and RFC 4443's echo, as
    the tool at 02:00:00:00:00:01 / 2001:db8::1 builds and answers them,
    read back by scapy (checksums recomputed equal); and what it must not
    answer: another target, a hop limit below 255, a bad checksum, a
    zero-length option, an SLLA from ::, any truncation."""
    from scapy.layers.inet6 import (ICMPv6EchoReply, ICMPv6ND_NA,
                                    ICMPv6ND_NS, ICMPv6NDOptDstLLAddr,
                                    ICMPv6NDOptSrcLLAddr)
    me, mac = "2001:db8::1", "02:00:00:00:00:01"
    peer, pmac = "2001:db8::9", "02:00:00:00:00:09"
    checked = 0

    def same_csum(p, name):
        q = p.copy()
        for layer in (ICMPv6ND_NS, ICMPv6ND_NA, ICMPv6EchoReply):
            if q.haslayer(layer):
                del q[layer].cksum
        if bytes(q) != bytes(p):
            fail("%s: scapy's checksum differs" % name)

    # the tool's solicitation for 2001:db8::2
    p = Ether(bytes.fromhex(nb("nd", "solicit", "2001:db8::2")[0]))
    same_csum(p, "solicit")
    if not (p.dst == "33:33:ff:00:00:02" and
            p[IPv6].dst == "ff02::1:ff00:2" and p[IPv6].hlim == 255 and
            p[ICMPv6ND_NS].tgt == "2001:db8::2" and
            p[ICMPv6NDOptSrcLLAddr].lladdr == mac):
        fail("solicit: %s" % p.show2(dump=True))
    checked += 1

    def answer(frame):
        return nb("nd", "answer", bytes(frame).hex())[0]

    ns = Ether(src=pmac, dst="33:33:ff:00:00:01") / IPv6(
        src=peer, dst="ff02::1:ff00:1", hlim=255) / ICMPv6ND_NS(tgt=me)
    for name, q, vlan in (
            ("ns", ns / ICMPv6NDOptSrcLLAddr(lladdr="02:00:00:00:00:77"),
             None),
            ("ns without slla", ns, None),
            ("ns tagged", Ether(src=pmac, dst="33:33:ff:00:00:01") /
             Dot1Q(vlan=42) / IPv6(src=peer, dst="ff02::1:ff00:1",
                                   hlim=255) / ICMPv6ND_NS(tgt=me), 42)):
        a = Ether(bytes.fromhex(answer(q)))
        same_csum(a, name)
        want_mac = "02:00:00:00:00:77" if "slla" not in name and \
            name == "ns" else pmac
        if not (a.dst == want_mac and a.src == mac and
                a[IPv6].src == me and a[IPv6].dst == peer and
                a[IPv6].hlim == 255 and a[ICMPv6ND_NA].tgt == me and
                a[ICMPv6ND_NA].S == 1 and a[ICMPv6ND_NA].O == 1 and
                a[ICMPv6ND_NA].R == 0 and
                a[ICMPv6NDOptDstLLAddr].lladdr == mac and
                (vlan is None or a[Dot1Q].vlan == vlan)):
            fail("%s: answered %s" % (name, a.show2(dump=True)))
        checked += 1
    # duplicate address detection: to all nodes, not solicited
    dad = Ether(src=pmac, dst="33:33:ff:00:00:01") / IPv6(
        src="::", dst="ff02::1:ff00:1", hlim=255) / ICMPv6ND_NS(tgt=me)
    a = Ether(bytes.fromhex(answer(dad)))
    if not (a.dst == "33:33:00:00:00:01" and a[IPv6].dst == "ff02::1" and
            a[ICMPv6ND_NA].S == 0 and a[ICMPv6ND_NA].O == 1):
        fail("dad: answered %s" % a.show2(dump=True))
    checked += 1
    bad_csum = bytearray(bytes(ns))
    bad_csum[-20] ^= 0x40
    zero_opt = bytes(Ether(src=pmac, dst=mac) /
                     IPv6(src=peer, dst=me, hlim=255) /
                     ICMPv6ND_NS(tgt=me) / Raw(bytes(8)))
    for name, q, want in (
            ("another target", Ether(src=pmac, dst=mac) /
             IPv6(src=peer, hlim=255) /
             ICMPv6ND_NS(tgt="2001:db8::5"), "0"),
            ("hop limit 64", Ether(src=pmac, dst=mac) /
             IPv6(src=peer, hlim=64) /
             ICMPv6ND_NS(tgt=me), "-71"),
            ("bad checksum", bad_csum, "-71"),
            ("zero-length option", zero_opt, "-71"),
            ("slla from ::", dad / ICMPv6NDOptSrcLLAddr(lladdr=pmac),
             "-71"),
            ("an echo request", Ether(src=pmac, dst=mac) /
             IPv6(src=peer, dst=me) /
             ICMPv6EchoRequest(), "0")):
        got = answer(q)
        if got != want:
            fail("%s: answered %s, wanted %s" % (name, got, want))
        checked += 1
    raw = bytes(ns / ICMPv6NDOptSrcLLAddr(lladdr=pmac))
    for n in range(len(raw) - 1):
        if not answer(raw[:n]).startswith("-"):
            fail("a solicitation cut to %d B was answered" % n)
    checked += 1
    # an advertisement read back: its TLLA, else the Ethernet source
    na = Ether(src=pmac, dst=mac) / IPv6(src=peer, dst=me, hlim=255) / \
        ICMPv6ND_NA(
        tgt=peer, S=1)
    for name, q, target, want in (
            ("na tlla", na / ICMPv6NDOptDstLLAddr(lladdr="02:00:00:00:00:aa"),
             peer, "1 02:00:00:00:00:aa"),
            ("na no tlla", na, peer, "1 " + pmac),
            ("na for another", na, "2001:db8::7", "0")):
        got = " ".join(nb("nd", "advert", bytes(q).hex(), target))
        if got != want:
            fail("%s: %s, wanted %s" % (name, got, want))
        checked += 1
    # echo: the same identifier, sequence and data back
    req = Ether(src=pmac, dst=mac) / IPv6(src=peer, dst=me) / \
        ICMPv6EchoRequest(id=0x1234, seq=7, data=b"nbench-echo")
    a = Ether(bytes.fromhex(nb("nd", "echo", bytes(req).hex())[0]))
    same_csum(a, "echo")
    if not (a.dst == pmac and a[IPv6].dst == peer and a[IPv6].src == me and
            a[ICMPv6EchoReply].id == 0x1234 and a[ICMPv6EchoReply].seq == 7
            and a[ICMPv6EchoReply].data == b"nbench-echo"):
        fail("echo: %s" % a.show2(dump=True))
    checked += 1
    return checked


def main():
    if subprocess.run(["which", "tshark"], capture_output=True).returncode:
        print("tshark is missing: skipped")
        return 77
    ours = build_cases()
    default_sizes()
    group_macs()
    parse_ours(ours)
    with tempfile.TemporaryDirectory() as tmp:
        tshark_check(ours, tmp)
    parse_variants()
    nm = membership()
    print("%d membership frames checked" % nm)
    print("%d neighbour discovery and echo cases checked" %
          neighbour_discovery())
    print("%d stacks, %d frames built; %d variants parsed; %d failures" %
          (len(CASES), len(ours), len(variants()), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
