/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nb-fuzz-seeds OUTDIR [FILE.ini ...]: writes the seed corpus of every fuzz
 * target into OUTDIR/<target>/, made with the project's own encoders and
 * builders (so the seeds follow the wire format when it changes), plus
 * the given INI files into OUTDIR/config/.  tests/fuzz/corpus/ holds what
 * it wrote (regenerate: docs/fuzzing.md), together with inputs the fuzzers
 * found later (merged with -merge=1).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nb_auth.h"
#include "nb_ctl.h"
#include "nb_frame.h"
#include "nb_l2_v6.h"
#include "nb_hist.h"
#include "nb_l2.h"
#include "nb_tcp.h"
#include "nb_tcp_wire.h"

static const char *outdir;
static int nb_files;

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static void
mkdir_p(const char *d)
{
	if (mkdir(d, 0755) != 0 && errno != EEXIST)
		die(d);
}

/* Write OUTDIR/target/name. */
static void
put(const char *target, const char *name, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
	f = fopen(path, "wb");
	if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) ||
	    fclose(f) != 0)
		die(path);
	nb_files++;
}

/* A seed with a leading selector byte (and an optional second one). */
static void
put_sel(const char *target, const char *name, const uint8_t *sel, size_t nsel,
	const void *data, size_t len)
{
	uint8_t buf[16384];

	if (nsel + len > sizeof(buf)) {
		fprintf(stderr, "seed %s/%s too big\n", target, name);
		exit(1);
	}
	memcpy(buf, sel, nsel);
	memcpy(buf + nsel, data, len);
	put(target, name, buf, nsel + len);
}

static void
put_str(const char *target, const char *name, const char *s)
{
	put(target, name, s, strlen(s));
}

static void
copy_file(const char *target, const char *src)
{
	static uint8_t buf[65536];
	const char *base = strrchr(src, '/');
	FILE *f = fopen(src, "rb");
	size_t n;

	if (f == NULL)
		die(src);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	put(target, base ? base + 1 : src, buf, n);
}

/* ------------------------------------------------------------ control */

static void
fill_conf(struct nb_ctl_conf *c, int welcome)
{
	snprintf(c->tool_version, sizeof(c->tool_version), "0.1.0");
	snprintf(c->dpdk_version, sizeof(c->dpdk_version), "DPDK 22.11.4");
	snprintf(c->host, sizeof(c->host), welcome ? "responder" : "client");
	snprintf(c->cpu, sizeof(c->cpu), "Intel(R) Xeon(R) CPU");
	snprintf(c->os, sizeof(c->os), "Linux 6.1.0-18-amd64");
	snprintf(c->driver, sizeof(c->driver), "net_memif");
	c->link_speed_mbps = 10000;
	c->nb_ports = 1;
	c->nb_rxq = 2;
	c->nb_txq = 2;
	c->nb_workers = 2;
	c->numa_node = welcome ? -1 : 0;
	memcpy(c->mac, (uint8_t[6]){0x02, 0, 0, 0, 0, welcome ? 2 : 1}, 6);
	c->ipv4 = welcome ? NB_DEFAULT_DST_IP : NB_DEFAULT_SRC_IP;
	snprintf(c->boot_id, sizeof(c->boot_id),
		 "0b7e3c52-1e4b-4c1e-9d3a-2f9a8c6d5e41");
	c->tsc_hz = 2400000000ull;
	c->tsc_bound_ppb = welcome ? 0 : 150;
	memset(c->nonce, welcome ? 0xc0 : 0x17, sizeof(c->nonce));
	c->flags = welcome ? 0 : NB_CTL_CONF_F_KEY;
	if (welcome) { /* two ports offered to a mesh (version 11), with
			* their link speeds (12) */
		c->offer.n = 2;
		c->offer.port[0].id = 0;
		memcpy(c->offer.port[0].mac, c->mac, 6);
		c->offer.port[1].id = 1;
		memcpy(c->offer.port[1].mac,
		       (uint8_t[6]){0x02, 0, 0, 0, 0x20, 2}, 6);
		c->offer.speed_mbps[0] = c->offer.speed_mbps[1] = 10000;
	}
}

static void
fill_proof(struct nb_ctl_proof *p)
{
	memset(p->client_nonce, 0x17, sizeof(p->client_nonce));
	memset(p->cookie, 0xc0, sizeof(p->cookie));
}

