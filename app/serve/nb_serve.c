/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --serve's runner, on the main lcore (tests launch from there): the ports
 * set up once, the API thread started, then each job is one loopback test
 * on those ports, its output going to the run's event log (JSON lines) and
 * its document kept for the answer.  Between jobs it sleeps on the
 * condition variable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "nb_clock.h"
#include "nb_log.h"
#include "nb_loopback.h"
#include "nb_phase.h"
#include "nb_run.h"
#include "nb_serve.h"
#include "nb_serve_int.h"
#include "nb_setup.h"

/* The run's output stream: what it writes becomes events (fopencookie). */
static ssize_t
ev_write(void *arg, const char *buf, size_t n)
{
	struct nb_srv *s = arg;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = nb_api_events_write(&s->ev, buf, n);
	pthread_mutex_unlock(&s->lock);
	nb_srv_wake(s);
	if (ret != 0) {
		errno = -ret;
		return -1;
	}
	return (ssize_t)n;
}

/* One job: the test with the run's options on the ports set up. */
static void
run_job(struct nb_srv *s, uint64_t id)
{
	static const cookie_io_functions_t io = {.write = ev_write};
	struct nb_app *app = s->app;
	json_t *doc = NULL;
	FILE *f;
	int code;

	app->cfg.json = 0;
	app->cfg.csv = 0;
	app->cfg.json_stream = 1;
	app->cookie[0] = '\0';
	app->errmsg[0] = '\0';
	app->emitted = 0;
	f = fopencookie(s, "w", io);
	if (f == NULL) {
		code = 1;
		snprintf(app->errmsg, sizeof(app->errmsg),
			 "no output stream: %s", strerror(errno));
	} else {
		nb_output_init(&app->out, &app->cfg, f, 0);
		app->out.keep = &doc;
		NB_LOG(NOTICE, "serve: run %llu starts",
		       (unsigned long long)id);
		app->state = "testing";
		code = nb_loopback_test(app);
		app->state = "serving";
		fclose(f);
	}
	nb_run_free(app);
	nb_result_free(&app->result);
	memset(&app->result, 0, sizeof(app->result));
	NB_LOG(NOTICE, "serve: run %llu ended: exit code %d%s%s",
	       (unsigned long long)id, code, app->errmsg[0] ? ": " : "",
	       app->errmsg);
	pthread_mutex_lock(&s->lock);
	/* the stop method's interruption ends with the run (under the lock:
	 * stop sets it only while the run is RUNNING); a signal's does not */
	if (nb_phase_signal() == 0)
		nb_force_quit = 0;
	json_decref(s->doc);
	s->doc = doc;
	s->exit_code = code;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s",
		 app->errmsg[0] ? app->errmsg
				: "the test could not run (see the server's "
				  "log)");
	s->state = NB_SRV_DONE;
	s->ended = nb_clock_mono_s();
	s->stop = 0;
	pthread_mutex_unlock(&s->lock);
	nb_srv_wake(s);
}

/* Jobs until shutdown or a signal. */
static void
serve_loop(struct nb_srv *s)
{
	for (;;) {
		struct timespec ts;
		uint64_t id;

		pthread_mutex_lock(&s->lock);
		while (!s->job && !s->shutdown && nb_phase_signal() == 0) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 200000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		}
		if (!s->job) {
			pthread_mutex_unlock(&s->lock);
			return;
		}
		s->app->cfg = s->job_cfg;
		s->job = 0;
		id = s->run_id;
		pthread_mutex_unlock(&s->lock);
		run_job(s, id);
	}
}

int
nb_serve_main(struct nb_app *app, const struct nb_config *base)
{
	static struct nb_srv s;
	struct nb_config setup = app->cfg;
	char err[512];
	int code = 0;

	s.app = app;
	s.base = base;
	s.setup = &setup;
	s.listen_fd = -1;
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
	s.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s.wake_fd < 0) {
		nb_app_error(app, "--serve: no eventfd: %s", strerror(errno));
		return 1;
	}
	/* the socket first: a path in use fails before the ports start */
	if (nb_srv_api_open(&s, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err);
		close(s.wake_fd);
		return 1;
	}
	if (nb_loopback_setup(app) != 0) {
		code = 1;
		goto out;
	}
	nb_setup_lcore_map(app, app->result.lcore_map,
			   sizeof(app->result.lcore_map));
	s.ports = nb_setup_ports_json(app, 1);
	if (nb_srv_api_start(&s, err, sizeof(err)) != 0) {
		nb_app_error(app, "%s", err);
		code = 1;
		goto out;
	}
	app->state = "serving";
	NB_LOG(NOTICE, "serve: API %d.%d on %s, %u port%s ready", NB_API_MAJOR,
	       NB_API_MINOR, s.where, app->nb_ports,
	       app->nb_ports == 1 ? "" : "s");
	serve_loop(&s);
	NB_LOG(NOTICE, "serve: %s after %llu run%s",
	       s.shutdown ? "shutdown asked for" : "signalled",
	       (unsigned long long)s.run_id, s.run_id == 1 ? "" : "s");
	/* the runs' configs differ: the server's own is the one to end on */
	app->cfg = setup;
out:
	nb_srv_api_stop(&s);
	json_decref(s.ports);
	json_decref(s.doc);
	nb_api_events_clear(&s.ev);
	close(s.wake_fd);
	return code;
}
