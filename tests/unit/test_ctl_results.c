/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results blobs (app/core/nb_ctl_results.c): UDP streams with their
 * histograms, impairment and CPU parts, truncation, bad buckets, and the
 * TCP blob.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_frame.h"
#include "nb_hist.h"
#include "ctl_fixtures.h"

/* Results blob. */

#define N_STREAMS 3

static struct nb_ctl_stream_res *
rand_streams(uint64_t *r, uint32_t n, uint32_t samples)
{
	struct nb_ctl_stream_res *s = calloc(n, sizeof(*s));
	uint32_t i, k;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		s[i].id = (uint32_t)rng_next(r);
		s[i].tx_pkts = rng_next(r);
		s[i].tx_bytes = rng_next(r);
		s[i].rx_pkts = rng_next(r);
		s[i].rx_unique = rng_next(r);
		s[i].rx_bytes = rng_next(r);
		s[i].out_of_order = rng_next(r);
		s[i].duplicates = rng_next(r);
		s[i].late = rng_next(r);
		s[i].jitter_ps = rng_next(r);
		nb_hist_init(&s[i].hist);
		/* stream 1 stays empty */
		for (k = 0; i != 1 && k < samples; k++) {
			uint64_t v;

			switch (rng_below(r, 4)) {
			case 0:
				v = rng_below(r, 200);
				break;
			case 1:
				v = rng_below(r, 100000);
				break;
			case 2:
				v = rng_next(r) >> rng_below(r, 64);
				break;
			default:
				v = NB_HIST_LIMIT + rng_below(r, 1000);
				break;
			}
			nb_hist_record(&s[i].hist, v);
		}
	}
	return s;
}

static void
rand_results_hdr(uint64_t *r, struct nb_ctl_results_hdr *h)
{
	h->tx_seconds_ns = rng_next(r);
	h->rx_seconds_ns = rng_next(r);
	h->rx_foreign = rng_next(r);
	h->rx_warm = rng_next(r);
	h->rx_bad_stream = rng_next(r);
	h->tx_dropped = rng_next(r);
	h->pmd.ipackets = rng_next(r);
	h->pmd.opackets = rng_next(r);
	h->pmd.ibytes = rng_next(r);
	h->pmd.obytes = rng_next(r);
	h->pmd.imissed = rng_next(r);
	h->pmd.ierrors = rng_next(r);
	h->pmd.oerrors = rng_next(r);
	h->pmd.rx_nombuf = rng_next(r);
	h->impair.active = 1;
	snprintf(h->impair.spec, sizeof(h->impair.spec), "every=%u,delay=200",
		 (unsigned int)(rng_next(r) % 1000 + 2));
	h->impair.c.seen = rng_next(r);
	h->impair.c.dropped = rng_next(r);
	h->impair.c.policed = rng_next(r);
	h->impair.c.overflow = rng_next(r);
	h->impair.c.duplicated = rng_next(r);
	h->impair.c.reordered = rng_next(r);
	h->impair.c.delayed = rng_next(r);
	h->cpu.wall_ns = rng_next(r) >> 8;
	h->cpu.user_ns = h->cpu.wall_ns + rng_next(r) % 1000;
	h->cpu.system_ns = rng_next(r) % (h->cpu.wall_ns + 1);
}

static void
compare_stream(const struct nb_ctl_stream_res *a,
	       const struct nb_ctl_stream_res *b)
{
	uint32_t k;

	assert_int_equal(a->id, b->id);
	assert_int_equal(a->tx_pkts, b->tx_pkts);
	assert_int_equal(a->tx_bytes, b->tx_bytes);
	assert_int_equal(a->rx_pkts, b->rx_pkts);
	assert_int_equal(a->rx_unique, b->rx_unique);
	assert_int_equal(a->rx_bytes, b->rx_bytes);
	assert_int_equal(a->out_of_order, b->out_of_order);
	assert_int_equal(a->duplicates, b->duplicates);
	assert_int_equal(a->late, b->late);
	assert_int_equal(a->jitter_ps, b->jitter_ps);
	assert_int_equal(a->hist.count, b->hist.count);
	assert_int_equal(a->hist.sum, b->hist.sum);
	assert_int_equal(a->hist.min, b->hist.min);
	assert_int_equal(a->hist.max, b->hist.max);
	assert_int_equal(a->hist.overflow, b->hist.overflow);
	for (k = 0; k < NB_HIST_BUCKETS; k++)
		assert_int_equal(a->hist.buckets[k], b->hist.buckets[k]);
}

