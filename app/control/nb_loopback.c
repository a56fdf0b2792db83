/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loopback test: TX port i faces RX port i in this process.  The control
 * lcore builds every worker's jobs and templates, starts the workers and the
 * stats lcore, waits (sleeping) for the senders to finish, lets the receivers
 * drain, stops everything and collects the final counters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "nb_app.h"
#include "nb_frame.h"

#define NB_START_DELAY_S 0.1 /* workers start together this far ahead */

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

int
nb_app_port_index(const struct nb_app *app, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		if (app->port_ids[i] == port_id)
			return i;
	return -1;
}

static int
setup_txjob(struct nb_app *app, const struct nb_job *job, unsigned int idx,
	    char *err, size_t errlen)
{
	const struct nb_config *cfg = &app->cfg;
	const struct nb_port *tx =
		&app->ports[nb_app_port_index(app, job->port)];
	const struct nb_port *rx =
		&app->ports[nb_app_port_index(app, job->peer_port)];
	int socket = tx->desc.numa_node < 0 ? (int)rte_socket_id()
					    : tx->desc.numa_node;
	uint32_t max_frame = 0, i, s, k;
	struct nb_txjob *j;
	char name[RTE_MEMPOOL_NAMESIZE];
	uint8_t frame[NB_FRAME_MAX];
	unsigned int nb_mbufs;

	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		if (cfg->sizes.sizes[i] > max_frame)
			max_frame = cfg->sizes.sizes[i];
	j = rte_zmalloc_socket("nb_txjob", sizeof(*j), RTE_CACHE_LINE_SIZE,
			       socket);
	if (j == NULL)
		goto nomem;
	app->txjobs[idx] = j;
	j->job = job;
	j->port = job->port;
	j->queue = job->queue;
	j->nb_streams = (uint16_t)job->nb_streams;
	j->nb_sizes = cfg->sizes.nb_sizes;
	j->nb_pattern = cfg->sizes.nb_pattern;
	j->pattern = app->cfg.sizes.pattern;
	j->first_stream = job->first_stream;
	j->stream_stride = job->stream_stride;
	j->left = job->packets ? job->packets : UINT64_MAX;
	if (job->nb_streams == 0) {
		/* More TX queues than streams: this queue stays idle. */
		j->done = 1;
		j->left = 0;
		return 0;
	}
	j->tmpl_warm = rte_zmalloc_socket(
		"nb_tmpl", sizeof(struct nb_tmpl) * j->nb_streams * j->nb_sizes,
		RTE_CACHE_LINE_SIZE, socket);
	j->tmpl_data = rte_zmalloc_socket(
		"nb_tmpl", sizeof(struct nb_tmpl) * j->nb_streams * j->nb_sizes,
		RTE_CACHE_LINE_SIZE, socket);
	j->cnt_warm = rte_zmalloc_socket(
		"nb_cnt", sizeof(struct nb_tx_stream) * j->nb_streams,
		RTE_CACHE_LINE_SIZE, socket);
	j->cnt_data = rte_zmalloc_socket(
		"nb_cnt", sizeof(struct nb_tx_stream) * j->nb_streams,
		RTE_CACHE_LINE_SIZE, socket);
	j->seq = rte_zmalloc_socket("nb_seq", sizeof(uint64_t) * j->nb_streams,
				    RTE_CACHE_LINE_SIZE, socket);
	if (!j->tmpl_warm || !j->tmpl_data || !j->cnt_warm || !j->cnt_data ||
	    !j->seq)
		goto nomem;
	for (k = 0; k < j->nb_streams; k++) {
		struct nb_flow f;

		s = job->first_stream + k * job->stream_stride;
		memset(&f, 0, sizeof(f));
		memcpy(f.src_mac,
		       cfg->have_src_mac ? cfg->src_mac : tx->desc.mac, 6);
		memcpy(f.dst_mac,
		       cfg->have_dst_mac ? cfg->dst_mac : rx->desc.mac, 6);
		f.vlan_id = cfg->vlan_id;
		f.proto = cfg->proto;
		f.src_ip = cfg->src_ip;
		f.dst_ip = cfg->dst_ip;
		f.src_port = (uint16_t)(NB_DEFAULT_SPORT_BASE + s);
		f.dst_port = NB_DEFAULT_DPORT;
		f.stream_id = (uint16_t)s;
		for (i = 0; i < j->nb_sizes; i++) {
			if (nb_frame_build(frame, sizeof(frame), &f,
					   cfg->sizes.sizes[i], NB_MAGIC_WARMUP,
					   &j->tmpl_warm[k * j->nb_sizes + i]) <
				    0 ||
			    nb_frame_build(frame, sizeof(frame), &f,
					   cfg->sizes.sizes[i], NB_MAGIC_DATA,
					   &j->tmpl_data[k * j->nb_sizes + i]) <
				    0) {
				snprintf(err, errlen,
					 "cannot build a %u B frame",
					 cfg->sizes.sizes[i]);
				return -EINVAL;
			}
		}
	}
	j->tmpl = j->tmpl_warm;
	j->cnt = j->cnt_warm;
	/* Enough for the TX ring, a burst in hand, and per-lcore caches. */
	nb_mbufs = app->cfg.txd * 2 + 4096;
	snprintf(name, sizeof(name), "nb_tx_p%u_q%u%s", job->port, job->queue,
		 max_frame > 2048 ? "j" : "");
	/* A responder runs test after test: reuse the pool (its mbufs may
	 * still sit in a NIC's TX ring from the last test). */
	j->pool = rte_mempool_lookup(name);
	if (j->pool == NULL)
		j->pool = nb_tx_pool_create(
			name, nb_mbufs,
			max_frame > 2048 ? NB_FRAME_MAX : max_frame, socket);
	if (j->pool == NULL) {
		snprintf(err, errlen,
			 "cannot create TX mbuf pool %s (%u mbufs, NUMA node "
			 "%d): %s; too few hugepages? see hugepages.md",
			 name, nb_mbufs, socket, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
nomem:
	snprintf(err, errlen,
		 "out of hugepage memory for TX job state "
		 "(see hugepages.md)");
	return -ENOMEM;
}

static int
setup_rxjob(struct nb_app *app, const struct nb_job *job, unsigned int idx,
	    char *err, size_t errlen)
{
	const struct nb_port *p =
		&app->ports[nb_app_port_index(app, job->port)];
	int socket = p->desc.numa_node < 0 ? (int)rte_socket_id()
					   : p->desc.numa_node;
	struct nb_rxjob *j;
	uint32_t s;

	j = rte_zmalloc_socket("nb_rxjob", sizeof(*j), RTE_CACHE_LINE_SIZE,
			       socket);
	if (j != NULL)
		j->streams = rte_zmalloc_socket("nb_rxstreams",
						sizeof(struct nb_rx_stream) *
							app->cfg.streams,
						RTE_CACHE_LINE_SIZE, socket);
	if (j == NULL || j->streams == NULL) {
		rte_free(j);
		snprintf(err, errlen,
			 "out of hugepage memory for RX stream "
			 "state (see hugepages.md)");
		return -ENOMEM;
	}
	app->rxjobs[idx] = j;
	j->reflect_txq = -1;
	j->job = job;
	j->port = job->port;
	j->queue = job->queue;
	j->nb_streams = app->cfg.streams;
	for (s = 0; s < app->cfg.streams; s++) {
		nb_seq_init(&j->streams[s].seq, 0);
		nb_jitter_init(&j->streams[s].jit);
		nb_hist_init(&j->streams[s].hist);
	}
	return 0;
}

int
nb_loopback_setup(struct nb_app *app, char *err, size_t errlen)
{
	struct nb_plan *plan = &app->plan;
	unsigned int i, k;
	int ret;

	app->nb_txjobs = 0;
	app->nb_rxjobs = 0;
	for (i = 0; i < plan->nb_workers; i++) {
		struct nb_worker *w = rte_zmalloc("nb_worker", sizeof(*w),
						  RTE_CACHE_LINE_SIZE);

		if (w == NULL) {
			snprintf(err, errlen, "out of hugepage memory");
			return -ENOMEM;
		}
		w->lcore = plan->workers[i].lcore;
		w->run = &app->run;
		app->workers[i] = w;
	}
	for (i = 0; i < plan->nb_jobs; i++) {
		const struct nb_job *job = &plan->jobs[i];
		struct nb_worker *w = app->workers[job->worker];

		if (job->is_tx) {
			k = app->nb_txjobs++;
			ret = setup_txjob(app, job, k, err, errlen);
			if (ret)
				return ret;
			w->tx[w->nb_tx++] = app->txjobs[k];
		} else {
			k = app->nb_rxjobs++;
			ret = setup_rxjob(app, job, k, err, errlen);
			if (ret)
				return ret;
			w->rx[w->nb_rx++] = app->rxjobs[k];
		}
	}
	for (i = 0; i < plan->nb_workers; i++)
		nb_engine_select(app->workers[i], app->cfg.proto);
	return 0;
}

int
nb_all_tx_done(const struct nb_app *app)
{
	unsigned int i;

	for (i = 0; i < app->nb_txjobs; i++)
		if (!app->txjobs[i]->done)
			return 0;
	return 1;
}

uint64_t
nb_rx_data_total(const struct nb_app *app)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < app->nb_rxjobs; i++)
		n += app->rxjobs[i]->data;
	return n;
}

