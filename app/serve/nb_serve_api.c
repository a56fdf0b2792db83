/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --serve's API thread: the socket (Unix, mode 0600, or TCP with a key
 * proof), its connections, and the methods (docs/api.md).  A poll loop,
 * non-blocking sockets: a slow or stuck client holds up no other, and a
 * run's waiters are answered when the runner says it ended.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_version.h>

#include "nb_clock.h"
#include "nb_log.h"
#include "nb_serve_int.h"
#include "nb_version.h"

void
nb_srv_wake(struct nb_srv *s)
{
	uint64_t one = 1;

	if (write(s->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		NB_LOG(DEBUG, "serve: wake: %s", strerror(errno));
}

void
nb_srv_send(struct nb_conn *c, char *line)
{
	size_t n;

	if (line == NULL)
		return;
	n = strlen(line);
	if (c->out_len + n > NB_SRV_MAX_OUT) {
		NB_LOG(NOTICE, "serve: a client that does not read: closed");
		c->closing = 1;
		c->out_len = 0;
		free(line);
		return;
	}
	if (c->out_len + n > c->out_cap) {
		size_t cap = c->out_cap ? c->out_cap : 4096;
		char *p;

		while (cap < c->out_len + n)
			cap *= 2;
		p = realloc(c->out, cap);
		if (p == NULL) {
			c->closing = 1;
			free(line);
			return;
		}
		c->out = p;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, line, n);
	c->out_len += n;
	free(line);
}

static void
answer_error(struct nb_conn *c, json_t *id, int code, const char *msg)
{
	nb_srv_send(c, nb_api_error(id, code, msg));
}

/* A finished run's answer: its document, or why there is none. */
static void
answer_run(struct nb_srv *s, struct nb_conn *c, json_t *id)
{
	if (s->doc != NULL)
		nb_srv_send(c, nb_api_result(id, json_incref(s->doc)));
	else
		answer_error(c, id,
			     s->exit_code == 2 ? NB_API_PARAMS : NB_API_FAILED,
			     s->errmsg);
}

/* Events of the run not sent yet, as "event" notifications; the answer
 * once it ended and all went.  Under the lock. */
static void
follow(struct nb_srv *s, struct nb_conn *c)
{
	if (s->run_id != c->wait_run) { /* a newer run cleared them */
		answer_error(c, c->wait_id, NB_API_GONE,
			     "the run's events are gone (a newer run "
			     "started)");
		goto done;
	}
	if (c->next_ev < s->ev.first) {
		answer_error(c, c->wait_id, NB_API_GONE,
			     "events before the kept ones were asked for");
		goto done;
	}
	while (c->next_ev < s->ev.next && !c->closing) {
		json_t *e = nb_api_events_get(&s->ev, c->next_ev);

		if (e != NULL)
			nb_srv_send(
				c,
				nb_api_notify(
					"event",
					json_pack("{s:I,s:I,s:O,s:O}", "run",
						  (json_int_t)c->wait_run,
						  "index",
						  (json_int_t)c->next_ev,
						  "event",
						  json_object_get(e, "event"),
						  "data",
						  json_object_get(e, "data"))));
		json_decref(e);
		c->next_ev++;
	}
	if (s->state != NB_SRV_DONE)
		return;
	nb_srv_send(c,
		    nb_api_result(c->wait_id,
				  json_pack("{s:I,s:I}", "run",
					    (json_int_t)c->wait_run, "events",
					    (json_int_t)s->ev.next)));
done:
	json_decref(c->wait_id);
	c->wait_id = NULL;
	c->wait = NB_W_NONE;
}

/* Every waiter whose run moved on.  Under the lock. */
void
nb_srv_service_waiters(struct nb_srv *s)
{
	int i;

	for (i = 0; i < NB_SRV_CONNS; i++) {
		struct nb_conn *c = &s->conns[i];

		if (c->fd < 0 || c->wait == NB_W_NONE)
			continue;
		if (c->wait == NB_W_FOLLOW) {
			follow(s, c);
		} else if (s->state == NB_SRV_DONE &&
			   s->run_id == c->wait_run) {
			answer_run(s, c, c->wait_id);
			json_decref(c->wait_id);
			c->wait_id = NULL;
			c->wait = NB_W_NONE;
		}
	}
}

static json_t *
status_json(const struct nb_srv *s)
{
	static const char *const names[] = {"idle", "running", "done"};
	double now = nb_clock_mono_s();
	json_t *o =
		json_pack("{s:s,s:I,s:I,s:b}", "state", names[s->state], "run",
			  (json_int_t)s->run_id, "events",
			  (json_int_t)s->ev.next, "shutting_down", s->shutdown);

	if (s->state != NB_SRV_IDLE)
		json_object_set_new(
			o, "elapsed_s",
			json_real((s->state == NB_SRV_DONE ? s->ended : now) -
				  s->started));
	if (s->state == NB_SRV_DONE)
		json_object_set_new(o, "exit_code", json_integer(s->exit_code));
	return o;
}

/* run and start: checked as the CLI checks, then handed to the runner. */
static void
m_run(struct nb_srv *s, struct nb_conn *c, json_t *id, json_t *params, int wait)
{
	static struct nb_config cfg; /* this thread's only */
	json_t *none = json_object();
	char err[1024];
	int ret;

	ret = nb_api_options(&cfg, s->base, params ? params : none, err,
			     sizeof(err));
	json_decref(none);
	if (ret == 0)
		ret = nb_api_same_setup(s->setup, &cfg, err, sizeof(err));
	if (ret != 0) {
		answer_error(c, id, ret, err);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (s->shutdown) {
		answer_error(c, id, NB_API_SHUTDOWN,
			     "the server is shutting "
			     "down");
	} else if (s->state == NB_SRV_RUNNING) {
		snprintf(err, sizeof(err),
			 "busy: run %llu is in progress (%.1f s so far); one "
			 "test at a time: stop it or wait for it",
			 (unsigned long long)s->run_id,
			 nb_clock_mono_s() - s->started);
		answer_error(c, id, NB_API_BUSY, err);
	} else {
		nb_srv_service_waiters(s); /* the last run's, before it goes */
		s->job_cfg = cfg;
		s->job = 1;
		s->run_id++;
		s->state = NB_SRV_RUNNING;
		s->started = nb_clock_mono_s();
		json_decref(s->doc);
		s->doc = NULL;
		nb_api_events_clear(&s->ev);
		pthread_cond_signal(&s->cond);
		if (wait) {
			c->wait = NB_W_RESULT;
			c->wait_id = json_incref(id ? id : json_null());
			c->wait_run = s->run_id;
		} else {
			nb_srv_send(
				c,
				nb_api_result(
					id, json_pack("{s:I}", "run",
						      (json_int_t)s->run_id)));
		}
	}
	pthread_mutex_unlock(&s->lock);
}

static void
m_stop(struct nb_srv *s, struct nb_conn *c, json_t *id)
{
	pthread_mutex_lock(&s->lock);
	if (s->state != NB_SRV_RUNNING) {
		answer_error(c, id, NB_API_IDLE,
			     "no test runs: nothing to stop");
	} else {
		s->stop = 1;
		nb_force_quit = 1; /* the run ends as at SIGINT, no signal */
		c->wait = NB_W_RESULT;
		c->wait_id = json_incref(id ? id : json_null());
		c->wait_run = s->run_id;
	}
	pthread_mutex_unlock(&s->lock);
}

/* result: the last run's document (waits while it runs if "wait"). */
static void
m_result(struct nb_srv *s, struct nb_conn *c, json_t *id, json_t *params)
{
	json_t *w = params ? json_object_get(params, "wait") : NULL;

	pthread_mutex_lock(&s->lock);
	if (s->state == NB_SRV_IDLE)
		answer_error(c, id, NB_API_IDLE, "no run yet");
	else if (s->state == NB_SRV_DONE)
		answer_run(s, c, id);
	else if (json_is_true(w)) {
		c->wait = NB_W_RESULT;
		c->wait_id = json_incref(id ? id : json_null());
		c->wait_run = s->run_id;
	} else
		answer_error(c, id, NB_API_BUSY,
			     "the run is in progress (give \"wait\": true to "
			     "wait for its end)");
	pthread_mutex_unlock(&s->lock);
}

/* intervals: the run's events from "from", followed until its end. */
static void
m_intervals(struct nb_srv *s, struct nb_conn *c, json_t *id, json_t *params)
{
	json_t *from = params ? json_object_get(params, "from") : NULL;
	json_int_t k = from ? json_integer_value(from) : 0;

	if ((from != NULL && !json_is_integer(from)) || k < 0) {
		answer_error(c, id, NB_API_PARAMS,
			     "\"from\" is an event index >= 0");
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (s->state == NB_SRV_IDLE) {
		answer_error(c, id, NB_API_IDLE, "no run yet");
	} else {
		c->wait = NB_W_FOLLOW;
		c->wait_id = json_incref(id ? id : json_null());
		c->wait_run = s->run_id;
		c->next_ev = (uint64_t)k;
		follow(s, c);
	}
	pthread_mutex_unlock(&s->lock);
}

/* shutdown: a running test stopped, the runner told; answered now */
static void
m_shutdown(struct nb_srv *s, struct nb_conn *c, json_t *id)
{
	pthread_mutex_lock(&s->lock);
	s->shutdown = 1;
	if (s->state == NB_SRV_RUNNING)
		nb_force_quit = 1;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	nb_srv_send(c,
		    nb_api_result(id, json_pack("{s:b}", "shutting_down", 1)));
}

static json_t *
version_json(void)
{
	char v[16];

	snprintf(v, sizeof(v), "%d.%d", NB_API_MAJOR, NB_API_MINOR);
	return json_pack("{s:s,s:s,s:s,s:s}", "api_version", v, "tool",
			 "dpdk-nbench", "version", NB_VERSION, "dpdk",
			 rte_version());
}

/* auth: the proof of the key over this connection's nonce. */
static void
m_auth(struct nb_srv *s, struct nb_conn *c, json_t *id, json_t *params)
{
	const struct nb_config *k = s->setup;
	json_t *p = params ? json_object_get(params, "proof") : NULL;

	if (k->psk_len == 0) {
		c->authed = 1;
		nb_srv_send(c, nb_api_result(id, json_pack("{s:b}", "ok", 1)));
		return;
	}
	if (!nb_api_proof_ok(k->psk, k->psk_len, c->nonce, sizeof(c->nonce),
			     json_string_value(p))) {
		NB_LOG(NOTICE, "serve: a client with a wrong key proof: "
			       "closed");
		answer_error(c, id, NB_API_AUTH,
			     "wrong key proof: HMAC-SHA256(key, \"nbench-api\" "
			     "| nonce) in hex was expected");
		c->closing = 1;
		return;
	}
	c->authed = 1;
	nb_srv_send(c, nb_api_result(id, json_pack("{s:b}", "ok", 1)));
}

void
nb_srv_dispatch(struct nb_srv *s, struct nb_conn *c, const char *line, size_t n)
{
	struct nb_api_req rq;
	json_t *root = NULL, *id;
	char err[512];
	int ret;

	ret = nb_api_parse(line, n, &root, &rq, err, sizeof(err));
	id = json_is_object(root) ? json_object_get(root, "id") : NULL;
	if (ret != 0) {
		answer_error(c, id, ret, err);
		goto out;
	}
	if (rq.client_version != NULL &&
	    (ret = nb_api_version_check(rq.client_version, err, sizeof(err))) !=
		    0) {
		answer_error(c, id, ret, err);
		goto out;
	}
	if (strcmp(rq.method, "auth") == 0) {
		m_auth(s, c, id, rq.params);
		goto out;
	}
	if (!c->authed) {
		answer_error(c, id, NB_API_AUTH,
			     "prove the key first (method auth: see the "
			     "hello notification's nonce)");
		goto out;
	}
	if (c->wait != NB_W_NONE) {
		answer_error(c, id, NB_API_BUSY,
			     "this connection waits for an answer already: "
			     "one request in flight per waiting connection "
			     "(open another)");
		goto out;
	}
	if (strcmp(rq.method, "version") == 0)
		nb_srv_send(c, nb_api_result(id, version_json()));
	else if (strcmp(rq.method, "ports") == 0)
		nb_srv_send(c, nb_api_result(id, json_incref(s->ports)));
	else if (strcmp(rq.method, "run") == 0 ||
		 strcmp(rq.method, "start") == 0)
		m_run(s, c, id, rq.params, rq.method[0] == 'r');
	else if (strcmp(rq.method, "suite") == 0 &&
		 json_object_get(rq.params, "test") == NULL)
		answer_error(
			c, id, NB_API_PARAMS,
			"suite needs \"test\": throughput, latency, "
			"loss, back-to-back (RFC 2544) or an RFC 2889 test, "
			"as --test takes them");
	else if (strcmp(rq.method, "suite") == 0)
		m_run(s, c, id, rq.params, 1);
	else if (strcmp(rq.method, "stop") == 0)
		m_stop(s, c, id);
	else if (strcmp(rq.method, "status") == 0) {
		pthread_mutex_lock(&s->lock);
		nb_srv_send(c, nb_api_result(id, status_json(s)));
		pthread_mutex_unlock(&s->lock);
	} else if (strcmp(rq.method, "result") == 0)
		m_result(s, c, id, rq.params);
	else if (strcmp(rq.method, "intervals") == 0)
		m_intervals(s, c, id, rq.params);
	else if (strcmp(rq.method, "shutdown") == 0)
		m_shutdown(s, c, id);
	else {
		snprintf(err, sizeof(err),
			 "no method '%.64s' (version, ports, run, suite, "
			 "start, status, stop, result, intervals, shutdown, "
			 "auth)",
			 rq.method);
		answer_error(c, id, NB_API_NO_METHOD, err);
	}
out:
	json_decref(root);
}
