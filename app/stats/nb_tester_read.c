/* SPDX-License-Identifier: BSD-3-Clause */
/* The tester's own disturbance, read: see nb_tester_read.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "nb_tester_read.h"

/* The workers that run a loop, in order (idle ones are left out). */
#define FOREACH_BUSY(js, i, w)                                                 \
	for ((i) = 0; (i) < (js)->nb_workers; (i)++)                           \
		if (((w) = (js)->workers[(i)])->engine != NULL)

void
nb_tester_read_tids(const struct nb_jobs *js)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz();
	const struct nb_worker *w;
	unsigned int i, missing;
	struct timespec ts = {0, 1000000};

	do {
		missing = 0;
		FOREACH_BUSY(js, i, w)
		missing += w->tid == 0;
		if (missing)
			nanosleep(&ts, NULL);
	} while (missing && rte_get_tsc_cycles() < end);
}

/* The first CPU the lcore runs on (rte_lcore_to_cpu_id() gives the
 * physical core's id, which two vCPUs may share). */
static unsigned int
lcore_cpu(unsigned int lcore)
{
	rte_cpuset_t cs = rte_lcore_cpuset(lcore);
	unsigned int c;

	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cs))
			return c;
	return 0;
}

static int
read_schedstat(int tid, uint64_t *run, uint64_t *wait)
{
	char path[64];
	unsigned long long a, b;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	ok = fscanf(f, "%llu %llu", &a, &b) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*run = a;
	*wait = b;
	return 0;
}

/* The steal time of cpu, in ns (UINT64_MAX when /proc/stat lacks it). */
static uint64_t
read_steal(unsigned int cpu)
{
	char line[512], want[16];
	unsigned long long v[8];
	uint64_t ns = UINT64_MAX;
	long hz = sysconf(_SC_CLK_TCK);
	size_t wl;
	FILE *f;

	snprintf(want, sizeof(want), "cpu%u ", cpu);
	wl = strlen(want);
	if (hz <= 0 || (f = fopen("/proc/stat", "r")) == NULL)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, want, wl) == 0) {
			if (sscanf(line + wl,
				   "%llu %llu %llu %llu %llu %llu %llu %llu",
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
				   &v[6], &v[7]) == 8)
				ns = (uint64_t)v[7] *
				     (1000000000ull / (uint64_t)hz);
			break;
		}
	fclose(f);
	return ns;
}

void
nb_tester_read(const struct nb_jobs *js, struct nb_tester_sample *s)
{
	const struct nb_worker *w;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->tsc = rte_get_tsc_cycles();
	FOREACH_BUSY(js, i, w)
	{
		if (s->n == NB_TESTER_MAX)
			break;
		s->w[s->n].have_sched =
			w->tid != 0 &&
			read_schedstat(w->tid, &s->w[s->n].run_ns,
				       &s->w[s->n].wait_ns) == 0;
		s->w[s->n].steal_ns = read_steal(lcore_cpu(w->lcore));
		s->w[s->n].stall_tsc = w->stall_tsc;
		s->w[s->n].max_gap = w->max_gap;
		s->n++;
	}
}

static uint64_t
minus(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

/* "tx p0/q0", "rx p1/q0", "tx p0/q0+rx p1/q0" (truncated) */
static void
role(const struct nb_worker *w, char *buf, size_t len)
{
	size_t off = 0;
	uint16_t k;

	buf[0] = '\0';
	for (k = 0; k < w->nb_tx && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%stx p%u/q%u",
					off ? "+" : "", w->tx[k]->port,
					w->tx[k]->queue);
	for (k = 0; k < w->nb_rx && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%srx p%u/q%u",
					off ? "+" : "", w->rx[k]->port,
					w->rx[k]->queue);
}

void
nb_tester_read_diff(const struct nb_jobs *js, const struct nb_tester_sample *a,
		    const struct nb_tester_sample *b, struct nb_tester *t)
{
	double ns_per_tsc = 1e9 / (double)rte_get_tsc_hz();
	const struct nb_worker *w;
	unsigned int i;
	uint16_t k = 0;

	memset(t, 0, sizeof(*t));
	t->wall_s = (double)minus(b->tsc, a->tsc) / (double)rte_get_tsc_hz();
	FOREACH_BUSY(js, i, w)
	{
		struct nb_tester_worker *o = &t->w[k];

		if (k == a->n || k == b->n) {
			t->not_measured++; /* past NB_TESTER_MAX */
			continue;
		}
		o->lcore = w->lcore;
		o->cpu = lcore_cpu(w->lcore);
		o->rx = w->nb_rx > 0;
		role(w, o->role, sizeof(o->role));
		o->have_sched = a->w[k].have_sched && b->w[k].have_sched;
		if (o->have_sched) {
			o->run_ns = minus(b->w[k].run_ns, a->w[k].run_ns);
			o->wait_ns = minus(b->w[k].wait_ns, a->w[k].wait_ns);
		}
		o->steal_ns =
			a->w[k].steal_ns == UINT64_MAX ||
					b->w[k].steal_ns == UINT64_MAX
				? UINT64_MAX
				: minus(b->w[k].steal_ns, a->w[k].steal_ns);
		o->stall_ns = (uint64_t)((double)minus(b->w[k].stall_tsc,
						       a->w[k].stall_tsc) *
					 ns_per_tsc);
		o->max_gap_ns =
			(uint64_t)((double)b->w[k].max_gap * ns_per_tsc);
		k++;
	}
	t->n = k;
}
