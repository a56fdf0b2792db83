/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The peer client's session (app/peer/nb_client.c, nb_session.c,
 * nb_client_io.c, app/control/nb_ctlio.c, all real) against a fake
 * responder written here with the core codec, on the fake port under
 * pmd_glue's seam (nb_fake_port.h).  The test's own data path (workers,
 * clock rounds, the report) is stubbed: this is HELLO to RESULTS and DONE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nb_client.h"
#include "nb_client_report.h"
#include "nb_fake_port.h"
#include "nb_frame.h"
#include "nb_session.h"

static const uint8_t rsp_mac[6] = {0x02, 0, 0, 0, 0, 0x02};
/* the client's defaults: --peer by MAC, from 198.18.0.1 to 198.19.0.1 */
#define CLI_IP	    NB_DEFAULT_SRC_IP
#define RSP_IP	    NB_DEFAULT_DST_IP
#define WELCOME_SEQ 1000u

/* The fake responder: what it does, and what it saw. */
static struct {
	uint8_t psk[64];
	uint32_t psk_len;
	int dead;	  /* answers nothing */
	int drop_welcome; /* WELCOMEs to lose before one goes out */
	int drop_results; /* RESULTS to lose before one goes out */
	int mute_after;	  /* answers nothing after its WELCOME */
	int wrong_key;	  /* holds another key than the client's */
	int ack_only;	  /* ACKs PARAMS, but sends no ACCEPT */
	uint8_t cookie[NB_AUTH_NONCE];
	uint8_t cn[NB_AUTH_NONCE];
	uint32_t session, next_seq;
	struct nb_auth a;
	struct nb_ctl_params params; /* the PARAMS it accepted */
	unsigned int bad_tags;	     /* messages whose tag failed */
	uint8_t blob[4096];
	int blob_len;
} R;

static struct nb_ctl_results_hdr sent_h;
static struct nb_ctl_stream_res sent_s;
/* what nb_client_report was given */
static struct nb_ctl_results_hdr got_h;
static struct nb_ctl_stream_res got_s;
static uint32_t got_n;
static int reported;

static void
rsp_send(struct nb_ctl_msg *m, const struct nb_auth *a)
{
	fake_rx_msg(rsp_mac, RSP_IP, fake_mac, CLI_IP, m, a);
}

static void
rsp_ack(uint32_t seq)
{
	struct nb_ctl_msg k;

	nb_ctl_msg_init(&k, NB_CTL_ACK, R.session);
	k.seq = seq;
	rsp_send(&k, &R.a);
}

static void
rsp_hello(const struct nb_udp_info *u, const struct nb_ctl_msg *m)
{
	struct nb_ctl_msg r;
	struct nb_auth h;

	nb_auth_hello_key(&h, R.psk, R.psk_len, m->u.conf.nonce, m->session);
	if (!nb_auth_verify(&h, u->payload, u->payload_len)) {
		R.bad_tags++;
		nb_ctl_msg_init(&r, NB_CTL_REJECT, m->session);
		r.seq = 1;
		r.u.reject.code = NB_CTL_CODE_AUTH;
		snprintf(r.u.reject.reason, sizeof(r.u.reject.reason),
			 "wrong key: the client's --auth-key is not this "
			 "responder's");
		rsp_send(&r, NULL);
		return;
	}
	if (R.drop_welcome > 0) {
		R.drop_welcome--;
		return;
	}
	R.session = m->session;
	memcpy(R.cn, m->u.conf.nonce, sizeof(R.cn));
	nb_ctl_msg_init(&r, NB_CTL_WELCOME, m->session);
	r.seq = WELCOME_SEQ;
	snprintf(r.u.conf.host, sizeof(r.u.conf.host), "fake-responder");
	r.u.conf.link_speed_mbps = 10000;
	memcpy(r.u.conf.mac, rsp_mac, 6);
	r.u.conf.ipv4 = RSP_IP;
	r.u.conf.flags = NB_CTL_CONF_F_KEY;
	memcpy(r.u.conf.nonce, R.cookie, sizeof(R.cookie));
	nb_auth_derive(&R.a, R.psk, R.psk_len, R.cn, R.cookie, R.session);
	R.next_seq = WELCOME_SEQ + 1;
	rsp_send(&r, &R.a);
}