static void
fill_params(struct nb_ctl_params *p, int variant)
{
	static const uint8_t imix[12] = {0, 1, 0, 0, 1, 0, 2, 0, 1, 0, 0, 1};

	p->direction = (uint8_t)(variant % 3);
	p->proto = variant == 1 ? NB_IPPROTO_TCP : NB_IPPROTO_UDP;
	p->vlan_id = variant == 2 ? 100 : 0;
	p->streams = variant == 2 ? 1024 : 4;
	/* the client's --peer-timeout: the default, the bounds */
	p->peer_timeout_ms = variant == 1 ? 100 : variant == 2 ? 600000 : 2000;
	if (variant == 2) {
		p->nb_sizes = 3;
		p->sizes[0] = 64;
		p->sizes[1] = 594;
		p->sizes[2] = 1518;
		p->nb_pattern = 12;
		memcpy(p->pattern, imix, sizeof(imix));
	} else {
		p->nb_sizes = 1;
		p->sizes[0] = variant == 1 ? 1518 : 64;
		p->nb_pattern = 1;
	}
	p->rate_num = variant == 0 ? 0 : 14880952381ull;
	p->rate_den = variant == 0 ? 1 : 1000;
	p->packets = variant == 1 ? 1000000 : 0;
	p->duration_ms = variant == 1 ? 0 : 10000;
	p->omit_ms = variant == 2 ? 1000 : 0;
	p->latency_rate = variant == 2 ? 1000 : 0;
	p->client_ip = NB_DEFAULT_SRC_IP;
	p->responder_ip = NB_DEFAULT_DST_IP;
	memcpy(p->client_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 1}, 6);
	memcpy(p->responder_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 2}, 6);
	p->sport_base = variant == 2 ? 1024 : NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
	p->interval_ms = variant == 1 ? 0 : variant == 2 ? 100 : 1000;
	if (variant == 2) { /* a TLB/ALB bond's second member (version 8) */
		p->client_macs.n = 1;
		memcpy(p->client_macs.mac[0],
		       (uint8_t[6]){0x02, 0, 0, 0, 0x10, 1}, 6);
	}
	if (variant == 3) { /* closed-loop TCP, reverse, by bytes */
		p->direction = NB_CTL_DIR_REVERSE;
		p->proto = NB_IPPROTO_TCP;
		p->sizes[0] = 1518;
		p->rate_num = p->packets = p->omit_ms = p->latency_rate = 0;
		p->rate_den = 1;
		p->duration_ms = 0;
		p->dport = NB_TCP_DPORT;
		p->interval_ms = 0;
		p->tcp = 1;
		p->tcp_flags = NB_CTL_TCP_F_DELACK;
		p->tcp_cc = 1;
		p->tcp_window = 1u << 20;
		p->bytes = 100ull << 20;
	}
	if (variant == 4) { /* a full mesh across hosts, 2 + 2 ports (11) */
		unsigned int i, j;

		p->direction = NB_CTL_DIR_BIDIR;
		p->mesh.kind = NB_MESH_FULL;
		p->mesh.nb_ports = 4;
		p->mesh.per_pair = 1;
		for (i = 0; i < 4; i++) {
			p->mesh.owner[i] = i >= 2;
			p->mesh.port[i].id = (uint16_t)(i % 2);
			memcpy(p->mesh.port[i].mac,
			       (uint8_t[6]){0x02, 0, 0, 0, 0x20, (uint8_t)i},
			       6);
			for (j = 0; j < 4; j++)
				p->mesh.weight[i][j] = i != j;
		}
		p->streams = 12;
	}
	fill_proof(&p->proof);
}

/* An interval's last part: streams 12-15 of 16. */
static void
fill_interval(struct nb_ctl_interval *v)
{
	uint32_t i;

	v->index = 3;
	v->flags = NB_CTL_IV_F_LAST;
	v->first = 12;
	v->count = 4;
	v->nb_streams = 16;
	v->start_ns = 3000000000ull;
	v->end_ns = 4000000000ull;
	v->tx_pkts = v->rx_pkts = 14880952;
	v->tx_bytes = v->rx_bytes = 14880952ull * 64;
	v->jitter_ps = 2075000;
	v->lat_count = 14880952;
	v->lat_p50_ns = 1100;
	v->lat_p99_ns = 379904;
	v->lat_max_ns = 2824088;
	for (i = 0; i < v->count; i++) {
		v->s[i].tx_pkts = v->s[i].rx_pkts = 930059;
		v->s[i].tx_bytes = v->s[i].rx_bytes = 930059ull * 64;
		v->s[i].jitter_ps = 1000000 + i;
	}
}

/* The ctl_encode seed of m: type, session, seq, the body union's bytes. */
static void
put_raw(const char *name, const struct nb_ctl_msg *m)
{
	uint8_t raw[1 + 8 + sizeof(m->u)];

	/* the tag bit as on the wire: fuzz_ctl_encode encodes it tagged */
	raw[0] = (uint8_t)(m->type | (m->tagged ? NB_CTL_F_TAG : 0));
	nb_put_be32(raw + 1, m->session);
	nb_put_be32(raw + 5, m->seq);
	memcpy(raw + 9, &m->u, sizeof(m->u));
	put("ctl_encode", name, raw, sizeof(raw));
}

static int
encode_msg(const struct nb_ctl_msg *m, uint8_t *buf)
{
	int n = nb_ctl_encode(m, buf, NB_CTL_MAX_LEN);

	if (n < 0) {
		fprintf(stderr, "nb_ctl_encode(%s): %s\n",
			nb_ctl_type_name(m->type), nb_ctl_strerror(n));
		exit(1);
	}
	return n;
}

/*
 * m (tagged) encoded and signed as a keyless peer of protocol 9 signs it
 * (NB_AUTH_NO_KEY): a HELLO under K_hello (its own nonce), a PARAMS or
 * QUIT under the session key of its proof; m->tag gets the tag, so that
 * the ctl_encode seed encodes to the same bytes.
 */
static int
encode_signed(struct nb_ctl_msg *m, uint8_t *buf)
{
	struct nb_auth a;
	int n;

	memset(&a, 0, sizeof(a));
	if (m->type == NB_CTL_HELLO)
		nb_auth_hello_key(&a, NULL, 0, m->u.conf.nonce, m->session);
	else if (m->type == NB_CTL_PARAMS)
		nb_auth_derive(&a, NULL, 0, m->u.params.proof.client_nonce,
			       m->u.params.proof.cookie, m->session);
	else
		nb_auth_derive(&a, NULL, 0, m->u.quit.client_nonce,
			       m->u.quit.cookie, m->session);
	n = encode_msg(m, buf);
	nb_auth_sign(&a, buf, (size_t)n);
	memcpy(m->tag, buf + n - NB_CTL_TAG_LEN, NB_CTL_TAG_LEN);
	if (!nb_auth_verify(&a, buf, (size_t)n)) {
		fprintf(stderr, "%s: signed, not verified\n",
			nb_ctl_type_name(m->type));
		exit(1);
	}
	return n;
}

