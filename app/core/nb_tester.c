/* SPDX-License-Identifier: BSD-3-Clause */
/* Was the tester disturbed: see nb_tester.h. */
#include <inttypes.h>
#include <string.h>

#include "nb_tester.h"

static double
off_share(const struct nb_tester_worker *w, double wall_s)
{
	uint64_t off =
		w->wait_ns + (w->steal_ns == UINT64_MAX ? 0 : w->steal_ns);

	return wall_s > 0 ? (double)off / (wall_s * 1e9) : 0;
}

static double
stall_share(const struct nb_tester_worker *w, double wall_s)
{
	return wall_s > 0 ? (double)w->stall_ns / (wall_s * 1e9) : 0;
}

/* The larger of the two: time off the CPU, time in stalls. */
static double
share(const struct nb_tester_worker *w, double wall_s)
{
	double a = off_share(w, wall_s), b = stall_share(w, wall_s);

	return a > b ? a : b;
}

void
nb_tester_judge(const struct nb_tester *t, uint64_t lat_p99, uint64_t lat_max,
		struct nb_tester_verdict *v)
{
	const struct nb_tester_worker *w;
	size_t off = 0;
	uint16_t i;

	memset(v, 0, sizeof(*v));
	v->worst = -1;
	for (i = 0; i < t->n; i++) {
		if (share(&t->w[i], t->wall_s) < NB_TESTER_SHARE)
			continue;
		v->disturbed = 1;
		v->rx_affected |= t->w[i].rx;
	}
	/* the worst receiver when one is disturbed (its waits are the
	 * latency), else the worst worker */
	for (i = 0; i < t->n; i++) {
		double s = share(&t->w[i], t->wall_s);

		if (v->rx_affected && !t->w[i].rx)
			continue;
		if (v->worst < 0 || s > v->worst_share) {
			v->worst = i;
			v->worst_share = s;
		}
	}
	if (!v->disturbed)
		return;
	w = &t->w[v->worst];
	off += (size_t)snprintf(
		v->why, sizeof(v->why),
		"worker lcore %u (%s, cpu %u) was off its CPU %.1f ms and "
		"stalled %.1f ms (%.1f %% of %.2f s; longest poll gap %.1f "
		"us)",
		w->lcore, w->role, w->cpu,
		(double)(w->wait_ns +
			 (w->steal_ns == UINT64_MAX ? 0 : w->steal_ns)) /
			1e6,
		(double)w->stall_ns / 1e6, 100.0 * v->worst_share, t->wall_s,
		(double)w->max_gap_ns / 1e3);
	if (!v->rx_affected || off >= sizeof(v->why))
		return;
	if (lat_max > 0 && lat_max <= w->max_gap_ns + lat_p99)
		snprintf(v->why + off, sizeof(v->why) - off,
			 ": the latency tail is the tester's own (p99 %.1f "
			 "us, max %.1f us within its stalls)",
			 (double)lat_p99 / 1e3, (double)lat_max / 1e3);
	else if (lat_max > 0)
		snprintf(v->why + off, sizeof(v->why) - off,
			 ": latency above the p%.0f may be the tester's own",
			 100.0 * (1.0 - v->worst_share));
}

void
nb_tester_text(FILE *f, const struct nb_tester *t,
	       const struct nb_tester_verdict *v)
{
	uint16_t i;

	for (i = 0; i < t->n; i++) {
		const struct nb_tester_worker *w = &t->w[i];

		fprintf(f, "tester: lcore %u (%s, cpu %u):", w->lcore, w->role,
			w->cpu);
		if (w->have_sched)
			fprintf(f,
				" on CPU %.2f %% while runnable (off %.3f ms)",
				w->run_ns + w->wait_ns
					? 100.0 * (double)w->run_ns /
						  (double)(w->run_ns +
							   w->wait_ns)
					: 100.0,
				(double)w->wait_ns / 1e6);
		if (w->steal_ns != UINT64_MAX)
			fprintf(f, ", steal %.3f ms",
				(double)w->steal_ns / 1e6);
		fprintf(f, ", longest poll gap %.1f us, stalled %.3f ms\n",
			(double)w->max_gap_ns / 1e3, (double)w->stall_ns / 1e6);
	}
	if (t->not_measured)
		fprintf(f,
			"tester: %u more worker%s not measured (the first %d "
			"are)\n",
			t->not_measured, t->not_measured == 1 ? "" : "s",
			NB_TESTER_MAX);
	if (v->disturbed)
		fprintf(f, "WARNING: the tester was disturbed: %s\n", v->why);
}

json_t *
nb_tester_json(const struct nb_tester *t, const struct nb_tester_verdict *v)
{
	json_t *arr = json_array();
	uint16_t i;

	for (i = 0; i < t->n; i++) {
		const struct nb_tester_worker *w = &t->w[i];
		json_t *o =
			json_pack("{s:i,s:i,s:s,s:b,s:I,s:I,s:I,s:f,s:f}",
				  "lcore", (int)w->lcore, "cpu", (int)w->cpu,
				  "role", w->role, "rx", w->rx,
				  "max_poll_gap_ns", (json_int_t)w->max_gap_ns,
				  "stall_ns", (json_int_t)w->stall_ns,
				  "off_cpu_ns", (json_int_t)w->wait_ns,
				  "off_cpu_share", off_share(w, t->wall_s),
				  "stall_share", stall_share(w, t->wall_s));

		if (w->have_sched)
			json_object_set_new(
				o, "on_cpu_ns",
				json_integer((json_int_t)w->run_ns));
		json_object_set_new(
			o, "steal_ns",
			w->steal_ns == UINT64_MAX
				? json_null()
				: json_integer((json_int_t)w->steal_ns));
		json_array_append_new(arr, o);
	}
	return json_pack("{s:f,s:o,s:i,s:b,s:b,s:s}", "seconds", t->wall_s,
			 "workers", arr, "not_measured", (int)t->not_measured,
			 "disturbed", v->disturbed, "latency_affected",
			 v->disturbed && v->rx_affected, "why", v->why);
}

void
nb_tester_iv_text(FILE *f, const struct nb_iv_tester *w, uint16_t n,
		  double span_s)
{
	uint16_t i;

	for (i = 0; i < n && span_s > 0; i++) {
		uint64_t worst = w[i].off_cpu_ns > w[i].stall_ns
					 ? w[i].off_cpu_ns
					 : w[i].stall_ns;
		double share = (double)worst / (span_s * 1e9);

		if (share < NB_TESTER_SHARE)
			continue;
		fprintf(f,
			"      tester: lcore %u (%s) was off its CPU %.1f ms, "
			"stalled %.1f ms (%.1f %% of the interval)\n",
			w[i].lcore, w[i].rx ? "rx" : "tx",
			(double)w[i].off_cpu_ns / 1e6,
			(double)w[i].stall_ns / 1e6, 100.0 * share);
	}
}

json_t *
nb_tester_iv_json(const struct nb_iv_tester *w, uint16_t n)
{
	json_t *arr = json_array();
	uint16_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(
			arr,
			json_pack("{s:i,s:b,s:I,s:I}", "lcore", (int)w[i].lcore,
				  "rx", w[i].rx, "off_cpu_ns",
				  (json_int_t)w[i].off_cpu_ns, "stall_ns",
				  (json_int_t)w[i].stall_ns));
	return arr;
}
