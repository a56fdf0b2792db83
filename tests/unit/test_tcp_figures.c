/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP figures a user reads, each from a connection driven segment by
 * segment by hand (no simulated link: every time and every ACK chosen
 * here), so each can be checked exactly: the RTT estimator (RFC 6298) and
 * mean_rtt, Retr with a retransmitted FIN, the segments SACK recovery
 * lets out under cwnd (RFC 6675), and the report's per-interval
 * retransmits adding up to the end's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_tcp.h"
#include "nb_tcp_report.h"

#define MS	 1000000ull /* ns */
#define SEG	 1000	    /* the MSS both ends announce: 1000 B a segment */
#define ISS	 1000u	    /* ours */
#define IRS	 5000u	    /* the peer's */
#define PEER_WND 65535u

/*
 * A client that sends `bytes` then its FIN, opened at t = 0 and answered
 * at `synack_ns` (the first RTT sample), no window scaling, SACK on.  The
 * SYN it sent is checked and dropped.
 */
static void
open_client(struct nb_tcp_conn *c, uint64_t bytes, uint64_t synack_ns)
{
	struct nb_tcp_params p = {
		.iss = ISS,
		.mss = SEG,
		.rcv_wnd = 65535,
		.sack = 1,
		.send_bytes = bytes,
		.close_after_send = 1,
	};
	struct nb_tcp_seg s, in;

	nb_tcp_connect(c, &p, 0);
	assert_int_equal(nb_tcp_output(c, 0, &s), 1);
	assert_int_equal(s.flags, NB_TCP_SYN);
	memset(&in, 0, sizeof(in));
	in.seq = IRS;
	in.ack = ISS + 1;
	in.flags = NB_TCP_SYN | NB_TCP_ACK;
	in.wnd = PEER_WND;
	in.has_mss = 1;
	in.mss = SEG;
	in.sack_ok = 1;
	in.wscale = NB_TCP_WSCALE_NONE;
	nb_tcp_input(c, &in, synack_ns);
	assert_int_equal(c->state, NB_TCP_ESTABLISHED);
}

/* The peer's pure ACK of our stream offset `off` (1: the first data
 * byte), with SACK blocks [lo, hi) in stream offsets. */
static void
ack_in(struct nb_tcp_conn *c, uint64_t off, uint64_t now, unsigned int nb,
       const uint64_t blocks[][2])
{
	struct nb_tcp_seg in;
	unsigned int i;

	memset(&in, 0, sizeof(in));
	in.seq = IRS + 1;
	in.ack = ISS + (uint32_t)off;
	in.flags = NB_TCP_ACK;
	in.wnd = PEER_WND;
	in.wscale = NB_TCP_WSCALE_NONE;
	for (i = 0; i < nb; i++) {
		in.sack[i][0] = ISS + (uint32_t)blocks[i][0];
		in.sack[i][1] = ISS + (uint32_t)blocks[i][1];
	}
	in.nb_sack = (uint8_t)nb;
	nb_tcp_input(c, &in, now);
}

/* Everything c sends at now: how many data segments, the last in *last. */
static unsigned int
drain(struct nb_tcp_conn *c, uint64_t now, struct nb_tcp_seg *last)
{
	struct nb_tcp_seg s;
	unsigned int n = 0;

	memset(last, 0, sizeof(*last));
	while (nb_tcp_output(c, now, &s)) {
		if (s.len || (s.flags & NB_TCP_FIN))
			*last = s;
		n += s.len > 0;
	}
	return n;
}

/*
 * RFC 6298 2.2 and 2.3 from the samples 100 ms (the handshake) and 300 ms
 * (the first data segment):
 *   first:  SRTT = R = 100, RTTVAR = R/2 = 50,
 *           RTO = 100 + 4 x 50 = 300 ms (above the 200 ms floor)
 *   second: RTTVAR = 3/4 x 50 + 1/4 x |100 - 300| = 87.5,
 *           SRTT = 7/8 x 100 + 1/8 x 300 = 125,
 *           RTO = 125 + 4 x 87.5 = 475 ms
 * and iperf3's mean_rtt, the samples' mean: (100 + 300) / 2 = 200 ms.
 */
