/* SPDX-License-Identifier: BSD-3-Clause */
/* One end of a TCP test negotiated on a peer session (nb_tcprun.h), on
 * the runtime's steps: prepare, build, launch at setup; arm at START;
 * drain at STOP.  The client's control lcore reads its intervals (as a
 * UDP peer client's does). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "nb_ctl.h"
#include "nb_log.h"
#include "nb_run.h"
#include "nb_setup.h"
#include "nb_tcp_wire.h"
#include "nb_tcprun.h"
#include "nb_tcprun_int.h"
#include "nb_tsc.h"

struct tcprun *
nb_tcprun_peer_new(struct nb_app *app, const struct nb_tcppeer *pp, char *err,
		   size_t errlen)
{
	struct tcprun *t = calloc(1, sizeof(*t));

	if (t == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->app = app;
	t->is_peer = 1;
	t->pp = *pp;
	t->msg = pp->msg;
	/* the client prints the intervals (a sweep: only its rows) */
	t->no_iv = pp->responder || pp->no_header;
	t->header_done = pp->no_header;
	/* the responder's ends listen, the client's connect */
	t->has_client = !pp->responder;
	t->has_server = pp->responder;
	t->n = pp->streams;
	t->mss = nb_tcp_mss_for(pp->frame, pp->vlan_id, pp->family);
	memcpy(t->peer_mac, pp->peer_mac, 6);
	/* both ways: the client's rows of each direction */
	t->ndir = !pp->responder && pp->c2r && pp->r2c ? 2 : 1;
	t->prev = calloc(t->n, sizeof(*t->prev));
	t->cur = calloc(t->n, sizeof(*t->cur));
	t->prev2 = calloc(t->n, sizeof(*t->prev2));
	t->cur2 = calloc(t->n, sizeof(*t->cur2));
	t->intervals = json_array();
	if (t->prev == NULL || t->cur == NULL || t->prev2 == NULL ||
	    t->cur2 == NULL || t->intervals == NULL) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* the workers wait for the start that START agrees on
	 * (nb_run_prepare_tcp: start_tsc UINT64_MAX) */
	nb_run_prepare_tcp(app);
	if (nb_tcprun_build(t, err, errlen) != 0)
		goto fail;
	if (nb_run_launch(app, 0) != 0) {
		snprintf(err, errlen, "cannot launch the TCP worker");
		goto fail;
	}
	t->launched = 1;
	return t;
fail:
	nb_tcprun_free(t);
	nb_run_free(app);
	free(t);
	return NULL;
}

void
nb_tcprun_peer_arm(struct tcprun *t, uint64_t start_tsc)
{
	t->start_ns = nb_clock_ns(&t->app->run.clock, start_tsc);
	nb_tcprun_step_init(t);
	nb_run_arm(t->app, start_tsc);
}

int
nb_tcprun_peer_step(struct tcprun *t, char *why, size_t whylen)
{
	uint64_t now = nb_clock_ns(&t->app->run.clock, rte_rdtsc());

	if (t->app->run.start_tsc == UINT64_MAX || now < t->start_ns)
		return 0;
	if (!t->header_done && nb_out_chatty(&t->app->out))
		nb_tcprun_print_header(t);
	t->header_done = 1;
	if (!nb_tcprun_step(t, why, whylen))
		return 0;
	t->secs = (double)(now - t->start_ns) / 1e9;
	return 1;
}

int
nb_tcprun_peer_sent(struct tcprun *t, unsigned int *failed)
{
	uint64_t now = nb_clock_ns(&t->app->run.clock, rte_rdtsc());
	double secs;
	uint32_t i, done = 0;

	*failed = 0;
	if (t->app->run.start_tsc == UINT64_MAX || now < t->start_ns ||
	    t->cj == NULL)
		return 0;
	secs = (double)(now - t->start_ns) / 1e9;
	if (t->close_at < 0 && t->pp.duration > 0 && secs >= t->pp.duration) {
		nb_run_end_senders(t->app, 1);
		t->close_at = secs;
	}
	for (i = 0; i < t->n; i++) {
		const struct nb_tcp_end *e = &t->cj->ends[i];

		if (e->c.error != NB_TCP_OK)
			(*failed)++;
		if (e->all_acked_ns || e->done_ns || e->c.error != NB_TCP_OK)
			done++;
	}
	t->secs = secs;
	return done == t->n;
}