/* A results blob: nstreams streams, the histograms recorded from v. */
static int
make_blob(uint8_t *blob, size_t cap, uint32_t nstreams, uint32_t samples)
{
	static struct nb_ctl_stream_res s[8];
	struct nb_ctl_results_hdr h;
	uint32_t i, k;
	int n;

	memset(&h, 0, sizeof(h));
	h.tx_seconds_ns = 10000000000ull;
	h.rx_seconds_ns = 10000123456ull;
	h.rx_foreign = 3;
	h.rx_warm = 1000;
	h.pmd.ipackets = 148809524;
	h.pmd.ibytes = 148809524ull * 60;
	h.pmd.imissed = 12;
	for (i = 0; i < nstreams; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].id = i;
		s[i].tx_pkts = 1000000 + i;
		s[i].tx_bytes = s[i].tx_pkts * 64;
		s[i].rx_pkts = s[i].tx_pkts - i;
		s[i].rx_unique = s[i].rx_pkts;
		s[i].rx_bytes = s[i].rx_pkts * 64;
		s[i].out_of_order = i;
		s[i].jitter_ps = 1234567;
		nb_hist_init(&s[i].hist);
		for (k = 0; k < samples; k++)
			nb_hist_record(&s[i].hist,
				       (uint64_t)(k * 7919u % 100000u) *
					       (k % 3 == 0 ? 1000u : 1u));
	}
	if (samples > 0)
		nb_hist_record(&s[0].hist, UINT64_C(1) << 40); /* overflow */
	n = nb_ctl_results_write(&h, s, nstreams, blob, cap);
	if (n < 0) {
		fprintf(stderr, "nb_ctl_results_write: %s\n",
			nb_ctl_strerror(n));
		exit(1);
	}
	return n;
}

/* A TCP results blob of n connections (the owd histogram from 50
 * samples), with a --max-rate cap when capped. */
static int
make_tcp_blob(uint8_t *blob, size_t cap, uint32_t n, int capped)
{
	static struct nb_ctl_tcp_hdr h;
	struct nb_tcp_endsnap c[4];
	uint32_t i;
	int len;

	memset(&h, 0, sizeof(h));
	nb_hist_init(&h.owd);
	for (i = 0; n && i < 50; i++)
		nb_hist_record(&h.owd, 1000 + i * 997u);
	h.pmd.ipackets = 7182911;
	h.pmd.opackets = 224511;
	h.rx_pkts = 7182911;
	h.tx_pkts = 224511;
	h.cpu.wall_ns = 3000000000ull;
	h.cpu.user_ns = 2900000000ull;
	if (capped) {
		h.cap_unit = NB_CTL_CAP_L1;
		h.cap_rate = 1250000000ull;
		h.cap_held = 12541802;
	}
	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].state = i ? NB_TCP_CLOSED : NB_TCP_TIME_WAIT;
		c[i].error = i == 3 ? NB_TCP_ERR_RESET : NB_TCP_OK;
		c[i].check = NB_TCP_CHECK_ON;
		c[i].acked = c[i].rcvd = 34952533 + i;
		c[i].retrans = i * 3;
		c[i].cwnd = 2u << 20;
		c[i].srtt_ns = 26000;
		c[i].done_ns = 3000000000ull + i;
	}
	len = nb_ctl_tcpres_write(&h, c, n, blob, cap);
	if (len < 0) {
		fprintf(stderr, "nb_ctl_tcpres_write: %s\n",
			nb_ctl_strerror(len));
		exit(1);
	}
	return len;
}

static void
ctl_seeds(void)
{
	static uint8_t blob[65536];
	uint8_t buf[NB_CTL_MAX_LEN];
	struct nb_ctl_msg m;
	uint32_t part, parts;
	char name[64];
	int n, len, t, v;

	for (t = NB_CTL_HELLO; t < NB_CTL_TYPE_MAX; t++) {
		nb_ctl_msg_init(&m, (uint8_t)t, 0x5eed0001u);
		m.seq = (uint32_t)t;
		switch (t) {
		case NB_CTL_HELLO:
		case NB_CTL_WELCOME:
			fill_conf(&m.u.conf, t == NB_CTL_WELCOME);
			break;
		case NB_CTL_BUSY:
			m.u.busy.asked_session = 0x5eed0001u;
			snprintf(m.u.busy.reason, sizeof(m.u.busy.reason),
				 "a test from 02:00:00:00:00:09 is running");
			break;
		case NB_CTL_PARAMS:
			for (v = 0; v < 5; v++) {
				memset(&m.u.params, 0, sizeof(m.u.params));
				fill_params(&m.u.params, v);
				n = encode_msg(&m, buf);
				snprintf(name, sizeof(name), "params-%d", v);
				put("ctl", name, buf, (size_t)n);
				put_raw(name, &m);
				/* as a client sends it: tagged */
				m.tagged = 1;
				n = encode_signed(&m, buf);
				snprintf(name, sizeof(name), "params-%d-tagged",
					 v);
				put("ctl", name, buf, (size_t)n);
				put_raw(name, &m);
				m.tagged = 0;
			}
			continue;
		case NB_CTL_ACCEPT:
			m.u.accept.rx_queues = 2;
			/* a TLB/ALB bond of three (version 8) */
			m.u.accept.responder_macs.n = 2;
			memcpy(m.u.accept.responder_macs.mac[0],
			       (uint8_t[6]){0x02, 0, 0, 0, 0x10, 3}, 6);
			memcpy(m.u.accept.responder_macs.mac[1],
			       (uint8_t[6]){0x02, 0, 0, 0, 0x10, 4}, 6);
			break;
		case NB_CTL_REJECT:
			m.u.reject.code = NB_CTL_CODE_PARAMS;
			snprintf(m.u.reject.reason, sizeof(m.u.reject.reason),
				 "--size 9000 exceeds the port's MTU");
			break;
		case NB_CTL_START:
			m.u.start.delay_ms = 200;
			m.u.start.rx_offset_ns = -123456;
			break;
		case NB_CTL_KEEPALIVE:
			m.u.ka.sender_ns = 5000000000ull;
			m.u.ka.echo_ns = 4999000000ull;
			m.u.ka.echo_delay_ns = 40000;
			break;
		case NB_CTL_RESULTS_REQ:
			m.u.rreq.part = 1;
			break;
		case NB_CTL_RESULTS:
			len = make_blob(blob, sizeof(blob), 3, 2000);
			parts = nb_ctl_results_parts((uint32_t)len);
			for (part = 0; part < parts && part < 3; part++) {
				nb_ctl_results_chunk(&m, blob, (size_t)len,
						     part);
				n = encode_msg(&m, buf);
				snprintf(name, sizeof(name), "results-%u",
					 part);
				put("ctl", name, buf, (size_t)n);
				if (part == 0)
					put_raw(name, &m);
			}
			nb_ctl_results_chunk(&m, blob, 0, 0); /* empty blob */
			n = encode_msg(&m, buf);
			put("ctl", "results-empty", buf, (size_t)n);
			continue;
		case NB_CTL_ERROR:
			m.u.error.code = NB_CTL_CODE_TIMEOUT;
			snprintf(m.u.error.reason, sizeof(m.u.error.reason),
				 "no keepalive for 3 s");
			break;
		case NB_CTL_QUIT:
			fill_proof(&m.u.quit);
			break;
		case NB_CTL_INTERVAL:
			fill_interval(&m.u.iv);
			break;
		default:
			break; /* no body */
		}
		n = encode_msg(&m, buf);
		snprintf(name, sizeof(name), "%s",
			 nb_ctl_type_name((uint8_t)t));
		put("ctl", name, buf, (size_t)n);
		put_raw(name, &m);
		{
			/* and with a tag: every message in a session, and
			 * (since version 9) the HELLO and QUIT that open one,
			 * these two with a real tag */
			struct nb_ctl_msg tm = m;

			tm.tagged = 1;
			memset(tm.tag, 0xa5, sizeof(tm.tag));
			if (t == NB_CTL_HELLO || t == NB_CTL_QUIT)
				n = encode_signed(&tm, buf);
			else
				n = encode_msg(&tm, buf);
			snprintf(name, sizeof(name), "%s-tagged",
				 nb_ctl_type_name((uint8_t)t));
			put("ctl", name, buf, (size_t)n);
			put_raw(name, &tm);
			if (t == NB_CTL_QUIT) {
				/* a padding byte not zero: refused */
				buf[NB_CTL_HDR_LEN + NB_CTL_PROOF_LEN + 64] = 1;
				put("ctl", "QUIT-tagged-bad-padding", buf,
				    (size_t)n);
			}
			n = encode_msg(&m, buf);
		}
		if (t == NB_CTL_HELLO) {
			/* the same HELLO from a peer of another version: the
			 * next one, and version 8 (untagged), whose HELLO is
			 * the longest datagram an ERROR may answer */
			buf[4] = NB_CTL_VERSION + 1;
			put("ctl", "HELLO-other-version", buf, (size_t)n);
			buf[4] = NB_CTL_VERSION - 1;
			put("ctl", "HELLO-version-8", buf, (size_t)n);
		}
		if (t == NB_CTL_QUIT) {
			/* version 8's QUIT (the proof, no padding) under a
			 * version 9 header: too short */
			nb_put_be16(buf + 6, NB_CTL_HDR_LEN + NB_CTL_PROOF_LEN);
			put("ctl", "QUIT-unpadded", buf,
			    NB_CTL_HDR_LEN + NB_CTL_PROOF_LEN);
		}
	}
}