static void
test_rtt_estimator(void **state)
{
	struct nb_tcp_conn c;
	struct nb_tcp_endsnap e;
	struct nb_tcp_snap snap;
	struct nb_tcp_seg last;
	json_t *o, *snd;

	(void)state;
	open_client(&c, 10 * SEG, 100 * MS);
	assert_int_equal(c.st.rtt_samples, 1);
	assert_int_equal(c.srtt_ns, 100 * MS);
	assert_int_equal(c.rttvar_ns, 50 * MS);
	assert_int_equal(c.rto_ns, 300 * MS);
	/* the initial window, 10 segments (RFC 6928), and the FIN; the
	 * first segment is the one timed */
	assert_int_equal(drain(&c, 100 * MS, &last), 10);
	assert_true(last.flags & NB_TCP_FIN);
	ack_in(&c, 1 + SEG, 400 * MS, 0, NULL);
	assert_int_equal(c.st.rtt_samples, 2);
	assert_int_equal(c.srtt_ns, 125 * MS);
	assert_int_equal(c.rttvar_ns, 87500000);
	assert_int_equal(c.rto_ns, 475 * MS);
	/* the retransmission timer: the ACK rearmed it, one RTO on */
	assert_int_equal(nb_tcp_next_event(&c), 400 * MS + 475 * MS);
	assert_int_equal(c.st.rtt_sum_ns, 400 * MS);

	nb_tcp_endsnap_of(&c, &e);
	assert_int_equal(e.srtt_ns, 125 * MS);
	assert_int_equal(e.rttvar_ns, 87500000);
	assert_int_equal(e.rtt_sum_ns, 400 * MS);
	nb_tcp_snap_pair(&e, NULL, &snap);
	o = nb_tcp_json_end_stream(1, 1.0, 1.0, &snap);
	snd = json_object_get(o, "sender");
	assert_int_equal(json_integer_value(json_object_get(snd, "mean_rtt")),
			 200000); /* us */
	assert_int_equal(json_integer_value(json_object_get(snd, "min_rtt")),
			 100000);
	assert_int_equal(json_integer_value(json_object_get(snd, "max_rtt")),
			 300000);
	json_decref(o);
	o = nb_tcp_json_iv_stream(1, 0, 1.0, &(struct nb_tcp_snap){0}, &snap);
	assert_int_equal(json_integer_value(json_object_get(o, "rtt")), 125000);
	assert_int_equal(json_integer_value(json_object_get(o, "rttvar")),
			 87500);
	json_decref(o);
}

/* A peer's end carries no sum of its samples: mean_rtt is its smoothed
 * RTT then, not 0. */
static void
test_mean_rtt_of_peer(void **state)
{
	struct nb_tcp_snap s;
	json_t *o;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.rtt_samples = 4;
	s.srtt_ns = 250 * MS;
	o = nb_tcp_json_end_stream(1, 1.0, 1.0, &s);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "mean_rtt")),
			 250000);
	json_decref(o);
	s.rtt_sum_ns = 4 * 90 * MS; /* 90 ms each */
	o = nb_tcp_json_end_stream(1, 1.0, 1.0, &s);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(o, "sender"), "mean_rtt")),
			 90000);
	json_decref(o);
}

/*
 * Two segments and the FIN go out at 100 ms; the peer acks both segments
 * at 400 ms but not the FIN.  At the RTO (400 + 475 ms, from the samples
 * of test_rtt_estimator) the FIN alone goes again: Retr is 1, and it is
 * the only retransmission.
 */
static void
test_fin_retransmit_counted(void **state)
{
	struct nb_tcp_conn c;
	struct nb_tcp_endsnap e;
	struct nb_tcp_seg last;
	uint64_t due;

	(void)state;
	open_client(&c, 2 * SEG, 100 * MS);
	assert_int_equal(drain(&c, 100 * MS, &last), 2);
	assert_int_equal(last.flags & NB_TCP_FIN, NB_TCP_FIN);
	assert_int_equal(last.seq, ISS + 1 + 2 * SEG);
	assert_int_equal(c.state, NB_TCP_FIN_WAIT_1);
	assert_int_equal(c.st.retrans, 0);
	ack_in(&c, 1 + 2 * SEG, 400 * MS, 0, NULL);
	assert_int_equal(c.state, NB_TCP_FIN_WAIT_1);
	due = nb_tcp_next_event(&c);
	assert_int_equal(due, 875 * MS);
	/* nothing before the timer */
	assert_int_equal(nb_tcp_output(&c, due - 1, &last), 0);
	memset(&last, 0, sizeof(last));
	assert_int_equal(drain(&c, due, &last), 0);
	assert_int_equal(last.flags & NB_TCP_FIN, NB_TCP_FIN);
	assert_int_equal(last.seq, ISS + 1 + 2 * SEG);
	assert_int_equal(last.rexmit, 1);
	assert_int_equal(c.st.rto_fired, 1);
	assert_int_equal(c.st.retrans, 1);
	assert_int_equal(c.st.retrans_bytes, 0);
	nb_tcp_endsnap_of(&c, &e);
	assert_int_equal(e.retrans, 1);
	/* the FIN's ACK ends it */
	ack_in(&c, 2 + 2 * SEG, 900 * MS, 0, NULL);
	assert_int_equal(c.state, NB_TCP_FIN_WAIT_2);
}

/* RFC 6675's pipe, recomputed here from the scoreboard (SetPipe): the
 * flight less what is SACKed, less the holes not yet sent again. */