uint64_t
nb_tx_data_total(const struct nb_app *app)
{
	uint64_t n = 0;
	unsigned int i, s;

	for (i = 0; i < app->nb_txjobs; i++) {
		const struct nb_txjob *j = app->txjobs[i];

		if (j->cnt_data == NULL)
			continue;
		for (s = 0; s < j->nb_streams; s++)
			n += j->cnt_data[s].pkts;
	}
	return n;
}

void
nb_run_arm(struct nb_app *app, uint64_t start)
{
	struct nb_run *run = &app->run;
	const struct nb_config *cfg = &app->cfg;
	uint64_t hz = rte_get_tsc_hz();
	unsigned int i;

	run->measure_tsc = start + (uint64_t)(cfg->omit * hz);
	run->end_tsc =
		cfg->duration > 0
			? run->measure_tsc + (uint64_t)(cfg->duration * hz)
			: UINT64_MAX;
	for (i = 0; i < app->nb_txjobs; i++) {
		struct nb_txjob *j = app->txjobs[i];

		if (j->done)
			continue;
		nb_pacer_init(&j->pacer, hz, j->job->rate_num, j->job->rate_den,
			      start);
		j->next_event = run->measure_tsc;
	}
	if (app->probe != NULL && !app->probe->pingpong)
		nb_pacer_init(&app->probe->pacer, hz, cfg->latency_rate, 1,
			      start);
	/* Everything above is visible before the start time is. */
	rte_wmb();
	run->start_tsc = start;
	nb_telemetry_live(1);
}