static void
results_seeds(void)
{
	static uint8_t blob[65536];
	char name[32];
	static const struct {
		const char *name;
		uint32_t streams, samples;
	} v[] = {
		{"empty", 0, 0}, {"one-idle", 1, 0}, {"one", 1, 20},
		{"two", 2, 200}, {"three", 3, 120},  {"eight", 8, 5},
	};
	size_t i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		n = make_blob(blob, sizeof(blob), v[i].streams, v[i].samples);
		put("results", v[i].name, blob, (size_t)n);
	}
	/* the TCP blob: none, one and four connections, a send cap */
	for (i = 0; i < 3; i++) {
		n = make_tcp_blob(blob, sizeof(blob), i == 2 ? 4 : (uint32_t)i,
				  i == 2);
		snprintf(name, sizeof(name), "tcp-%u", (unsigned)i);
		put("results", name, blob, (size_t)n);
	}
}

/* ------------------------------------------------------------- frames */

static void
flow_default(struct nb_flow *f, uint8_t proto, uint16_t vlan)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->dst_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 2}, 6);
	memcpy(f->src_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 1}, 6);
	f->vlan_id = vlan;
	f->proto = proto;
	f->src_ip = NB_DEFAULT_SRC_IP;
	f->dst_ip = NB_DEFAULT_DST_IP;
	f->src_port = NB_DEFAULT_SPORT_BASE + 3;
	f->dst_port = NB_DEFAULT_DPORT;
	f->stream_id = 3;
}

/* An ICMP echo (type 8) or reply (type 0) from the client to ip. */
static int
icmp_frame(uint8_t *f, uint8_t type, uint16_t vlan, uint32_t dst,
	   size_t data_len)
{
	static const uint8_t a[6] = {0x02, 0, 0, 0, 0, 2};
	static const uint8_t b[6] = {0x02, 0, 0, 0, 0, 1};
	uint32_t l3 = nb_eth_hdr_write(f, a, b, vlan, NB_ETHERTYPE_IPV4);
	uint8_t *icmp = f + l3 + NB_IPV4_HLEN;
	size_t i, ilen = 8 + data_len, len;

	nb_ipv4_hdr_write(f + l3, (uint16_t)(NB_IPV4_HLEN + ilen), 7, 64,
			  NB_IPPROTO_ICMP, NB_DEFAULT_SRC_IP, dst);
	icmp[0] = type;
	icmp[1] = 0;
	nb_put_be16(icmp + 2, 0);
	nb_put_be16(icmp + 4, 0x4242);
	nb_put_be16(icmp + 6, 1);
	for (i = 0; i < data_len; i++)
		icmp[8 + i] = (uint8_t)i;
	nb_put_be16(icmp + 2, nb_csum_fold(nb_csum_partial(icmp, ilen, 0)));
	len = l3 + NB_IPV4_HLEN + ilen;
	if (len < NB_MIN_WIRE) {
		memset(f + len, 0, NB_MIN_WIRE - len);
		len = NB_MIN_WIRE;
	}
	return (int)len;
}

/* A UDP datagram to the control port carrying a KEEPALIVE (over IPv6
 * when v6). */
