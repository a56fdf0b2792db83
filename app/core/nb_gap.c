/* SPDX-License-Identifier: BSD-3-Clause */
/* Inter-arrival gaps: merging and the figures of a report (nb_gap.h). */

#include <math.h>

#include "nb_gap.h"
#include "nb_json.h"

void
nb_gap_merge(struct nb_gap *dst, const struct nb_gap *src)
{
	if (src->frames == 0)
		return;
	if (dst->frames == 0)
		dst->ideal_ns = src->ideal_ns;
	else if (dst->ideal_ns != src->ideal_ns)
		dst->ideal_ns = 0;
	dst->frames += src->frames;
	dst->near += src->near;
	dst->far += src->far;
	nb_hist_merge(&dst->hist, &src->hist);
}

double
nb_gap_share(const struct nb_gap *g, uint64_t count)
{
	return g->hist.count ? 100.0 * (double)count / (double)g->hist.count
			     : 0.0;
}

uint64_t
nb_gap_ideal_ns(double pps, uint32_t streams)
{
	if (!(pps > 0) || streams == 0)
		return 0;
	return (uint64_t)llround(1e9 * (double)streams / pps);
}

void
nb_gap_text(FILE *f, const char *id, const struct nb_gap *g)
{
	const struct nb_hist *h = &g->hist;

	fprintf(f, "[%5s] gaps ns: ", id);
	if (g->ideal_ns)
		fprintf(f, "ideal %llu, ", (unsigned long long)g->ideal_ns);
	fprintf(f, "min %llu p1 %llu p50 %llu p99 %llu max %llu mean %.1f",
		(unsigned long long)(h->count ? h->min : 0),
		(unsigned long long)nb_hist_percentile(h, 1),
		(unsigned long long)nb_hist_percentile(h, 50),
		(unsigned long long)nb_hist_percentile(h, 99),
		(unsigned long long)h->max, nb_hist_mean(h));
	if (g->ideal_ns)
		fprintf(f, ", within +-%d ns %.2f %%, +-%d ns %.2f %%",
			NB_GAP_NEAR_NS, nb_gap_share(g, g->near), NB_GAP_FAR_NS,
			nb_gap_share(g, g->far));
	fprintf(f, " of %llu gaps\n", (unsigned long long)h->count);
}

json_t *
nb_gap_json(const struct nb_gap *g)
{
	const struct nb_hist *h = &g->hist;
	json_t *o = json_object();

	json_object_set_new(o, "count", jint(h->count));
	json_object_set_new(o, "ideal_ns", jint(g->ideal_ns));
	json_object_set_new(o, "min_ns", jint(h->count ? h->min : 0));
	json_object_set_new(o, "p1_ns", jint(nb_hist_percentile(h, 1)));
	json_object_set_new(o, "p50_ns", jint(nb_hist_percentile(h, 50)));
	json_object_set_new(o, "p99_ns", jint(nb_hist_percentile(h, 99)));
	json_object_set_new(o, "max_ns", jint(h->max));
	json_object_set_new(o, "mean_ns", jreal(nb_hist_mean(h)));
	json_object_set_new(o, "sum_ns", jint(h->sum));
	if (g->ideal_ns) {
		json_object_set_new(o, "within_64ns", jint(g->near));
		json_object_set_new(o, "within_256ns", jint(g->far));
		json_object_set_new(o, "within_64ns_percent",
				    jreal(nb_gap_share(g, g->near)));
		json_object_set_new(o, "within_256ns_percent",
				    jreal(nb_gap_share(g, g->far)));
	} else {
		json_object_set_new(o, "within_64ns", json_null());
		json_object_set_new(o, "within_256ns", json_null());
		json_object_set_new(o, "within_64ns_percent", json_null());
		json_object_set_new(o, "within_256ns_percent", json_null());
	}
	return o;
}
