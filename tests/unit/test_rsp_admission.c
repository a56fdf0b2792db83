/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder's admission (app/peer/nb_responder.c, nb_session.c,
 * app/control/nb_ctlio.c, all real): nb_responder_main runs on the fake
 * port under pmd_glue's seam (nb_fake_port.h) while fake clients written
 * here with the core codec send it HELLOs and PARAMS, one step per nap of
 * its loop; the last step ends the loop as SIGINT would.  What it refused
 * comes from its exit summary (nb_rsp_report_refusals, captured).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nb_fake_port.h"
#include "nb_frame.h"
#include "nb_policy.h"
#include "nb_responder.h"

/* the responder's default address */
#define RSP_IP NB_DEFAULT_DST_IP

struct cli {
	uint8_t mac[6];
	uint32_t ip;
	uint32_t session, seq;
	uint8_t cn[NB_AUTH_NONCE];
	uint8_t cookie[NB_AUTH_NONCE]; /* the WELCOME's */
	uint32_t welcome_seq;
	int welcomes; /* WELCOMEs received whose tag checked */
};

static struct cli A = {{0x02, 0, 0, 0, 0, 0x0a}, 0xc6120001u, 0x1001, 500};
static struct cli B = {{0x02, 0, 0, 0, 0, 0x0b}, 0xc6120002u, 0x2001, 900};
static uint8_t psk[64], wrong_psk[64];
static uint32_t psk_len, wrong_len;

/* the responder's exit summary */
static struct nb_refusals refused;

void __wrap_nb_rsp_report_refusals(const struct nb_refusals *r);
void
__wrap_nb_rsp_report_refusals(const struct nb_refusals *r)
{
	refused = *r;
}

/* --- the fake clients --- */

static void
cli_reset(struct cli *c, uint8_t fill)
{
	memset(c->cn, fill, sizeof(c->cn));
	memset(c->cookie, 0, sizeof(c->cookie));
	c->welcome_seq = 0;
	c->welcomes = 0;
}

/* A HELLO tagged with key k (as a client with that --auth-key; flag_key
 * as it says whether it has one). */
static void
cli_hello(struct cli *c, const uint8_t *k, uint32_t klen, int flag_key)
{
	struct nb_ctl_msg m;
	struct nb_auth h;

	nb_ctl_msg_init(&m, NB_CTL_HELLO, c->session);
	m.seq = c->seq;
	snprintf(m.u.conf.host, sizeof(m.u.conf.host), "fake-client");
	memcpy(m.u.conf.mac, c->mac, 6);
	m.u.conf.ipv4 = c->ip;
	memcpy(m.u.conf.nonce, c->cn, sizeof(c->cn));
	m.u.conf.flags = flag_key ? NB_CTL_CONF_F_KEY : 0;
	nb_auth_hello_key(&h, k, klen, c->cn, c->session);
	fake_rx_msg(c->mac, c->ip, fake_mac, RSP_IP, &m, &h);
}

/* A PARAMS bringing back cookie, tagged under the session key that
 * cookie and key k imply. */
static void
cli_params_k(struct cli *c, const uint8_t cookie[NB_AUTH_NONCE],
	     uint32_t dur_ms, uint64_t pps, const uint8_t *k, uint32_t klen)
{
	struct nb_ctl_msg m;
	struct nb_auth a;
	struct nb_ctl_params *p = &m.u.params;

	nb_ctl_msg_init(&m, NB_CTL_PARAMS, c->session);
	m.seq = c->seq + 1;
	p->direction = NB_CTL_DIR_FORWARD;
	p->proto = NB_IPPROTO_UDP;
	p->streams = 1;
	p->nb_sizes = 1;
	p->sizes[0] = 64;
	p->nb_pattern = 1;
	p->rate_num = pps;
	p->rate_den = 1;
	p->duration_ms = dur_ms;
	p->client_ip = c->ip;
	p->responder_ip = RSP_IP;
	memcpy(p->client_mac, c->mac, 6);
	memcpy(p->responder_mac, fake_mac, 6);
	p->sport_base = NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
	memcpy(p->proof.client_nonce, c->cn, sizeof(c->cn));
	memcpy(p->proof.cookie, cookie, NB_AUTH_NONCE);
	nb_auth_derive(&a, k, klen, c->cn, cookie, c->session);
	fake_rx_msg(c->mac, c->ip, fake_mac, RSP_IP, &m, &a);
}