static int
control_frame(uint8_t *f, size_t cap, uint16_t vlan, int v6)
{
	struct nb_udp_info h;
	struct nb_ctl_msg m;
	uint8_t msg[NB_CTL_MAX_LEN];
	int n;

	nb_ctl_msg_init(&m, NB_CTL_KEEPALIVE, 0x5eed0001u);
	m.seq = 9;
	m.u.ka.sender_ns = 123456789;
	n = encode_msg(&m, msg);
	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 2}, 6);
	memcpy(h.src_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 1}, 6);
	h.vlan_id = vlan;
	h.src_ip = NB_DEFAULT_SRC_IP;
	h.dst_ip = NB_DEFAULT_DST_IP;
	h.src_port = NB_CONTROL_UDP_PORT;
	h.dst_port = NB_CONTROL_UDP_PORT;
	h.v6 = (uint8_t)v6;
	memcpy(h.src_ip6, (uint8_t[16]){0x20, 0x01, 0x0d, 0xb8, [15] = 1}, 16);
	memcpy(h.dst_ip6, (uint8_t[16]){0x20, 0x01, 0x0d, 0xb8, [15] = 2}, 16);
	return nb_udp_frame_build(f, cap, &h, msg, (size_t)n);
}

/* The build-mode description fuzz_frame reads (see fuzz_frame.c). */
static size_t
flow_desc(uint8_t *d, const struct nb_flow *f, uint16_t size, uint8_t magic)
{
	uint8_t *p = d;

	*p++ = 1; /* build mode */
	memcpy(p, f->dst_mac, 6);
	p += 6;
	memcpy(p, f->src_mac, 6);
	p += 6;
	nb_put_be16(p, f->vlan_id);
	p += 2;
	*p++ = f->proto;
	*p++ = f->ttl;
	nb_put_be32(p, f->src_ip);
	p += 4;
	nb_put_be32(p, f->dst_ip);
	p += 4;
	nb_put_be16(p, f->src_port);
	p += 2;
	nb_put_be16(p, f->dst_port);
	p += 2;
	nb_put_be16(p, f->stream_id);
	p += 2;
	nb_put_be16(p, size);
	p += 2;
	*p++ = magic;
	nb_put_be16(p, 0); /* seq and tstamp: u64, 48 bits used */
	nb_put_be48(p + 2, 0x0102030405ull);
	p += 8;
	nb_put_be16(p, 0);
	nb_put_be48(p + 2, 0xa0b0c0d0e0ull);
	p += 8;
	return (size_t)(p - d);
}

/* fuzz_frame's stack tail after a flow_desc (see fuzz_stack there). */
static size_t
stack_desc(uint8_t *d, const struct nb_flow *f)
{
	const struct nb_tunnel *t = &f->tun;
	uint8_t *p = d;
	int i;

	*p++ = (uint8_t)((f->family == 6 ? 1 : 0) | (f->outer_vid ? 2 : 0) |
			 (t->kind << 2) | (t->has_key << 4) |
			 (t->src.family == 6 ? 32 : 0));
	memcpy(p, f->src_ip6, 16);
	memcpy(p + 16, f->dst_ip6, 16);
	p += 32;
	if (f->outer_vid) {
		nb_put_be16(p, f->outer_vid);
		nb_put_be16(p + 2, f->outer_tpid);
		p += 4;
	}
	*p++ = f->pcp;
	*p++ = f->tos;
	*p++ = t->nb_labels;
	*p++ = t->ttl;
	nb_put_be32(p, t->id);
	p += 4;
	for (i = 0; i < NB_MAX_LABELS; i++, p += 4)
		nb_put_be32(p, t->labels[i]);
	memcpy(p, t->src.a, 16);
	memcpy(p + 16, t->dst.a, 16);
	p += 32;
	nb_put_be16(p, t->src_port);
	return (size_t)(p + 2 - d);
}

/* Frames of each header stack (parse mode) and their descriptions
 * (build mode). */
static void
stack_seeds(void)
{
	static const uint8_t a6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t b6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	static uint8_t f[2048];
	uint8_t pre[3] = {0, 0, 0}, d[256];
	struct nb_flow fl;
	struct nb_tmpl t;
	char name[64];
	size_t k;
	int i, n;

	for (i = 0; i < 7; i++) {
		flow_default(&fl, i & 1 ? NB_IPPROTO_TCP : NB_IPPROTO_UDP, 0);
		memcpy(fl.src_ip6, a6, 16);
		memcpy(fl.dst_ip6, b6, 16);
		fl.tun.src.family = fl.tun.dst.family = 4;
		nb_put_be32(fl.tun.src.a, NB_DEFAULT_SRC_IP);
		nb_put_be32(fl.tun.dst.a, NB_DEFAULT_DST_IP);
		fl.tun.src_port = 50000;
		fl.tos = (uint8_t)(46 << 2 | 1);
		switch (i) {
		case 0: /* IPv6 */
			fl.family = 6;
			break;
		case 1: /* QinQ, PCP 5 */
			fl.vlan_id = 100;
			fl.outer_vid = 200;
			fl.outer_tpid = NB_ETHERTYPE_QINQ;
			fl.pcp = 5;
			break;
		case 2: /* VXLAN over IPv4 */
			fl.tun.kind = NB_ENCAP_VXLAN;
			fl.tun.id = 5000;
			break;
		case 3: /* IPv6 in VXLAN over IPv6 */
			fl.family = 6;
			fl.tun.kind = NB_ENCAP_VXLAN;
			fl.tun.id = 1;
			fl.tun.src.family = fl.tun.dst.family = 6;
			memcpy(fl.tun.src.a, b6, 16);
			memcpy(fl.tun.dst.a, a6, 16);
			break;
		case 4: /* GRE with a key */
			fl.tun.kind = NB_ENCAP_GRE;
			fl.tun.has_key = 1;
			fl.tun.id = 77;
			break;
		case 5: /* three MPLS labels under a 0x9100 QinQ */
			fl.vlan_id = 7;
			fl.outer_vid = 8;
			fl.outer_tpid = NB_ETHERTYPE_Q9100;
			fl.tun.kind = NB_ENCAP_MPLS;
			fl.tun.nb_labels = 3;
			fl.tun.labels[0] = 16;
			fl.tun.labels[1] = 1048575;
			fl.tun.labels[2] = 3;
			break;
		default: /* IPv6 over GRE over IPv6 */
			fl.family = 6;
			fl.tun.kind = NB_ENCAP_GRE;
			fl.tun.src.family = fl.tun.dst.family = 6;
			memcpy(fl.tun.src.a, b6, 16);
			memcpy(fl.tun.dst.a, a6, 16);
			break;
		}
		n = nb_frame_build(f, sizeof(f), &fl, 192, NB_MAGIC_DATA, &t);
		if (n < 0) {
			fprintf(stderr, "nb_frame_build(stack %d) failed\n", i);
			exit(1);
		}
		if (i & 1)
			nb_stamp_tcp(f, &t, 77, 123456789);
		else
			nb_stamp_udp(f, &t, 77, 123456789);
		if (t.csum2_off)
			nb_stamp_outer(f, &t, 77, 123456789, !(i & 1));
		snprintf(name, sizeof(name), "stack-%d", i);
		put_sel("frame", name, pre, 3, f, (size_t)n);
		k = flow_desc(d, &fl, 192, 0);
		k += stack_desc(d + k, &fl);
		snprintf(name, sizeof(name), "build-stack-%d", i);
		put("frame", name, d, k);
	}
}

