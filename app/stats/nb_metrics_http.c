/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --metrics: GET /metrics over HTTP (libmicrohttpd's own thread, beside
 * the main lcore), the Prometheus text of a snapshot taken per scrape:
 * the running test's live counters (read as telemetry reads them, through
 * nb_telemetry_enter), else the last test's, kept at its end by
 * nb_metrics_keep() before its jobs go.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>
#include <rte_cycles.h>
#include <rte_version.h>

#include "nb_log.h"
#include "nb_metrics.h"
#include "nb_metrics_http.h"
#include "nb_telemetry.h"
#include "nb_tester_read.h"
#include "nb_tsc.h"
#include "nb_version.h"

static struct MHD_Daemon *daemon_;
static struct nb_app *m_app;
static atomic_ullong tests;
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_metrics_snap *last; /* the last test's, at its end */

void
nb_metrics_note_test(void)
{
	atomic_fetch_add(&tests, 1);
}

/* The jobs' figures into s (the caller may read the jobs). */
static void
from_jobs(const struct nb_app *app, struct nb_metrics_snap *s)
{
	const struct nb_run *run = &app->run;
	uint64_t now = rte_get_tsc_cycles(), hz = nb_tsc_hz();
	struct nb_counts cnt;
	uint32_t st;
	uint16_t p;

	s->elapsed_s = run->measure_tsc && now > run->measure_tsc
			       ? (double)(now - run->measure_tsc) / hz
			       : 0;
	if (run->rx_stop && app->result.tx_seconds > 0)
		s->elapsed_s = app->result.tx_seconds; /* the test's, in all */
	if (nb_counts_alloc(&cnt, app->cfg.streams, 1, 0) != 0)
		return;
	nb_hist_init(cnt.hist);
	nb_jobs_read(&app->jobs, &cnt);
	s->nb_streams = cnt.nb_streams;
	s->nb_labelled = cnt.nb_streams < NB_METRICS_STREAMS
				 ? cnt.nb_streams
				 : NB_METRICS_STREAMS;
	for (st = 0; st < cnt.nb_streams; st++) {
		struct nb_metrics_stream m = {
			.tx_pkts = cnt.tx_pkts[st],
			.tx_bytes = cnt.tx_bytes[st],
			.rx_pkts = cnt.rx_pkts[st],
			.rx_bytes = cnt.rx_bytes[st],
			.lost = cnt.tx_pkts[st] > cnt.rx_unique[st]
					? cnt.tx_pkts[st] - cnt.rx_unique[st]
					: 0,
			.out_of_order = cnt.ooo[st],
			.duplicates = cnt.dup[st],
		};

		if (st < s->nb_labelled)
			s->streams[st] = m;
		s->sum.tx_pkts += m.tx_pkts;
		s->sum.tx_bytes += m.tx_bytes;
		s->sum.rx_pkts += m.rx_pkts;
		s->sum.rx_bytes += m.rx_bytes;
		s->sum.lost += m.lost;
		s->sum.out_of_order += m.out_of_order;
		s->sum.duplicates += m.duplicates;
	}
	s->hist = *cnt.hist;
	s->have_hist = 1;
	for (p = 0; p < s->nb_ports; p++) {
		const struct nb_port_counts *pc =
			nb_counts_port(&cnt, s->ports[p].id);

		if (pc == NULL)
			continue;
		s->ports[p].tx_pkts = pc->tx_pkts;
		s->ports[p].tx_bytes = pc->tx_bytes;
		s->ports[p].rx_pkts = pc->rx_pkts;
		s->ports[p].rx_bytes = pc->rx_bytes;
	}
	nb_counts_free(&cnt);
	if (app->noise0_ready) {
		struct nb_tester_sample t;

		nb_tester_read(&app->jobs, &t);
		nb_tester_read_diff(&app->jobs, &app->noise0, &t, &s->tester);
		s->have_tester = 1;
	}
}

/* What every snapshot has: the process, its ports (and the PMD's counts
 * now), the clock. */
