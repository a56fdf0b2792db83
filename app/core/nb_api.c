/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --serve API's requests and answers (JSON-RPC 2.0, a line each), a
 * run's options through the CLI's own parser and checks, and the fit of a
 * run to the server's ports.  See nb_api.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_api.h"
#include "nb_auth.h"
#include "nb_options.h"

#define JSON_LINE (JSON_COMPACT | JSON_REAL_PRECISION(17))

int
nb_api_parse(const char *line, size_t n, json_t **root, struct nb_api_req *rq,
	     char *err, size_t errlen)
{
	json_error_t je;
	json_t *v, *m;

	memset(rq, 0, sizeof(*rq));
	*root = json_loadb(line, n, JSON_REJECT_DUPLICATES, &je);
	if (*root == NULL) {
		snprintf(err, errlen, "malformed JSON at byte %d: %s",
			 je.position, je.text);
		return NB_API_PARSE;
	}
	if (!json_is_object(*root)) {
		snprintf(err, errlen, "a request is a JSON object");
		return NB_API_INVALID;
	}
	v = json_object_get(*root, "id");
	if (v != NULL && !json_is_integer(v) && !json_is_string(v) &&
	    !json_is_null(v)) {
		snprintf(err, errlen, "\"id\" is a number or a string");
		return NB_API_INVALID;
	}
	rq->id = v;
	v = json_object_get(*root, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0) {
		snprintf(err, errlen, "\"jsonrpc\": \"2.0\" is missing");
		return NB_API_INVALID;
	}
	m = json_object_get(*root, "method");
	if (!json_is_string(m)) {
		snprintf(err, errlen, "\"method\" is missing or not a string");
		return NB_API_INVALID;
	}
	rq->method = json_string_value(m);
	v = json_object_get(*root, "params");
	if (v != NULL && !json_is_object(v)) {
		snprintf(err, errlen, "\"params\" is an object (by name)");
		return NB_API_INVALID;
	}
	rq->params = v;
	v = json_object_get(*root, "nbench_api");
	if (v != NULL && !json_is_string(v)) {
		snprintf(err, errlen,
			 "\"nbench_api\" is a string, MAJOR.MINOR");
		return NB_API_INVALID;
	}
	rq->client_version = v ? json_string_value(v) : NULL;
	return 0;
}

static char *
line_of(json_t *o)
{
	char *s = json_dumps(o, JSON_LINE), *l;
	size_t n;

	json_decref(o);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	l = realloc(s, n + 2);
	if (l == NULL) {
		free(s);
		return NULL;
	}
	l[n] = '\n';
	l[n + 1] = '\0';
	return l;
}

char *
nb_api_result(json_t *id, json_t *result)
{
	return line_of(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id",
				 id ? id : json_null(), "result",
				 result ? result : json_null()));
}

char *
nb_api_error(json_t *id, int code, const char *msg)
{
	return line_of(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0",
				 "id", id ? id : json_null(), "error", "code",
				 code, "message", msg));
}

char *
nb_api_notify(const char *method, json_t *params)
{
	return line_of(json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method",
				 method, "params", params));
}

int
nb_api_version_check(const char *client, char *err, size_t errlen)
{
	unsigned int major, minor;
	char end;

	if (sscanf(client, "%u.%u%c", &major, &minor, &end) != 2) {
		snprintf(err, errlen,
			 "API version '%s' is not MAJOR.MINOR (this server "
			 "speaks %d.%d)",
			 client, NB_API_MAJOR, NB_API_MINOR);
		return NB_API_VERSION;
	}
	if (major != NB_API_MAJOR) {
		snprintf(err, errlen,
			 "API version mismatch: the client speaks %u.%u, this "
			 "server %d.%d (major versions differ: use a client "
			 "of API %d.x)",
			 major, minor, NB_API_MAJOR, NB_API_MINOR,
			 NB_API_MAJOR);
		return NB_API_VERSION;
	}
	return 0;
}

/* a | b, or a | b | "=" | c: a new string (NULL: no memory) */
static char *
dup_word(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) + 1 : 0) + 1;
	char *s = malloc(n);

	if (s != NULL)
		snprintf(s, n, "%s%s%s%s", a, b, c ? "=" : "", c ? c : "");
	return s;
}

#define MAX_WORDS 256

/* Options a run cannot give: the server's own, the CLI's, and every one
 * that names a file (an API client reads or writes no path of the
 * server's host). */
static const char *const not_in_run[] = {
	"help",	     "version", "config",      "serve",
	"api",	     "metrics", "list-ports",  "logfile",
	"json-file", "json",	"json-stream", "csv",
	"capture",   "replay",	"per-flow",    "auth-key",
};

/* One option as the CLI's words: "--name" for true, else "--name" and
 * its value ("--name=value" for a flag, which takes none: the CLI's
 * message says so).  The words appended to argv; 0, or NB_API_PARAMS. */
