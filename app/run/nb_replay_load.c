/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --replay: the pcap file read into memory with libpcap (before the ports
 * start: what the file holds sizes them), and the TX job that sends it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "nb_frame.h"
#include "nb_options.h"
#include "nb_replay.h"
#include "nb_replay_load.h"

#define NB_REPLAY_MAX_FRAMES (16u * 1024 * 1024)
#define NB_REPLAY_MAX_BYTES  (UINT64_C(2) << 30)

static int
grow(struct nb_replay *rp, uint32_t *cap, uint64_t *dcap, uint64_t need)
{
	if (rp->n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 1024;
		void *a = realloc(rp->ts_ns, sizeof(*rp->ts_ns) * c);

		if (a == NULL)
			return -1;
		rp->ts_ns = a;
		if ((a = realloc(rp->off, sizeof(*rp->off) * c)) == NULL)
			return -1;
		rp->off = a;
		if ((a = realloc(rp->len, sizeof(*rp->len) * c)) == NULL)
			return -1;
		rp->len = a;
		if ((a = realloc(rp->l4_off, sizeof(*rp->l4_off) * c)) == NULL)
			return -1;
		rp->l4_off = a;
		*cap = c;
	}
	if (need > *dcap) {
		uint64_t c = *dcap ? *dcap : 1 << 20;
		void *a;

		while (c < need)
			c *= 2;
		if ((a = realloc(rp->data, c)) == NULL)
			return -1;
		rp->data = a;
		*dcap = c;
	}
	return 0;
}

/* Whether frame i (its pcap header h) can be sent, with `used` bytes
 * already loaded: 0, or -errno with err set. */
static int
frame_check(const struct nb_replayspec *spec, const struct pcap_pkthdr *h,
	    uint32_t i, uint64_t used, uint32_t max_frame, char *err,
	    size_t errlen)
{
	if (h->caplen != h->len) {
		snprintf(err, errlen,
			 "--replay %s: frame %u holds %u of its %u "
			 "bytes (captured with a snap length): only "
			 "whole frames can be sent",
			 spec->path, i + 1, h->caplen, h->len);
		return -EINVAL;
	}
	if (h->len < 14 || h->len + 4 > max_frame) {
		snprintf(err, errlen,
			 "--replay %s: frame %u is %u bytes (%u with "
			 "FCS); frames of 14 to %u bytes are sent",
			 spec->path, i + 1, h->len, h->len + 4, max_frame - 4);
		return -EINVAL;
	}
	if (i == NB_REPLAY_MAX_FRAMES || used + h->len > NB_REPLAY_MAX_BYTES) {
		snprintf(err, errlen,
			 "--replay %s: more than %u frames or %llu "
			 "MiB; split the file (editcap -c)",
			 spec->path, NB_REPLAY_MAX_FRAMES,
			 (unsigned long long)(NB_REPLAY_MAX_BYTES >> 20));
		return -E2BIG;
	}
	return 0;
}

/* Frame i (h, bytes; time t ns, the first's first) into rp at `used`:
 * its offsets, gap and lengths.  0, or -EINVAL with err set when
 * --replay-stamp cannot stamp it. */
static int
frame_add(const struct nb_replayspec *spec, struct nb_replay *rp,
	  const struct pcap_pkthdr *h, const u_char *bytes, uint64_t t,
	  uint64_t first, uint64_t used, char *err, size_t errlen)
{
	uint32_t i = rp->n;
	char why[160];

	/* a file whose times go back: the gap is 0 there */
	rp->ts_ns[i] = t > first ? t - first : 0;
	if (i > 0 && rp->ts_ns[i] < rp->ts_ns[i - 1])
		rp->ts_ns[i] = rp->ts_ns[i - 1];
	rp->off[i] = (uint32_t)used;
	rp->len[i] = (uint16_t)h->len;
	rp->l4_off[i] = 0;
	memcpy(rp->data + used, bytes, h->len);
	if (spec->stamp &&
	    nb_replay_stampable(rp->data + used, h->len, &rp->l4_off[i], why,
				sizeof(why)) != 0) {
		snprintf(err, errlen,
			 "--replay-stamp: frame %u of %s cannot carry "
			 "the stamp: %s (replay it without "
			 "--replay-stamp)",
			 i + 1, spec->path, why);
		return -EINVAL;
	}
	rp->wire_bytes += h->len + 4u;
	if (i == 0 || h->len < rp->min_len)
		rp->min_len = h->len;
	if (h->len > rp->max_len)
		rp->max_len = h->len;
	rp->n++;
	return 0;
}

/* Open spec->path as an Ethernet pcap file: the handle, or NULL with err
 * set (*ret the -errno). */