static void
base(const struct nb_app *app, struct nb_metrics_snap *s)
{
	uint16_t p;

	s->version = NB_VERSION;
	s->dpdk = rte_version();
	s->mode = app->cfg.serve ? "serve" : nb_telemetry_mode(app->cfg.mode);
	s->state = app->state ? app->state : "idle";
	s->tests = atomic_load(&tests);
	s->clk = *nb_tsc_info();
	s->nb_ports = app->nb_ports < 32 ? app->nb_ports : 32;
	for (p = 0; p < s->nb_ports; p++) {
		struct nb_metrics_port *m = &s->ports[p];
		struct nb_pmd_stats pmd;

		m->id = app->port_ids[p];
		snprintf(m->name, sizeof(m->name), "%s",
			 app->ports[p].desc.name);
		snprintf(m->driver, sizeof(m->driver), "%s",
			 app->ports[p].desc.driver);
		if (nb_port_stats(m->id, &pmd) == 0) {
			m->have_pmd = 1;
			m->pmd = (struct nb_metrics_pmd){
				pmd.ipackets, pmd.opackets,  pmd.ibytes,
				pmd.obytes,   pmd.imissed,   pmd.ierrors,
				pmd.oerrors,  pmd.rx_nombuf,
			};
		}
	}
}

void
nb_metrics_keep(struct nb_app *app)
{
	struct nb_metrics_snap *s;

	if (daemon_ == NULL || app->jobs.nb_workers == 0)
		return;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return;
	base(app, s);
	from_jobs(app, s);
	pthread_mutex_lock(&last_lock);
	free(last);
	last = s;
	pthread_mutex_unlock(&last_lock);
}

/* The snapshot for one scrape (free()), or NULL. */
static struct nb_metrics_snap *
snapshot(void)
{
	struct nb_metrics_snap *s = calloc(1, sizeof(*s));
	uint16_t p;

	if (s == NULL)
		return NULL;
	if (nb_telemetry_enter() == 0) {
		base(m_app, s);
		s->running = 1;
		from_jobs(m_app, s);
		nb_telemetry_leave();
		return s;
	}
	pthread_mutex_lock(&last_lock);
	if (last != NULL) {
		struct nb_metrics_snap now;

		/* the last test's counts; the PMD's and the state as now */
		base(m_app, &now);
		*s = *last;
		s->state = now.state;
		s->tests = now.tests;
		for (p = 0; p < s->nb_ports && p < now.nb_ports; p++)
			if (s->ports[p].id == now.ports[p].id)
				s->ports[p].pmd = now.ports[p].pmd;
	} else {
		base(m_app, s);
	}
	pthread_mutex_unlock(&last_lock);
	return s;
}

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned int code, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url,
	   const char *method, const char *version, const char *upload,
	   size_t *upload_size, void **state)
{
	struct nb_metrics_snap *s;
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *text = NULL;
	size_t len = 0;

	(void)cls, (void)version, (void)upload, (void)state;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "only GET /metrics\n");
	if (*upload_size != 0)
		return reply(c, MHD_HTTP_BAD_REQUEST, "no body\n");
	if (strcmp(url, "/metrics") != 0)
		return reply(c, MHD_HTTP_NOT_FOUND,
			     "dpdk-nbench: the metrics are at /metrics\n");
	s = snapshot();
	if (s == NULL || nb_metrics_text(s, &text, &len) != 0) {
		free(s);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "out of memory\n");
	}
	free(s);
	r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type",
				"text/plain; version=0.0.4; charset=utf-8");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

int
nb_metrics_start(struct nb_app *app, char *err, size_t errlen)
{
	const struct nb_config *cfg = &app->cfg;
	struct sockaddr_in a = {.sin_family = AF_INET};
	char ip[INET_ADDRSTRLEN];

	if (cfg->metrics_port == 0)
		return 0;
	m_app = app;
	a.sin_addr.s_addr = htonl(cfg->metrics_ip);
	a.sin_port = htons(cfg->metrics_port);
	inet_ntop(AF_INET, &a.sin_addr, ip, sizeof(ip));
	daemon_ = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL, NULL,
		on_request, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned int)16,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
		MHD_OPTION_END);
	if (daemon_ == NULL) {
		snprintf(err, errlen,
			 "--metrics tcp:%s:%u: cannot listen there (in use, "
			 "or not an address of this host)",
			 ip, cfg->metrics_port);
		return -1;
	}
	NB_LOG(NOTICE, "metrics: http://%s:%u/metrics", ip, cfg->metrics_port);
	return 0;
}

void
nb_metrics_stop(void)
{
	if (daemon_ != NULL)
		MHD_stop_daemon(daemon_);
	daemon_ = NULL;
	pthread_mutex_lock(&last_lock);
	free(last);
	last = NULL;
	pthread_mutex_unlock(&last_lock);
}