int
nb_workers_launch(struct nb_app *app)
{
	struct nb_run *run = &app->run;
	unsigned int i;

	for (i = 0; i < app->plan.nb_workers; i++) {
		struct nb_worker *w = app->workers[i];

		if (w->engine == NULL)
			continue;
		if (rte_eal_remote_launch(nb_worker_main, w, w->lcore) != 0) {
			snprintf(app->result.error, sizeof(app->result.error),
				 "cannot launch worker lcore %u", w->lcore);
			run->tx_stop = 1;
			run->rx_stop = 1;
			rte_eal_mp_wait_lcore();
			return -1;
		}
	}
	return 0;
}

int
nb_tx_stalled(const struct nb_app *app, uint64_t tsc, uint64_t *seen,
	      uint64_t *since)
{
	uint64_t n = 0;
	unsigned int i, k;

	for (i = 0; i < app->nb_txjobs; i++) {
		const struct nb_txjob *j = app->txjobs[i];

		if (j->cnt_data == NULL)
			continue;
		for (k = 0; k < j->nb_streams; k++)
			n += j->cnt_data[k].pkts + j->cnt_warm[k].pkts;
	}
	if (n != *seen || *since == 0 || tsc < app->run.start_tsc) {
		*seen = n;
		*since = tsc;
		return 0;
	}
	return tsc - *since > NB_TX_STALL_S * rte_get_tsc_hz();
}