static void
compare_results_hdr(const struct nb_ctl_results_hdr *a,
		    const struct nb_ctl_results_hdr *b)
{
	assert_int_equal(a->tx_seconds_ns, b->tx_seconds_ns);
	assert_int_equal(a->rx_seconds_ns, b->rx_seconds_ns);
	assert_int_equal(a->rx_foreign, b->rx_foreign);
	assert_int_equal(a->rx_warm, b->rx_warm);
	assert_int_equal(a->rx_bad_stream, b->rx_bad_stream);
	assert_int_equal(a->tx_dropped, b->tx_dropped);
	assert_int_equal(a->pmd.ipackets, b->pmd.ipackets);
	assert_int_equal(a->pmd.opackets, b->pmd.opackets);
	assert_int_equal(a->pmd.ibytes, b->pmd.ibytes);
	assert_int_equal(a->pmd.obytes, b->pmd.obytes);
	assert_int_equal(a->pmd.imissed, b->pmd.imissed);
	assert_int_equal(a->pmd.ierrors, b->pmd.ierrors);
	assert_int_equal(a->pmd.oerrors, b->pmd.oerrors);
	assert_int_equal(a->pmd.rx_nombuf, b->pmd.rx_nombuf);
	assert_int_equal(a->impair.active, b->impair.active);
	assert_string_equal(a->impair.spec, b->impair.spec);
	assert_memory_equal(&a->impair.c, &b->impair.c, sizeof(a->impair.c));
	assert_int_equal(a->cpu.wall_ns, b->cpu.wall_ns);
	assert_int_equal(a->cpu.user_ns, b->cpu.user_ns);
	assert_int_equal(a->cpu.system_ns, b->cpu.system_ns);
}

/* Read from an exactly-sized copy. */
static int
results_read_exact(const uint8_t *bytes, size_t len,
		   struct nb_ctl_results_hdr *h, struct nb_ctl_stream_res *s,
		   uint32_t max, uint32_t *n)
{
	uint8_t *buf = malloc(len > 0 ? len : 1);
	int rc;

	assert_non_null(buf);
	if (len > 0)
		memcpy(buf, bytes, len);
	rc = nb_ctl_results_read(buf, len, h, s, max, n);
	free(buf);
	return rc;
}

/* A blob written from random streams (count from the write). */
static uint8_t *
make_blob(uint64_t *r, uint32_t samples, struct nb_ctl_results_hdr *h,
	  struct nb_ctl_stream_res **streams, size_t *len)
{
	uint8_t *blob;
	size_t sz;

	*streams = rand_streams(r, N_STREAMS, samples);
	memset(h, 0, sizeof(*h));
	rand_results_hdr(r, h);
	sz = nb_ctl_results_size(*streams, N_STREAMS);
	blob = malloc(sz);
	assert_non_null(blob);
	assert_int_equal(nb_ctl_results_write(h, *streams, N_STREAMS, blob, sz),
			 (int)sz);
	*len = sz;
	return blob;
}