/* Every frame the client sends reaches the responder at once. */
static void
rsp_on_tx(const struct fake_frame *f)
{
	struct nb_udp_info u;
	struct nb_ctl_msg m, r;

	if (R.dead || fake_decode(f, &u, &m) != 0)
		return;
	if (m.type == NB_CTL_HELLO) {
		rsp_hello(&u, &m);
		return;
	}
	if (R.mute_after)
		return;
	if (!nb_auth_verify(&R.a, u.payload, u.payload_len)) {
		R.bad_tags++;
		return;
	}
	switch (m.type) {
	case NB_CTL_PARAMS:
		R.params = m.u.params;
		if (R.ack_only) {
			rsp_ack(m.seq);
			break;
		}
		nb_ctl_msg_init(&r, NB_CTL_ACCEPT, R.session);
		r.seq = R.next_seq++;
		r.u.accept.rx_queues = 1;
		rsp_send(&r, &R.a);
		break;
	case NB_CTL_STOP:
	case NB_CTL_DONE:
		rsp_ack(m.seq);
		break;
	case NB_CTL_RESULTS_REQ:
		if (R.drop_results > 0) {
			/* lost on the way: its seq is the next answer's */
			R.drop_results--;
			break;
		}
		nb_ctl_msg_init(&r, NB_CTL_RESULTS, R.session);
		r.seq = R.next_seq++;
		assert_int_equal(nb_ctl_results_chunk(&r, R.blob,
						      (size_t)R.blob_len,
						      m.u.rreq.part),
				 0);
		rsp_send(&r, &R.a);
		break;
	default:
		break;
	}
}

/* --- the data path's part of the session, stubbed --- */

int __wrap_nb_client_run_test(struct nb_peer *pr, const struct nb_ctl_params *p,
			      int *code);
int
__wrap_nb_client_run_test(struct nb_peer *pr, const struct nb_ctl_params *p,
			  int *code)
{
	(void)pr;
	(void)p;
	*code = 0;
	return 0; /* ran to its end */
}

int __wrap_nb_client_report(struct nb_peer *pr, const struct nb_ctl_params *p,
			    const struct nb_ctl_results_hdr *h,
			    const struct nb_ctl_stream_res *res, uint32_t nres);
int
__wrap_nb_client_report(struct nb_peer *pr, const struct nb_ctl_params *p,
			const struct nb_ctl_results_hdr *h,
			const struct nb_ctl_stream_res *res, uint32_t nres)
{
	(void)pr;
	(void)p;
	got_h = *h;
	got_s = res[0];
	got_n = nres;
	reported = 1;
	return 0;
}

/* --- set-up --- */

static char key_dir[64], key_path[128];
static char json_buf[4096];

static void
make_key(void)
{
	uint8_t psk[64];
	uint32_t len;
	char why[256];

	snprintf(key_dir, sizeof(key_dir), "/tmp/nb-cli-XXXXXX");
	assert_non_null(mkdtemp(key_dir));
	assert_int_equal(nb_auth_make_key(key_dir, "k", psk, &len, key_path,
					  sizeof(key_path), why, sizeof(why)),
			 0);
}

/* Run the client with these options after the common ones; its exit
 * code, its --json document in json_buf. */
static int
run_client(const char *timeout, int json)
{
	static struct nb_app app;
	char *argv[16] = {"--",
			  "--peer",
			  "02:00:00:00:00:02",
			  "--time",
			  "1",
			  "--rate",
			  "1M",
			  "--peer-timeout",
			  (char *)timeout,
			  "--auth-key",
			  key_path};
	int argc = 11, code;
	FILE *out = tmpfile();
	size_t n;

	if (json)
		argv[argc++] = "--json";
	assert_non_null(out);
	assert_int_equal(fake_app(&app, argc, argv, out), 0);
	if (!R.wrong_key) {
		memcpy(R.psk, app.cfg.psk, app.cfg.psk_len);
		R.psk_len = app.cfg.psk_len;
	}
	code = nb_client_main(&app);
	fflush(out);
	rewind(out);
	n = fread(json_buf, 1, sizeof(json_buf) - 1, out);
	json_buf[n] = '\0';
	fclose(out);
	nb_result_free(&app.result);
	return code;
}