static void
frame_seeds(void)
{
	static const struct {
		const char *name;
		uint8_t proto;
		uint16_t vlan, size, magic;
		uint8_t sel;
	} v[] = {
		{"udp-64", NB_IPPROTO_UDP, 0, 64, NB_MAGIC_DATA, 0},
		{"udp-vlan-128-warmup", NB_IPPROTO_UDP, 100, 128,
		 NB_MAGIC_WARMUP, 1},
		{"udp-1518-probe", NB_IPPROTO_UDP, 0, 1518, NB_MAGIC_PROBE, 2},
		{"tcp-64", NB_IPPROTO_TCP, 0, 64, NB_MAGIC_DATA, 0},
		{"tcp-vlan-64", NB_IPPROTO_TCP, 4094, 64, NB_MAGIC_DATA, 0},
		{"tcp-512-foreign", NB_IPPROTO_TCP, 0, 512, 0x1234, 3},
	};
	static uint8_t f[9100];
	uint8_t pre[3] = {0, 0, 0}, d[64], mac[6] = {2, 0, 0, 0, 0, 1};
	struct nb_flow fl;
	struct nb_tmpl t;
	char name[64];
	size_t i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		flow_default(&fl, v[i].proto, v[i].vlan);
		n = nb_frame_build(f, sizeof(f), &fl, v[i].size, v[i].magic,
				   &t);
		if (n < 0) {
			fprintf(stderr, "nb_frame_build(%s) failed\n",
				v[i].name);
			exit(1);
		}
		if (v[i].proto == NB_IPPROTO_UDP)
			nb_stamp_udp(f, &t, 77, 123456789);
		else
			nb_stamp_tcp(f, &t, 77, 123456789);
		pre[2] = 0;
		put_sel("frame", v[i].name, pre, 3, f, (size_t)n);
		/* only the first segment of the frame is contiguous */
		pre[2] = (uint8_t)(n - t.copy_len > 255 ? 255 : n - t.copy_len);
		snprintf(name, sizeof(name), "%s-segment", v[i].name);
		put_sel("frame", name, pre, 3, f, t.copy_len);
		snprintf(name, sizeof(name), "build-%s", v[i].name);
		put("frame", name, d, flow_desc(d, &fl, v[i].size, v[i].sel));
	}
	pre[2] = 0;
	n = control_frame(f, sizeof(f), 0, 0);
	put_sel("frame", "control", pre, 3, f, (size_t)n);
	n = nb_arp_request(f, sizeof(f), mac, NB_DEFAULT_SRC_IP, 0,
			   NB_DEFAULT_DST_IP);
	put_sel("frame", "arp", pre, 3, f, (size_t)n);
	n = icmp_frame(f, 8, 0, NB_DEFAULT_DST_IP, 56);
	put_sel("frame", "icmp", pre, 3, f, (size_t)n);
	stack_seeds();
}

/* fuzz_l2's IPv6 cases: a solicitation for 2001:db8::1 (tagged too), the
 * advertisement answering it, an echo request (see fuzz_l2.c). */