static int
opt_words(const char *key, json_t *v, char **argv, int *argc, char *err,
	  size_t errlen)
{
	int idx = nb_option_find(key, strlen(key)), n;
	int flag = idx >= 0 && nb_options[idx].arg == NULL;
	char val[1024];

	if (json_is_true(v))
		n = snprintf(val, sizeof(val), "%s", "");
	else if (json_is_string(v))
		n = snprintf(val, sizeof(val), "%s", json_string_value(v));
	else if (json_is_integer(v))
		n = snprintf(val, sizeof(val), "%" JSON_INTEGER_FORMAT,
			     json_integer_value(v));
	else if (json_is_real(v))
		n = snprintf(val, sizeof(val), "%.17g", json_real_value(v));
	else {
		snprintf(err, errlen,
			 "option '--%s': give a string, a number, true (a "
			 "flag) or an array of these (an option given again)",
			 key);
		return NB_API_PARAMS;
	}
	if (n < 0 || (size_t)n >= sizeof(val) || *argc + 2 > MAX_WORDS) {
		snprintf(err, errlen,
			 "option '--%s': value too long, or too "
			 "many options",
			 key);
		return NB_API_PARAMS;
	}
	if (json_is_true(v) || flag) {
		argv[*argc] = dup_word("--", key, json_is_true(v) ? NULL : val);
	} else {
		argv[*argc] = dup_word("--", key, NULL);
		if (argv[*argc] != NULL)
			argv[++*argc] = strdup(val);
	}
	if (argv[*argc] == NULL) {
		snprintf(err, errlen, "out of memory");
		return NB_API_PARAMS;
	}
	(*argc)++;
	return 0;
}

int
nb_api_options(struct nb_config *run, const struct nb_config *base,
	       json_t *opts, char *err, size_t errlen)
{
	char *argv[MAX_WORDS + 1];
	int argc = 1, ret = 0;
	const char *key;
	json_t *v;
	size_t i;

	*run = *base;
	memset(run->seen, 0, sizeof(run->seen));
	argv[0] = (char *)"run";
	json_object_foreach(opts, key, v)
	{
		size_t k, nv = json_is_array(v) ? json_array_size(v) : 1;

		for (i = 0; i < sizeof(not_in_run) / sizeof(*not_in_run); i++)
			if (strcmp(key, not_in_run[i]) == 0) {
				snprintf(err, errlen,
					 "'--%s' is not an option of a run "
					 "(the server's own, the CLI's, or one "
					 "that names a file of its host)",
					 key);
				ret = NB_API_PARAMS;
				goto out;
			}
		if (json_is_false(v) || json_is_null(v))
			continue; /* not given */
		for (k = 0; k < nv; k++) {
			json_t *e = json_is_array(v) ? json_array_get(v, k) : v;

			ret = opt_words(key, e, argv, &argc, err, errlen);
			if (ret != 0)
				goto out;
		}
	}
	argv[argc] = NULL;
	if (nb_options_parse(run, argc, argv, err, errlen) != 0 ||
	    nb_config_check(run, err, errlen) != 0)
		ret = NB_API_PARAMS;
out:
	while (argc > 1)
		free(argv[--argc]);
	return ret;
}

static uint32_t
max_frame(const struct nb_config *c)
{
	uint32_t m = 0;
	uint16_t i;

	for (i = 0; i < c->sizes.nb_sizes; i++)
		if (c->sizes.sizes[i] > m)
			m = c->sizes.sizes[i];
	return m;
}

int
nb_api_same_setup(const struct nb_config *srv, const struct nb_config *run,
		  char *err, size_t errlen)
{
	const char *what = NULL;

	if (run->mode != NB_MODE_LOOPBACK)
		what = "the mode (a run is a loopback test on the server's "
		       "ports: no --peer, --iperf3 or responder options)";
	else if (run->nb_tx_ports != srv->nb_tx_ports ||
		 memcmp(run->tx_ports, srv->tx_ports,
			srv->nb_tx_ports * sizeof(*srv->tx_ports)) != 0 ||
		 run->nb_rx_ports != srv->nb_rx_ports ||
		 memcmp(run->rx_ports, srv->rx_ports,
			srv->nb_rx_ports * sizeof(*srv->rx_ports)) != 0)
		what = "--tx-port, --rx-port or --ports (the ports)";
	else if (run->queues != srv->queues)
		what = "--queues";
	else if (run->rxd != srv->rxd || run->txd != srv->txd)
		what = "--rxd or --txd";
	else if (run->tx_csum != srv->tx_csum)
		what = "--tx-checksum";
	else if (memcmp(&run->portset, &srv->portset, sizeof(run->portset)))
		what = "--flow-control, --link-speed or --mtu";
	else if (run->tcp != srv->tcp || run->proto != srv->proto)
		what = "--tcp or --proto";
	else if ((run->stack.tun.kind != NB_ENCAP_NONE) !=
		 (srv->stack.tun.kind != NB_ENCAP_NONE))
		what = "a tunnel (--vxlan, --geneve, --gre)";
	else if ((run->flows.spec.n > 0) != (srv->flows.spec.n > 0))
		what = "--flows (given or not)";
	else if (max_frame(run) > max_frame(srv))
		what = "--size (a frame larger than the server's largest)";
	if (what == NULL)
		return 0;
	snprintf(err, errlen,
		 "this run needs the ports set up otherwise than the server "
		 "did: %s; give it when starting --serve",
		 what);
	return NB_API_PARAMS;
}