/* The same, under the responder's key. */
static void
cli_params(struct cli *c, const uint8_t cookie[NB_AUTH_NONCE], uint32_t dur_ms,
	   uint64_t pps)
{
	cli_params_k(c, cookie, dur_ms, pps, psk, psk_len);
}

/* Frames the responder sent to c since frame `from`, decoded. */
static unsigned int
answers(const struct cli *c, unsigned int from, struct nb_ctl_msg *out,
	struct nb_udp_info *uo, unsigned int max)
{
	struct nb_udp_info u;
	unsigned int i, n = 0;

	for (i = from; i < fake_nsent; i++) {
		if (fake_decode(&fake_sent[i], &u, &out[n]) != 0 ||
		    memcmp(u.dst_mac, c->mac, 6) != 0)
			continue;
		assert_memory_equal(u.src_mac, fake_mac, 6);
		assert_int_equal(u.src_ip, RSP_IP);
		assert_int_equal(u.dst_ip, c->ip);
		if (uo != NULL)
			uo[n] = u;
		if (++n == max)
			break;
	}
	return n;
}

/* A WELCOME to c: its cookie kept, its tag checked under the session
 * key that cookie implies. */
static void
on_tx(const struct fake_frame *f)
{
	struct nb_udp_info u;
	struct nb_ctl_msg m;
	struct nb_auth a;
	struct cli *c;

	if (fake_decode(f, &u, &m) != 0 || m.type != NB_CTL_WELCOME)
		return;
	c = memcmp(u.dst_mac, A.mac, 6) == 0 ? &A : &B;
	assert_int_equal(m.session, c->session);
	memcpy(c->cookie, m.u.conf.nonce, NB_AUTH_NONCE);
	c->welcome_seq = m.seq;
	nb_auth_derive(&a, psk, psk_len, c->cn, c->cookie, c->session);
	assert_true(m.tagged);
	assert_true(nb_auth_verify(&a, u.payload, u.payload_len));
	c->welcomes++;
}

/* --- the script: one step a nap, then the loop ends --- */

typedef void (*step_fn)(void);
static const step_fn *script;
static unsigned int nsteps, step;
/* fake_nsent when the previous step began: a step finds the answers to
 * the previous one's frames from there on */
static unsigned int mark, mark_next;

static void
on_nap(void)
{
	if (step == nsteps) {
		nb_force_quit = 1;
		return;
	}
	mark = mark_next;
	mark_next = fake_nsent;
	script[step++]();
}

static char key_dir[64], key_path[128];

static int
run_responder(const step_fn *s, unsigned int n, int no_auth)
{
	static struct nb_app app;
	char *argv[8] = {"--"};
	int argc = 1;

	if (no_auth) {
		argv[argc++] = "--no-auth";
	} else {
		argv[argc++] = "--auth-key";
		argv[argc++] = key_path;
	}
	assert_int_equal(fake_app(&app, argc, argv, stdout), 0);
	memcpy(psk, app.cfg.psk, app.cfg.psk_len);
	psk_len = app.cfg.psk_len;
	script = s;
	nsteps = n;
	step = 0;
	mark = mark_next = 0;
	return nb_responder_main(&app);
}

static int
setup(void **state)
{
	char why[256];
	uint8_t k[64];
	uint32_t len;

	(void)state;
	fake_port_reset();
	fake_on_tx = on_tx;
	fake_on_nap = on_nap;
	memset(&refused, 0xff, sizeof(refused));
	cli_reset(&A, 0xa1);
	cli_reset(&B, 0xb1);
	snprintf(key_dir, sizeof(key_dir), "/tmp/nb-rsp-XXXXXX");
	assert_non_null(mkdtemp(key_dir));
	assert_int_equal(nb_auth_make_key(key_dir, "k", k, &len, key_path,
					  sizeof(key_path), why, sizeof(why)),
			 0);
	/* another key of the same length, for the wrong-key client */
	memset(wrong_psk, 'W', 44);
	wrong_len = 44;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(key_path);
	rmdir(key_dir);
	return 0;
}

/* Only these causes counted, each as often as given (-1 ends). */
static void
assert_refused(const int *cause_count)
{
	uint64_t want[NB_REF_MAX] = {0};
	int c;

	for (; cause_count[0] >= 0; cause_count += 2)
		want[cause_count[0]] = (uint64_t)cause_count[1];
	for (c = 0; c < NB_REF_MAX; c++) {
		if (refused.count[c] != want[c])
			fail_msg("refusals of cause %s: %llu, expected %llu",
				 nb_refusal_name((enum nb_refusal)c),
				 (unsigned long long)refused.count[c],
				 (unsigned long long)want[c]);
	}
}

