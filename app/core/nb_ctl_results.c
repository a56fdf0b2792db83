/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results blobs a responder sends in RESULTS chunks: the UDP one
 * (header, then each stream with its histogram's non-empty buckets) and
 * the TCP one (header, one-way delays, then each connection).  Written
 * and read here; the chunks travel as nb_ctl.c's messages.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "nb_ctl.h"
#include "nb_ctl_wire.h"

/*
 * Its fixed uint64_t fields, in wire order: the header's after the magic
 * and stream count, a stream's after its id (the histogram's summary comes
 * before its buckets).
 */
#define HDR_U64(f)     offsetof(struct nb_ctl_results_hdr, f)
#define HDR_PMD_U64(f) HDR_U64(pmd.f),
static const uint16_t hdr_u64[] = {
	HDR_U64(tx_seconds_ns),	     HDR_U64(rx_seconds_ns),
	HDR_U64(rx_foreign),	     HDR_U64(rx_warm),
	HDR_U64(rx_bad_stream),	     HDR_U64(tx_dropped),
	NB_PMD_COUNTERS(HDR_PMD_U64)};

static const uint16_t impair_u64[] = {
	HDR_U64(impair.c.seen),	      HDR_U64(impair.c.dropped),
	HDR_U64(impair.c.policed),    HDR_U64(impair.c.overflow),
	HDR_U64(impair.c.duplicated), HDR_U64(impair.c.reordered),
	HDR_U64(impair.c.delayed)};

static const uint16_t cpu_u64[] = {HDR_U64(cpu.wall_ns), HDR_U64(cpu.user_ns),
				   HDR_U64(cpu.system_ns)};

#define STREAM_U64(f) offsetof(struct nb_ctl_stream_res, f)
static const uint16_t stream_u64[] = {
	STREAM_U64(tx_pkts),	STREAM_U64(tx_bytes),
	STREAM_U64(rx_pkts),	STREAM_U64(rx_unique),
	STREAM_U64(rx_bytes),	STREAM_U64(out_of_order),
	STREAM_U64(duplicates), STREAM_U64(late),
	STREAM_U64(jitter_ps),	STREAM_U64(hist.count),
	STREAM_U64(hist.sum),	STREAM_U64(hist.min),
	STREAM_U64(hist.max),	STREAM_U64(hist.overflow)};

_Static_assert(4 + 4 + 8 * NB_ELEMS(hdr_u64) + 8 + 8 * NB_ELEMS(impair_u64) +
				       NB_IMPAIR_SPEC_LEN +
				       8 * NB_ELEMS(cpu_u64) ==
			       NB_CTL_RESULTS_HDR_LEN &&
		       4 + 8 * NB_ELEMS(stream_u64) + 2 ==
			       NB_CTL_STREAM_RES_LEN,
	       "the field tables are the wire layout");

static uint32_t
hist_nonempty(const struct nb_hist *h)
{
	uint32_t i, k = 0;

	for (i = 0; i < NB_HIST_BUCKETS; i++)
		k += h->buckets[i] != 0;
	return k;
}

/* The consistency rules of nb_ctl.h; 0 or -EINVAL. */
static int
hist_check(const struct nb_hist *h)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < NB_HIST_BUCKETS; i++)
		if (__builtin_add_overflow(total, h->buckets[i], &total))
			return -EINVAL;
	if (total != h->count || h->overflow > h->buckets[NB_HIST_BUCKETS - 1])
		return -EINVAL;
	if (h->count == 0)
		return h->sum == 0 ? 0 : -EINVAL;
	return h->min <= h->max ? 0 : -EINVAL;
}

/* A histogram's non-empty buckets: count u16, then (index u16, count u64)
 * each. */
static void
wr_buckets(uint8_t **p, const struct nb_hist *h)
{
	uint32_t b;

	wr_u16(p, (uint16_t)hist_nonempty(h));
	for (b = 0; b < NB_HIST_BUCKETS; b++) {
		if (h->buckets[b] == 0)
			continue;
		wr_u16(p, (uint16_t)b);
		wr_u64(p, h->buckets[b]);
	}
}

/* The buckets into h (its summary already read), left bytes from *p on;
 * 0, or -EPROTO (truncated, an index out of order or range, a zero
 * count, an inconsistent histogram). */
