/* SPDX-License-Identifier: BSD-3-Clause */
/* Interval lines in peer mode (see nb_peer_iv_io.h). */
#include <rte_cycles.h>

#include "nb_log.h"
#include "nb_peer_iv.h"
#include "nb_peer_iv_io.h"

/* The directions of the test, as this client sees them. */
static int
has_fwd(const struct nb_peer *pr)
{
	return pr->params.direction != NB_CTL_DIR_REVERSE;
}

static int
has_rev(const struct nb_peer *pr)
{
	return pr->params.direction != NB_CTL_DIR_FORWARD;
}

/* In a bidir test the reverse rows are tagged: [R0], [RSUM]. */
static const char *
rev_tag(const struct nb_peer *pr)
{
	return has_fwd(pr) ? "R" : "";
}

void
nb_peer_iv_io_start(struct nb_peer *pr)
{
	struct nb_app *app = pr->app;

	pr->iv_sent = pr->iv_first = pr->iv_shown = 0;
	if (pr->client)
		nb_peer_ivs_init(&pr->rivs, app->cfg.streams);
	pr->sampling = app->cfg.interval > 0 && !app->cfg.pingpong &&
		       nb_sampler_init(&pr->sampler, app) == 0;
}

/* Responder: INTERVAL parts, in order, while the link is free (block:
 * all of them, waiting for each ACK). */
static void
send_parts(struct nb_peer *pr, int block)
{
	struct nb_result *r = &pr->app->result;
	struct nb_ctl_msg m;
	uint32_t next;

	while (pr->iv_sent < r->nb_intervals) {
		if (pr->link.pending && !block)
			return;
		nb_ctl_msg_init(&m, NB_CTL_INTERVAL, pr->session);
		next = nb_peer_iv_export(&r->intervals[pr->iv_sent],
					 pr->iv_sent, pr->iv_first, &m.u.iv);
		if (nb_peer_send(pr, &m) != 0) {
			/* the client is gone: the session ends anyway */
			pr->iv_sent = r->nb_intervals;
			return;
		}
		pr->iv_first = next;
		if (next == 0) {
			/* sent: only its sums stay (a client may ask for
			 * 0.1 s intervals of 1024 streams for an hour) */
			nb_interval_release(&r->intervals[pr->iv_sent]);
			pr->iv_sent++;
		}
	}
}

/* Client: interval k of one direction, joined and written out. */
static void
show(struct nb_peer *pr, uint32_t k, int fwd)
{
	struct nb_app *app = pr->app;
	struct nb_interval m;

	if (nb_peer_iv_merge(&m, &app->result.intervals[k],
			     k < pr->rivs.complete ? &pr->rivs.iv[k] : NULL,
			     fwd) != 0)
		return;
	nb_out_interval_dir(&app->out, &app->result, &m,
			    fwd ? "forward" : "reverse",
			    fwd ? "" : rev_tag(pr));
	nb_interval_release(&m);
}

/* Client: every interval both ends have, but the test's last (held for
 * the end totals). */
static void
show_whole(struct nb_peer *pr)
{
	const struct nb_app *app = pr->app;

	while (pr->iv_shown < app->result.nb_intervals &&
	       pr->iv_shown < pr->rivs.complete &&
	       pr->iv_shown + 1 != app->last_interval_held) {
		if (has_fwd(pr))
			show(pr, pr->iv_shown, 1);
		if (has_rev(pr))
			show(pr, pr->iv_shown, 0);
		pr->iv_shown++;
	}
}

void
nb_peer_iv_io_sample(struct nb_peer *pr)
{
	if (pr->sampling && pr->test_ready && !pr->sampler.done &&
	    rte_get_tsc_cycles() >= pr->sampler.tick)
		nb_sampler_step(&pr->sampler, pr->app, 0);
}

void
nb_peer_iv_io_tick(struct nb_peer *pr)
{
	if (!pr->sampling)
		return;
	nb_peer_iv_io_sample(pr);
	if (pr->client)
		show_whole(pr);
	else
		send_parts(pr, 0);
}

void
nb_peer_iv_io_flush(struct nb_peer *pr)
{
	if (pr->sampling && !pr->client)
		send_parts(pr, 1);
}

void
nb_peer_iv_io_put(struct nb_peer *pr, const struct nb_ctl_interval *v)
{
	int ret;

	/* no more than the test has had (a responder cannot make us keep
	 * intervals without end); its clock may run a little ahead */
	if (!pr->sampling || v->index > pr->app->result.nb_intervals + 2) {
		pr->rivs.refused++;
		return;
	}
	ret = nb_peer_ivs_put(&pr->rivs, v);
	if (ret < 0)
		NB_LOG(DEBUG,
		       "INTERVAL %u (streams from %u) not the part expected: "
		       "ignored",
		       v->index, v->first);
}

/* Each of our intervals joined into one direction's result, closed. */
static void
collect(struct nb_peer *pr, struct nb_result *res, int fwd)
{
	const struct nb_result *own = &pr->app->result;
	struct nb_interval m;
	uint32_t k;

	for (k = 0; k < own->nb_intervals; k++) {
		if (nb_peer_iv_merge(&m, &own->intervals[k],
				     k < pr->rivs.complete ? &pr->rivs.iv[k]
							   : NULL,
				     fwd) != 0)
			return;
		nb_result_add_interval(res, &m);
		nb_interval_release(&m);
	}
	nb_result_close_intervals(res);
}

void
nb_peer_iv_io_finish(struct nb_peer *pr, struct nb_result *fwd,
		     struct nb_result *rev)
{
	struct nb_app *app = pr->app;
	uint32_t k, n = 0;

	if (!pr->sampling)
		return;
	if (pr->rivs.refused)
		NB_LOG(NOTICE,
		       "%" PRIu64 " INTERVAL messages from the responder did "
		       "not fit (ignored)",
		       pr->rivs.refused);
	if (fwd != NULL) {
		collect(pr, fwd, 1);
		n = fwd->nb_intervals;
	}
	if (rev != NULL) {
		collect(pr, rev, 0);
		n = rev->nb_intervals > n ? rev->nb_intervals : n;
	}
	for (k = pr->iv_shown; k < n; k++) {
		if (fwd != NULL && k < fwd->nb_intervals)
			nb_out_interval_dir(&app->out, fwd, &fwd->intervals[k],
					    "forward", "");
		if (rev != NULL && k < rev->nb_intervals)
			nb_out_interval_dir(&app->out, rev, &rev->intervals[k],
					    "reverse", rev_tag(pr));
	}
	pr->iv_shown = n;
}

void
nb_peer_iv_io_free(struct nb_peer *pr)
{
	if (pr->sampling)
		nb_sampler_free(&pr->sampler);
	pr->sampling = 0;
	if (pr->client)
		nb_peer_ivs_free(&pr->rivs);
}
