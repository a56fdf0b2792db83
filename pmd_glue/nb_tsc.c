/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "nb_calib.h"
#include "nb_log.h"
#include "nb_tsc.h"

#define READINGS 16
/* DPDK's estimate further off than this gets a warning */
#define WARN_PPM 100.0

static struct nb_calib_point first;
static int begun, finished;
static struct nb_clock_info info;

/* The narrowest of READINGS brackets of CLOCK_MONOTONIC_RAW. */
static void
read_point(struct nb_calib_point *out)
{
	struct nb_calib_point p[READINGS];
	unsigned int i;

	for (i = 0; i < READINGS; i++) {
		struct timespec ts;

		p[i].tsc_before = rte_rdtsc_precise();
		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		p[i].tsc_after = rte_rdtsc_precise();
		p[i].ref_ns = (uint64_t)ts.tv_sec * 1000000000u +
			      (uint64_t)ts.tv_nsec;
	}
	*out = *nb_calib_best(p, READINGS);
}

/* /proc/cpuinfo's flags: does the TSC tick at one rate, in every state? */
static void
read_flags(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		info.constant_tsc = strstr(line, " constant_tsc") != NULL;
		info.nonstop_tsc = strstr(line, " nonstop_tsc") != NULL;
		info.flags_known = 1;
		break;
	}
	fclose(f);
}

void
nb_tsc_begin(void)
{
	info.hz = rte_get_tsc_hz();
	info.dpdk_hz = info.hz;
	read_point(&first);
	begun = 1;
}

void
nb_tsc_finish(void)
{
	struct nb_calib_point second;
	struct nb_calib c;
	struct timespec ts;
	uint64_t elapsed;

	if (!begun || finished)
		return;
	finished = 1;
	read_point(&second);
	elapsed = second.ref_ns - first.ref_ns;
	if (elapsed < (uint64_t)(NB_TSC_SPAN_S * 1e9)) {
		uint64_t rest = (uint64_t)(NB_TSC_SPAN_S * 1e9) - elapsed;

		ts.tv_sec = (time_t)(rest / 1000000000u);
		ts.tv_nsec = (long)(rest % 1000000000u);
		NB_LOG(DEBUG, "calibration: %.0f ms to wait", rest / 1e6);
		/* a signal ends the wait (EINTR): the tool is quitting */
		nanosleep(&ts, NULL);
		read_point(&second);
	}
	read_flags();
	if (nb_calib_compute(&first, &second, 1, &c) != 0) {
		NB_LOG(WARNING,
		       "warning: the TSC could not be calibrated against "
		       "CLOCK_MONOTONIC_RAW; using DPDK's estimate %.6f GHz",
		       info.dpdk_hz / 1e9);
		return;
	}
	info.hz = c.hz;
	info.bound_ppm = c.bound_ppm;
	info.span_s = c.span_s;
	info.reference = "CLOCK_MONOTONIC_RAW";
	info.dpdk_off_ppm = nb_calib_ppm_diff(c.hz, info.dpdk_hz);
	if (info.flags_known && (!info.constant_tsc || !info.nonstop_tsc))
		NB_LOG(WARNING,
		       "warning: this CPU's TSC is not invariant (constant_tsc "
		       "%s, nonstop_tsc %s in /proc/cpuinfo): times and rates "
		       "drift when its frequency or power state changes",
		       info.constant_tsc ? "yes" : "no",
		       info.nonstop_tsc ? "yes" : "no");
	if (info.dpdk_off_ppm > WARN_PPM || info.dpdk_off_ppm < -WARN_PPM)
		NB_LOG(WARNING,
		       "note: TSC measured at %.6f GHz (+-%.2f ppm); DPDK's "
		       "estimate "
		       "%.6f GHz is %+.0f ppm off and is not used",
		       c.hz / 1e9, c.bound_ppm, info.dpdk_hz / 1e9,
		       info.dpdk_off_ppm);
}

uint64_t
nb_tsc_hz(void)
{
	return info.hz ? info.hz : rte_get_tsc_hz();
}

const struct nb_clock_info *
nb_tsc_info(void)
{
	if (info.hz == 0)
		info.hz = info.dpdk_hz = rte_get_tsc_hz();
	return &info;
}