static void
ndp_seeds(uint8_t *f)
{
	static const uint8_t me[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t peer[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 9};
	uint8_t sel[2] = {5, 255}, mac[6] = {2, 0, 0, 0, 0, 9};
	uint8_t na[256], me_mac[6] = {2, 0, 0, 0, 0, 2}, *ip;
	int n, k;

	n = nb_ndp_solicit(f, 2048, mac, peer, 0, me);
	put_sel("l2", "ndp-solicit", sel, 2, f, (size_t)n);
	k = nb_ndp_answer(f, (uint32_t)n, me_mac, me, na, sizeof(na));
	n = nb_ndp_solicit(f, 2048, mac, peer, 100, me);
	put_sel("l2", "ndp-solicit-vlan", sel, 2, f, (size_t)n);
	sel[0] = 6;
	if (k > 0)
		put_sel("l2", "ndp-advert", sel, 2, na, (size_t)k);
	/* an echo request: the solicitation's headers, type 128, data */
	n = nb_ndp_solicit(f, 2048, mac, peer, 0, me);
	ip = f + NB_ETH_HLEN;
	memcpy(ip + 24, me, 16);
	ip[7] = 64;
	memset(ip + 40, 0, 32);
	ip[40] = NB_ICMP6_ECHO_REQUEST;
	nb_put_be16(ip + 44, 0x1234);
	nb_put_be16(ip + 46, 1);
	memcpy(ip + 48, "nbench-echo", 11);
	nb_put_be16(ip + 42, nb_l4_csum(ip, NB_IPPROTO_ICMPV6, ip + 40, 32));
	sel[0] = 7;
	put_sel("l2", "icmp6-echo", sel, 2, f, (size_t)n);
}

static void
l2_seeds(void)
{
	static uint8_t f[9100];
	uint8_t sel[2], mac[6] = {2, 0, 0, 0, 0, 1}, d[64], *p = d;
	int n;

	sel[1] = 255; /* 2040-byte output buffer */
	sel[0] = 0;
	n = control_frame(f, sizeof(f), 0, 0);
	put_sel("l2", "udp", sel, 2, f, (size_t)n);
	n = control_frame(f, sizeof(f), 100, 0);
	put_sel("l2", "udp-vlan", sel, 2, f, (size_t)n);
	n = control_frame(f, sizeof(f), 0, 1);
	put_sel("l2", "udp6", sel, 2, f, (size_t)n);

	sel[0] = 1;
	n = nb_arp_request(f, sizeof(f), mac, NB_DEFAULT_SRC_IP, 0,
			   NB_DEFAULT_DST_IP);
	put_sel("l2", "arp-request", sel, 2, f, (size_t)n);
	n = nb_arp_request(f, sizeof(f), mac, NB_DEFAULT_SRC_IP, 100,
			   NB_DEFAULT_DST_IP);
	put_sel("l2", "arp-request-vlan", sel, 2, f, (size_t)n);

	sel[0] = 2;
	n = nb_arp_request(f, sizeof(f), mac, NB_DEFAULT_SRC_IP, 0,
			   NB_DEFAULT_DST_IP);
	put_sel("l2", "arp-sender", sel, 2, f, (size_t)n);

	sel[0] = 3;
	n = icmp_frame(f, 8, 0, NB_DEFAULT_DST_IP, 56);
	put_sel("l2", "icmp-echo", sel, 2, f, (size_t)n);
	n = icmp_frame(f, 8, 100, NB_DEFAULT_DST_IP, 0);
	put_sel("l2", "icmp-echo-vlan-short", sel, 2, f, (size_t)n);
	n = icmp_frame(f, 0, 0, NB_DEFAULT_DST_IP, 56);
	put_sel("l2", "icmp-reply", sel, 2, f, (size_t)n);

	*p++ = 4;   /* nb_arp_request */
	*p++ = 255; /* output buffer */
	memcpy(p, mac, 6);
	p += 6;
	nb_put_be32(p, NB_DEFAULT_SRC_IP);
	nb_put_be32(p + 4, NB_DEFAULT_DST_IP);
	nb_put_be16(p + 8, 100);
	p += 10;
	put("l2", "arp-request-build", d, (size_t)(p - d));
	ndp_seeds(f);
}

/* --------------------------------------------------------------- text */

static void
units_seeds(void)
{
	static const char *const v[][2] = {
		{"\x00", "10G"},
		{"\x00", "14.88Mpps"},
		{"\x00", "100Ml2"},
		{"\x00", "99.5%"},
		{"\x00", "max"},
		{"\x00", "2.5e3Kbps"},
		{"\x01", "10M"},
		{"\x01", "18446744073709551615"},
		{"\x02", "10G"},
		{"\x02", "1536K"},
		{"\x03", "0.5"},
		{"\x03", "1e-3"},
		{"\x04", "imix"},
		{"\x04", "64,128,256,512,1024,1518"},
		{"\x06", "02:00:00:00:00:01"},
		{"\x06", "aa-BB-cc-DD-ee-FF"},
		{"\x07", "198.18.0.1"},
		{"\x07", "255.255.255.255"},
	};
	static const char *const names[] = {"rate",    "count", "bytes",
					    "seconds", "sizes", "u32",
					    "mac",     "ipv4"};
	uint8_t buf[64];
	char name[64];
	size_t i, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		n = strlen(v[i][1]);
		buf[0] = (uint8_t)v[i][0][0];
		memcpy(buf + 1, v[i][1], n);
		snprintf(name, sizeof(name), "%s-%zu", names[buf[0]], i);
		put("units", name, buf, n + 1);
	}
	/* nb_parse_u32 in [1, 1024] */
	memcpy(buf,
	       "\x05\x00\x00\x00\x01\x00\x00\x04\x00"
	       "1000",
	       13);
	put("units", "u32-streams", buf, 13);
}

static void
options_seeds(void)
{
	put_str("options", "loopback",
		"--tx-port\n0\n--rx-port\n1\n--rate\n10G\n--size\nimix\n"
		"--time\n10\n--json");
	put_str("options", "loopback-equals",
		"--tx-port=0,2\n--rx-port=1,3\n-b\n2.5Gl2\n--size=64,512,1518\n"
		"--proto\ntcp\n-P\n7\n--vlan=100\n--src-ip\n10.0.0.1\n"
		"--dst-ip=192.168.255.254\n--src-mac\n02:00:00:00:00:01\n"
		"--omit=1.5\n-i\n0.5\n-q\n4\n--rxd\n512\n--drain\n0.25");
	put_str("options", "packets-bytes",
		"--tx-port\n0\n--rx-port\n1\n--packets\n10M\n--bytes\n1G");
	put_str("options", "reflector",
		"--reflector\n--port\n0\n--peer\n02:00:00:00:00:02\n--csv");
	put_str("options", "responder",
		"--port\n0\n--ip\n198.19.0.1\n"
		"--one-off\n--json-stream");
	put_str("options", "client",
		"--port\n0\n--peer\n198.19.0.1\n--ip\n198.18.0.1\n--bidir\n"
		"--latency-rate\n1000\n--conf\n--peer-timeout\n5");
	put_str("options", "pingpong",
		"--port=0\n--peer=198.19.0.1\n--pingpong\n--reverse\n-f\nm");
	put_str("options", "help", "--help");
	put_str("options", "mesh",
		"--ports\n0,1,2,3\n--mesh\nbackbone\n-P\n2\n--test\n"
		"throughput,forwarding-rate\n--size\n64,1518");
	put_str("options", "mesh-list",
		"--mesh=0>2,1>2,0>3\n--rate\n1G\n--packets\n1000");
	put_str("options", "congestion",
		"--ports=4,5,6,7\n--test=congestion\n--rate=20G\n"
		"--trial-time\n5");
}