int
nb_tcprun_peer_finished(const struct tcprun *t)
{
	return nb_tcprun_all_finished(t);
}

void
nb_tcprun_peer_sender(const struct tcprun *t, uint32_t i, uint64_t *bytes,
		      uint64_t *retrans, double *secs)
{
	const struct nb_tcpjob *j = t->cj ? t->cj : t->sj;
	const struct nb_tcp_end *e = &j->ends[i];
	/* a client's cookie is not the test's (a server sends none) */
	uint64_t acked = e->c.st.bytes_acked, pfx = t->cj ? j->prefix_len : 0;
	uint64_t end = e->all_acked_ns ? e->all_acked_ns : e->done_ns;

	*bytes = acked > pfx ? acked - pfx : 0;
	*retrans = e->c.st.retrans;
	*secs = end > t->start_ns ? (double)(end - t->start_ns) / 1e9 : t->secs;
}

uint64_t
nb_tcprun_peer_received(const struct tcprun *t, uint32_t i)
{
	const struct nb_tcpjob *j = t->cj ? t->cj : t->sj;

	return j->ends[i].c.st.bytes_rcvd;
}

uint32_t
nb_tcprun_peer_accepted(const struct tcprun *t)
{
	return t->sj ? (uint32_t)__atomic_load_n(&t->sj->accepted,
						 __ATOMIC_ACQUIRE)
		     : 0;
}

void
nb_tcprun_peer_go(struct tcprun *t, uint32_t from, uint64_t bytes)
{
	if (t->sj == NULL)
		return;
	t->sj->go_from = from;
	t->sj->go_bytes = bytes;
	__atomic_store_n(&t->sj->go, 1, __ATOMIC_RELEASE);
}

uint64_t
nb_tcprun_peer_unacked(const struct tcprun *t, uint32_t i)
{
	const struct nb_tcpjob *j = t->cj ? t->cj : t->sj;

	return nb_tcp_flight(&j->ends[i].c);
}

/*
 * A client sends STOP once all its ends are closed (TIME_WAIT): the ACK of
 * a responder's FIN is then on its way and may arrive after the STOP (the
 * client's worker sends queued control frames before a frame its TX queue
 * refused a turn earlier).  The ends get NB_TCPRUN_STOP_WAIT_MS to take
 * it before the workers stop; one still in LAST_ACK then is reported so.
 */
#define NB_TCPRUN_STOP_WAIT_MS 100

void
nb_tcprun_peer_stop(struct tcprun *t)
{
	uint64_t give_up = rte_get_tsc_cycles() +
			   nb_tsc_hz() / 1000 * NB_TCPRUN_STOP_WAIT_MS;

	while (t->launched && !nb_tcprun_all_finished(t) &&
	       rte_get_tsc_cycles() < give_up)
		nb_run_sleep_us(200);
	nb_tcprun_stop(t);
}

void
nb_tcprun_peer_ctl(const struct tcprun *t, uint64_t *handed, uint64_t *dropped)
{
	const struct nb_tcpjob *j = t->cj ? t->cj : t->sj;

	*handed = j->ctl_handed;
	*dropped = j->ctl_dropped;
}