static void
test_results_roundtrip(void **state)
{
	uint64_t r = 13;
	struct nb_ctl_results_hdr h, h2;
	struct nb_ctl_stream_res *s, *s2;
	uint8_t *blob;
	size_t len, nbk = 0;
	uint32_t n = 0, i, k;

	(void)state;
	blob = make_blob(&r, 20000, &h, &s, &len);
	for (i = 0; i < N_STREAMS; i++)
		for (k = 0; k < NB_HIST_BUCKETS; k++)
			nbk += s[i].hist.buckets[k] != 0;
	assert_int_equal(len, 272 + N_STREAMS * 118 + nbk * 10);
	assert_true(s[0].hist.overflow > 0);
	assert_int_equal(s[1].hist.count, 0);
	assert_memory_equal(blob, "NBRS\0\0\0\x03", 8);

	s2 = calloc(N_STREAMS, sizeof(*s2));
	assert_non_null(s2);
	assert_int_equal(results_read_exact(blob, len, &h2, s2, N_STREAMS, &n),
			 0);
	assert_int_equal(n, N_STREAMS);
	compare_results_hdr(&h, &h2);
	for (i = 0; i < N_STREAMS; i++)
		compare_stream(&s[i], &s2[i]);
	/* percentiles of the restored histogram match */
	assert_int_equal(nb_hist_percentile(&s[2].hist, 99.0),
			 nb_hist_percentile(&s2[2].hist, 99.0));

	/* too small an output array; too small a buffer for writing */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 2, &n),
			 -ENOSPC);
	assert_int_equal(nb_ctl_results_write(&h, s, N_STREAMS, blob, len - 1),
			 -ENOSPC);
	/* no streams at all */
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, len), 272);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_int_equal(n, 0);
	compare_results_hdr(&h, &h2);
	free(s2);
	free(s);
	free(blob);
}

/* The impairment part of the header: flags, reserved word, spec text. */
static void
test_results_impair(void **state)
{
	struct nb_ctl_results_hdr h, h2;
	uint8_t blob[272], bad[272];
	uint32_t n;
	unsigned int k;
	static const struct {
		size_t off;
		uint8_t val;
	} breaks[] = {
		{123, 2},	 /* flags bit 1 */
		{120, 0x80},	 /* flags bit 31 */
		{127, 1},	 /* reserved */
		{184 + 2, 0x07}, /* a control byte in the spec */
		{184 + 63, 'x'}, /* no NUL at its end */
		{184 + 40, 'x'}, /* text after the NUL */
		{184 + 5, 0x80}, /* not ASCII */
	};

	(void)state;
	memset(&h, 0, sizeof(h));
	h.impair.active = 1;
	snprintf(h.impair.spec, sizeof(h.impair.spec), "drop=1%%,delay=200");
	h.impair.c.dropped = 7;
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 120), 1);
	assert_memory_equal(blob + 184, "drop=1%,delay=200", 18);
	assert_int_equal(((uint64_t)nb_get_be32(blob + 136) << 32) |
				 nb_get_be32(blob + 140),
			 7);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	compare_results_hdr(&h, &h2);
	for (k = 0; k < sizeof(breaks) / sizeof(breaks[0]); k++) {
		memcpy(bad, blob, sizeof(bad));
		bad[breaks[k].off] = breaks[k].val;
		assert_int_equal(results_read_exact(bad, 272, &h2, NULL, 0, &n),
				 -EPROTO);
	}
	/* off: no spec, counts read as they are */
	h.impair.active = 0;
	h.impair.spec[0] = '\0';
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 120), 0);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_false(h2.impair.active);
	/* off, but a spec: refused */
	blob[184] = 'x';
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
}

