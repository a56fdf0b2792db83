/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: iperf3's protocol core (nb_iperf3_proto.h).
 *
 * The first byte picks what the rest is:
 *   0  a server's control bytes through the incremental parser, in chunks
 *      the next byte sizes; JSON is expected after EXCHANGE_RESULTS
 *   1  the same bytes through the client's state machine, reacting as a
 *      caller does (TEST_END when running, our results when asked)
 *   2  a parameters JSON text: if it parses, what we build from it parses
 *      to the same struct
 *   3  a results JSON text: the same round trip
 *   4  a client's control bytes through the server helper
 * Nothing may read past the input, loop, leak or crash; a parser never
 * claims more bytes than it was given.
 */
#include <errno.h>

#include "nb_iperf3_proto.h"

#include "nb_fuzz.h"

static uint8_t rxbuf[8192];

static void
fuzz_rx(const uint8_t *d, size_t n, size_t chunk)
{
	struct nb_ip3_rx rx;
	struct nb_ip3_ev ev;
	size_t i = 0, k, used;

	nb_ip3_rx_init(&rx, rxbuf, sizeof(rxbuf));
	while (i < n) {
		k = chunk < n - i ? chunk : n - i;
		used = nb_ip3_rx_feed(&rx, d + i, k, &ev);
		NB_FUZZ_CHECK(used <= k);
		i += used;
		if (ev.type == NB_IP3_EV_ERROR)
			break;
		NB_FUZZ_CHECK(used > 0);
		if (ev.type == NB_IP3_EV_NONE)
			NB_FUZZ_CHECK(used == k);
		if (ev.type == NB_IP3_EV_JSON) {
			NB_FUZZ_CHECK(json_is_object(ev.json));
			json_decref(ev.json);
		}
		if (ev.type == NB_IP3_EV_SERVER_ERROR)
			NB_FUZZ_CHECK(ev.msg[0] != '\0');
		if (ev.type == NB_IP3_EV_STATE &&
		    ev.state == NB_IP3_EXCHANGE_RESULTS)
			NB_FUZZ_CHECK(
				nb_ip3_rx_expect(&rx, NB_IP3_EXPECT_JSON) == 0);
	}
	nb_ip3_rx_eof(&rx, &ev);
	NB_FUZZ_CHECK(ev.type != NB_IP3_EV_JSON);
}

static void
fuzz_client(const uint8_t *d, size_t n, size_t chunk)
{
	static const char cookie[] = "abcdefghijklmnopqrstuvwxyz234567abcd";
	static struct nb_ip3_client c;
	static struct nb_ip3_results mine;
	struct nb_ip3_params p;
	struct nb_ip3_step st;
	uint8_t out[512];
	size_t i = 0, k, used;

	nb_ip3_params_default(&p);
	/* half the runs ask for the server's report (kept, then let go) */
	p.get_server_output = (int)(chunk & 1);
	NB_FUZZ_CHECK(
		nb_ip3_client_init(&c, &p, cookie, rxbuf, sizeof(rxbuf)) == 0);
	nb_ip3_client_hello(&c, &st);
	NB_FUZZ_CHECK(st.act == NB_IP3_ACT_WRITE && st.out_len == 37);
	while (i < n) {
		k = chunk < n - i ? chunk : n - i;
		used = nb_ip3_client_input(&c, d + i, k, &st);
		NB_FUZZ_CHECK(used <= k);
		i += used;
		if (st.act == NB_IP3_ACT_ERROR) {
			NB_FUZZ_CHECK(c.phase == NB_IP3_C_FAILED);
			NB_FUZZ_CHECK(st.msg[0] != '\0');
			nb_ip3_client_release(&c);
			return;
		}
		NB_FUZZ_CHECK(used > 0);
		if (st.act == NB_IP3_ACT_RUNNING)
			nb_ip3_client_test_end(&c, &st);
		if (st.act == NB_IP3_ACT_SEND_RESULTS)
			NB_FUZZ_CHECK(nb_ip3_client_results(&c, &mine, out,
							    sizeof(out)) > 4);
		if (st.act == NB_IP3_ACT_DONE) {
			NB_FUZZ_CHECK(st.out_len == 1 &&
				      st.out[0] == NB_IP3_IPERF_DONE);
			NB_FUZZ_CHECK(st.peer == NULL);
		}
	}
	nb_ip3_client_eof(&c, &st);
	nb_ip3_client_release(&c);
}