static int
setup(void **state)
{
	(void)state;
	fake_port_reset();
	memset(&R, 0, sizeof(R));
	memset(R.cookie, 0xc5, sizeof(R.cookie));
	fake_on_tx = rsp_on_tx;
	reported = 0;
	/* the responder's results: one stream, figures of our choosing */
	memset(&sent_h, 0, sizeof(sent_h));
	sent_h.tx_seconds_ns = 1000000000ull;
	sent_h.rx_seconds_ns = 1000250000ull;
	sent_h.rx_foreign = 3;
	memset(&sent_s, 0, sizeof(sent_s));
	sent_s.id = 0;
	sent_s.rx_pkts = 987654;
	sent_s.rx_unique = 987650;
	sent_s.rx_bytes = 987654ull * 64;
	sent_s.duplicates = 4;
	nb_hist_init(&sent_s.hist);
	R.blob_len = nb_ctl_results_write(&sent_h, &sent_s, 1, R.blob,
					  sizeof(R.blob));
	assert_true(R.blob_len > 0);
	return 0;
}

/* Decode sent frame i (which must be a control message). */
static struct nb_ctl_msg
sent_msg(unsigned int i, struct nb_udp_info *u)
{
	struct nb_ctl_msg m;

	assert_true(i < fake_nsent);
	assert_int_equal(fake_decode(&fake_sent[i], u, &m), 0);
	return m;
}

/* --- the cases --- */

/* HELLO, WELCOME, PARAMS, ACCEPT, STOP, RESULTS, DONE: each message of the
 * client in order, sequence numbers one after the other, the cookie
 * echoed, the results handed to the report as the responder sent them. */