/* The responder's CPU time: where it goes, and the times refused. */
static void
test_results_cpu(void **state)
{
	struct nb_ctl_results_hdr h, h2;
	uint8_t blob[272];
	uint32_t n;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.cpu.wall_ns = 2000000000ull;	/* 2 s */
	h.cpu.user_ns = 3000000000ull;	/* two busy lcores, 150 % */
	h.cpu.system_ns = 100000000ull; /* 5 % */
	assert_int_equal(nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob)),
			 272);
	assert_int_equal(nb_get_be32(blob + 252), 2000000000u);
	assert_int_equal(nb_get_be32(blob + 260), 3000000000u);
	assert_int_equal(nb_get_be32(blob + 268), 100000000u);
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	compare_results_hdr(&h, &h2);
	assert_float_equal(nb_cpu_percent(&h2.cpu, h2.cpu.user_ns), 150.0,
			   1e-9);
	/* 4096 CPUs' worth is the most; without a wall time, nothing */
	h.cpu.user_ns = h.cpu.wall_ns * 4096;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	h.cpu.user_ns++;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
	h.cpu.user_ns = 0;
	h.cpu.wall_ns = 0;
	h.cpu.system_ns = 1;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n),
			 -EPROTO);
	/* not measured: all 0, read as such */
	h.cpu.system_ns = 0;
	nb_ctl_results_write(&h, NULL, 0, blob, sizeof(blob));
	assert_int_equal(results_read_exact(blob, 272, &h2, NULL, 0, &n), 0);
	assert_float_equal(nb_cpu_percent(&h2.cpu, 5), 0.0, 0);
}

static void
test_results_truncation(void **state)
{
	uint64_t r = 14;
	struct nb_ctl_results_hdr h, h2;
	struct nb_ctl_stream_res *s, *s2;
	uint8_t *blob, *big;
	size_t len, n;
	uint32_t cnt;

	(void)state;
	blob = make_blob(&r, 300, &h, &s, &len);
	s2 = calloc(N_STREAMS, sizeof(*s2));
	assert_non_null(s2);
	for (n = 0; n < len; n++)
		assert_int_equal(
			results_read_exact(blob, n, &h2, s2, N_STREAMS, &cnt),
			-EPROTO);
	/* trailing bytes */
	big = calloc(1, len + 10);
	assert_non_null(big);
	memcpy(big, blob, len);
	for (n = len + 1; n <= len + 10; n++)
		assert_int_equal(
			results_read_exact(big, n, &h2, s2, N_STREAMS, &cnt),
			-EPROTO);
	assert_int_equal(results_read_exact(big, len, &h2, s2, N_STREAMS, &cnt),
			 0);
	free(big);
	/* bad magic; a stream count the blob cannot hold */
	blob[0] ^= 1;
	assert_int_equal(
		results_read_exact(blob, len, &h2, s2, N_STREAMS, &cnt),
		-EPROTO);
	blob[0] ^= 1;
	nb_put_be32(blob + 4, 0xffffffff);
	assert_int_equal(
		results_read_exact(blob, len, &h2, s2, N_STREAMS, &cnt),
		-EPROTO);
	nb_put_be32(blob + 4, 4);
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 10, &cnt),
			 -EPROTO);
	nb_put_be32(blob + 4, 2); /* the third stream becomes trailing bytes */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 10, &cnt),
			 -EPROTO);
	free(s2);
	free(s);
	free(blob);
}

/*
 * One stream with known buckets, to patch its bucket list: the blob is
 * header (272) + stream (118) + 3 buckets (10 each).
 */
static uint8_t *
three_bucket_blob(size_t *len)
{
	struct nb_ctl_results_hdr h;
	struct nb_ctl_stream_res *s = calloc(1, sizeof(*s));
	uint8_t *blob;

	assert_non_null(s);
	memset(&h, 0, sizeof(h));
	nb_hist_init(&s->hist);
	nb_hist_record(&s->hist, 5);
	nb_hist_record(&s->hist, 5);
	nb_hist_record(&s->hist, 1000);
	nb_hist_record(&s->hist, NB_HIST_LIMIT + 3);
	*len = nb_ctl_results_size(s, 1);
	assert_int_equal(*len, 272 + 118 + 30);
	blob = malloc(*len);
	assert_non_null(blob);
	assert_int_equal(nb_ctl_results_write(&h, s, 1, blob, *len), (int)*len);
	free(s);
	return blob;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	nb_put_be32(p, (uint32_t)(v >> 32));
	nb_put_be32(p + 4, (uint32_t)v);
}

