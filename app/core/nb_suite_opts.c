/* SPDX-License-Identifier: BSD-3-Clause */
/* The suites' options: see nb_suite_opts.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_suite_opts.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static const struct {
	unsigned int bit;
	const char *name, *section;
} kinds[] = {
	{NB_SUITE_THROUGHPUT, "throughput", "RFC 2544 26.1"},
	{NB_SUITE_LATENCY, "latency", "RFC 2544 26.2"},
	{NB_SUITE_LOSS, "loss", "RFC 2544 26.3"},
	{NB_SUITE_B2B, "back-to-back", "RFC 2544 26.4"},
	{NB_SUITE_FWD_RATE, "forwarding-rate", "RFC 2889 5.1/5.2"},
	{NB_SUITE_CONGESTION, "congestion", "RFC 2889 5.5"},
	{NB_SUITE_ADDR_CACHE, "address-caching", "RFC 2889 5.7"},
	{NB_SUITE_ADDR_LEARN, "address-learning", "RFC 2889 5.8"},
	{NB_SUITE_BROADCAST, "broadcast", "RFC 2889 5.10"},
	{NB_SUITE_ERRORED, "errored-frames", "RFC 2889 5.9"},
};
#define NB_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const unsigned int nb_suite_kinds[] = {
	NB_SUITE_THROUGHPUT,
	NB_SUITE_LATENCY,
	NB_SUITE_LOSS,
	NB_SUITE_B2B,
	NB_SUITE_FWD_RATE,
	NB_SUITE_CONGESTION,
	NB_SUITE_ADDR_CACHE,
	NB_SUITE_ADDR_LEARN,
	NB_SUITE_ERRORED,
	NB_SUITE_BROADCAST,
	0,
};

const char *
nb_suite_name(unsigned int bit)
{
	size_t i;

	for (i = 0; i < NB_KINDS; i++)
		if (bit == kinds[i].bit)
			return kinds[i].name;
	return "?";
}

const char *
nb_suite_section(unsigned int bit)
{
	size_t i;

	for (i = 0; i < NB_KINDS; i++)
		if (bit == kinds[i].bit)
			return kinds[i].section;
	return "";
}

static void
given(struct nb_config *cfg, const char *opt)
{
	if (cfg->suite_opt == NULL)
		cfg->suite_opt = opt;
}

int
nb_opt_test(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	char buf[256], *tok, *save = NULL;
	unsigned int bits = 0;
	size_t i;

	if (strlen(val) >= sizeof(buf) || val[0] == '\0' ||
	    val[strlen(val) - 1] == ',' || strstr(val, ",,") != NULL) {
		WHY("expected throughput, latency, loss, back-to-back, "
		    "forwarding-rate, congestion, address-caching, "
		    "address-learning, errored-frames, broadcast or a "
		    "comma-separated list of "
		    "them");
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NB_KINDS; i++)
			if (strcmp(tok, kinds[i].name) == 0)
				break;
		if (i == NB_KINDS && strcmp(tok, "forward-pressure") == 0) {
			WHY("RFC 2889 5.6's forward pressure needs a sender "
			    "that puts less than the standard 12-byte gap "
			    "between frames; DPDK's ethdev controls the gap on "
			    "no PMD, so dpdk-nbench cannot run it");
			return -EINVAL;
		}
		if (i == NB_KINDS && strcmp(tok, "rfc2544") == 0) {
			bits |= (1u << NB_SUITE_KINDS) - 1;
			continue;
		}
		if (i == NB_KINDS) {
			WHY("'%s' is no test: expected throughput, latency, "
			    "loss, back-to-back, rfc2544 (those four), "
			    "forwarding-rate, congestion, address-caching, "
			    "address-learning, errored-frames or broadcast",
			    tok);
			return -EINVAL;
		}
		bits |= kinds[i].bit;
	}
	cfg->suite = bits;
	return 0;
}

static int
secs(double *dst, double min, double max, const char *val, char *why,
     size_t whylen)
{
	double v;

	if (nb_parse_seconds(val, &v) != 0 || v < min || v > max) {
		WHY("expected seconds, %g..%g", min, max);
		return -EINVAL;
	}
	*dst = v;
	return 0;
}

int
nb_opt_trial_time(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	given(cfg, "--trial-time");
	if (secs(&cfg->trial_time, 0.1, 3600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->first_trial > cfg->trial_time)
		cfg->first_trial = cfg->trial_time;
	return 0;
}

int
nb_opt_settle(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->settle_set = 1; /* sweeps take it too */
	return secs(&cfg->settle, 0, 600, val, why, whylen);
}