static int
rd_buckets(const uint8_t **p, size_t left, struct nb_hist *h)
{
	uint32_t nbk, b;
	int prev = -1;

	if (left < 2)
		return -EPROTO;
	nbk = rd_u16(p);
	if ((left - 2) / NB_CTL_BUCKET_LEN < nbk)
		return -EPROTO;
	for (b = 0; b < nbk; b++) {
		uint16_t idx = rd_u16(p);
		uint64_t cnt = rd_u64(p);

		if (idx >= NB_HIST_BUCKETS || (int)idx <= prev || cnt == 0)
			return -EPROTO;
		h->buckets[idx] = cnt;
		prev = idx;
	}
	return hist_check(h) != 0 ? -EPROTO : 0;
}

size_t
nb_ctl_results_size(const struct nb_ctl_stream_res *streams, uint32_t n)
{
	size_t sz = NB_CTL_RESULTS_HDR_LEN;
	uint32_t i;

	for (i = 0; i < n; i++)
		sz += NB_CTL_STREAM_RES_LEN +
		      (size_t)hist_nonempty(&streams[i].hist) *
			      NB_CTL_BUCKET_LEN;
	return sz;
}

int
nb_ctl_results_write(const struct nb_ctl_results_hdr *h,
		     const struct nb_ctl_stream_res *streams, uint32_t n,
		     uint8_t *buf, size_t len)
{
	uint8_t *p = buf;
	size_t need;
	uint32_t i;

	if (h == NULL || buf == NULL || (streams == NULL && n != 0))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (hist_check(&streams[i].hist) != 0)
			return -EINVAL;
	need = nb_ctl_results_size(streams, n);
	if (need > INT_MAX || need > UINT32_MAX)
		return -EOVERFLOW;
	if (len < need)
		return -ENOSPC;

	wr_u32(&p, NB_CTL_RESULTS_MAGIC);
	wr_u32(&p, n);
	wr_u64_fields(&p, h, hdr_u64, NB_ELEMS(hdr_u64));
	wr_u32(&p, h->impair.active ? 1 : 0);
	wr_u32(&p, 0);
	wr_u64_fields(&p, h, impair_u64, NB_ELEMS(impair_u64));
	memset(p, 0, NB_IMPAIR_SPEC_LEN);
	if (h->impair.active)
		memcpy(p, h->impair.spec,
		       strnlen(h->impair.spec, NB_IMPAIR_SPEC_LEN - 1));
	p += NB_IMPAIR_SPEC_LEN;
	wr_u64_fields(&p, h, cpu_u64, NB_ELEMS(cpu_u64));

	for (i = 0; i < n; i++) {
		const struct nb_ctl_stream_res *s = &streams[i];

		wr_u32(&p, s->id);
		wr_u64_fields(&p, s, stream_u64, NB_ELEMS(stream_u64));
		wr_buckets(&p, &s->hist);
	}
	return (int)need;
}

/* The impairment part of the header: flags, counts, a spec of printable
 * ASCII padded with NULs (empty when off): safe to print as it is. */
static int
read_impair(const uint8_t **p, struct nb_ctl_results_hdr *h)
{
	uint32_t flags = rd_u32(p), reserved = rd_u32(p);
	size_t len, i;

	rd_u64_fields(p, h, impair_u64, NB_ELEMS(impair_u64));
	memcpy(h->impair.spec, *p, NB_IMPAIR_SPEC_LEN);
	*p += NB_IMPAIR_SPEC_LEN;
	if ((flags & ~1u) != 0 || reserved != 0 ||
	    h->impair.spec[NB_IMPAIR_SPEC_LEN - 1] != '\0')
		return -EPROTO;
	len = strlen(h->impair.spec);
	for (i = 0; i < NB_IMPAIR_SPEC_LEN; i++)
		if (i < len ? h->impair.spec[i] < 0x20 ||
				      h->impair.spec[i] > 0x7e
			    : h->impair.spec[i] != '\0')
			return -EPROTO; /* printable ASCII, then NULs */
	h->impair.active = (int)(flags & 1);
	return h->impair.active || len == 0 ? 0 : -EPROTO;
}

/* CPU times no process can have: more than 4096 CPUs' worth of the wall
 * time, or times without one. */