struct blob_patch {
	const char *what;
	size_t off;   /* in the blob */
	size_t width; /* 2 or 8 */
	uint64_t value;
};

/* Stream record at 120; its bucket list at 238 (index u16, count u64). */
#define ST 272
#define BK (272 + 118)
static const struct blob_patch bad_blob[] = {
	{"index 3840", BK + 10, 2, NB_HIST_BUCKETS},
	{"last index 3840", BK + 20, 2, NB_HIST_BUCKETS},
	{"last index 65535", BK + 20, 2, 0xffff},
	{"duplicate index", BK + 10, 2, 5},
	{"decreasing index", BK + 10, 2, 4},
	{"first index after second", BK + 0, 2, 507},
	{"zero bucket count", BK + 12, 8, 0},
	{"bucket sum > count", BK + 2, 8, 3},
	{"bucket sum < count", BK + 2, 8, 1},
	{"count too large", ST + 76, 8, 5},
	{"count too small", ST + 76, 8, 3},
	{"count 0 with buckets", ST + 76, 8, 0},
	{"overflow > last bucket", ST + 108, 8, 2},
	{"overflow bucket moved", BK + 20, 2, NB_HIST_BUCKETS - 2},
	{"min > max", ST + 92, 8, NB_HIST_LIMIT + 4},
	{"more buckets than bytes", ST + 116, 2, 4},
	{"fewer buckets than bytes", ST + 116, 2, 2},
	{"nb_buckets max", ST + 116, 2, 0xffff},
	{"nb_streams 2", 6, 2, 2}, /* low half of the u32 at 4 */
	{"nb_streams 0", 6, 2, 0},
};

static void
apply_blob_patch(uint8_t *b, const struct blob_patch *p)
{
	if (p->width == 2)
		nb_put_be16(b + p->off, (uint16_t)p->value);
	else
		put_be64(b + p->off, p->value);
}

static void
test_results_bad_buckets(void **state)
{
	struct nb_ctl_results_hdr h2;
	struct nb_ctl_stream_res *s2 = calloc(2, sizeof(*s2));
	uint8_t *blob, *orig;
	size_t len, i;
	uint32_t n;
	int rc;

	(void)state;
	assert_non_null(s2);
	orig = three_bucket_blob(&len);
	blob = malloc(len);
	assert_non_null(blob);

	/* the layout the patches assume */
	assert_int_equal(nb_get_be32(orig + 4), 1);
	assert_int_equal(nb_get_be16(orig + ST + 116), 3);
	assert_int_equal(nb_get_be16(orig + BK + 0), 5);
	assert_int_equal(nb_get_be32(orig + BK + 2 + 4), 2);
	assert_int_equal(nb_get_be16(orig + BK + 10), nb_hist_index(1000));
	assert_int_equal(nb_hist_index(1000), 506);
	assert_int_equal(nb_get_be16(orig + BK + 20), NB_HIST_BUCKETS - 1);
	assert_int_equal(nb_get_be32(orig + ST + 76 + 4), 4);
	assert_int_equal(nb_get_be32(orig + ST + 108 + 4), 1);
	assert_int_equal(results_read_exact(orig, len, &h2, s2, 2, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(s2[0].hist.buckets[5], 2);
	assert_int_equal(s2[0].hist.buckets[506], 1);
	assert_int_equal(s2[0].hist.buckets[NB_HIST_BUCKETS - 1], 1);

	for (i = 0; i < sizeof(bad_blob) / sizeof(bad_blob[0]); i++) {
		memcpy(blob, orig, len);
		apply_blob_patch(blob, &bad_blob[i]);
		rc = results_read_exact(blob, len, &h2, s2, 2, &n);
		if (rc != -EPROTO)
			fail_msg("%s: read returned %d", bad_blob[i].what, rc);
	}

	/* bucket counts that wrap around 2^64 to match count */
	memcpy(blob, orig, len);
	put_be64(blob + BK + 2, UINT64_MAX);
	put_be64(blob + BK + 12, 1);
	put_be64(blob + ST + 76, 1); /* UINT64_MAX + 1 + 1 wraps to 1 */
	assert_int_equal(results_read_exact(blob, len, &h2, s2, 2, &n),
			 -EPROTO);

	/* an empty histogram: no buckets, sum and overflow 0 */
	memcpy(blob, orig, len);
	nb_put_be16(blob + ST + 116, 0);
	put_be64(blob + ST + 76, 0);
	put_be64(blob + ST + 84, 0);
	put_be64(blob + ST + 108, 0);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), 0);
	assert_int_equal(s2[0].hist.count, 0);
	put_be64(blob + ST + 84, 7);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), -EPROTO);
	put_be64(blob + ST + 84, 0);
	put_be64(blob + ST + 108, 1);
	assert_int_equal(results_read_exact(blob, BK, &h2, s2, 2, &n), -EPROTO);

	/* the writer refuses an inconsistent histogram */
	nb_hist_init(&s2[0].hist);
	nb_hist_record(&s2[0].hist, 10);
	s2[0].hist.count++;
	assert_int_equal(nb_ctl_results_write(&h2, s2, 1, blob, len), -EINVAL);
	free(blob);
	free(orig);
	free(s2);
}
#undef ST
#undef BK