int
nb_loopback_run(struct nb_app *app)
{
	struct nb_run *run = &app->run;
	const struct nb_config *cfg = &app->cfg;
	uint64_t hz = rte_get_tsc_hz(), now, drain_end, idle_since;
	uint64_t last_rx = 0, rx, stall_seen = 0, stall_since = 0;
	unsigned int i;
	int interrupted = 0;

	/*
	 * Frames that queued while the links came up (LLDP, STP, ...): a NIC
	 * has counted them already; read and drop them before the counters
	 * are reset, so the tool and the PMD count the same frames.
	 */
	for (i = 0; i < app->nb_rxjobs; i++)
		nb_port_rx_flush(app->rxjobs[i]->port, app->rxjobs[i]->queue);
	for (i = 0; i < app->nb_ports; i++)
		nb_port_stats_reset(app->port_ids[i]);
	nb_clock_init(&run->clock, hz, 0);
	nb_run_arm(app,
		   rte_get_tsc_cycles() + (uint64_t)(NB_START_DELAY_S * hz));
	if (nb_workers_launch(app) != 0)
		return -1;
	rte_eal_remote_launch(nb_stats_main, app, app->plan.stats_lcore);

	/* Senders: until they finish or we are told to stop. */
	while (!nb_all_tx_done(app)) {
		if (nb_force_quit && !run->tx_stop) {
			run->tx_stop = 1;
			interrupted = 1;
		}
		if (!run->tx_stop && nb_tx_stalled(app, rte_get_tsc_cycles(),
						   &stall_seen, &stall_since)) {
			snprintf(app->result.error, sizeof(app->result.error),
				 "the TX port accepted no frame for %d s "
				 "(link down?); test stopped",
				 NB_TX_STALL_S);
			run->tx_stop = 1;
		}
		sleep_ms(5);
	}
	/*
	 * Drain: receivers keep counting until every frame sent has arrived,
	 * nothing has arrived for 50 ms, or --drain seconds pass.
	 */
	now = rte_get_tsc_cycles();
	drain_end = now + (uint64_t)(cfg->drain * hz);
	idle_since = now;
	for (;;) {
		now = rte_get_tsc_cycles();
		rx = nb_rx_data_total(app);
		if (rx >= nb_tx_data_total(app) || now >= drain_end)
			break;
		if (rx != last_rx) {
			last_rx = rx;
			idle_since = now;
		} else if (now - idle_since > hz / 20) {
			break;
		}
		sleep_ms(1);
	}
	run->rx_stop = 1;
	app->stats_stop = 1;
	rte_eal_mp_wait_lcore();
	app->result.interrupted = interrupted || nb_force_quit;
	nb_collect_final(app);
	return 0;
}

void
nb_loopback_free(struct nb_app *app)
{
	unsigned int i;

	nb_telemetry_live(0); /* no reader may see the jobs go */
	for (i = 0; i < app->nb_txjobs; i++) {
		struct nb_txjob *j = app->txjobs[i];

		if (j == NULL)
			continue;
		rte_free(j->tmpl_warm);
		rte_free(j->tmpl_data);
		rte_free(j->cnt_warm);
		rte_free(j->cnt_data);
		rte_free(j->seq);
		if (!app->keep_pools)
			rte_mempool_free(j->pool);
		rte_free(j);
		app->txjobs[i] = NULL;
	}
	rte_free(app->probe);
	app->probe = NULL;
	for (i = 0; i < app->nb_rxjobs; i++) {
		if (app->rxjobs[i] == NULL)
			continue;
		rte_free(app->rxjobs[i]->rtt);
		rte_free(app->rxjobs[i]->streams);
		rte_free(app->rxjobs[i]);
		app->rxjobs[i] = NULL;
	}
	for (i = 0; i < app->plan.nb_workers; i++) {
		rte_free(app->workers[i]);
		app->workers[i] = NULL;
	}
	app->nb_txjobs = 0;
	app->nb_rxjobs = 0;
}