static uint64_t
pipe_of(const struct nb_tcp_conn *c)
{
	uint64_t pipe = c->snd_max - c->snd_una, from, i;

	from = c->rexmit_hi > c->snd_una ? c->rexmit_hi : c->snd_una;
	for (i = 0; i < c->nb_sacked; i++) {
		pipe -= c->sacked[i].hi - c->sacked[i].lo;
		if (c->sacked[i].lo > from)
			pipe -= c->sacked[i].lo - from;
		if (c->sacked[i].hi > from)
			from = c->sacked[i].hi;
	}
	return pipe;
}

/*
 * Ten segments out (offsets 1 to 10001); the first is lost and the peer's
 * duplicate ACKs SACK the next seven, one more each.  The third enters
 * recovery: ssthresh = cwnd = flight / 2 = 5000 (RFC 6675 5, no
 * inflation).  Then, at once: the lost segment again (snd_una, by the
 * fast retransmit), and new data while pipe + SEG <= cwnd: the pipe is
 * the retransmission and segments 9 and 10, 3000 B, so two new segments
 * (pipe 4000, then 5000) and no third.
 */
static void
test_sack_recovery_within_cwnd(void **state)
{
	struct nb_tcp_conn c;
	struct nb_tcp_seg s;
	uint64_t blk[1][2], t = 300 * MS;
	unsigned int k, fresh = 0, resent = 0;

	(void)state;
	open_client(&c, 100 * SEG, 100 * MS);
	assert_int_equal(drain(&c, 100 * MS, &s), 10);
	assert_int_equal(c.snd_max, 1 + 10 * SEG);
	for (k = 1; k <= 7; k++) {
		blk[0][0] = 1 + SEG;
		blk[0][1] = 1 + (1 + k) * SEG;
		ack_in(&c, 1, t, 1, blk);
		assert_int_equal(c.in_recovery, k >= 3);
	}
	assert_int_equal(c.st.recoveries, 1);
	assert_int_equal(c.ssthresh, 5 * SEG);
	assert_int_equal(c.cwnd, 5 * SEG);
	assert_int_equal(c.sacked_bytes, 7 * SEG);
	while (nb_tcp_output(&c, t, &s)) {
		assert_true(s.len == SEG);
		if (s.rexmit) {
			assert_int_equal(s.seq, ISS + 1);
			resent++;
		} else {
			assert_int_equal(s.seq, ISS + 1 + (10 + fresh) * SEG);
			fresh++;
		}
		/* never more in the network than cwnd */
		assert_true(pipe_of(&c) <= c.cwnd);
	}
	assert_int_equal(resent, 1);
	assert_int_equal(fresh, 2);
	assert_int_equal(pipe_of(&c), 5 * SEG);
	assert_int_equal(c.st.retrans, 1);
	assert_int_equal(c.st.fast_retrans, 1);
	/* an eighth SACK (segment 9) takes one segment out of the pipe: one
	 * new segment may go, and only one */
	blk[0][1] = 1 + 9 * SEG;
	ack_in(&c, 1, t + MS, 1, blk);
	assert_int_equal(pipe_of(&c), 4 * SEG);
	assert_int_equal(nb_tcp_output(&c, t + MS, &s), 1);
	assert_int_equal(s.seq, ISS + 1 + 12 * SEG);
	assert_int_equal(nb_tcp_output(&c, t + MS, &s), 0);
}

/*
 * iperf3's per-interval retransmits are each interval's own; their sum is
 * the end's.  Snapshots with 3 retransmissions by 1 s and 7 by 2 s: the
 * intervals say 3 and 4, the end 7.
 */
static void
test_interval_retransmits(void **state)
{
	struct nb_tcp_snap s0, s1, s2;
	json_t *a, *b, *end;
	json_int_t r1, r2, total;

	(void)state;
	memset(&s0, 0, sizeof(s0));
	s1 = s0;
	s1.retrans = 3;
	s1.acked = 1000000;
	s2 = s1;
	s2.retrans = 7;
	s2.acked = 2500000;
	a = nb_tcp_json_iv_stream(1, 0, 1.0, &s0, &s1);
	b = nb_tcp_json_iv_stream(1, 1.0, 2.0, &s1, &s2);
	end = nb_tcp_json_end_stream(1, 2.0, 2.0, &s2);
	r1 = json_integer_value(json_object_get(a, "retransmits"));
	r2 = json_integer_value(json_object_get(b, "retransmits"));
	total = json_integer_value(
		json_object_get(json_object_get(end, "sender"), "retransmits"));
	assert_int_equal(r1, 3);
	assert_int_equal(r2, 4);
	assert_int_equal(total, 7);
	assert_int_equal(r1 + r2, total);
	assert_int_equal(json_integer_value(json_object_get(b, "bytes")),
			 1500000);
	json_decref(a);
	json_decref(b);
	json_decref(end);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtt_estimator),
		cmocka_unit_test(test_mean_rtt_of_peer),
		cmocka_unit_test(test_fin_retransmit_counted),
		cmocka_unit_test(test_sack_recovery_within_cwnd),
		cmocka_unit_test(test_interval_retransmits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