/* The TCP results blob: every field back, the layout where the header
 * says, and each defect refused. */
static void
test_tcpres(void **state)
{
	static struct nb_ctl_tcp_hdr h, g;
	struct nb_tcp_endsnap c[5], d[5];
	uint64_t r = 11, v;
	uint8_t *buf, *bad;
	size_t len, k;
	uint32_t n, i;

	(void)state;
	memset(&h, 0, sizeof(h));
	nb_hist_init(&h.owd);
	for (i = 0; i < 300; i++)
		nb_hist_record(&h.owd, 1000 + rng_below(&r, 1000000));
	h.pmd.ipackets = 123456789;
	h.pmd.rx_nombuf = 7;
	h.cpu.wall_ns = 10000000000ull;
	h.cpu.user_ns = 9000000000ull;
	h.rx_pkts = 1111;
	h.ctl_dropped = 9;
	h.cap_unit = NB_CTL_CAP_L1;
	h.cap_rate = 1250000000ull;
	h.cap_held = 77;
	memset(c, 0, sizeof(c));
	for (i = 0; i < 5; i++) {
		uint64_t *f = &c[i].acked;

		c[i].state = (uint8_t)(i * 2);
		c[i].error = (uint8_t)(i % 5);
		c[i].check = (uint8_t)(i % 3);
		for (k = 0; k < NB_TCP_ENDSNAP_U64; k++)
			f[k] = rng_next(&r);
	}
	for (v = 0, k = 0; k < NB_HIST_BUCKETS; k++)
		v += h.owd.buckets[k] != 0;
	assert_true(v > 1);
	len = nb_ctl_tcpres_size(&h, 5);
	assert_int_equal(len, 234 + 10 * v + 5 * 164);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len - 1), -ENOSPC);
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), (int)len);
	assert_memory_equal(buf, "NBRT\0\0\0\5", 8);
	assert_int_equal(nb_get_be32(buf + 8 + 4), 123456789); /* ipackets */
	assert_int_equal(nb_get_be32(buf + 96 + 4), 1111);     /* rx_pkts */
	assert_int_equal(nb_get_be32(buf + 160 + 4), 9);       /* ctl_dropped */
	assert_int_equal(nb_get_be32(buf + 168 + 4), 3);       /* cap_unit */
	assert_int_equal(nb_get_be32(buf + 176 + 4), 1250000000ull);
	assert_int_equal(nb_get_be32(buf + 184 + 4), 77);  /* cap_held */
	assert_int_equal(nb_get_be32(buf + 192 + 4), 300); /* owd count */
	/* the first connection after the buckets */
	k = len - 5 * 164;
	assert_int_equal(buf[k], 0);
	assert_int_equal(nb_get_be32(buf + k + 4),
			 (uint32_t)(c[0].acked >> 32));
	assert_int_equal(nb_ctl_tcpres_read(buf, len, &g, d, 5, &n), 0);
	assert_int_equal(n, 5);
	assert_memory_equal(c, d, sizeof(c));
	assert_int_equal(g.owd.count, 300);
	assert_memory_equal(g.owd.buckets, h.owd.buckets,
			    sizeof(h.owd.buckets));
	assert_int_equal(g.pmd.ipackets, 123456789);
	assert_int_equal(g.cpu.user_ns, 9000000000ull);
	assert_int_equal(g.ctl_dropped, 9);
	assert_int_equal(g.cap_rate, 1250000000ull);
	/* more than we asked for; truncated; trailing; each defect */
	assert_int_equal(nb_ctl_tcpres_read(buf, len, &g, d, 4, &n), -ENOSPC);
	for (k = 0; k < len; k += 7)
		assert_int_equal(nb_ctl_tcpres_read(buf, k, &g, d, 5, &n),
				 -EPROTO);
	buf[len] = 0;
	assert_int_equal(nb_ctl_tcpres_read(buf, len + 1, &g, d, 5, &n),
			 -EPROTO);
	bad = malloc(len);
	assert_non_null(bad);
	k = len - 5 * 164;
	{
		const struct {
			size_t off;
			uint8_t v;
		} defects[] = {
			{0, 'X'},	/* magic */
			{7, 6},		/* nb_conns 6 */
			{7, 4},		/* nb_conns 4 */
			{k, 11},	/* state past LAST_ACK */
			{k + 1, 5},	/* error past ABORTED */
			{k + 2, 3},	/* check past AUTO */
			{k + 3, 1},	/* reserved */
			{168 + 7, 4},	/* cap_unit 4 */
			{192 + 7, 0},	/* owd count != buckets */
			{232 + 1, 0},	/* nb_buckets */
			{80 + 0, 0x7f}, /* user time > 4096 x wall */
		};

		for (i = 0; i < sizeof(defects) / sizeof(defects[0]); i++) {
			memcpy(bad, buf, len);
			bad[defects[i].off] = defects[i].v;
			if (nb_ctl_tcpres_read(bad, len, &g, d, 5, &n) !=
			    -EPROTO)
				fail_msg("TCP blob defect %u accepted", i);
		}
	}
	/* the writer refuses what the reader would */
	c[2].state = 11;
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), -EINVAL);
	c[2].state = 0;
	h.owd.count++;
	assert_int_equal(nb_ctl_tcpres_write(&h, c, 5, buf, len), -EINVAL);
	h.owd.count--;
	/* no connection, no sample: the header alone */
	memset(&g, 0, sizeof(g));
	nb_hist_init(&g.owd);
	assert_int_equal(nb_ctl_tcpres_size(&g, 0), 234);
	assert_int_equal(nb_ctl_tcpres_write(&g, NULL, 0, buf, len), 234);
	assert_int_equal(nb_ctl_tcpres_read(buf, 234, &h, NULL, 0, &n), 0);
	/* a rate without a unit */
	g.cap_rate = 1;
	assert_int_equal(nb_ctl_tcpres_write(&g, NULL, 0, buf, len), -EINVAL);
	assert_int_equal(n, 0);
	v = nb_get_be32(buf + 4);
	assert_int_equal(v, 0);
	free(bad);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results_roundtrip),
		cmocka_unit_test(test_results_impair),
		cmocka_unit_test(test_results_cpu),
		cmocka_unit_test(test_results_truncation),
		cmocka_unit_test(test_results_bad_buckets),
		cmocka_unit_test(test_tcpres),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