/* "0", "0.5%", "1e-6": a loss ratio below 1 */
static int
ratio(const char *s, double *out)
{
	char *end;
	double v;

	if (s[0] < '0' || s[0] > '9') /* no sign, space or "nan" */
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s)
		return -EINVAL;
	if (end[0] == '%' && end[1] == '\0')
		v /= 100;
	else if (end[0] != '\0')
		return -EINVAL;
	if (!(v >= 0 && v < 1))
		return -ERANGE;
	*out = v;
	return 0;
}

int
nb_opt_loss_tolerance(struct nb_config *cfg, const char *val, char *why,
		      size_t whylen)
{
	char buf[128], *tok, *save = NULL;
	uint32_t n = 0;
	double v[NB_SEARCH_MAX_GOALS];

	given(cfg, "--loss-tolerance");
	if (strlen(val) >= sizeof(buf) || val[0] == '\0' ||
	    val[strlen(val) - 1] == ',' || strstr(val, ",,") != NULL)
		goto bad;
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == NB_SEARCH_MAX_GOALS) {
			WHY("at most %d tolerances", NB_SEARCH_MAX_GOALS);
			return -EINVAL;
		}
		if (ratio(tok, &v[n]) != 0)
			goto bad;
		if (n > 0 && v[n] <= v[n - 1]) {
			WHY("list the tolerances in rising order, each once");
			return -EINVAL;
		}
		n++;
	}
	memcpy(cfg->loss_tol, v, n * sizeof(v[0]));
	cfg->nb_tol = n;
	return 0;
bad:
	WHY("expected a loss ratio below 1 (0, 0.001) or percent (0.5%%), or "
	    "a rising list such as 0,0.5%% (NDR and PDR in one search)");
	return -EINVAL;
}

int
nb_opt_precision(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	given(cfg, "--precision");
	if (nb_parse_rate(val, &cfg->precision) != 0 ||
	    cfg->precision.kind == NB_RATE_MAX) {
		WHY("expected a rate: bits/s (10M), pps (10kpps) or a percent "
		    "of the line rate (0.1%%)");
		return -EINVAL;
	}
	return 0;
}