int
nb_api_in_add(struct nb_api_inbuf *b, const char *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *nb;

		while (cap < b->len + n)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (nb == NULL)
			return -ENOMEM;
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	return 0;
}

/* Drop the first n bytes (a line handed out, or skipped). */
static void
consume(struct nb_api_inbuf *b, size_t n)
{
	memmove(b->buf, b->buf + n, b->len - n);
	b->len -= n;
}

int
nb_api_in_line(struct nb_api_inbuf *b, const char **line, size_t *n)
{
	char *nl;

	if (b->handed) { /* the line handed out last goes now */
		consume(b, b->handed);
		b->handed = 0;
	}
	for (;;) {
		nl = b->len ? memchr(b->buf, '\n', b->len) : NULL;
		if (b->skipping) {
			if (nl == NULL) {
				b->len = 0;
				return 0;
			}
			consume(b, (size_t)(nl - b->buf) + 1);
			b->skipping = 0;
			continue;
		}
		if (nl == NULL) {
			if (b->len > NB_API_MAX_REQUEST) {
				b->len = 0;
				b->skipping = 1;
				return NB_API_TOO_LARGE;
			}
			return 0;
		}
		if ((size_t)(nl - b->buf) > NB_API_MAX_REQUEST) {
			consume(b, (size_t)(nl - b->buf) + 1);
			return NB_API_TOO_LARGE;
		}
		break;
	}
	*nl = '\0';
	*line = b->buf;
	*n = (size_t)(nl - b->buf);
	if (*n > 0 && b->buf[*n - 1] == '\r') /* a CRLF client */
		b->buf[--*n] = '\0';
	b->handed = (size_t)(nl - b->buf) + 1;
	return 1;
}

void
nb_api_in_free(struct nb_api_inbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

int
nb_api_events_write(struct nb_api_events *e, const char *p, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) : n;
		char *part = realloc(e->part, e->part_len + k + 1);

		if (part == NULL)
			return -ENOMEM;
		memcpy(part + e->part_len, p, k);
		e->part = part;
		e->part_len += k;
		e->part[e->part_len] = '\0';
		p += k;
		n -= k;
		if (nl == NULL)
			break;
		p++;
		n--;
		if (e->ev == NULL) {
			e->ev = calloc(NB_API_EVENTS_KEPT, sizeof(*e->ev));
			if (e->ev == NULL)
				return -ENOMEM;
		}
		if (e->next - e->first == NB_API_EVENTS_KEPT) {
			free(e->ev[e->first % NB_API_EVENTS_KEPT]);
			e->first++;
		}
		e->ev[e->next % NB_API_EVENTS_KEPT] = e->part;
		e->next++;
		e->part = NULL;
		e->part_len = 0;
	}
	return 0;
}

json_t *
nb_api_events_get(const struct nb_api_events *e, uint64_t i)
{
	if (i < e->first || i >= e->next)
		return NULL;
	return json_loads(e->ev[i % NB_API_EVENTS_KEPT], 0, NULL);
}

void
nb_api_events_clear(struct nb_api_events *e)
{
	uint64_t i;

	for (i = e->first; e->ev != NULL && i < e->next; i++)
		free(e->ev[i % NB_API_EVENTS_KEPT]);
	free(e->ev);
	free(e->part);
	memset(e, 0, sizeof(*e));
}

void
nb_api_proof(const uint8_t *key, size_t key_len, const uint8_t *nonce,
	     size_t nonce_len, char out[65])
{
	static const char label[] = "nbench-api";
	const void *parts[2] = {label, nonce};
	const size_t lens[2] = {sizeof(label) - 1, nonce_len};
	uint8_t mac[32];
	int i;

	nb_auth_hmac(key, key_len, parts, lens, 2, mac);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", mac[i]);
}

int
nb_api_proof_ok(const uint8_t *key, size_t key_len, const uint8_t *nonce,
		size_t nonce_len, const char *proof)
{
	char want[65];
	unsigned int diff = 0;
	int i;

	if (proof == NULL || strlen(proof) != 64)
		return 0;
	nb_api_proof(key, key_len, nonce, nonce_len, want);
	for (i = 0; i < 64; i++)
		diff |= (unsigned char)(want[i] ^ proof[i]);
	return diff == 0;
}