static int
cpu_ok(const struct nb_cpu_usage *u)
{
	uint64_t most =
		u->wall_ns > UINT64_MAX / 4096 ? UINT64_MAX : u->wall_ns * 4096;

	return u->user_ns <= most && u->system_ns <= most;
}

int
nb_ctl_results_read(const uint8_t *buf, size_t len,
		    struct nb_ctl_results_hdr *h,
		    struct nb_ctl_stream_res *streams, uint32_t max,
		    uint32_t *n)
{
	const uint8_t *p = buf;
	size_t left;
	uint32_t nb, i;

	if (h == NULL || n == NULL || (buf == NULL && len != 0) ||
	    (streams == NULL && max != 0))
		return -EINVAL;
	if (len < NB_CTL_RESULTS_HDR_LEN || rd_u32(&p) != NB_CTL_RESULTS_MAGIC)
		return -EPROTO;
	nb = rd_u32(&p);
	if ((len - NB_CTL_RESULTS_HDR_LEN) / NB_CTL_STREAM_RES_LEN < nb)
		return -EPROTO;
	if (nb > max)
		return -ENOSPC;

	rd_u64_fields(&p, h, hdr_u64, NB_ELEMS(hdr_u64));
	h->pmd.nb_xstats = 0; /* not carried by the protocol */
	if (read_impair(&p, h) != 0)
		return -EPROTO;
	rd_u64_fields(&p, h, cpu_u64, NB_ELEMS(cpu_u64));
	if (!cpu_ok(&h->cpu))
		return -EPROTO;

	for (i = 0; i < nb; i++) {
		struct nb_ctl_stream_res *s = &streams[i];

		left = len - (size_t)(p - buf);
		if (left < NB_CTL_STREAM_RES_LEN)
			return -EPROTO;
		s->id = rd_u32(&p);
		nb_hist_init(&s->hist);
		rd_u64_fields(&p, s, stream_u64, NB_ELEMS(stream_u64));
		if (rd_buckets(&p, left - (NB_CTL_STREAM_RES_LEN - 2),
			       &s->hist) != 0)
			return -EPROTO;
	}
	if ((size_t)(p - buf) != len)
		return -EPROTO;
	*n = nb;
	return 0;
}

/* The TCP results blob. */
#define TCPH_U64(f)	offsetof(struct nb_ctl_tcp_hdr, f)
#define TCPH_PMD_U64(f) TCPH_U64(pmd.f),
static const uint16_t tcph_u64[] = {NB_PMD_COUNTERS(TCPH_PMD_U64)
					    TCPH_U64(cpu.wall_ns),
				    TCPH_U64(cpu.user_ns),
				    TCPH_U64(cpu.system_ns),
				    TCPH_U64(rx_pkts),
				    TCPH_U64(rx_bytes),
				    TCPH_U64(tx_pkts),
				    TCPH_U64(tx_bytes),
				    TCPH_U64(foreign),
				    TCPH_U64(bad_csum),
				    TCPH_U64(stray),
				    TCPH_U64(alloc_fail),
				    TCPH_U64(ctl_dropped),
				    TCPH_U64(cap_unit),
				    TCPH_U64(cap_rate),
				    TCPH_U64(cap_held),
				    TCPH_U64(owd.count),
				    TCPH_U64(owd.sum),
				    TCPH_U64(owd.min),
				    TCPH_U64(owd.max),
				    TCPH_U64(owd.overflow)};

#define CONN_U64(f) offsetof(struct nb_tcp_endsnap, f)
static const uint16_t conn_u64[] = {
	CONN_U64(acked),	CONN_U64(rcvd),	       CONN_U64(retrans),
	CONN_U64(fast_retrans), CONN_U64(rto),	       CONN_U64(recoveries),
	CONN_U64(cwnd),		CONN_U64(max_cwnd),    CONN_U64(srtt_ns),
	CONN_U64(rttvar_ns),	CONN_U64(min_rtt_ns),  CONN_U64(max_rtt_ns),
	CONN_U64(rtt_samples),	CONN_U64(bad_bytes),   CONN_U64(dup_bytes),
	CONN_U64(ooo_segs),	CONN_U64(segs_out),    CONN_U64(segs_in),
	CONN_U64(done_ns),	CONN_U64(all_acked_ns)};