static void
fuzz_server(const uint8_t *d, size_t n, size_t chunk)
{
	static struct nb_ip3_server s;
	static struct nb_ip3_results mine;
	struct nb_ip3_step st;
	uint8_t out[512];
	size_t i = 0, k, used;

	nb_ip3_server_init(&s, rxbuf, sizeof(rxbuf));
	while (i < n) {
		k = chunk < n - i ? chunk : n - i;
		used = nb_ip3_server_input(&s, d + i, k, &st);
		NB_FUZZ_CHECK(used <= k);
		i += used;
		if (st.act == NB_IP3_ACT_ERROR || st.act == NB_IP3_ACT_DONE)
			return;
		NB_FUZZ_CHECK(used > 0);
		if (st.act == NB_IP3_ACT_PARAMS) {
			NB_FUZZ_CHECK(st.params->parallel >= 1 &&
				      st.params->parallel <=
					      NB_IP3_MAX_STREAMS);
			nb_ip3_server_create_streams(&s, &st);
			nb_ip3_server_start(&s, &st);
			NB_FUZZ_CHECK(st.act == NB_IP3_ACT_WRITE);
		}
		if (st.act == NB_IP3_ACT_TEST_END)
			nb_ip3_server_exchange(&s, &st);
		if (st.act == NB_IP3_ACT_PEER_RESULTS)
			NB_FUZZ_CHECK(nb_ip3_server_results(&s, &mine, out,
							    sizeof(out)) > 5);
	}
}

static json_t *
text(const uint8_t *d, size_t n)
{
	char *s = nb_fuzz_str(d, n), msg[NB_IP3_MSG_LEN];
	json_t *o = nb_ip3_json_parse(s, n, msg, sizeof(msg));

	free(s);
	return o;
}

static void
fuzz_params(const uint8_t *d, size_t n)
{
	struct nb_ip3_params p, q;
	char msg[NB_IP3_MSG_LEN];
	json_t *o = text(d, n), *b;

	if (o == NULL)
		return;
	memset(&p, 0, sizeof(p));
	if (nb_ip3_params_parse(o, &p, msg, sizeof(msg)) == 0) {
		b = nb_ip3_params_json(&p);
		NB_FUZZ_CHECK(b != NULL);
		NB_FUZZ_CHECK(nb_ip3_params_parse(b, &q, msg, sizeof(msg)) ==
			      0);
		NB_FUZZ_CHECK(memcmp(&p, &q, sizeof(p)) == 0);
		json_decref(b);
	} else {
		NB_FUZZ_CHECK(msg[0] != '\0');
	}
	json_decref(o);
}

static void
fuzz_results(const uint8_t *d, size_t n)
{
	static struct nb_ip3_results r, q;
	char msg[NB_IP3_MSG_LEN];
	json_t *o = text(d, n), *b;

	if (o == NULL)
		return;
	if (nb_ip3_results_parse(o, &r, msg, sizeof(msg)) == 0) {
		NB_FUZZ_CHECK(r.nstreams <= NB_IP3_MAX_STREAMS);
		b = nb_ip3_results_json(&r);
		NB_FUZZ_CHECK(b != NULL);
		NB_FUZZ_CHECK(nb_ip3_results_parse(b, &q, msg, sizeof(msg)) ==
			      0);
		NB_FUZZ_CHECK(memcmp(&r, &q, sizeof(r)) == 0);
		json_decref(b);
	} else {
		NB_FUZZ_CHECK(msg[0] != '\0');
	}
	json_decref(o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t chunk;

	if (size < 2)
		return 0;
	buf = nb_fuzz_dup(data + 2, size - 2);
	/* chunks of 1..256 bytes */
	chunk = (size_t)data[1] + 1;
	switch (data[0] % 5) {
	case 0:
		fuzz_rx(buf, size - 2, chunk);
		break;
	case 1:
		fuzz_client(buf, size - 2, chunk);
		break;
	case 2:
		fuzz_params(buf, size - 2);
		break;
	case 3:
		fuzz_results(buf, size - 2);
		break;
	default:
		fuzz_server(buf, size - 2, chunk);
		break;
	}
	free(buf);
	return 0;
}