static pcap_t *
replay_open(const struct nb_replayspec *spec, int *ret, char *err,
	    size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;

	p = pcap_open_offline_with_tstamp_precision(
		spec->path, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (p == NULL) {
		snprintf(err, errlen, "--replay %s: %s", spec->path, perr);
		*ret = -ENOENT;
		return NULL;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(err, errlen,
			 "--replay %s: link type %s, not Ethernet (EN10MB)",
			 spec->path,
			 pcap_datalink_val_to_name(pcap_datalink(p))
				 ?: "unknown");
		pcap_close(p);
		*ret = -EINVAL;
		return NULL;
	}
	return p;
}

int
nb_replay_load(const struct nb_replayspec *spec, uint32_t max_frame,
	       struct nb_replay *rp, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *bytes;
	uint64_t used = 0, dcap = 0, first = 0, t;
	uint32_t cap = 0;
	pcap_t *p;
	int ret = 0, nano;

	memset(rp, 0, sizeof(*rp));
	p = replay_open(spec, &ret, err, errlen);
	if (p == NULL)
		return ret;
	nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
	while (ret == 0 && pcap_next_ex(p, &h, &bytes) == 1) {
		ret = frame_check(spec, h, rp->n, used, max_frame, err, errlen);
		if (ret != 0)
			break;
		if (grow(rp, &cap, &dcap, used + h->len) != 0) {
			snprintf(err, errlen, "--replay %s: out of memory",
				 spec->path);
			ret = -ENOMEM;
			break;
		}
		t = (uint64_t)h->ts.tv_sec * 1000000000u +
		    (uint64_t)h->ts.tv_usec * (nano ? 1u : 1000u);
		if (rp->n == 0)
			first = t;
		ret = frame_add(spec, rp, h, bytes, t, first, used, err,
				errlen);
		used += h->len;
	}
	pcap_close(p);
	if (ret == 0 && rp->n == 0) {
		snprintf(err, errlen, "--replay %s: the file holds no frame",
			 spec->path);
		ret = -EINVAL;
	}
	if (ret != 0) {
		nb_replay_free(rp);
		return ret;
	}
	rp->span_ns = rp->ts_ns[rp->n - 1];
	rp->stamped = spec->stamp;
	return 0;
}

void
nb_replay_free(struct nb_replay *rp)
{
	free(rp->ts_ns);
	free(rp->off);
	free(rp->len);
	free(rp->l4_off);
	free(rp->data);
	memset(rp, 0, sizeof(*rp));
}

/*
 * Before the ports start: the file's frames, and the largest of them as
 * the test's frame size (ports, MTU checks and TX pools are sized by it).
 */
int
nb_replay_setup(struct nb_app *app)
{
	struct nb_config *cfg = &app->cfg;
	char err[400];
	uint32_t big;

	if (!cfg->replay.active)
		return 0;
	if (nb_replay_load(&cfg->replay, NB_FRAME_MAX, &app->replay, err,
			   sizeof(err)) != 0) {
		nb_app_error(app, "%s", err);
		return -1;
	}
	if (cfg->replay.loops > NB_MAX_PACKETS / app->replay.n) {
		nb_app_error(app,
			     "--replay %s: loop=%llu passes of %u frames are "
			     "more than %llu frames; give loop=0 and --time",
			     cfg->replay.path,
			     (unsigned long long)cfg->replay.loops,
			     app->replay.n, (unsigned long long)NB_MAX_PACKETS);
		nb_replay_free(&app->replay);
		return -1;
	}
	big = app->replay.max_len + NB_FCS_LEN;
	memset(&cfg->sizes, 0, sizeof(cfg->sizes));
	cfg->sizes.nb_sizes = 1;
	cfg->sizes.sizes[0] =
		(uint16_t)(big < NB_FRAME_MIN ? NB_FRAME_MIN : big);
	cfg->sizes.nb_pattern = 1;
	cfg->streams = 1;
	return 0;
}

/* The rate over the file's frames, and how many frames in all. */
int
nb_replay_resolve(struct nb_app *app, uint64_t link_bps)
{
	struct nb_config *cfg = &app->cfg;
	const struct nb_replay *rp = &app->replay;
	uint64_t all = cfg->replay.loops * rp->n;
	int ret;

	if (cfg->replay.timing == NB_REPLAY_FILE) {
		app->rate.unlimited = 1;
		app->rate.pps_num = 0;
		app->rate.pps_den = 1;
	} else {
		ret = nb_replay_rate(&cfg->rate, rp, link_bps, &app->rate);
		if (ret != 0)
			return ret;
	}
	app->total_packets = cfg->packets;
	if (all && (!cfg->packets || all < cfg->packets))
		app->total_packets = all;
	if (app->total_packets && !cfg->duration_set)
		cfg->duration = 0;
	return 0;
}

/* After the jobs are built: the TX job sends the file, the receivers
 * know its frames. */
void
nb_replay_arm(struct nb_app *app)
{
	const struct nb_config *cfg = &app->cfg;
	struct nb_result *r = &app->result;
	const struct nb_replay *rp = &app->replay;
	unsigned int i;

	if (!cfg->replay.active)
		return;
	r->replay = rp;
	if (!app->rate.unlimited) {
		/* the requested rate over the file's sizes, not the size
		 * the ports were set up for */
		r->req_l1_bps =
			r->req_pps *
			(double)(rp->wire_bytes + NB_L1_OVERHEAD * rp->n) *
			8.0 / rp->n;
		r->req_l2_bps =
			r->req_pps * (double)rp->wire_bytes * 8.0 / rp->n;
	}
	for (i = 0; i < app->jobs.nb_tx; i++) {
		struct nb_txjob *j = app->jobs.tx[i];

		if (j->done)
			continue;
		j->rp = rp;
		j->rp_file_timing = cfg->replay.timing == NB_REPLAY_FILE;
		j->rp_period_ns = nb_replay_period_ns(rp);
	}
	/*
	 * As recorded, the frames may hold stamps of another test (a
	 * capture of ours): no receiver takes any frame for data then (a
	 * source filter nothing passes: the 2 bytes after the source MAC of
	 * an IPv4 frame are never ff ff), and each frame counts for the
	 * stream (nb_jobs_read), in every interval and at the end.
	 */
	app->jobs.rx_all_stream0 = !cfg->replay.stamp;
	for (i = 0; !cfg->replay.stamp && i < app->jobs.nb_rx; i++) {
		app->jobs.rx[i]->src_want = UINT64_MAX;
		app->jobs.rx[i]->src_mask = UINT64_MAX;
		app->jobs.rx[i]->own_src = 0;
	}
	for (i = 0; i < app->jobs.nb_workers; i++)
		nb_engine_select(app->jobs.workers[i], cfg->proto);
}