static void
test_session_to_results(void **state)
{
	static const uint8_t types[] = {
		NB_CTL_HELLO, NB_CTL_ACK,	  NB_CTL_PARAMS, NB_CTL_ACK,
		NB_CTL_STOP,  NB_CTL_RESULTS_REQ, NB_CTL_ACK,	 NB_CTL_DONE};
	/* the ACKs answer WELCOME (1000), ACCEPT (1001), RESULTS (1002) */
	static const int64_t ack_of[] = {-1, 1000, -1, 1001, -1, -1, 1002, -1};
	struct nb_udp_info u;
	struct nb_ctl_msg m, hello;
	unsigned int i;
	uint32_t seq;

	(void)state;
	make_key();
	assert_int_equal(run_client("1", 0), 0);
	assert_int_equal(fake_nsent, 8);
	hello = sent_msg(0, &u);
	seq = hello.seq;
	for (i = 0; i < 8; i++) {
		m = sent_msg(i, &u);
		assert_int_equal(m.type, types[i]);
		assert_int_equal(m.session, hello.session);
		assert_true(m.tagged);
		assert_memory_equal(u.dst_mac, rsp_mac, 6);
		assert_memory_equal(u.src_mac, fake_mac, 6);
		if (ack_of[i] >= 0)
			assert_int_equal(m.seq, (uint32_t)ack_of[i]);
		else
			assert_int_equal(m.seq, seq++);
		if (m.type == NB_CTL_DONE)
			assert_int_equal(m.u.done.flags, NB_CTL_DONE_F_LEAVING);
	}
	assert_true(hello.session & 1);
	assert_int_equal(hello.u.conf.flags, NB_CTL_CONF_F_KEY);
	assert_int_equal(R.bad_tags, 0);
	/* PARAMS: the cookie of the WELCOME, the nonce of the HELLO */
	assert_memory_equal(R.params.proof.cookie, R.cookie, NB_AUTH_NONCE);
	assert_memory_equal(R.params.proof.client_nonce, hello.u.conf.nonce,
			    NB_AUTH_NONCE);
	assert_int_equal(R.params.duration_ms, 1000);
	assert_int_equal(R.params.streams, 1);
	assert_memory_equal(R.params.client_mac, fake_mac, 6);
	assert_memory_equal(R.params.responder_mac, rsp_mac, 6);
	assert_int_equal(R.params.client_ip, CLI_IP);
	assert_int_equal(R.params.responder_ip, RSP_IP);
	/* the results as sent */
	assert_true(reported);
	assert_int_equal(got_n, 1);
	assert_int_equal(got_h.tx_seconds_ns, 1000000000ull);
	assert_int_equal(got_h.rx_seconds_ns, 1000250000ull);
	assert_int_equal(got_h.rx_foreign, 3);
	assert_int_equal(got_s.rx_pkts, 987654);
	assert_int_equal(got_s.rx_unique, 987650);
	assert_int_equal(got_s.rx_bytes, 987654ull * 64);
	assert_int_equal(got_s.duplicates, 4);
	/* a zero-latency link: no retransmission, no time passed but the
	 * naps; every mbuf back in its pool */
	assert_int_equal(fake_count_sent(NB_CTL_HELLO), 1);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* The first WELCOME is lost: the client sends the same HELLO (the same
 * signed bytes) again after the minimum RTO, 20 ms, and finishes. */
static void
test_lost_welcome(void **state)
{
	struct nb_udp_info u0, u1;
	struct nb_ctl_msg h0, h1;

	(void)state;
	make_key();
	R.drop_welcome = 1;
	assert_int_equal(run_client("1", 0), 0);
	assert_int_equal(fake_count_sent(NB_CTL_HELLO), 2);
	h0 = sent_msg(0, &u0);
	h1 = sent_msg(1, &u1);
	assert_int_equal(h0.type, NB_CTL_HELLO);
	assert_int_equal(h1.type, NB_CTL_HELLO);
	assert_int_equal(u0.payload_len, u1.payload_len);
	assert_memory_equal(u0.payload, u1.payload, u0.payload_len);
	assert_int_equal(fake_sent[1].at_ns - fake_sent[0].at_ns, 20000000);
	assert_int_equal(fake_nsent, 9); /* the 8 of a session, and one */
	assert_true(reported);
	assert_int_equal(got_s.rx_pkts, 987654);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* The RESULTS is lost: the client asks again with the same RESULTS_REQ
 * after the minimum RTO (its RTT samples on this link are 0) and gets
 * the results. */
static void
test_lost_results(void **state)
{
	struct nb_udp_info u0, u1;
	unsigned int i, first = FAKE_FRAMES, second = FAKE_FRAMES;
	struct nb_ctl_msg m;

	(void)state;
	make_key();
	R.drop_results = 1;
	assert_int_equal(run_client("1", 0), 0);
	assert_int_equal(fake_count_sent(NB_CTL_RESULTS_REQ), 2);
	for (i = 0; i < fake_nsent; i++) {
		m = sent_msg(i, &u1);
		if (m.type != NB_CTL_RESULTS_REQ)
			continue;
		if (first == FAKE_FRAMES)
			first = i;
		else
			second = i;
	}
	sent_msg(first, &u0);
	sent_msg(second, &u1);
	assert_int_equal(second, first + 1);
	assert_int_equal(u0.payload_len, u1.payload_len);
	assert_memory_equal(u0.payload, u1.payload, u0.payload_len);
	assert_int_equal(fake_sent[second].at_ns - fake_sent[first].at_ns,
			 20000000);
	assert_true(reported);
	assert_int_equal(got_s.rx_unique, 987650);
	assert_int_equal(fake_mbufs_out(), 0);
}

/*
 * No responder: HELLO at 0, then after RTOs of 20, 40, 80, 160, 320 ms
 * (doubling, at most 400): at 20, 60, 140, 300, 620 ms; the link gives up
 * at --peer-timeout, 1 s exactly, and the client exits 1 with the
 * documented message (here in the --json error document).
 */
static void
test_dead_peer(void **state)
{
	static const uint64_t at_ms[] = {0, 20, 60, 140, 300, 620};
	uint64_t t0 = 1000000000ull;
	unsigned int i;

	(void)state;
	make_key();
	R.dead = 1;
	assert_int_equal(run_client("1", 1), 1);
	assert_int_equal(fake_nsent, 6);
	assert_int_equal(fake_count_sent(NB_CTL_HELLO), 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(fake_sent[i].at_ns - t0, at_ms[i] * 1000000);
	assert_int_equal(fake_now_ns - t0, 1000000000ull);
	assert_non_null(strstr(
		json_buf, "\"error\": \"peer 02:00:00:00:00:02 did not answer "
			  "within 1.0 s (is a dpdk-nbench responder running "
			  "there? see --peer-timeout)\""));
	assert_false(reported);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* The responder answers the HELLO, then nothing: the PARAMS goes 6 times
 * as the HELLO above, and at --peer-timeout the client gives up. */
static void
test_timeout_after_welcome(void **state)
{
	uint64_t t_params;

	(void)state;
	make_key();
	R.mute_after = 1;
	assert_int_equal(run_client("0.5", 1), 1);
	assert_int_equal(fake_count_sent(NB_CTL_HELLO), 1);
	/* within 0.5 s: at 0, 20, 60, 140, 300 ms */
	assert_int_equal(fake_count_sent(NB_CTL_PARAMS), 5);
	t_params = fake_sent[2].at_ns;
	assert_int_equal(fake_now_ns - t_params, 500000000ull);
	assert_non_null(strstr(json_buf, "\"error\": \"the responder stopped "
					 "answering\""));
	assert_false(reported);
	assert_int_equal(fake_mbufs_out(), 0);
}

/*
 * The responder ACKs the PARAMS and says nothing more: the client's link
 * has nothing to resend, and its wait for ACCEPT ends once --peer-timeout
 * has passed, at the first nap past it (naps of 50 us while a session is
 * set up): 0.5 s + 50 us after the PARAMS.
 */
static void
test_silence_after_ack(void **state)
{
	(void)state;
	make_key();
	R.ack_only = 1;
	assert_int_equal(run_client("0.5", 1), 1);
	assert_int_equal(fake_count_sent(NB_CTL_PARAMS), 1);
	assert_int_equal(fake_now_ns - fake_sent[2].at_ns, 500050000ull);
	assert_non_null(strstr(json_buf, "\"error\": \"the responder stopped "
					 "answering\""));
	assert_false(reported);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* A responder with another key: REJECT code 11 (NB_CTL_CODE_AUTH), which
 * the client says in clear at once, exit 1, without waiting out the
 * timeout. */
static void
test_wrong_key(void **state)
{
	(void)state;
	make_key();
	R.wrong_key = 1;
	memset(R.psk, 0x5a, 44);
	R.psk_len = 44;
	assert_int_equal(NB_CTL_CODE_AUTH, 11);
	assert_int_equal(run_client("1", 1), 1);
	assert_int_equal(fake_nsent, 1);
	assert_int_equal(R.bad_tags, 1);
	assert_non_null(strstr(json_buf,
			       "\"error\": \"the responder refused: wrong "
			       "key: the client's --auth-key is not this "
			       "responder's\""));
	/* answered at once: no retransmission, no timeout */
	assert_true(fake_now_ns - 1000000000ull < 20000000ull);
	assert_int_equal(fake_mbufs_out(), 0);
}

static int
teardown(void **state)
{
	(void)state;
	if (key_path[0] != '\0')
		unlink(key_path);
	if (key_dir[0] != '\0')
		rmdir(key_dir);
	key_path[0] = key_dir[0] = '\0';
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_session_to_results, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lost_welcome, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lost_results, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dead_peer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timeout_after_welcome,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_silence_after_ack, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wrong_key, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
