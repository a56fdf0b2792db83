/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --serve's socket and the API thread's poll loop: a Unix socket (mode
 * 0600, a stale one from a dead server replaced, a live one refused) or
 * TCP on the kernel's stack; every client is greeted with a hello line
 * (API version, and the nonce its key proof covers when there is a key),
 * read into whole lines, written as it reads.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "nb_auth.h"
#include "nb_eal_args.h"
#include "nb_log.h"
#include "nb_serve_int.h"

/* A Unix socket at path: another server's (live) refused, a dead one's
 * removed, the directory made (0700) if missing. */
static int
open_unix(struct nb_srv *s, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char dir[sizeof(a.sun_path)], *slash;
	struct stat st;
	mode_t old;
	int fd, ret;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	snprintf(s->where, sizeof(s->where), "unix:%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash != NULL && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "--api %s: cannot make %s: %s",
				 s->where, dir, strerror(errno));
			return -1;
		}
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen,
				 "--api %s: the path exists and is not a "
				 "socket",
				 s->where);
			return -1;
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ret = fd < 0 ? -1
			     : connect(fd, (struct sockaddr *)&a, sizeof(a));
		if (fd >= 0)
			close(fd);
		if (ret == 0) {
			snprintf(err, errlen,
				 "--api %s: the socket is in use: another "
				 "--serve listens there (give this one "
				 "--api unix:ANOTHER_PATH)",
				 s->where);
			return -1;
		}
		unlink(path); /* a dead server's */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--api %s: %s", s->where,
			 strerror(errno));
		return -1;
	}
	old = umask(0177); /* born 0600: no window for another user */
	ret = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (ret != 0 || listen(fd, 16) != 0) {
		snprintf(err, errlen, "--api %s: %s", s->where,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int
open_tcp(struct nb_srv *s, uint32_t ip, uint16_t port, char *err, size_t errlen)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	int fd, one = 1;
	char ips[INET_ADDRSTRLEN];

	a.sin_addr.s_addr = htonl(ip);
	a.sin_port = htons(port);
	inet_ntop(AF_INET, &a.sin_addr, ips, sizeof(ips));
	snprintf(s->where, sizeof(s->where), "tcp:%s:%u", ips, port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fd, 16) != 0) {
		snprintf(err, errlen, "--api %s: %s%s", s->where,
			 strerror(errno),
			 errno == EADDRINUSE ? " (another server listens "
					       "there)"
					     : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int
nb_srv_api_open(struct nb_srv *s, char *err, size_t errlen)
{
	const struct nb_config *c = s->setup;
	char path[300];
	int i;

	for (i = 0; i < NB_SRV_CONNS; i++)
		s->conns[i].fd = -1;
	if (c->api_port != 0) {
		s->listen_fd = open_tcp(s, c->api_ip, c->api_port, err, errlen);
	} else {
		if (c->api_path[0])
			snprintf(path, sizeof(path), "%s", c->api_path);
		else
			snprintf(path, sizeof(path), "/run/dpdk-nbench/%s.sock",
				 nb_eal_args()->file_prefix);
		if (strlen(path) >=
		    sizeof(((struct sockaddr_un *)0)->sun_path)) {
			snprintf(
				err, errlen,
				"--serve: the socket path %s is too long: give "
				"--api unix:PATH",
				path);
			return -1;
		}
		s->listen_fd = open_unix(s, path, err, errlen);
	}
	return s->listen_fd < 0 ? -1 : 0;
}

static void
conn_close(struct nb_conn *c)
{
	close(c->fd);
	nb_api_in_free(&c->in);
	free(c->out);
	json_decref(c->wait_id);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* A new client: a free slot and its hello, or a refusal line. */
static void
accept_one(struct nb_srv *s)
{
	const struct nb_config *k = s->setup;
	struct nb_conn *c = NULL;
	char nonce[33], v[16];
	int fd, i;

	fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < NB_SRV_CONNS && c == NULL; i++)
		if (s->conns[i].fd < 0)
			c = &s->conns[i];
	if (c == NULL) {
		static const char full[] =
			"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
			"-32002,\"message\":\"too many clients (64)\"}}\n";

		if (write(fd, full, sizeof(full) - 1) < 0)
			NB_LOG(DEBUG, "serve: refusal not written");
		close(fd);
		return;
	}
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->authed = k->psk_len == 0;
	if (nb_auth_random(c->nonce, sizeof(c->nonce)) != 0) {
		conn_close(c);
		return;
	}
	for (i = 0; i < 16; i++)
		snprintf(nonce + 2 * i, 3, "%02x", c->nonce[i]);
	snprintf(v, sizeof(v), "%d.%d", NB_API_MAJOR, NB_API_MINOR);
	nb_srv_send(c,
		    nb_api_notify("hello",
				  json_pack("{s:s,s:s,s:s}", "api_version", v,
					    "auth",
					    k->psk_len ? "hmac-sha256" : "none",
					    "nonce", nonce)));
}

/* What c sent: whole lines dispatched; 0, or -1 to close it. */
static int
read_conn(struct nb_srv *s, struct nb_conn *c)
{
	char buf[65536];
	const char *line;
	size_t n;
	ssize_t r;
	int ret;

	r = read(c->fd, buf, sizeof(buf));
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
		return -1;
	if (r < 0)
		return 0;
	if (nb_api_in_add(&c->in, buf, (size_t)r) != 0)
		return -1;
	while (!c->closing && (ret = nb_api_in_line(&c->in, &line, &n)) != 0) {
		if (ret == NB_API_TOO_LARGE) {
			nb_srv_send(c, nb_api_error(NULL, NB_API_TOO_LARGE,
						    "request over 1 MiB: "
						    "refused (its bytes up to "
						    "the next newline are "
						    "skipped)"));
			continue;
		}
		if (n > 0)
			nb_srv_dispatch(s, c, line, n);
	}
	return 0;
}

/* What is owed to c, as much as it takes: 0, or -1 to close it. */
static int
write_conn(struct nb_conn *c)
{
	ssize_t w;

	if (c->out_len == 0)
		return c->closing ? -1 : 0;
	w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
	if (w < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	memmove(c->out, c->out + w, c->out_len - (size_t)w);
	c->out_len -= (size_t)w;
	return c->out_len == 0 && c->closing ? -1 : 0;
}

static void *
api_main(void *arg)
{
	struct nb_srv *s = arg;
	struct pollfd pf[NB_SRV_CONNS + 2];
	int map[NB_SRV_CONNS + 2];

	for (;;) {
		int n = 0, i, quit;
		uint64_t v;

		pthread_mutex_lock(&s->lock);
		quit = s->quit;
		nb_srv_service_waiters(s);
		pthread_mutex_unlock(&s->lock);
		pf[n].fd = s->wake_fd;
		pf[n++].events = POLLIN;
		if (!quit) {
			pf[n].fd = s->listen_fd;
			pf[n++].events = POLLIN;
		}
		for (i = 0; i < NB_SRV_CONNS; i++) {
			struct nb_conn *c = &s->conns[i];

			if (c->fd < 0)
				continue;
			if (write_conn(c) != 0 || (quit && c->out_len == 0)) {
				conn_close(c);
				continue;
			}
			map[n] = i;
			pf[n].fd = c->fd;
			pf[n++].events = (short)((quit ? 0 : POLLIN) |
						 (c->out_len ? POLLOUT : 0));
		}
		if (quit && n == 1)
			return NULL;
		if (poll(pf, (nfds_t)n, quit ? 100 : 1000) < 0 &&
		    errno != EINTR)
			return NULL;
		if (pf[0].revents & POLLIN)
			while (read(s->wake_fd, &v, sizeof(v)) > 0)
				;
		if (quit) {
			static int rounds;

			if (++rounds > 20) /* 2 s for the last answers */
				break;
			continue;
		}
		if (pf[1].revents & POLLIN)
			accept_one(s);
		for (i = 2; i < n; i++) {
			struct nb_conn *c = &s->conns[map[i]];

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (read_conn(s, c) != 0)
				conn_close(c);
		}
	}
	for (int i = 0; i < NB_SRV_CONNS; i++)
		if (s->conns[i].fd >= 0)
			conn_close(&s->conns[i]);
	return NULL;
}

int
nb_srv_api_start(struct nb_srv *s, char *err, size_t errlen)
{
	int ret =
		rte_ctrl_thread_create(&s->thread, "nb-api", NULL, api_main, s);

	if (ret != 0) {
		snprintf(err, errlen, "--serve: no API thread: %s",
			 strerror(ret < 0 ? -ret : ret));
		return -1;
	}
	s->thread_up = 1;
	return 0;
}

void
nb_srv_api_stop(struct nb_srv *s)
{
	pthread_mutex_lock(&s->lock);
	s->quit = 1;
	pthread_mutex_unlock(&s->lock);
	nb_srv_wake(s);
	if (s->thread_up)
		pthread_join(s->thread, NULL);
	s->thread_up = 0;
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		if (strncmp(s->where, "unix:", 5) == 0)
			unlink(s->where + 5);
	}
	s->listen_fd = -1;
}