/* --- cookie --- */

static uint8_t bad_cookie[NB_AUTH_NONCE];

static void
ck_hello(void)
{
	cli_hello(&A, psk, psk_len, 1);
}

static void
ck_wrong_cookie(void)
{
	struct nb_ctl_msg m[4];

	/* the HELLO was answered by one WELCOME, with a cookie */
	assert_int_equal(answers(&A, 0, m, NULL, 4), 1);
	assert_int_equal(m[0].type, NB_CTL_WELCOME);
	assert_int_equal(A.welcomes, 1);
	memcpy(bad_cookie, A.cookie, sizeof(bad_cookie));
	bad_cookie[NB_AUTH_NONCE - 1] ^= 1;
	cli_params(&A, bad_cookie, 1000, 1000);
}

/* The right cookie, but a tag under another key: refused silently. */
static void
ck_wrong_tag(void)
{
	struct nb_ctl_msg m[4];

	/* nothing at all for a wrong cookie */
	assert_int_equal(answers(&A, mark, m, NULL, 4), 0);
	cli_params_k(&A, A.cookie, 1000, 1000, wrong_psk, wrong_len);
}

static void
ck_right_cookie(void)
{
	struct nb_ctl_msg m[4];

	assert_int_equal(answers(&A, mark, m, NULL, 4), 0);
	cli_params(&A, A.cookie, 1000, 1000);
}

static void
ck_accepted(void)
{
	struct nb_ctl_msg m[4];

	/* the PARAMS ACKed, then ACCEPT: the message after the WELCOME */
	assert_int_equal(answers(&A, mark, m, NULL, 4), 2);
	assert_int_equal(m[0].type, NB_CTL_ACK);
	assert_int_equal(m[0].seq, A.seq + 1);
	assert_int_equal(m[1].type, NB_CTL_ACCEPT);
	assert_int_equal(m[1].seq, A.welcome_seq + 1);
	assert_int_equal(m[1].session, A.session);
	assert_true(m[1].tagged);
}