_Static_assert(4 + 4 + 8 * NB_ELEMS(tcph_u64) + 2 == NB_CTL_TCPRES_HDR_LEN &&
		       4 + 8 * NB_ELEMS(conn_u64) == NB_CTL_TCPRES_CONN_LEN &&
		       NB_ELEMS(conn_u64) == NB_TCP_ENDSNAP_U64,
	       "the TCP field tables are the wire layout");

static int
conn_ok(const struct nb_tcp_endsnap *c)
{
	return c->state <= NB_TCP_LAST_ACK && c->error <= NB_TCP_ERR_ABORTED &&
	       c->check <= NB_TCP_CHECK_AUTO;
}

static int
cap_ok(const struct nb_ctl_tcp_hdr *h)
{
	return h->cap_unit <= NB_CTL_CAP_L1 &&
	       (h->cap_unit != NB_CTL_CAP_NONE || h->cap_rate == 0);
}

size_t
nb_ctl_tcpres_size(const struct nb_ctl_tcp_hdr *h, uint32_t n)
{
	return NB_CTL_TCPRES_HDR_LEN +
	       (size_t)hist_nonempty(&h->owd) * NB_CTL_BUCKET_LEN +
	       (size_t)n * NB_CTL_TCPRES_CONN_LEN;
}

int
nb_ctl_tcpres_write(const struct nb_ctl_tcp_hdr *h,
		    const struct nb_tcp_endsnap *conns, uint32_t n,
		    uint8_t *buf, size_t len)
{
	uint8_t *p = buf;
	size_t need;
	uint32_t i;

	if (h == NULL || buf == NULL || (conns == NULL && n != 0) ||
	    hist_check(&h->owd) != 0 || !cpu_ok(&h->cpu) || !cap_ok(h))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!conn_ok(&conns[i]))
			return -EINVAL;
	need = nb_ctl_tcpres_size(h, n);
	if (need > INT_MAX || need > UINT32_MAX)
		return -EOVERFLOW;
	if (len < need)
		return -ENOSPC;
	wr_u32(&p, NB_CTL_TCPRES_MAGIC);
	wr_u32(&p, n);
	wr_u64_fields(&p, h, tcph_u64, NB_ELEMS(tcph_u64));
	wr_buckets(&p, &h->owd);
	for (i = 0; i < n; i++) {
		wr_u8(&p, conns[i].state);
		wr_u8(&p, conns[i].error);
		wr_u8(&p, conns[i].check);
		wr_u8(&p, 0);
		wr_u64_fields(&p, &conns[i], conn_u64, NB_ELEMS(conn_u64));
	}
	return (int)need;
}

int
nb_ctl_tcpres_read(const uint8_t *buf, size_t len, struct nb_ctl_tcp_hdr *h,
		   struct nb_tcp_endsnap *conns, uint32_t max, uint32_t *n)
{
	const uint8_t *p = buf;
	size_t left;
	uint32_t nb, i;

	if (h == NULL || n == NULL || (buf == NULL && len != 0) ||
	    (conns == NULL && max != 0))
		return -EINVAL;
	if (len < NB_CTL_TCPRES_HDR_LEN || rd_u32(&p) != NB_CTL_TCPRES_MAGIC)
		return -EPROTO;
	nb = rd_u32(&p);
	memset(h, 0, sizeof(*h));
	rd_u64_fields(&p, h, tcph_u64, NB_ELEMS(tcph_u64));
	if (!cpu_ok(&h->cpu) || !cap_ok(h) ||
	    rd_buckets(&p, len - (size_t)(p - buf), &h->owd) != 0)
		return -EPROTO;
	left = len - (size_t)(p - buf);
	if (left % NB_CTL_TCPRES_CONN_LEN != 0 ||
	    left / NB_CTL_TCPRES_CONN_LEN != nb)
		return -EPROTO;
	if (nb > max)
		return -ENOSPC;
	for (i = 0; i < nb; i++) {
		struct nb_tcp_endsnap *c = &conns[i];

		memset(c, 0, sizeof(*c));
		c->state = rd_u8(&p);
		c->error = rd_u8(&p);
		c->check = rd_u8(&p);
		if (rd_u8(&p) != 0 || !conn_ok(c))
			return -EPROTO;
		rd_u64_fields(&p, c, conn_u64, NB_ELEMS(conn_u64));
	}
	*n = nb;
	return 0;
}
