/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the --serve runner (the main lcore: it launches the tests) and the
 * API thread (sockets, requests; control plane, never an lcore) share,
 * under lock.  The runner waits for a job; the API thread posts it, hears
 * of its end through wake_fd, and answers whoever waits for it.
 */
#ifndef NB_SERVE_INT_H
#define NB_SERVE_INT_H

#include <pthread.h>
#include <stdint.h>

#include <jansson.h>

#include "nb_api.h"
#include "nb_app.h"

enum nb_srv_state { NB_SRV_IDLE, NB_SRV_RUNNING, NB_SRV_DONE };

#define NB_SRV_CONNS 64 /* clients at once */
#define NB_SRV_MAX_OUT                                                         \
	(16u << 20) /* bytes owed to a client that reads                       \
		     * not: it is closed */

/* What a connection waits for: a run's end, or its events as they come */
enum nb_wait_kind { NB_W_NONE, NB_W_RESULT, NB_W_FOLLOW };

/* One API client (the API thread's only). */
struct nb_conn {
	int fd; /* -1: a free slot */
	struct nb_api_inbuf in;
	char *out; /* owed to it, written as it reads */
	size_t out_len, out_cap;
	int authed;
	int closing; /* close once out is written */
	uint8_t nonce[16];
	enum nb_wait_kind wait;
	json_t *wait_id; /* the request's id, to answer */
	uint64_t wait_run;
	uint64_t next_ev; /* NB_W_FOLLOW: the next event to send */
};

struct nb_srv {
	struct nb_app *app;
	const struct nb_config *base;  /* parsed, unchecked: runs' defaults */
	const struct nb_config *setup; /* the ports' config (checked) */
	json_t *ports;		       /* the ports method's answer */
	int listen_fd;
	int wake_fd;	 /* eventfd: the API thread's poll wakes on it */
	char where[160]; /* unix:PATH or tcp:IP:PORT, for messages */
	pthread_t thread;
	int thread_up;
	struct nb_conn conns[NB_SRV_CONNS];

	pthread_mutex_t lock; /* everything below */
	pthread_cond_t cond;  /* the runner waits for a job */
	int job;	      /* a run's config is in job_cfg */
	struct nb_config job_cfg;
	uint64_t run_id; /* the current or last run (from 1) */
	enum nb_srv_state state;
	double started; /* its start, CLOCK_MONOTONIC seconds */
	double ended;
	struct nb_api_events ev; /* its JSON-lines events */
	json_t *doc;		 /* its document, once done */
	int exit_code;
	char errmsg[1024]; /* why it failed, when it has no document */
	int stop;	   /* stop asked for (the stop or shutdown method) */
	int shutdown;	   /* the shutdown method came */
	int quit;	   /* the runner is done: the API thread ends */
};

/* The API thread: started once the socket listens; ends at quit. */
int nb_srv_api_open(struct nb_srv *s, char *err, size_t errlen);
int nb_srv_api_start(struct nb_srv *s, char *err, size_t errlen);
void nb_srv_api_stop(struct nb_srv *s);

/* The methods (nb_serve_api.c): one request line of c's; every waiter
 * whose run moved on answered (under the lock); a line owed to c. */
void nb_srv_dispatch(struct nb_srv *s, struct nb_conn *c, const char *line,
		     size_t n);
void nb_srv_service_waiters(struct nb_srv *s);
void nb_srv_send(struct nb_conn *c, char *line);

/* Wake the API thread (a run ended, an event came). */
void nb_srv_wake(struct nb_srv *s);

#endif /* NB_SERVE_INT_H */