static void
config_seeds(int argc, char **argv)
{
	int i;

	put_str("config", "loopback",
		"; a loopback test\n[ports]\ntx-port = 0\nrx-port = 1\n\n"
		"[traffic]\nrate = 10G\nsize = imix\nproto = udp\n"
		"streams = 16\n\n[run]\ntime = 10\nomit = 1\njson = true\n");
	put_str("config", "peer",
		"[peer]\nport = 0\npeer = 198.19.0.1\nip = 198.18.0.1\n"
		"bidir = yes\nlatency-rate = 1000\nquiet = off\n");
	put_str("config", "cli-wins",
		"!time = 30\nsize = 1518\nrate = 50%\ntx-port = 0\n"
		"rx-port = 1\n");
	for (i = 0; i < argc; i++)
		copy_file("config", argv[i]);
}

/* fuzz_tcp: frames of each kind (mode 0), and segment records (mode 1) */
static void
tcp_seeds(void)
{
	static const uint8_t sel0[] = {0};
	struct nb_flow f = {
		.dst_mac = {2, 0, 0, 0, 0, 2},
		.src_mac = {2, 0, 0, 0, 0, 1},
		.proto = NB_IPPROTO_TCP,
		.src_ip = NB_DEFAULT_SRC_IP,
		.dst_ip = NB_DEFAULT_DST_IP,
		.src_port = 49152,
		.dst_port = 5201,
	};
	struct nb_tcp_seg sg;
	uint8_t buf[2048], rec[1 + 14 * 6];
	unsigned int i;
	int n;

	nb_tcp_pattern_init();
	memset(&sg, 0, sizeof(sg));
	sg.flags = NB_TCP_SYN;
	sg.has_mss = 1;
	sg.mss = 1460;
	sg.wscale = 7;
	sg.sack_ok = 1;
	sg.wnd = 65535;
	n = nb_tcp_frame_build(buf, sizeof(buf), &f, &sg, NULL);
	put_sel("tcp", "syn", sel0, 1, buf, (size_t)n);
	memset(&sg, 0, sizeof(sg));
	sg.wscale = NB_TCP_WSCALE_NONE;
	sg.flags = NB_TCP_ACK | NB_TCP_PSH;
	sg.len = 200;
	sg.data_off = 1000;
	sg.has_stamp = 1;
	sg.stamp_ns = 123456789;
	n = nb_tcp_frame_build(buf, sizeof(buf), &f, &sg, NULL);
	put_sel("tcp", "data", sel0, 1, buf, (size_t)n);
	f.vlan_id = 100;
	n = nb_tcp_frame_build(buf, sizeof(buf), &f, &sg, NULL);
	put_sel("tcp", "data-vlan", sel0, 1, buf, (size_t)n);
	f.vlan_id = 0;
	memset(&sg, 0, sizeof(sg));
	sg.wscale = NB_TCP_WSCALE_NONE;
	sg.flags = NB_TCP_ACK;
	sg.nb_sack = 3;
	for (i = 0; i < 3; i++) {
		sg.sack[i][0] = 1000 * (i + 1);
		sg.sack[i][1] = 1000 * (i + 1) + 500;
	}
	n = nb_tcp_frame_build(buf, sizeof(buf), &f, &sg, NULL);
	put_sel("tcp", "ack-sack", sel0, 1, buf, (size_t)n);
	/* records: in-order data, a hole, a FIN, an ACK with SACK, a RST */
	memset(rec, 0, sizeof(rec));
	rec[0] = 1;
	for (i = 0; i < 6; i++) {
		uint8_t *r = rec + 1 + 14 * i;

		r[0] = (uint8_t)(i == 3 ? 0x0c | 0x10 : 0x04);
		r[2] = (uint8_t)(i == 1 ? 0x10 : 0);
		r[5] = 0xff;
		r[6] = 0xff;
		r[8] = (uint8_t)(i == 2 || i == 4 ? 0 : 0xb8); /* 1464 % 1461 */
		r[7] = (uint8_t)(i == 2 || i == 4 ? 0 : 0x05);
		r[12] = (uint8_t)(i == 2   ? NB_TCP_FIN | NB_TCP_ACK
				  : i == 5 ? NB_TCP_RST
					   : NB_TCP_ACK);
		r[13] = 1;
	}
	put("tcp", "records", rec, sizeof(rec));
}

/* --replay-stamp frames (fuzz_replay): ours, tagged or not, a foreign UDP
 * frame of a capture, and ones the check refuses (TCP, a fragment). */
static void
replay_seeds(void)
{
	static const struct {
		const char *name;
		uint8_t proto;
		uint16_t vlan, size;
	} v[] = {
		{"udp-64", NB_IPPROTO_UDP, 0, 64},
		{"udp-vlan-1518", NB_IPPROTO_UDP, 100, 1518},
		{"tcp-64", NB_IPPROTO_TCP, 0, 64},
	};
	static uint8_t f[2048];
	struct nb_flow fl;
	struct nb_tmpl t;
	size_t i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		flow_default(&fl, v[i].proto, v[i].vlan);
		n = nb_frame_build(f, sizeof(f), &fl, v[i].size, 0x4242, &t);
		if (n < 0) {
			fprintf(stderr, "nb_frame_build(%s) failed\n",
				v[i].name);
			exit(1);
		}
		put("replay", v[i].name, f, (size_t)n);
		if (v[i].proto == NB_IPPROTO_UDP && v[i].vlan == 0) {
			/* more fragments */
			f[NB_ETH_HLEN + NB_IPV4_OFF_FRAG] = 0x20;
			put("replay", "udp-fragment", f, (size_t)n);
		}
	}
	n = control_frame(f, sizeof(f), 0, 0);
	put("replay", "control", f, (size_t)n);
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s OUTDIR [FILE.ini ...]\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	mkdir_p(outdir);
	ctl_seeds();
	results_seeds();
	frame_seeds();
	l2_seeds();
	tcp_seeds();
	replay_seeds();
	units_seeds();
	options_seeds();
	config_seeds(argc - 2, argv + 2);
	printf("%d seed files in %s\n", nb_files, outdir);
	return 0;
}
