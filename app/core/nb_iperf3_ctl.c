/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's control stream: the cookie, the state bytes and their names,
 * the server's error numbers, the length-prefixed JSON messages and an
 * incremental parser of the bytes a peer sends (nb_iperf3_proto.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_iperf3_proto.h"

static const char cookie_chars[] = "abcdefghijklmnopqrstuvwxyz234567";

void
nb_ip3_cookie_make(const uint8_t rnd[NB_IP3_COOKIE_RAND],
		   char cookie[NB_IP3_COOKIE_LEN])
{
	size_t i;

	/* 32 characters: a byte modulo 32 is uniform */
	for (i = 0; i < NB_IP3_COOKIE_RAND; i++)
		cookie[i] = cookie_chars[rnd[i] % 32];
	cookie[NB_IP3_COOKIE_RAND] = '\0';
}

int
nb_ip3_cookie_check(const uint8_t *b, size_t n)
{
	size_t i;

	if (b == NULL || n != NB_IP3_COOKIE_LEN || b[n - 1] != '\0')
		return -1;
	for (i = 0; i < NB_IP3_COOKIE_RAND; i++)
		if (!((b[i] >= 'a' && b[i] <= 'z') ||
		      (b[i] >= '2' && b[i] <= '7')))
			return -1;
	return 0;
}

const char *
nb_ip3_state_name(int state)
{
	switch (state) {
	case NB_IP3_TEST_START:
		return "TEST_START";
	case NB_IP3_TEST_RUNNING:
		return "TEST_RUNNING";
	case NB_IP3_TEST_END:
		return "TEST_END";
	case NB_IP3_PARAM_EXCHANGE:
		return "PARAM_EXCHANGE";
	case NB_IP3_CREATE_STREAMS:
		return "CREATE_STREAMS";
	case NB_IP3_SERVER_TERMINATE:
		return "SERVER_TERMINATE";
	case NB_IP3_CLIENT_TERMINATE:
		return "CLIENT_TERMINATE";
	case NB_IP3_EXCHANGE_RESULTS:
		return "EXCHANGE_RESULTS";
	case NB_IP3_DISPLAY_RESULTS:
		return "DISPLAY_RESULTS";
	case NB_IP3_IPERF_START:
		return "IPERF_START";
	case NB_IP3_IPERF_DONE:
		return "IPERF_DONE";
	case NB_IP3_ACCESS_DENIED:
		return "ACCESS_DENIED";
	case NB_IP3_SERVER_ERROR:
		return "SERVER_ERROR";
	default:
		return "UNKNOWN";
	}
}

/* The i_errno values a server sends after SERVER_ERROR, and a few more. */
static const struct {
	int32_t ie;
	const char *s;
} ierrno_tab[] = {
	{5, "test duration too long (maximum = 86400 seconds)"},
	{6, "number of parallel streams too large (maximum = 128)"},
	{7, "block size too large (maximum = 1048576 bytes)"},
	{8, "socket buffer size too large (maximum = 536870912 bytes)"},
	{10, "TCP MSS too large (maximum = 9216 bytes)"},
	{12, "bogus value for --omit"},
	{18, "no SCTP support available"},
	{20, "block size invalid"},
	{27, "total required bandwidth is larger than server limit"},
	{101, "test initialization failed"},
	{102, "unable to start listener for connections"},
	{104, "unable to accept connection from client"},
	{106, "unable to receive cookie at server"},
	{107, "unable to write to the control socket"},
	{108, "unable to read from the control socket"},
	{109, "control socket has closed unexpectedly"},
	{110, "received an unknown control message"},
	{112, "unable to receive control message"},
	{114, "unable to receive parameters from client"},
	{115, "unable to package results"},
	{116, "unable to send results"},
	{117, "unable to receive results"},
	{119, "the client has terminated"},
	{120, "the server has terminated"},
	{NB_IP3_IEACCESSDENIED,
	 "the server is busy running a test. try again later"},
	{122, "unable to set TCP/SCTP NODELAY"},
	{123, "unable to set TCP/SCTP MSS"},
	{124, "unable to set socket buffer size"},
	{130, "unable to set socket window size"},
	{131, "protocol does not exist"},
	{134, "unable to set TCP_CONGESTION"},
	{NB_IP3_IEAUTHTEST, "test authorization failed"},
	{200, "unable to create a new stream"},
	{201, "unable to initialize stream"},
	{202, "unable to start stream listener"},
	{204, "unable to accept stream connection"},
	{206, "unable to read from stream socket"},
	{207, "stream socket has closed unexpectedly"},
	{208, "stream has an invalid id"},
};

const char *
nb_ip3_ierrno_str(int32_t ie)
{
	size_t i;

	for (i = 0; i < sizeof(ierrno_tab) / sizeof(ierrno_tab[0]); i++)
		if (ierrno_tab[i].ie == ie)
			return ierrno_tab[i].s;
	return NULL;
}

/* --- JSON ----------------------------------------------------------- */

int
nb_ip3_json_frame(const json_t *o, uint8_t *out, size_t cap)
{
	size_t n;

	if (!json_is_object(o))
		return -EINVAL;
	n = json_dumpb(o, NULL, 0, JSON_COMPACT);
	if (n == 0 || n > NB_IP3_JSON_MAX)
		return -EINVAL;
	if (cap < 4 || n > cap - 4)
		return -ENOSPC;
	if (json_dumpb(o, (char *)out + 4, n, JSON_COMPACT) != n)
		return -EINVAL;
	out[0] = (uint8_t)(n >> 24);
	out[1] = (uint8_t)(n >> 16);
	out[2] = (uint8_t)(n >> 8);
	out[3] = (uint8_t)n;
	return (int)(n + 4);
}

/*
 * iperf3 3.12's cJSON prints an integral number with PRIu64, so -1 reaches
 * us as 18446744073709551615, which jansson refuses ("too big integer").
 * A 20-digit unsigned number above INT64_MAX becomes its two's complement
 * value, padded with spaces to the same width (it never needs more).
 */
static void
fix_wrapped_ints(char *s, size_t n)
{
	size_t i = 0, j, k;
	int in_str = 0;

	while (i < n) {
		char c = s[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			i++;
			continue;
		}
		if (c == '"') {
			in_str = 1;
			i++;
			continue;
		}
		if (c < '0' || c > '9') {
			i++;
			continue;
		}
		/* a number token: its digits */
		for (j = i; j < n && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j - i == 20 && (i == 0 || s[i - 1] != '-') &&
		    (j == n || (s[j] != '.' && s[j] != 'e' && s[j] != 'E'))) {
			uint64_t v = 0;
			int ovf = 0;
			char tmp[24];
			int len;

			for (k = i; k < j; k++) {
				unsigned int d = (unsigned int)(s[k] - '0');

				if (v > (UINT64_MAX - d) / 10)
					ovf = 1;
				v = v * 10 + d;
			}
			if (!ovf && v > (uint64_t)INT64_MAX) {
				len = snprintf(tmp, sizeof(tmp), "%lld",
					       (long long)(int64_t)v);
				if (len > 0 && len <= 20) {
					memcpy(s + i, tmp, (size_t)len);
					memset(s + i + len, ' ',
					       (size_t)(20 - len));
				}
			}
		}
		/* skip the rest of the token (fraction, exponent) */
		while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.' ||
				 s[j] == 'e' || s[j] == 'E' || s[j] == '+' ||
				 s[j] == '-'))
			j++;
		i = j;
	}
}

