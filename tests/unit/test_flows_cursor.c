/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows at the receiver: a stream's flow cursor (nb_flow_rx_step and
 * nb_flow_rx_count, app/core/nb_flows_rx.h) driven as the sink drives it,
 * by the stream's sequence tracker (nb_seq).  Each frame is given as the
 * number n it stands for; the wire carries n's 48 low bits, and the
 * expected flow is n % nflows, computed here from n, never from what the
 * tracker or the cursor returned.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nb_flows_rx.h"
#include "nb_seq.h"

#define MAXF 16

struct walk {
	struct nb_seq seq;
	uint32_t nflows, cur;
	struct nb_flow_cnt flows[MAXF];
	struct nb_flow_cnt_ext ext[MAXF];
	struct nb_flow_rx rx[MAXF]; /* walk_check's reading */
	uint64_t want_new[MAXF], want_dups[MAXF];
};

static void
walk_init(struct walk *w, uint32_t nflows, uint64_t start)
{
	uint32_t k;

	memset(w, 0, sizeof(*w));
	nb_seq_init(&w->seq, start);
	w->nflows = nflows;
	w->cur = (uint32_t)(start % nflows);
	for (k = 0; k < MAXF; k++)
		nb_flow_cnt_init(&w->flows[k], &w->ext[k]);
}

/*
 * Frame n arrives (is_new: what the test knows it is).  The tracker
 * unwraps its wire number; the cursor must give n's flow, and afterwards
 * hold the flow of the number the tracker expects next.
 */
static void
walk_frame(struct walk *w, uint64_t n, int is_new)
{
	uint64_t u, expected = w->seq.next;
	uint32_t cur = w->cur, k;
	int got_new = nb_seq_update_u(&w->seq, n & NB_SEQ_MASK, &u);

	assert_true(u == n);
	assert_int_equal(got_new, is_new);
	k = nb_flow_rx_step(&cur, w->nflows, u, expected);
	assert_int_equal(k, n % w->nflows);
	assert_int_equal(cur, w->seq.next % w->nflows);
	/* the counting call steps the same way and counts flow k */
	nb_flow_rx_count(w->flows, w->ext, w->nflows, &w->cur, u, expected,
			 got_new, 100);
	assert_int_equal(w->cur, cur);
	if (is_new)
		w->want_new[n % w->nflows]++;
	else
		w->want_dups[n % w->nflows]++;
}

/* Each flow's counts, read as the report reads them. */
static void
walk_check(struct walk *w)
{
	uint32_t k;

	for (k = 0; k < w->nflows; k++) {
		nb_flow_cnt_read(&w->flows[k], &w->ext[k], &w->rx[k]);
		assert_int_equal(w->rx[k].unique, w->want_new[k]);
		assert_int_equal(w->rx[k].dups, w->want_dups[k]);
	}
}

/* Frames n[0..count) in turn; is_new[i] as walk_frame's (NULL: all new),
 * then each flow's counts checked. */
static void
walk_frames(struct walk *w, const uint64_t *n, const int *is_new,
	    unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		walk_frame(w, n[i], is_new == NULL || is_new[i]);
	walk_check(w);
}

static void
test_in_order(void **state)
{
	struct walk w;
	uint64_t n;

	(void)state;
	/* 5 flows (not a power of two), three rounds and a bit */
	walk_init(&w, 5, 0);
	for (n = 0; n < 17; n++)
		walk_frame(&w, n, 1);
	walk_check(&w);
	assert_int_equal(w.rx[0].unique, 4); /* 0, 5, 10, 15 */
	assert_int_equal(w.rx[2].unique, 3); /* 2, 7, 12 */
	assert_int_equal(w.rx[0].reordered, 0);
}

static void
test_gap(void **state)
{
	static const uint64_t frames[] = {0, 1, 2, 7, 8, 9, 30, 31, 32};
	struct walk w;

	(void)state;
	/* 3..6 and 10..29 lost: the cursor follows the frame after each
	 * gap, and counts on in order from it */
	walk_init(&w, 7, 0);
	walk_frames(&w, frames, NULL, sizeof(frames) / sizeof(frames[0]));
	assert_int_equal(w.rx[2].unique, 3); /* 2, 9, 30 */
	assert_int_equal(w.rx[3].unique, 1); /* 31 */
	assert_int_equal(w.rx[5].unique, 0);
}

static void
test_late_and_dups(void **state)
{
	/* 4 and 3 late (below the cursor's number), 1 and 4 again */
	static const uint64_t frames[] = {0, 1, 2, 5, 6, 4, 3, 7, 1, 4, 8};
	static const int is_new[] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1};
	struct walk w;

	(void)state;
	walk_init(&w, 3, 0);
	walk_frames(&w, frames, is_new, sizeof(frames) / sizeof(frames[0]));
	/* flow 0 (0, 6, 3): 3 came after 6, reordered within the flow;
	 * flow 1 (1, 4, 7): 4 came late in the stream but after 1, in
	 * order within its flow */
	assert_int_equal(w.rx[0].reordered, 1);
	assert_int_equal(w.rx[1].reordered, 0);
	assert_int_equal(w.rx[1].dups, 2);
	assert_int_equal(w.rx[2].reordered, 0);
}

static void
test_wire_wrap(void **state)
{
	const uint64_t top = UINT64_C(1) << NB_SEQ_BITS;
	struct walk w;
	uint64_t n;

	(void)state;
	/* the 48-bit wire number wraps to 0 at 2^48; the tracker unwraps
	 * it to 64 bits, so the cursor sees 2^48, 2^48 + 1, ... and the
	 * flows go on as the sender's 64-bit count's: 2^48's flow is
	 * 2^48 mod 7, not 0.  Then a duplicate from before the wrap, a gap
	 * and a late frame over it. */
	walk_init(&w, 7, top - 6);
	for (n = top - 6; n < top + 5; n++)
		walk_frame(&w, n, 1);
	walk_frame(&w, top - 6, 0); /* a duplicate from before the wrap */
	walk_frame(&w, top + 9, 1);
	walk_frame(&w, top + 6, 1); /* late, over the gap */
	walk_frame(&w, top + 10, 1);
	walk_check(&w);
	assert_int_equal(top % 7, 1); /* so the wrap is not a flow boundary */
}

static void
test_one_flow(void **state)
{
	static const uint64_t frames[] = {0, 1, 5, 3, 3, 6, 2};
	static const int is_new[] = {1, 1, 1, 1, 0, 1, 1};
	struct walk w;

	(void)state;
	walk_init(&w, 1, 0);
	walk_frames(&w, frames, is_new, sizeof(frames) / sizeof(frames[0]));
	assert_int_equal(w.cur, 0);
	assert_int_equal(w.rx[0].unique, 6);
	assert_int_equal(w.rx[0].reordered, 2); /* 3 and 2 */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gap),
		cmocka_unit_test(test_late_and_dups),
		cmocka_unit_test(test_wire_wrap),
		cmocka_unit_test(test_one_flow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