int
nb_tcprun_peer_blob(struct tcprun *t, uint8_t **blob, size_t *len)
{
	const struct nb_tcpjob *j = t->sj ? t->sj : t->cj;
	struct nb_ctl_tcp_hdr *h = calloc(1, sizeof(*h));
	struct nb_tcp_endsnap *c = calloc(t->n, sizeof(*c));
	struct nb_pmd_stats ps;
	uint32_t i;
	int n = -ENOMEM;

	*blob = NULL;
	if (h == NULL || c == NULL)
		goto out;
	memset(&ps, 0, sizeof(ps));
	nb_port_stats(j->port, &ps);
	h->pmd = ps;
	h->pmd.nb_xstats = 0;
	nb_run_cpu_now(&h->cpu);
	h->cpu.wall_ns -= t->app->cpu_mark.wall_ns;
	h->cpu.user_ns -= t->app->cpu_mark.user_ns;
	h->cpu.system_ns -= t->app->cpu_mark.system_ns;
	h->rx_pkts = j->rx_pkts;
	h->rx_bytes = j->rx_bytes;
	h->tx_pkts = j->tx_pkts;
	h->tx_bytes = j->tx_bytes;
	h->foreign = j->foreign;
	h->bad_csum = j->bad_csum;
	h->stray = j->stray;
	h->alloc_fail = j->alloc_fail;
	h->ctl_dropped = j->ctl_dropped;
	h->cap_unit = t->pp.cap_unit;
	h->cap_rate = t->pp.cap_rate;
	h->cap_held = j->cap.held;
	if (j->owd != NULL)
		h->owd = *j->owd;
	else
		nb_hist_init(&h->owd);
	for (i = 0; i < t->n; i++)
		nb_tcprun_end_snap(t, &j->ends[i], &c[i]);
	*len = nb_ctl_tcpres_size(h, t->n);
	*blob = malloc(*len);
	if (*blob == NULL)
		goto out;
	n = nb_ctl_tcpres_write(h, c, t->n, *blob, *len);
out:
	free(h);
	free(c);
	if (n < 0) {
		free(*blob);
		*blob = NULL;
		return n;
	}
	return 0;
}

/* The responder's figures from its blob (t->rhdr, t->remote; why set
 * when it cannot be read), and the test's length if the end did not set
 * it. */
static void
take_blob(struct tcprun *t, const uint8_t *blob, size_t len, char *why,
	  size_t whylen)
{
	uint32_t n = 0;

	if (blob != NULL) {
		t->rhdr = calloc(1, sizeof(*t->rhdr));
		t->remote = calloc(t->n, sizeof(*t->remote));
		if (t->rhdr == NULL || t->remote == NULL ||
		    nb_ctl_tcpres_read(blob, len, t->rhdr, t->remote, t->n,
				       &n) != 0 ||
		    n != t->n) {
			free(t->rhdr);
			free(t->remote);
			t->rhdr = NULL;
			t->remote = NULL;
			if (!why[0])
				snprintf(why, whylen,
					 "the responder's results could not "
					 "be read");
		}
	}
	if (t->secs <= 0)
		t->secs =
			(double)(nb_clock_ns(&t->app->run.clock, rte_rdtsc()) -
				 t->start_ns) /
			1e9;
}

json_t *
nb_tcprun_peer_sweep_row(struct tcprun *t, const uint8_t *blob, size_t len,
			 char *why, size_t whylen)
{
	take_blob(t, blob, len, why, whylen);
	return nb_tcprun_sweep_row(t, &t->app->out, why, whylen);
}

int
nb_tcprun_peer_report(struct tcprun *t, const uint8_t *blob, size_t len,
		      int interrupted, const char *why_in)
{
	char why[320];
	int code = 0;

	snprintf(why, sizeof(why), "%s", why_in ? why_in : "");
	take_blob(t, blob, len, why, sizeof(why));
	nb_tcprun_report(t, t->secs, interrupted, why, sizeof(why));
	if (why[0]) {
		NB_LOG(ERR, "%s", why);
		code = 1;
	}
	return interrupted ? 1 : code;
}

void
nb_tcprun_peer_free(struct tcprun *t)
{
	if (t == NULL)
		return;
	nb_tcprun_stop(t);
	nb_tcprun_free(t);
	free(t);
}
