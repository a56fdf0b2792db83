/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the lcore-role map and job split (app/core/nb_plan.c).
 *
 * Rates are checked as exact rationals in 128-bit arithmetic, packet
 * counts as exact integers; nb_bytes_to_packets against a plain loop.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_options.h"
#include "nb_pacer.h"
#include "nb_plan.h"

#define ERRLEN 512

static unsigned __int128
gcd128(unsigned __int128 a, unsigned __int128 b)
{
	while (b != 0) {
		unsigned __int128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The worker of job i (nb_plan.h): from the last worker backwards, so the
 * senders (the first jobs) land on the last workers, which have CPUs of
 * their own.
 */
static unsigned int
job_worker(unsigned int i, unsigned int nb_workers)
{
	return nb_workers - 1 - i % nb_workers;
}

/* An lcore pinned to one CPU. */
static void
lcore(struct nb_lcore_desc *d, unsigned int id, unsigned int cpu)
{
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->cpu = cpu;
	d->cpus[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static struct nb_plan *
plan_alloc(void)
{
	struct nb_plan *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	return p;
}

static void
test_roles_too_few(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_lcore_desc lc[3];
	char err[ERRLEN];
	unsigned int n;

	(void)state;
	lcore(&lc[0], 0, 0);
	lcore(&lc[1], 1, 1);
	lcore(&lc[2], 2, 2);
	for (n = 0; n < 3; n++) {
		err[0] = '\0';
		assert_int_equal(nb_plan_roles(plan, lc, n, err, ERRLEN),
				 -EINVAL);
		assert_non_null(strstr(err, "3 needed"));
	}
	assert_int_equal(nb_plan_roles(plan, lc, 3, err, ERRLEN), 0);
	free(plan);
}

static void
test_roles_ids(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_lcore_desc lc[8];
	char err[ERRLEN];
	unsigned int i;

	(void)state;
	/* The 2-CPU mapping from --help: 0@0,1@0,2@0,3@1. */
	lcore(&lc[0], 0, 0);
	lcore(&lc[1], 1, 0);
	lcore(&lc[2], 2, 0);
	lcore(&lc[3], 3, 1);
	assert_int_equal(nb_plan_roles(plan, lc, 4, err, ERRLEN), 0);
	assert_int_equal(plan->control_lcore, 0);
	assert_int_equal(plan->stats_lcore, 1);
	assert_int_equal(plan->nb_workers, 2);
	assert_int_equal(plan->workers[0].lcore, 2);
	assert_int_equal(plan->workers[0].cpu, 0);
	assert_int_equal(plan->workers[1].lcore, 3);
	assert_int_equal(plan->workers[1].cpu, 1);

	/* Sparse ids, CPUs in every word of the cpuset. */
	lcore(&lc[0], 10, 5);
	lcore(&lc[1], 3, 5);
	lcore(&lc[2], 7, 0);
	lcore(&lc[3], 20, 63);
	lcore(&lc[4], 21, 64);
	lcore(&lc[5], 40, 130);
	lcore(&lc[6], 41, 200);
	lcore(&lc[7], 99, 255);
	assert_int_equal(nb_plan_roles(plan, lc, 8, err, ERRLEN), 0);
	assert_int_equal(plan->control_lcore, 10);
	assert_int_equal(plan->stats_lcore, 3);
	assert_int_equal(plan->nb_workers, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(plan->workers[i].lcore, lc[i + 2].id);
		assert_int_equal(plan->workers[i].cpu, lc[i + 2].cpu);
		assert_int_equal(plan->workers[i].nb_jobs, 0);
	}
	free(plan);
}

static void
test_roles_shared_cpu(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_lcore_desc lc[5];
	char err[ERRLEN];

	(void)state;
	lcore(&lc[0], 0, 0);
	lcore(&lc[1], 1, 0);
	lcore(&lc[2], 2, 1);
	lcore(&lc[3], 3, 1);
	err[0] = '\0';
	assert_int_equal(nb_plan_roles(plan, lc, 4, err, ERRLEN), -EINVAL);
	assert_non_null(strstr(err, "share"));

	/* Not adjacent, in a high word of the cpuset. */
	lcore(&lc[0], 0, 0);
	lcore(&lc[1], 1, 1);
	lcore(&lc[2], 2, 200);
	lcore(&lc[3], 3, 2);
	lcore(&lc[4], 4, 200);
	assert_int_equal(nb_plan_roles(plan, lc, 5, err, ERRLEN), -EINVAL);

	/* Overlapping cpusets (a worker floating over CPUs 2-3). */
	lcore(&lc[4], 4, 4);
	lc[4].cpus[0] |= UINT64_C(1) << 2;
	assert_int_equal(nb_plan_roles(plan, lc, 5, err, ERRLEN), -EINVAL);

	/* Control and stats may share a worker's CPU. */
	lcore(&lc[0], 0, 7);
	lcore(&lc[1], 1, 8);
	lcore(&lc[2], 2, 7);
	lcore(&lc[3], 3, 8);
	lcore(&lc[4], 4, 9);
	assert_int_equal(nb_plan_roles(plan, lc, 5, err, ERRLEN), 0);
	assert_int_equal(plan->nb_workers, 3);
	free(plan);
}

static void
test_roles_too_many(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_lcore_desc lc[NB_MAX_LCORES + 3];
	char err[ERRLEN];
	unsigned int i;

	(void)state;
	for (i = 0; i < NB_MAX_LCORES + 3; i++)
		lcore(&lc[i], i, i);
	assert_int_equal(
		nb_plan_roles(plan, lc, NB_MAX_LCORES + 2, err, ERRLEN), 0);
	assert_int_equal(plan->nb_workers, NB_MAX_LCORES);
	assert_int_equal(plan->workers[NB_MAX_LCORES - 1].lcore,
			 NB_MAX_LCORES + 1);
	assert_int_equal(
		nb_plan_roles(plan, lc, NB_MAX_LCORES + 3, err, ERRLEN),
		-EINVAL);
	free(plan);
}

/* A plan with n workers on distinct CPUs. */
static void
plan_workers(struct nb_plan *plan, unsigned int n)
{
	struct nb_lcore_desc lc[NB_MAX_LCORES + 2];
	char err[ERRLEN];
	unsigned int i;

	for (i = 0; i < n + 2; i++)
		lcore(&lc[i], i, i);
	assert_int_equal(nb_plan_roles(plan, lc, n + 2, err, ERRLEN), 0);
	assert_int_equal(plan->nb_workers, n);
}

static void
loopback_cfg(struct nb_config *cfg, unsigned int nports, uint32_t queues,
	     uint32_t streams)
{
	unsigned int i;

	nb_config_defaults(cfg);
	cfg->mode = NB_MODE_LOOPBACK;
	cfg->nb_tx_ports = (uint16_t)nports;
	cfg->nb_rx_ports = (uint16_t)nports;
	for (i = 0; i < nports; i++) {
		cfg->tx_ports[i] = (uint16_t)(2 * i);
		cfg->rx_ports[i] = (uint16_t)(2 * i + 1);
	}
	cfg->queues = queues;
	cfg->streams = streams;
}

/*
 * Check everything nb_plan_jobs promises for cfg, a total rate and a
 * packet count: job order, ports, queues, workers, stream partition, exact
 * rate shares and exact packet counts.
 */
static void
check_plan(const struct nb_plan *plan, const struct nb_config *cfg,
	   uint64_t rate_num, uint64_t rate_den, uint64_t total)
{
	unsigned int ntx = cfg->nb_tx_ports * cfg->queues;
	unsigned int nrx = cfg->nb_rx_ports * cfg->queues;
	unsigned int i, k, w, s;
	unsigned char *owner = calloc(cfg->streams, 1);
	unsigned int cnt[NB_MAX_LCORES][2];
	unsigned __int128 sn = 0, sd = 1, g;
	uint64_t pk_sum = 0;

	assert_non_null(owner);
	assert_int_equal(plan->nb_jobs, ntx + nrx);
	assert_int_equal(plan->nb_tx_jobs, ntx);
	memset(cnt, 0, sizeof(cnt));

	for (i = 0; i < plan->nb_jobs; i++) {
		const struct nb_job *j = &plan->jobs[i];
		unsigned int pi = (i < ntx ? i : i - ntx) / cfg->queues;
		unsigned int q = (i < ntx ? i : i - ntx) % cfg->queues;

		/* TX queues of the TX ports, then RX queues of the RX ports. */
		assert_int_equal(j->is_tx, i < ntx);
		assert_int_equal(j->port, i < ntx ? cfg->tx_ports[pi]
						  : cfg->rx_ports[pi]);
		assert_int_equal(j->peer_port, i < ntx ? cfg->rx_ports[pi]
						       : cfg->tx_ports[pi]);
		assert_int_equal(j->queue, q);
		assert_int_equal(j->worker, job_worker(i, plan->nb_workers));
		cnt[j->worker][j->is_tx ? 0 : 1]++;
		if (!j->is_tx) {
			assert_int_equal(j->nb_streams, 0);
			assert_int_equal(j->packets, 0);
			continue;
		}

		/* Streams: first, first + stride, ... */
		assert_int_equal(j->first_stream, i);
		assert_int_equal(j->stream_stride, ntx);
		{
			uint64_t expect_pk = 0, n = 0;

			for (s = i; s < cfg->streams; s += ntx) {
				uint64_t share =
					total / cfg->streams +
					(s < total % cfg->streams ? 1 : 0);

				assert_int_equal(owner[s], 0);
				owner[s] = 1;
				n++;
				assert_int_equal(
					nb_split_count(total, cfg->streams, s),
					share);
				expect_pk += share;
			}
			assert_int_equal(j->nb_streams, n);
			assert_int_equal(j->packets, expect_pk);
		}
		pk_sum += j->packets;

		/* Rate: total * nb_streams / streams, exactly. */
		if (rate_num == 0 || j->nb_streams == 0) {
			assert_int_equal(j->rate_num, 0);
			assert_int_equal(j->rate_den, 1);
			continue;
		}
		assert_true(j->rate_num > 0);
		assert_true(j->rate_den > 0);
		{
			/*
			 * rate_j / rate == nb_streams / streams, i.e.
			 * rate_num_j * rate_den * streams ==
			 * rate_num * rate_den_j * nb_streams (when neither
			 * side overflows 128 bits; the sum below is checked
			 * regardless).
			 */
			unsigned __int128 a, b;

			if (!__builtin_mul_overflow(
				    (unsigned __int128)j->rate_num *
					    cfg->streams,
				    (unsigned __int128)rate_den, &a) &&
			    !__builtin_mul_overflow(
				    (unsigned __int128)rate_num * j->nb_streams,
				    (unsigned __int128)j->rate_den, &b))
				assert_true(a == b);
		}
		/* sn/sd += rate_num/rate_den */
		sn = sn * j->rate_den + (unsigned __int128)j->rate_num * sd;
		sd = sd * j->rate_den;
		g = gcd128(sn, sd);
		sn /= g;
		sd /= g;
	}
	for (s = 0; s < cfg->streams; s++)
		assert_int_equal(owner[s], 1);
	free(owner);

	/* Sum of shares == total rate: cross-multiply in 128 bits. */
	if (rate_num != 0)
		assert_true(sn * rate_den == (unsigned __int128)rate_num * sd);
	assert_int_equal(pk_sum, total);

	/* Worker w's job list is jobs W-1-w, W-1-w + W, ... in order. */
	for (w = 0; w < plan->nb_workers; w++) {
		const struct nb_worker_plan *wp = &plan->workers[w];

		assert_int_equal(wp->nb_tx, cnt[w][0]);
		assert_int_equal(wp->nb_rx, cnt[w][1]);
		assert_int_equal(wp->nb_jobs, cnt[w][0] + cnt[w][1]);
		for (k = 0; k < wp->nb_jobs; k++)
			assert_int_equal(wp->jobs[k],
					 plan->nb_workers - 1 - w +
						 k * plan->nb_workers);
	}
}

static void
test_jobs_one_pair(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_config cfg;
	char err[ERRLEN];
	unsigned int w;

	(void)state;
	loopback_cfg(&cfg, 1, 2, 1);
	cfg.tx_ports[0] = 0;
	cfg.rx_ports[0] = 1;
	for (w = 1; w <= 3; w++) {
		plan_workers(plan, w);
		assert_int_equal(nb_plan_jobs(plan, &cfg, 14880000, 1, 1000000,
					      err, ERRLEN),
				 0);
		check_plan(plan, &cfg, 14880000, 1, 1000000);

		/* Spelled out: TX 0/q0, TX 0/q1, RX 1/q0, RX 1/q1. */
		assert_int_equal(plan->nb_jobs, 4);
		assert_int_equal(plan->jobs[0].is_tx, 1);
		assert_int_equal(plan->jobs[0].port, 0);
		assert_int_equal(plan->jobs[0].queue, 0);
		assert_int_equal(plan->jobs[1].is_tx, 1);
		assert_int_equal(plan->jobs[1].queue, 1);
		assert_int_equal(plan->jobs[2].is_tx, 0);
		assert_int_equal(plan->jobs[2].port, 1);
		assert_int_equal(plan->jobs[2].peer_port, 0);
		assert_int_equal(plan->jobs[3].queue, 1);
		assert_int_equal(plan->jobs[0].worker, w - 1);
		assert_int_equal(plan->jobs[1].worker, w - 1 - 1 % w);
		assert_int_equal(plan->jobs[2].worker, w - 1 - 2 % w);
		assert_int_equal(plan->jobs[3].worker, w - 1 - 3 % w);
		/* One stream: TX job 0 has it all, job 1 is idle. */
		assert_int_equal(plan->jobs[0].nb_streams, 1);
		assert_int_equal(plan->jobs[0].rate_num, 14880000);
		assert_int_equal(plan->jobs[0].rate_den, 1);
		assert_int_equal(plan->jobs[0].packets, 1000000);
		assert_int_equal(plan->jobs[1].nb_streams, 0);
		assert_int_equal(plan->jobs[1].rate_num, 0);
		assert_int_equal(plan->jobs[1].packets, 0);
		if (w == 1) {
			assert_int_equal(plan->workers[0].nb_jobs, 4);
			assert_int_equal(plan->workers[0].nb_tx, 2);
			assert_int_equal(plan->workers[0].nb_rx, 2);
		}
		if (w == 2) {
			/* Worker 1: TX q0 + RX q0; worker 0: TX q1 + RX q1. */
			assert_int_equal(plan->workers[1].nb_tx, 1);
			assert_int_equal(plan->workers[1].nb_rx, 1);
			assert_int_equal(plan->workers[1].jobs[0], 0);
			assert_int_equal(plan->workers[1].jobs[1], 2);
			assert_int_equal(plan->workers[0].jobs[0], 1);
			assert_int_equal(plan->workers[0].jobs[1], 3);
		}
		if (w == 3) {
			/* Jobs 0..3 on workers 2, 1, 0, 2. */
			assert_int_equal(plan->workers[2].nb_jobs, 2);
			assert_int_equal(plan->workers[2].nb_tx, 1);
			assert_int_equal(plan->workers[2].nb_rx, 1);
			assert_int_equal(plan->workers[1].nb_jobs, 1);
			assert_int_equal(plan->workers[1].nb_tx, 1);
			assert_int_equal(plan->workers[0].nb_jobs, 1);
			assert_int_equal(plan->workers[0].nb_rx, 1);
		}

		/* Two streams: one per TX job, half the rate each. */
		cfg.streams = 2;
		assert_int_equal(nb_plan_jobs(plan, &cfg, 14880000, 1, 1000001,
					      err, ERRLEN),
				 0);
		check_plan(plan, &cfg, 14880000, 1, 1000001);
		assert_int_equal(plan->jobs[0].packets, 500001);
		assert_int_equal(plan->jobs[1].packets, 500000);
		assert_true((unsigned __int128)plan->jobs[0].rate_num * 2 ==
			    (unsigned __int128)14880000 *
				    plan->jobs[0].rate_den);
		cfg.streams = 1;
	}
	free(plan);
}

static const uint32_t split_streams[] = {1, 2, 3, 5, 7, 8, 64, 1000, 1024};

static const struct {
	uint64_t num, den;
} split_rates[] = {
	{0, 1}, /* max */
	{1, 1},
	{14880952, 1},
	{14880952381, 1000}, /* 14.880952381 Mpps */
	{7, 3},
	{1000000007, 999983}, /* primes */
	{UINT64_C(1) << 40, 3},
};

static const uint64_t split_totals[] = {0,   1,	      2,
					999, 1000003, UINT64_C(1) << 40};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Every rate and total for one shape of ports, queues, workers, streams. */
static void
split_shape(struct nb_plan *plan, unsigned int nports, unsigned int queues,
	    unsigned int workers, uint32_t streams)
{
	struct nb_config cfg;
	char err[ERRLEN];
	size_t r, t;

	plan_workers(plan, workers);
	loopback_cfg(&cfg, nports, queues, streams);
	for (r = 0; r < ARRAY_LEN(split_rates); r++)
		for (t = 0; t < ARRAY_LEN(split_totals); t++) {
			assert_int_equal(
				nb_plan_jobs(plan, &cfg, split_rates[r].num,
					     split_rates[r].den,
					     split_totals[t], err, ERRLEN),
				0);
			check_plan(plan, &cfg, split_rates[r].num,
				   split_rates[r].den, split_totals[t]);
		}
}

/* Round robin of streams, exact rate and count splits, many shapes. */
static void
test_jobs_split(void **state)
{
	struct nb_plan *plan = plan_alloc();
	unsigned int np, q, w;
	size_t s;

	(void)state;
	for (np = 1; np <= 3; np++)
		for (q = 1; q <= 4; q++)
			for (w = 1; w <= 5; w += 2)
				for (s = 0; s < ARRAY_LEN(split_streams); s++)
					split_shape(plan, np, q, w,
						    split_streams[s]);
	free(plan);
}

/* More TX jobs than streams: the extra jobs are idle. */
static void
test_jobs_idle(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_config cfg;
	char err[ERRLEN];
	unsigned int i;

	(void)state;
	plan_workers(plan, 3);
	loopback_cfg(&cfg, 2, 4, 3); /* 8 TX jobs, 3 streams */
	assert_int_equal(nb_plan_jobs(plan, &cfg, 3000, 1, 30, err, ERRLEN), 0);
	check_plan(plan, &cfg, 3000, 1, 30);
	for (i = 0; i < 8; i++) {
		const struct nb_job *j = &plan->jobs[i];

		if (i < 3) {
			assert_int_equal(j->nb_streams, 1);
			assert_int_equal(j->packets, 10);
			/* 1000 pps each, in some representation. */
			assert_int_equal(j->rate_num, 1000 * j->rate_den);
		} else {
			assert_int_equal(j->nb_streams, 0);
			assert_int_equal(j->packets, 0);
			assert_int_equal(j->rate_num, 0);
			assert_int_equal(j->rate_den, 1);
		}
	}
	free(plan);
}

static void
test_jobs_errors(void **state)
{
	struct nb_plan *plan = plan_alloc();
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	/* No workers (roles never assigned). */
	loopback_cfg(&cfg, 1, 1, 1);
	err[0] = '\0';
	assert_int_equal(nb_plan_jobs(plan, &cfg, 0, 1, 0, err, ERRLEN),
			 -EINVAL);
	assert_true(err[0] != '\0');

	/* 16 port pairs x 16 queues x 2 sides = 512 jobs: too many for one. */
	plan_workers(plan, 1);
	loopback_cfg(&cfg, NB_MAX_PORTS / 2, NB_MAX_QUEUES, 4);
	assert_int_equal(nb_plan_jobs(plan, &cfg, 0, 1, 0, err, ERRLEN),
			 -EINVAL);
	assert_non_null(strstr(err, "too many"));
	/* ...but fine for 8 workers (64 jobs each at most). */
	plan_workers(plan, 8);
	assert_int_equal(nb_plan_jobs(plan, &cfg, 1000, 1, 10000, err, ERRLEN),
			 0);
	check_plan(plan, &cfg, 1000, 1, 10000);
	/* The most jobs a config can ask for: 32 pairs, NB_MAX_JOBS jobs. */
	plan_workers(plan, NB_MAX_JOBS / NB_MAX_WORKER_JOBS);
	loopback_cfg(&cfg, NB_MAX_PORTS, NB_MAX_QUEUES, NB_MAX_STREAMS);
	assert_int_equal(
		nb_plan_jobs(plan, &cfg, 14880952, 1, 1000000, err, ERRLEN), 0);
	assert_int_equal(plan->nb_jobs, NB_MAX_JOBS);
	check_plan(plan, &cfg, 14880952, 1, 1000000);
	plan_workers(plan, NB_MAX_JOBS / NB_MAX_WORKER_JOBS - 1);
	assert_int_equal(
		nb_plan_jobs(plan, &cfg, 14880952, 1, 1000000, err, ERRLEN),
		-EINVAL);

	/* A rate that cannot be split without overflow. */
	plan_workers(plan, 1);
	loopback_cfg(&cfg, 1, 2, 3); /* job 0 gets 2 of 3 streams */
	assert_int_equal(
		nb_plan_jobs(plan, &cfg, UINT64_MAX, 1, 0, err, ERRLEN),
		-ERANGE);
	assert_non_null(strstr(err, "overflow"));
	assert_int_equal(
		nb_plan_jobs(plan, &cfg, 1, UINT64_MAX, 0, err, ERRLEN),
		-ERANGE);
	free(plan);
}

/* Reference: add sizes in pattern order until at least `bytes` are sent. */
static uint64_t
ref_bytes_to_packets(uint64_t bytes, const struct nb_size_list *l)
{
	uint64_t n = 0, done = 0;

	while (done < bytes) {
		done += l->sizes[l->pattern[n % l->nb_pattern]];
		n++;
	}
	return n;
}

static void
test_bytes_to_packets(void **state)
{
	static const char *const lists[] = {
		"64",
		"65",
		"1518",
		"9000",
		"64,512,1518",
		"imix",
		"100,64,100,9000",
		"1518,64",
	};
	uint64_t rng = 0x6e62656e63680010ull;
	struct nb_size_list l;
	size_t i;
	unsigned int k;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		uint64_t cycle = 0;

		assert_int_equal(nb_parse_sizes(lists[i], &l), 0);
		for (k = 0; k < l.nb_pattern; k++)
			cycle += l.sizes[l.pattern[k]];
		/* Edges: 0, 1, around one and two frames, cycle edges. */
		{
			const uint64_t edges[] = {
				0,
				1,
				63,
				64,
				65,
				l.sizes[l.pattern[0]] - 1,
				l.sizes[l.pattern[0]],
				l.sizes[l.pattern[0]] + 1,
				cycle - 1,
				cycle,
				cycle + 1,
				3 * cycle - 1,
				3 * cycle,
				3 * cycle + 1,
				1000000,
				UINT64_C(1) << 20,
				UINT64_C(1) << 24,
			};

			for (k = 0; k < sizeof(edges) / sizeof(edges[0]); k++)
				assert_int_equal(
					nb_bytes_to_packets(edges[k], &l),
					ref_bytes_to_packets(edges[k], &l));
		}
		for (k = 0; k < 100; k++) {
			uint64_t b = rng_next(&rng) % 20000000;

			assert_int_equal(nb_bytes_to_packets(b, &l),
					 ref_bytes_to_packets(b, &l));
		}
	}
	/* Plain numbers for a single size: ceil(bytes / size). */
	assert_int_equal(nb_parse_sizes("64", &l), 0);
	assert_int_equal(nb_bytes_to_packets(UINT64_C(1) << 30, &l),
			 (UINT64_C(1) << 30) / 64);
	assert_int_equal(nb_bytes_to_packets((UINT64_C(1) << 30) + 1, &l),
			 (UINT64_C(1) << 30) / 64 + 1);
	assert_int_equal(nb_parse_sizes("1518", &l), 0);
	assert_int_equal(nb_bytes_to_packets(UINT64_C(10) << 30, &l),
			 ((UINT64_C(10) << 30) + 1517) / 1518);
	/* imix cycle: 7 x 64 + 4 x 594 + 1518 = 4342 B in 12 frames. */
	assert_int_equal(nb_parse_sizes("imix", &l), 0);
	assert_int_equal(nb_bytes_to_packets(4342 * UINT64_C(1000000), &l),
			 12 * UINT64_C(1000000));
	assert_int_equal(nb_bytes_to_packets(4342 * UINT64_C(1000000) + 1, &l),
			 12 * UINT64_C(1000000) + 1);
}

/*
 * Near 2^64 bytes: the old sum of sizes wrapped and looped for ever.  The
 * count is checked against 128-bit arithmetic: whole cycles, then the
 * frames of the part cycle found by a loop over at most one cycle.
 */
static uint64_t
ref128_bytes_to_packets(uint64_t bytes, const struct nb_size_list *l)
{
	unsigned __int128 done = 0, cycle = 0, n;
	unsigned int k;

	for (k = 0; k < l->nb_pattern; k++)
		cycle += l->sizes[l->pattern[k]];
	n = bytes / cycle * l->nb_pattern;
	done = bytes / cycle * cycle;
	for (k = 0; done < bytes; k++) {
		done += l->sizes[l->pattern[k % l->nb_pattern]];
		n++;
	}
	assert_true(n <= UINT64_MAX);
	return (uint64_t)n;
}

static void
test_bytes_to_packets_huge(void **state)
{
	static const char *const lists[] = {"64", "65", "9000", "imix",
					    "100,64,100,9000", "1518,64"};
	struct nb_size_list l;
	size_t i;
	unsigned int k;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		assert_int_equal(nb_parse_sizes(lists[i], &l), 0);
		for (k = 0; k < 20000; k++) {
			uint64_t b = UINT64_MAX - k;

			assert_int_equal(nb_bytes_to_packets(b, &l),
					 ref128_bytes_to_packets(b, &l));
		}
		for (k = 0; k < 64; k++) {
			uint64_t b = (UINT64_C(1) << 63) + k - 32;

			assert_int_equal(nb_bytes_to_packets(b, &l),
					 ref128_bytes_to_packets(b, &l));
		}
	}
	/* 2^64 - 1 in 64 B frames: ceil((2^64 - 1) / 64) = 2^58 */
	assert_int_equal(nb_parse_sizes("64", &l), 0);
	assert_int_equal(nb_bytes_to_packets(UINT64_MAX, &l),
			 UINT64_C(1) << 58);
}

/* The hand-off rings' budget, by the arithmetic of nb_plan.h. */
static void
test_ctl_ring_budget(void **state)
{
	struct nb_pool_budget b = {
		.rxd = 1024,
		.nb_rxq = 17,
		.lcores = 3,
		.cache = 256,
		.burst = 32,
	};
	unsigned int spare, cap, q, l;

	(void)state;
	/* the pool nb_setup makes: rxd x queues + 512 per lcore + 4096 */
	b.pool = 1024 * 17 + 512 * 3 + 4096;
	cap = nb_plan_ctl_ring(&b, &spare);
	/* held: 17408 + 3 x (256 + 128 + 32) = 18656; spare 4096 + 3 x 96 */
	assert_int_equal(spare, 4096 + 3 * 96);
	assert_int_equal(cap, (4096 + 3 * 96) / 4 / 17);
	assert_true(cap * 17 <= spare / 4);
	/* one queue: capped at 1024 per ring */
	b.nb_rxq = 1;
	b.pool = 1000000;
	assert_int_equal(nb_plan_ctl_ring(&b, NULL), NB_CTL_RING_MAX);
	/* nothing spare: 0 (refused), never a wrapped huge value */
	b.nb_rxq = 17;
	b.pool = 100;
	assert_int_equal(nb_plan_ctl_ring(&b, &spare), 0);
	assert_int_equal(spare, 0);
	b.pool = 1024 * 17 + 3 * 416 + 4 * 17 - 1;
	assert_int_equal(nb_plan_ctl_ring(&b, NULL), 0);
	b.pool++;
	assert_int_equal(nb_plan_ctl_ring(&b, NULL), 1);
	b.nb_rxq = 0;
	assert_int_equal(nb_plan_ctl_ring(&b, NULL), 0);
	/* every mix: the rings together never exceed a quarter of the spare */
	for (q = 1; q <= 17; q++) {
		for (l = 3; l <= 130; l += 9) {
			b.nb_rxq = q;
			b.lcores = l;
			b.pool = 1024ull * q + 512ull * l + 4096;
			cap = nb_plan_ctl_ring(&b, &spare);
			assert_true((uint64_t)cap * q <= spare / 4);
			assert_true(cap <= NB_CTL_RING_MAX);
			assert_true(cap > 0);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles_too_few),
		cmocka_unit_test(test_roles_ids),
		cmocka_unit_test(test_roles_shared_cpu),
		cmocka_unit_test(test_roles_too_many),
		cmocka_unit_test(test_jobs_one_pair),
		cmocka_unit_test(test_jobs_split),
		cmocka_unit_test(test_jobs_idle),
		cmocka_unit_test(test_jobs_errors),
		cmocka_unit_test(test_bytes_to_packets),
		cmocka_unit_test(test_bytes_to_packets_huge),
		cmocka_unit_test(test_ctl_ring_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