/* "90%": a share in (lo, hi] (lo exclusive when 0), as a fraction */
static int
percent(const char *val, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (val[0] < '0' || val[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtod(val, &end) / 100;
	if (errno != 0 || end[0] != '%' || end[1] != '\0' || !(v <= hi) ||
	    !(lo > 0 ? v >= lo : v > 0))
		return -EINVAL;
	*out = v;
	return 0;
}

int
nb_opt_latency_load(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen)
{
	given(cfg, "--latency-load");
	if (percent(val, 0, 1, &cfg->latency_load) != 0) {
		WHY("expected a percent of the throughput found, above 0 and "
		    "at most 100%% (90%%)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_loss_step(struct nb_config *cfg, const char *val, char *why,
		 size_t whylen)
{
	given(cfg, "--loss-step");
	if (percent(val, 0.01, 0.5, &cfg->loss_step) != 0) {
		WHY("expected a percent of the line rate, 1%%..50%% (10%%)");
		return -EINVAL;
	}
	return 0;
}

int
nb_opt_trials(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	given(cfg, "--trials");
	if (nb_parse_u32(val, 1, 1000, &cfg->trials) != 0) {
		WHY("expected 1..1000");
		return -EINVAL;
	}
	return 0;
}

void
nb_suite_defaults(struct nb_config *cfg)
{
	cfg->trial_time = 60;
	cfg->first_trial = 1;
	cfg->settle = 2;
	cfg->nb_tol = 1;
	cfg->loss_tol[0] = 0;
	cfg->precision.kind = NB_RATE_MAX;
	cfg->latency_load = 0.9;
	cfg->loss_step = 0.1;
	cfg->trials = 50;
}

/* Where a suite or a sweep runs, and with what it cannot. */
static int
check_test(const struct nb_config *cfg, char *err, size_t errlen)
{
	if (cfg->mode != NB_MODE_LOOPBACK && cfg->mode != NB_MODE_REFLECTOR &&
	    cfg->mode != NB_MODE_CLIENT) {
		snprintf(err, errlen,
			 "%s runs in a loopback, reflector or client test",
			 cfg->suite ? "--test" : "a --size range");
		return -EINVAL;
	}
	if (cfg->mode == NB_MODE_CLIENT && cfg->bidir) {
		snprintf(err, errlen,
			 "%s measures one direction: forward, or --reverse, "
			 "not --bidir",
			 cfg->suite ? "a suite" : "a size sweep");
		return -EINVAL;
	}
	if (cfg->suite && cfg->pingpong) {
		snprintf(err, errlen,
			 "--pingpong has no rate to search: use it with a "
			 "size range (--size 64:1518:*2) for round trips "
			 "against size, or --test latency for latency under "
			 "load");
		return -EINVAL;
	}
	return 0;
}

/* Every size of the sweep fits a frame of the protocol. */
static int
check_sweep_sizes(const struct nb_config *cfg, const char *hint, char *err,
		  size_t errlen)
{
	uint16_t i;

	for (i = 0; i < cfg->sweep.n; i++)
		if (!nb_frame_size_ok(cfg->proto, cfg->vlan_id != 0,
				      cfg->sweep.sizes[i])) {
			snprintf(err, errlen, "frame size %u is too small%s",
				 cfg->sweep.sizes[i], hint);
			return -EINVAL;
		}
	return 0;
}

/* A suite's own checks; with no --size range, its sizes: --size's, or
 * RFC 2544's seven. */
static int
check_suite(struct nb_config *cfg, char *err, size_t errlen)
{
	uint16_t i;

	if (cfg->duration_set || cfg->packets || cfg->bytes || cfg->omit > 0) {
		snprintf(err, errlen,
			 "a suite sets each trial's length itself: give "
			 "--trial-time (and --settle), not --time, --packets, "
			 "--bytes or --omit");
		return -EINVAL;
	}
	if (cfg->sizes.nb_pattern != cfg->sizes.nb_sizes) {
		snprintf(err, errlen,
			 "a suite runs each frame size on its own: give sizes "
			 "(64,1518), a range (64:1518:*2) or none (RFC 2544's "
			 "seven), not imix or a list with repeats");
		return -EINVAL;
	}
	if (cfg->sweep.n > 0)
		return 0;
	if (cfg->size_given) {
		cfg->sweep.n = cfg->sizes.nb_sizes;
		for (i = 0; i < cfg->sizes.nb_sizes; i++)
			cfg->sweep.sizes[i] = cfg->sizes.sizes[i];
	} else {
		nb_sweep_rfc2544(&cfg->sweep);
	}
	return check_sweep_sizes(cfg, " (give --size)", err, errlen);
}

int
nb_suite_check(struct nb_config *cfg, char *err, size_t errlen)
{
	int sweep = cfg->sweep.n > 0;

	if (cfg->suite_opt != NULL && cfg->suite == 0) {
		snprintf(err, errlen,
			 "%s is for a test suite: add --test "
			 "throughput|latency|loss|back-to-back",
			 cfg->suite_opt);
		return -EINVAL;
	}
	if (cfg->settle_set && !cfg->suite && !sweep) {
		snprintf(err, errlen,
			 "--settle is for a test suite (--test) or "
			 "a size sweep (--size MIN:MAX:*F)");
		return -EINVAL;
	}
	if (!cfg->suite && !sweep)
		return 0;
	if (check_test(cfg, err, errlen) != 0 ||
	    check_sweep_sizes(cfg, "", err, errlen) != 0)
		return -EINVAL;
	if (!cfg->suite && cfg->omit > 0) {
		snprintf(err, errlen,
			 "--omit does not apply to a size sweep: each size's "
			 "test is counted whole");
		return -EINVAL;
	}
	if (cfg->interval_set) {
		snprintf(
			err, errlen,
			"--interval does not apply to %s: each trial is "
			"reported as a whole (a line, a JSON trial, a CSV row)",
			cfg->suite ? "a suite" : "a size sweep");
		return -EINVAL;
	}
	return cfg->suite ? check_suite(cfg, err, errlen) : 0;
}