static void
test_cookie(void **state)
{
	static const step_fn s[] = {ck_hello, ck_wrong_cookie, ck_wrong_tag,
				    ck_right_cookie, ck_accepted};
	static const int want[] = {NB_REF_COOKIE, 1, NB_REF_TAG, 1, -1};

	(void)state;
	assert_int_equal(run_responder(s, 5, 0), 0);
	assert_int_equal(step, 5);
	assert_refused(want);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* --- key --- */

static void
key_wrong(void)
{
	cli_hello(&A, wrong_psk, wrong_len, 1);
}

static void
key_none(void)
{
	struct nb_ctl_msg m[4];
	struct nb_udp_info u[4];

	assert_int_equal(answers(&A, mark, m, u, 4), 1);
	assert_int_equal(m[0].type, NB_CTL_REJECT);
	assert_false(m[0].tagged);
	assert_int_equal(m[0].session, A.session);
	assert_int_equal(m[0].seq, 1);
	assert_int_equal(m[0].u.reject.code, NB_CTL_CODE_AUTH);
	assert_string_equal(m[0].u.reject.reason,
			    "wrong key: the client's --auth-key is not this "
			    "responder's");
	/* a keyless client: no key flag, the keyless tag */
	cli_hello(&B, NULL, 0, 0);
}

static void
key_done(void)
{
	struct nb_ctl_msg m[4];

	assert_int_equal(answers(&B, mark, m, NULL, 4), 1);
	assert_int_equal(m[0].type, NB_CTL_REJECT);
	assert_int_equal(m[0].u.reject.code, NB_CTL_CODE_AUTH);
	assert_string_equal(m[0].u.reject.reason,
			    "this responder serves key holders only: give "
			    "the client --auth-key FILE, a copy of the key "
			    "its start-up line names");
	assert_int_equal(A.welcomes + B.welcomes, 0);
}

static void
test_key(void **state)
{
	static const step_fn s[] = {key_wrong, key_none, key_done};
	static const int want[] = {NB_REF_BAD_KEY, 1, NB_REF_NO_KEY, 1, -1};

	(void)state;
	assert_int_equal(run_responder(s, 3, 0), 0);
	assert_int_equal(step, 3);
	assert_refused(want);
	assert_int_equal(fake_mbufs_out(), 0);
}

/* --- caps (--no-auth: 60 s, 1 Gbit/s at L1) --- */

static void
caps_hello(void)
{
	cli_hello(&A, NULL, 0, 0);
}

static void
caps_too_long(void)
{
	assert_int_equal(A.welcomes, 1);
	/* 120 s against --max-time's 60 */
	cli_params(&A, A.cookie, 120000, 1000);
}

static void
caps_rejected(void)
{
	struct nb_ctl_msg m[4];

	assert_int_equal(answers(&A, mark, m, NULL, 4), 2);
	assert_int_equal(m[0].type, NB_CTL_ACK);
	assert_int_equal(m[1].type, NB_CTL_REJECT);
	assert_true(m[1].tagged);
	assert_int_equal(m[1].seq, A.welcome_seq + 1);
	assert_int_equal(m[1].u.reject.code, NB_CTL_CODE_PARAMS);
	assert_string_equal(m[1].u.reject.reason,
			    "120.000 s asked (with warm-up); this responder "
			    "runs tests of at most 60 s (--max-time)");
}

static void
test_caps(void **state)
{
	static const step_fn s[] = {caps_hello, caps_too_long, caps_rejected};
	static const int want[] = {-1};

	(void)state;
	assert_int_equal(run_responder(s, 3, 1), 0);
	assert_int_equal(step, 3);
	assert_refused(want);
	assert_int_equal(fake_mbufs_out(), 0);
}

/*
 * The rate cap: 2,000,000 frames/s of 64 B is 2e6 * (64 + 20) * 8 =
 * 1.344e9 bit/s at L1, over --no-auth's 1e9.
 */
static void
rate_too_fast(void)
{
	assert_int_equal(A.welcomes, 1);
	cli_params(&A, A.cookie, 1000, 2000000);
}

static void
rate_rejected(void)
{
	struct nb_ctl_msg m[4];

	assert_int_equal(answers(&A, mark, m, NULL, 4), 2);
	assert_int_equal(m[1].type, NB_CTL_REJECT);
	assert_int_equal(m[1].u.reject.code, NB_CTL_CODE_PARAMS);
	assert_string_equal(m[1].u.reject.reason,
			    "1.344e+09 bit/s (L1) asked; this responder takes "
			    "at most 1e+09 bit/s (L1) (--max-rate)");
}

static void
test_caps_rate(void **state)
{
	static const step_fn s[] = {caps_hello, rate_too_fast, rate_rejected};
	static const int want[] = {-1};

	(void)state;
	assert_int_equal(run_responder(s, 3, 1), 0);
	assert_int_equal(step, 3);
	assert_refused(want);
}

/* --- busy --- */

static void
busy_a_params(void)
{
	assert_int_equal(A.welcomes, 1);
	cli_params(&A, A.cookie, 1000, 1000);
}

static void
busy_b_hello(void)
{
	ck_accepted(); /* A's session is open */
	cli_hello(&B, psk, psk_len, 1);
}

static void
busy_answered(void)
{
	struct nb_ctl_msg m[4];
	struct nb_udp_info u[4];

	assert_int_equal(answers(&B, mark, m, u, 4), 1);
	assert_int_equal(m[0].type, NB_CTL_BUSY);
	assert_false(m[0].tagged);
	assert_int_equal(m[0].session, B.session);
	assert_int_equal(m[0].seq, 1);
	assert_int_equal(m[0].u.busy.asked_session, B.session);
	assert_string_equal(m[0].u.busy.reason,
			    "busy with a test for another client");
	assert_int_equal(B.welcomes, 0);
	/* A's session goes on: nothing more was sent to A */
	assert_int_equal(answers(&A, mark, m, NULL, 4), 0);
}

static void
test_busy(void **state)
{
	static const step_fn s[] = {ck_hello, busy_a_params, busy_b_hello,
				    busy_answered};
	static const int want[] = {NB_REF_BUSY, 1, -1};
	struct nb_ctl_msg m[8];
	unsigned int n;

	(void)state;
	assert_int_equal(run_responder(s, 4, 0), 0);
	assert_int_equal(step, 4);
	assert_refused(want);
	/* interrupted with A's session open: A is told, in its session */
	n = answers(&A, 0, m, NULL, 8);
	assert_int_equal(m[n - 1].type, NB_CTL_ERROR);
	assert_int_equal(m[n - 1].session, A.session);
	assert_string_equal(m[n - 1].u.error.reason,
			    "the responder was interrupted");
	assert_int_equal(fake_mbufs_out(), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cookie, setup, teardown),
		cmocka_unit_test_setup_teardown(test_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caps_rate, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_busy, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
