/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's two JSON documents: the client's parameters and each side's
 * results, both ways (nb_iperf3_proto.h).  The keys, their order and their
 * types are those of iperf3 3.12's send_parameters() and send_results().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nb_iperf3_proto.h"
#include "nb_version.h"

#define MAX_TIME      86400
#define MAX_TCP_BLOCK (1024 * 1024)
#define MIN_UDP_BLOCK 16 /* sec, usec and a 64-bit count */
#define MAX_UDP_BLOCK (65535 - 8 - 20)
#define MAX_WINDOW    (512u * 1024 * 1024)
#define MAX_MSS	      (9 * 1024)

/*
 * A string into dst (cap bytes), cut short at a character boundary so that
 * what we build from it again is valid UTF-8 (jansson refuses the rest).
 */
static void
copy_utf8(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src), i, need;

	if (n < cap) {
		memcpy(dst, src, n + 1);
		return;
	}
	n = cap - 1;
	/* back to the lead byte of the last character, and keep it only if
	 * it is whole */
	i = n;
	while (i > 0 && ((uint8_t)src[i - 1] & 0xc0) == 0x80)
		i--;
	if (i > 0 && ((uint8_t)src[i - 1] & 0x80)) {
		uint8_t lead = (uint8_t)src[i - 1];

		need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
		if (n - (i - 1) < need)
			n = i - 1;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
nb_ip3_params_default(struct nb_ip3_params *p)
{
	memset(p, 0, sizeof(*p));
	p->time = 10;
	p->parallel = 1;
	p->len = 128 * 1024;
	p->pacing_timer = 1000;
	snprintf(p->client_version, sizeof(p->client_version),
		 "3.12+dpdk-nbench-%s", NB_VERSION);
}

/* json_object_set_new, counting failures. */
static void
put(json_t *o, const char *k, json_t *v, int *bad)
{
	if (v == NULL || json_object_set_new(o, k, v) != 0)
		*bad = 1;
}

json_t *
nb_ip3_params_json(const struct nb_ip3_params *p)
{
	json_t *o = json_object();
	int bad = 0;

	if (o == NULL)
		return NULL;
	put(o, p->udp ? "udp" : "tcp", json_true(), &bad);
	put(o, "omit", json_integer(p->omit), &bad);
	put(o, "time", json_integer(p->time), &bad);
	put(o, "num", json_integer((json_int_t)p->bytes), &bad);
	put(o, "blockcount", json_integer((json_int_t)p->blocks), &bad);
	if (p->mss)
		put(o, "MSS", json_integer(p->mss), &bad);
	put(o, "parallel", json_integer(p->parallel), &bad);
	if (p->reverse)
		put(o, "reverse", json_true(), &bad);
	if (p->bidir)
		put(o, "bidirectional", json_true(), &bad);
	if (p->window)
		put(o, "window", json_integer(p->window), &bad);
	if (p->len)
		put(o, "len", json_integer(p->len), &bad);
	if (p->bandwidth)
		put(o, "bandwidth", json_integer((json_int_t)p->bandwidth),
		    &bad);
	if (p->pacing_timer)
		put(o, "pacing_timer", json_integer(p->pacing_timer), &bad);
	if (p->get_server_output)
		put(o, "get_server_output", json_integer(1), &bad);
	if (p->udp64)
		put(o, "udp_counters_64bit", json_integer(1), &bad);
	put(o, "client_version", json_string(p->client_version), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* An integer at key k in [lo, hi]: 1 found, 0 absent, -1 bad (msg set). */
static int
get_int(const json_t *o, const char *k, int64_t lo, int64_t hi, int64_t *v,
	char *msg, size_t msglen)
{
	const json_t *j = json_object_get(o, k);

	if (j == NULL)
		return 0;
	if (!json_is_integer(j)) {
		snprintf(msg, msglen, "%s: not an integer", k);
		return -1;
	}
	*v = json_integer_value(j);
	if (*v < lo || *v > hi) {
		snprintf(msg, msglen,
			 "%s: %" PRId64 " out of range [%" PRId64 ", %" PRId64
			 "]",
			 k, *v, lo, hi);
		return -1;
	}
	return 1;
}

/* A boolean flag: 1 true, 0 absent or false, -1 another type. */
static int
get_flag(const json_t *o, const char *k, char *msg, size_t msglen)
{
	const json_t *j = json_object_get(o, k);

	if (j == NULL)
		return 0;
	if (!json_is_boolean(j)) {
		snprintf(msg, msglen, "%s: not a boolean", k);
		return -1;
	}
	return json_is_true(j) ? 1 : 0;
}

/* The integers of the parameters: key, range, where (NULL: checked only). */
struct int_key {
	const char *k;
	int64_t lo, hi;
};

static const struct int_key checked_only[] = {
	{"server_affinity", -1, 4096},
	{"fqrate", 0, INT64_MAX},
	{"burst", 0, 1000},
	{"TOS", 0, 255},
	{"flowlabel", 0, 0xfffff},
	{"repeating_payload", 0, 1},
	{"zerocopy", 0, 1},
	{"dont_fragment", 0, 1},
};

static const char *const string_keys[] = {
	"title",	   "extra_data",     "congestion",
	"congestion_used", "client_version",
};

/* The protocol: TCP or UDP, not SCTP, no authentication. */
static int
parse_proto(const json_t *o, struct nb_ip3_params *p, char *msg, size_t msglen)
{
	int tcp, udp;

	if (json_object_get(o, "authtoken") != NULL) {
		snprintf(msg, msglen, "authentication is not supported");
		return -EINVAL;
	}
	if (json_object_get(o, "sctp") != NULL) {
		snprintf(msg, msglen, "sctp: SCTP is not supported");
		return -EINVAL;
	}
	tcp = get_flag(o, "tcp", msg, msglen);
	udp = get_flag(o, "udp", msg, msglen);
	if (tcp < 0 || udp < 0)
		return -EINVAL;
	if (tcp + udp != 1) {
		snprintf(msg, msglen,
			 tcp ? "tcp and udp both set"
			     : "no protocol: tcp or udp must be true");
		return -EINVAL;
	}
	p->udp = udp;
	return 0;
}

/* The numbers, each in its range. */
static int
parse_ints(const json_t *o, struct nb_ip3_params *p, char *msg, size_t msglen)
{
	int64_t v;
	size_t i;
	int r;

#define INT_FIELD(key, lo, hi, dst)                                            \
	do {                                                                   \
		r = get_int(o, key, lo, hi, &v, msg, msglen);                  \
		if (r < 0)                                                     \
			return -EINVAL;                                        \
		if (r > 0)                                                     \
			dst = v;                                               \
	} while (0)

	INT_FIELD("omit", 0, MAX_TIME, p->omit);
	INT_FIELD("time", 0, MAX_TIME, p->time);
	INT_FIELD("num", 0, INT64_MAX, p->bytes);
	INT_FIELD("blockcount", 0, INT64_MAX, p->blocks);
	INT_FIELD("MSS", 0, MAX_MSS, p->mss);
	INT_FIELD("parallel", 1, NB_IP3_MAX_STREAMS, p->parallel);
	INT_FIELD("window", 0, MAX_WINDOW, p->window);
	if (p->udp)
		INT_FIELD("len", MIN_UDP_BLOCK, MAX_UDP_BLOCK, p->len);
	else
		INT_FIELD("len", 1, MAX_TCP_BLOCK, p->len);
	INT_FIELD("bandwidth", 0, INT64_MAX, p->bandwidth);
	INT_FIELD("pacing_timer", 0, INT32_MAX, p->pacing_timer);
	/* iperf3 reads these two by their presence; 3.12 sends 1 */
	INT_FIELD("get_server_output", 0, 1, p->get_server_output);
	if (json_object_get(o, "get_server_output") != NULL)
		p->get_server_output = 1;
	INT_FIELD("udp_counters_64bit", 0, 1, p->udp64);
	if (json_object_get(o, "udp_counters_64bit") != NULL)
		p->udp64 = 1;
#undef INT_FIELD
	for (i = 0; i < sizeof(checked_only) / sizeof(checked_only[0]); i++)
		if (get_int(o, checked_only[i].k, checked_only[i].lo,
			    checked_only[i].hi, &v, msg, msglen) < 0)
			return -EINVAL;
	return 0;
}

int
nb_ip3_params_parse(const json_t *o, struct nb_ip3_params *p, char *msg,
		    size_t msglen)
{
	const json_t *j;
	size_t i;
	int f;

	if (!json_is_object(o)) {
		snprintf(msg, msglen, "parameters: not a JSON object");
		return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	p->parallel = 1;
	if (parse_proto(o, p, msg, msglen) < 0 ||
	    parse_ints(o, p, msg, msglen) < 0)
		return -EINVAL;
	if ((f = get_flag(o, "reverse", msg, msglen)) < 0)
		return -EINVAL;
	p->reverse = f;
	if ((f = get_flag(o, "bidirectional", msg, msglen)) < 0)
		return -EINVAL;
	p->bidir = f;
	if (get_flag(o, "nodelay", msg, msglen) < 0)
		return -EINVAL;
	if (p->reverse && p->bidir) {
		snprintf(msg, msglen,
			 "reverse and bidirectional: only one may be set");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(string_keys) / sizeof(string_keys[0]); i++) {
		j = json_object_get(o, string_keys[i]);
		if (j != NULL && !json_is_string(j)) {
			snprintf(msg, msglen, "%s: not a string",
				 string_keys[i]);
			return -EINVAL;
		}
	}
	j = json_object_get(o, "client_version");
	if (j != NULL)
		copy_utf8(p->client_version, sizeof(p->client_version),
			  json_string_value(j));
	return 0;
}

/* --- results --------------------------------------------------------- */

json_t *
nb_ip3_results_json(const struct nb_ip3_results *r)
{
	json_t *o = json_object(), *a, *s;
	unsigned int i;
	int bad = 0;

	if (o == NULL)
		return NULL;
	put(o, "cpu_util_total", json_real(r->cpu_total), &bad);
	put(o, "cpu_util_user", json_real(r->cpu_user), &bad);
	put(o, "cpu_util_system", json_real(r->cpu_system), &bad);
	put(o, "sender_has_retransmits",
	    json_integer(r->sender_has_retransmits), &bad);
	if (r->congestion_used[0] != '\0')
		put(o, "congestion_used", json_string(r->congestion_used),
		    &bad);
	a = json_array();
	put(o, "streams", a, &bad);
	for (i = 0; a != NULL && i < r->nstreams && i < NB_IP3_MAX_STREAMS;
	     i++) {
		const struct nb_ip3_stream_res *t = &r->s[i];

		s = json_object();
		if (s == NULL || json_array_append_new(a, s) != 0) {
			bad = 1;
			break;
		}
		put(s, "id", json_integer(t->id), &bad);
		put(s, "bytes", json_integer((json_int_t)t->bytes), &bad);
		put(s, "retransmits", json_integer(t->retransmits), &bad);
		put(s, "jitter", json_real(t->jitter), &bad);
		put(s, "errors", json_integer(t->errors), &bad);
		put(s, "packets", json_integer(t->packets), &bad);
		put(s, "start_time", json_real(t->start_time), &bad);
		put(s, "end_time", json_real(t->end_time), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A number (integer or real) at k: 0 found, -1 absent or bad (msg set). */
static int
get_num(const json_t *o, const char *k, double *d, const char *where, char *msg,
	size_t msglen)
{
	const json_t *j = json_object_get(o, k);

	if (j == NULL) {
		snprintf(msg, msglen, "%s%s: missing", where, k);
		return -1;
	}
	if (!json_is_number(j)) {
		snprintf(msg, msglen, "%s%s: not a number", where, k);
		return -1;
	}
	*d = json_number_value(j);
	return 0;
}

/* A required integer in [lo, hi], its message prefixed with where. */
static int
need_int(const json_t *o, const char *k, int64_t lo, int64_t hi, int64_t *v,
	 const char *where, char *msg, size_t msglen)
{
	char m[NB_IP3_MSG_LEN];
	int r = get_int(o, k, lo, hi, v, m, sizeof(m));

	if (r == 0)
		snprintf(msg, msglen, "%s%s: missing", where, k);
	else if (r < 0)
		snprintf(msg, msglen, "%s%s", where, m);
	return r > 0 ? 0 : -1;
}

static int
parse_stream(const json_t *s, unsigned int i, struct nb_ip3_stream_res *t,
	     char *msg, size_t msglen)
{
	char where[32];
	int64_t v;

	snprintf(where, sizeof(where), "streams[%u].", i);
	if (!json_is_object(s)) {
		snprintf(msg, msglen, "streams[%u]: not an object", i);
		return -1;
	}
	if (need_int(s, "id", 1, INT32_MAX, &v, where, msg, msglen) < 0)
		return -1;
	t->id = (int32_t)v;
	if (need_int(s, "bytes", 0, INT64_MAX, &v, where, msg, msglen) < 0)
		return -1;
	t->bytes = (uint64_t)v;
	if (need_int(s, "retransmits", -1, INT64_MAX, &t->retransmits, where,
		     msg, msglen) < 0)
		return -1;
	if (get_num(s, "jitter", &t->jitter, where, msg, msglen) < 0)
		return -1;
	/* iperf3's error count can go below 0 with reordered datagrams */
	if (need_int(s, "errors", INT64_MIN, INT64_MAX, &t->errors, where, msg,
		     msglen) < 0)
		return -1;
	if (need_int(s, "packets", 0, INT64_MAX, &t->packets, where, msg,
		     msglen) < 0)
		return -1;
	/* servers before iperf3 3.2 sent no times */
	t->start_time = t->end_time = 0;
	if (json_object_get(s, "start_time") != NULL ||
	    json_object_get(s, "end_time") != NULL) {
		if (get_num(s, "start_time", &t->start_time, where, msg,
			    msglen) < 0 ||
		    get_num(s, "end_time", &t->end_time, where, msg, msglen) <
			    0)
			return -1;
	}
	return 0;
}

int
nb_ip3_results_parse(const json_t *o, struct nb_ip3_results *r, char *msg,
		     size_t msglen)
{
	const json_t *a, *j;
	int64_t v;
	size_t i, n;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(o)) {
		snprintf(msg, msglen, "results: not a JSON object");
		return -EINVAL;
	}
	if (get_num(o, "cpu_util_total", &r->cpu_total, "", msg, msglen) < 0 ||
	    get_num(o, "cpu_util_user", &r->cpu_user, "", msg, msglen) < 0 ||
	    get_num(o, "cpu_util_system", &r->cpu_system, "", msg, msglen) < 0)
		return -EINVAL;
	if (need_int(o, "sender_has_retransmits", -1, 1, &v, "", msg, msglen) <
	    0)
		return -EINVAL;
	r->sender_has_retransmits = (int)v;
	j = json_object_get(o, "congestion_used");
	if (j != NULL) {
		if (!json_is_string(j)) {
			snprintf(msg, msglen, "congestion_used: not a string");
			return -EINVAL;
		}
		copy_utf8(r->congestion_used, sizeof(r->congestion_used),
			  json_string_value(j));
	}
	a = json_object_get(o, "streams");
	if (!json_is_array(a)) {
		snprintf(msg, msglen,
			 a ? "streams: not an array" : "streams: missing");
		return -EINVAL;
	}
	n = json_array_size(a);
	if (n > NB_IP3_MAX_STREAMS) {
		snprintf(msg, msglen, "streams: %zu, more than %d", n,
			 NB_IP3_MAX_STREAMS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (parse_stream(json_array_get(a, i), (unsigned int)i,
				 &r->s[i], msg, msglen) < 0)
			return -EINVAL;
	r->nstreams = (unsigned int)n;
	j = json_object_get(o, "server_output_text");
	if (j != NULL && !json_is_string(j)) {
		snprintf(msg, msglen, "server_output_text: not a string");
		return -EINVAL;
	}
	return 0;
}

const char *
nb_ip3_results_server_text(const json_t *o)
{
	return json_string_value(json_object_get(o, "server_output_text"));
}

int
nb_ip3_results_frame(const struct nb_ip3_results *r, uint8_t *out, size_t cap)
{
	json_t *o = nb_ip3_results_json(r);
	int n;

	if (o == NULL)
		return -ENOMEM;
	n = nb_ip3_json_frame(o, out, cap);
	json_decref(o);
	return n;
}
