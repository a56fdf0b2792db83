/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --serve API's pure parts: JSON-RPC 2.0 requests, one per line
 * (newline-delimited JSON), their framing and size limit, the API version
 * check, a run's options as a JSON object turned into a checked nb_config
 * through the CLI's own option table, and whether a run fits the ports
 * the server set up.  docs/api.md is the reference,
 * docs/nbench-api.schema.json the JSON Schema.
 */
#ifndef NB_API_H
#define NB_API_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "nb_config.h"

#define NB_API_MAJOR	   1
#define NB_API_MINOR	   0
#define NB_API_MAX_REQUEST (1u << 20) /* bytes of one request line */

/* JSON-RPC 2.0's error codes, then the server's own (-32000 and below) */
enum nb_api_code {
	NB_API_PARSE = -32700,	 /* not JSON */
	NB_API_INVALID = -32600, /* JSON, not a request */
	NB_API_NO_METHOD = -32601,
	NB_API_PARAMS = -32602,	   /* a bad option: the CLI's message */
	NB_API_VERSION = -32001,   /* another API major version */
	NB_API_BUSY = -32002,	   /* a test runs already */
	NB_API_IDLE = -32003,	   /* no test runs (stop), none known */
	NB_API_TOO_LARGE = -32004, /* a request line over 1 MiB */
	NB_API_AUTH = -32005,	   /* no key proof, or a wrong one */
	NB_API_FAILED = -32006,	   /* the test could not run */
	NB_API_GONE = -32007,	   /* events asked for are no longer kept */
	NB_API_SHUTDOWN = -32008,  /* the server is shutting down */
};

/* One request, pointing into the parsed root (which owns it all). */
struct nb_api_req {
	json_t *id; /* NULL: a notification (no answer) */
	const char *method;
	json_t *params;		    /* object or NULL */
	const char *client_version; /* "nbench_api" member, or NULL */
};

/*
 * A request line (without its newline).  0 with *root (to decref) and rq
 * filled, or an nb_api_code with the reason in err; *root may then hold
 * what parsed (for its id).
 */
int nb_api_parse(const char *line, size_t n, json_t **root,
		 struct nb_api_req *rq, char *err, size_t errlen);

/* The answers, as compact lines ending in '\n' (free()). */
char *nb_api_result(json_t *id, json_t *result);	   /* result consumed */
char *nb_api_error(json_t *id, int code, const char *msg); /* id: NULL=null */
char *nb_api_notify(const char *method, json_t *params);   /* consumed */

/* A client's "MAJOR.MINOR" against this server's: 0, or NB_API_VERSION
 * with both versions named in err. */
int nb_api_version_check(const char *client, char *err, size_t errlen);

/*
 * A run's options (a JSON object of long option names: strings, numbers,
 * true for a flag, an array for an option given again) over base (the
 * server's own options, as parsed and not yet checked): the run's config,
 * checked as the CLI checks it.  0, or NB_API_PARAMS with the CLI's
 * message in err.
 */
int nb_api_options(struct nb_config *run, const struct nb_config *base,
		   json_t *opts, char *err, size_t errlen);

/* The run needs the ports set up as the server did (same ports, queues,
 * descriptors, offload choices, frames no larger): 0, or NB_API_PARAMS
 * naming the option and what the server was started with. */
int nb_api_same_setup(const struct nb_config *srv, const struct nb_config *run,
		      char *err, size_t errlen);

/*
 * Request framing on one connection: bytes in, whole lines out.  A line
 * over NB_API_MAX_REQUEST is refused once and skipped to its newline.
 */
struct nb_api_inbuf {
	char *buf;
	size_t len, cap;
	size_t handed; /* the line handed out: dropped at the next call */
	int skipping;  /* inside a line already refused as too large */
};

/* Append n bytes: 0, or -ENOMEM. */
int nb_api_in_add(struct nb_api_inbuf *b, const char *p, size_t n);
/*
 * The next line: 1 with the line and its length (valid until the next call), 0
 * when none is whole yet, NB_API_TOO_LARGE once for a line over the limit.
 */
int nb_api_in_line(struct nb_api_inbuf *b, const char **line, size_t *n);
void nb_api_in_free(struct nb_api_inbuf *b);

/*
 * A run's JSON-lines events, as its output writes them: kept in order,
 * the newest NB_API_EVENTS_KEPT, each a string; index from 0 per run.
 * Not thread-safe: the server holds its lock around these.
 */
#define NB_API_EVENTS_KEPT 65536
struct nb_api_events {
	char **ev;	/* ring of NB_API_EVENTS_KEPT */
	uint64_t first; /* index of the oldest kept */
	uint64_t next;	/* index the next one gets */
	char *part;	/* an event line not yet ended */
	size_t part_len;
};

/* Bytes written by the output: whole lines become events.  0, -ENOMEM. */
int nb_api_events_write(struct nb_api_events *e, const char *p, size_t n);
/* Event i, parsed (new reference), or NULL when not kept or not yet. */
json_t *nb_api_events_get(const struct nb_api_events *e, uint64_t i);
void nb_api_events_clear(struct nb_api_events *e);

/* The key proof of a connection: HMAC-SHA256(key, "nbench-api" | nonce),
 * in lowercase hex (65 bytes with the NUL). */
void nb_api_proof(const uint8_t *key, size_t key_len, const uint8_t *nonce,
		  size_t nonce_len, char out[65]);
/* A client's proof (NULL: none) is that one: 1, else 0; in constant
 * time over its 64 characters. */
int nb_api_proof_ok(const uint8_t *key, size_t key_len, const uint8_t *nonce,
		    size_t nonce_len, const char *proof);

#endif /* NB_API_H */