json_t *
nb_ip3_json_parse(char *s, size_t n, char *msg, size_t msglen)
{
	json_error_t e;
	json_t *o;

	fix_wrapped_ints(s, n);
	o = json_loadb(s, n, JSON_REJECT_DUPLICATES, &e);
	if (o == NULL) {
		snprintf(msg, msglen, "bad JSON at byte %d: %s", e.position,
			 e.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		snprintf(msg, msglen, "JSON message is not an object");
		json_decref(o);
		return NULL;
	}
	return o;
}

/* --- the incremental parser ------------------------------------------ */

enum rx_phase {
	RX_STATE = 0, /* a state byte is due */
	RX_ERRNO,     /* SERVER_ERROR read: 8 bytes due */
	RX_LEN,	      /* a JSON length is due */
	RX_TEXT,      /* JSON text */
};

void
nb_ip3_rx_init(struct nb_ip3_rx *rx, uint8_t *buf, size_t cap)
{
	memset(rx, 0, sizeof(*rx));
	rx->buf = buf;
	rx->cap = cap;
	rx->phase = RX_STATE;
}

int
nb_ip3_rx_expect(struct nb_ip3_rx *rx, enum nb_ip3_expect e)
{
	if (rx->dead || rx->hlen != 0 || rx->phase == RX_ERRNO ||
	    rx->phase == RX_TEXT)
		return -EBUSY;
	rx->phase = e == NB_IP3_EXPECT_JSON ? RX_LEN : RX_STATE;
	return 0;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void
server_error(struct nb_ip3_ev *ev, int32_t ie, int has_errno, int32_t err)
{
	const char *s = nb_ip3_ierrno_str(ie);

	ev->type = NB_IP3_EV_SERVER_ERROR;
	ev->ierrno = ie;
	ev->has_errno = has_errno;
	ev->err = has_errno ? err : -1;
	if (s == NULL)
		snprintf(ev->msg, sizeof(ev->msg),
			 "server error: unknown i_errno %d", (int)ie);
	else if (has_errno && err != 0)
		snprintf(ev->msg, sizeof(ev->msg), "server error: %s (%s)", s,
			 strerror(err));
	else
		snprintf(ev->msg, sizeof(ev->msg), "server error: %s", s);
}

static void
rx_fail(struct nb_ip3_rx *rx, struct nb_ip3_ev *ev, const char *what)
{
	rx->dead = 1;
	ev->type = NB_IP3_EV_ERROR;
	snprintf(ev->msg, sizeof(ev->msg), "%s", what);
}

/* Up to want - *have bytes of p into dst + *have; returns how many. */
static size_t
take(uint8_t *dst, size_t *have, size_t want, const uint8_t *p, size_t n)
{
	size_t k = want - *have;

	if (k > n)
		k = n;
	memcpy(dst + *have, p, k);
	*have += k;
	return k;
}

/* A JSON length read: 0 if its text may follow, -1 (ev set) if not. */
static int
json_len_ok(struct nb_ip3_rx *rx, struct nb_ip3_ev *ev)
{
	size_t max = rx->cap > 0 ? rx->cap - 1 : 0;

	if (max > NB_IP3_JSON_MAX)
		max = NB_IP3_JSON_MAX;
	rx->jlen = be32(rx->hdr);
	if (rx->jlen == 0) {
		rx_fail(rx, ev, "JSON message of length 0");
		return -1;
	}
	if (rx->jlen > max) {
		rx_fail(rx, ev, "");
		snprintf(ev->msg, sizeof(ev->msg),
			 "JSON message of %u bytes is over the limit of %zu",
			 rx->jlen, max);
		return -1;
	}
	rx->got = 0;
	rx->phase = RX_TEXT;
	return 0;
}

/* The whole text is in: an object, or the stream is dead. */
static void
json_done(struct nb_ip3_rx *rx, struct nb_ip3_ev *ev)
{
	rx->buf[rx->jlen] = '\0';
	rx->phase = RX_STATE;
	ev->json = nb_ip3_json_parse((char *)rx->buf, rx->jlen, ev->msg,
				     sizeof(ev->msg));
	if (ev->json == NULL) {
		rx->dead = 1;
		ev->type = NB_IP3_EV_ERROR;
	} else {
		ev->type = NB_IP3_EV_JSON;
	}
}

size_t
nb_ip3_rx_feed(struct nb_ip3_rx *rx, const uint8_t *p, size_t n,
	       struct nb_ip3_ev *ev)
{
	size_t i = 0;

	memset(ev, 0, sizeof(*ev));
	if (rx->dead) {
		rx_fail(rx, ev, "control stream already failed");
		return 0;
	}
	while (i < n) {
		switch (rx->phase) {
		case RX_STATE:
			ev->state = (int8_t)p[i++];
			if (ev->state == NB_IP3_SERVER_ERROR) {
				rx->phase = RX_ERRNO;
				rx->hlen = 0;
				break;
			}
			ev->type = NB_IP3_EV_STATE;
			return i;
		case RX_ERRNO:
			i += take(rx->hdr, &rx->hlen, 8, p + i, n - i);
			if (rx->hlen < 8)
				break;
			rx->hlen = 0;
			rx->phase = RX_STATE;
			server_error(ev, (int32_t)be32(rx->hdr), 1,
				     (int32_t)be32(rx->hdr + 4));
			ev->state = NB_IP3_SERVER_ERROR;
			return i;
		case RX_LEN:
			i += take(rx->hdr, &rx->hlen, 4, p + i, n - i);
			if (rx->hlen < 4)
				break;
			rx->hlen = 0;
			if (json_len_ok(rx, ev) < 0)
				return i;
			break;
		case RX_TEXT:
			i += take(rx->buf, &rx->got, rx->jlen, p + i, n - i);
			if (rx->got < rx->jlen)
				break;
			json_done(rx, ev);
			return i;
		default:
			rx_fail(rx, ev, "control parser in a bad state");
			return i;
		}
	}
	return i;
}

void
nb_ip3_rx_eof(struct nb_ip3_rx *rx, struct nb_ip3_ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (rx->dead)
		return;
	switch (rx->phase) {
	case RX_STATE:
		return;
	case RX_ERRNO:
		if (rx->hlen >= 4) {
			server_error(ev, (int32_t)be32(rx->hdr), 0, 0);
			ev->state = NB_IP3_SERVER_ERROR;
		} else {
			rx_fail(rx, ev,
				"control connection closed inside a server "
				"error (no i_errno)");
		}
		break;
	case RX_LEN:
		if (rx->hlen == 0)
			rx_fail(rx, ev,
				"control connection closed where a JSON "
				"message was due");
		else
			rx_fail(rx, ev,
				"control connection closed inside a JSON "
				"length");
		break;
	default:
		rx_fail(rx, ev,
			"control connection closed inside a JSON message");
		break;
	}
	rx->dead = 1;
}
