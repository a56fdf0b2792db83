/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for receiver sequence tracking (app/core/nb_seq.c): loss,
 * reorder, duplicates, late frames and 48-bit wrap, plus a randomized
 * comparison against a plain reference model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_seq.h"
#include "nb_test_util.h"

#define SEQ_WRAP (NB_SEQ_MASK + 1)

/* Feed the 48-bit wire form of start + off. */
static void
feed(struct nb_seq *t, uint64_t start, uint64_t off)
{
	nb_seq_update(t, (start + off) & NB_SEQ_MASK);
}

static void
feed_range(struct nb_seq *t, uint64_t start, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = from; i < to; i++)
		feed(t, start, i);
}

static void
assert_counts(const struct nb_seq *t, uint64_t received, uint64_t unique,
	      uint64_t ooo, uint64_t dups, uint64_t late, uint64_t lost)
{
	assert_int_equal(t->received, received);
	assert_int_equal(t->unique, unique);
	assert_int_equal(t->out_of_order, ooo);
	assert_int_equal(t->duplicates, dups);
	assert_int_equal(t->late, late);
	assert_int_equal(nb_seq_gap_lost(t), lost);
}

static void
test_init(void **state)
{
	struct nb_seq t;

	(void)state;
	memset(&t, 0xa5, sizeof(t));
	nb_seq_init(&t, 1234);
	assert_int_equal(t.start, 1234);
	assert_int_equal(t.next, 1234);
	assert_counts(&t, 0, 0, 0, 0, 0, 0);
}

static void
test_in_order(void **state)
{
	static const uint64_t starts[] = {0, 1, 1000, NB_SEQ_MASK / 2};
	struct nb_seq t;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		nb_seq_init(&t, starts[k]);
		feed_range(&t, starts[k], 0, 100000);
		assert_counts(&t, 100000, 100000, 0, 0, 0, 0);
		assert_int_equal(t.next, starts[k] + 100000);
	}
}

static void
test_gaps(void **state)
{
	struct nb_seq t;
	uint64_t i, sent = 0, lost = 0, last = 0;
	const uint64_t start = 77;

	(void)state;
	nb_seq_init(&t, start);
	for (i = 0; i < 20000; i++) {
		int drop = i % 7 == 3 ||	      /* single gaps */
			   (i >= 100 && i < 150) ||   /* short burst */
			   (i >= 2000 && i < 5000) || /* > window */
			   (i >= 6000 && i < 6000 + NB_SEQ_WINDOW) ||
			   (i >= 8000 && i < 8000 + NB_SEQ_WINDOW - 1) ||
			   (i >= 9000 && i < 9000 + NB_SEQ_WINDOW + 1);

		if (drop)
			continue;
		feed(&t, start, i);
		sent++;
		last = i;
	}
	/* Independently: every number up to the last sent that wasn't. */
	for (i = 0; i <= last; i++)
		if (i % 7 == 3 || (i >= 100 && i < 150) ||
		    (i >= 2000 && i < 5000) ||
		    (i >= 6000 && i < 6000 + NB_SEQ_WINDOW) ||
		    (i >= 8000 && i < 8000 + NB_SEQ_WINDOW - 1) ||
		    (i >= 9000 && i < 9000 + NB_SEQ_WINDOW + 1))
			lost++;
	assert_counts(&t, sent, sent, 0, 0, 0, lost);
	assert_int_equal(t.next, start + last + 1);

	/* A single jump: exactly the skipped numbers are lost. */
	nb_seq_init(&t, 0);
	feed(&t, 0, 0);
	feed(&t, 0, 10);
	assert_counts(&t, 2, 2, 0, 0, 0, 9);
	feed(&t, 0, 11);
	feed(&t, 0, 1000000);
	assert_counts(&t, 4, 4, 0, 0, 0, 9 + 999988);

	/* Loss at the very start: start itself missing. */
	nb_seq_init(&t, 500);
	feed(&t, 500, 3);
	assert_counts(&t, 1, 1, 0, 0, 0, 3);
}

static void
test_reorder_in_window(void **state)
{
	struct nb_seq t;
	uint64_t i;

	(void)state;
	/* 0 1 2 4 5 3: 3 fills its gap. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, 3);
	feed(&t, 0, 4);
	feed(&t, 0, 5);
	assert_counts(&t, 5, 5, 0, 0, 0, 1);
	feed(&t, 0, 3);
	assert_counts(&t, 6, 6, 1, 0, 0, 0);
	assert_int_equal(t.next, 6);

	/* Swapped pairs: 1 0 3 2 5 4 ... (start itself arrives late). */
	nb_seq_init(&t, 40);
	feed(&t, 40, 1);
	assert_counts(&t, 1, 1, 0, 0, 0, 1);
	feed(&t, 40, 0);
	assert_counts(&t, 2, 2, 1, 0, 0, 0);
	feed(&t, 40, 3);
	feed(&t, 40, 2);
	feed(&t, 40, 5);
	feed(&t, 40, 4);
	assert_counts(&t, 6, 6, 3, 0, 0, 0);

	/* Displacement of the whole window: the oldest slot still counts. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, 100);
	feed_range(&t, 0, 101, 101 + NB_SEQ_WINDOW); /* next = 101 + W */
	assert_counts(&t, 100 + NB_SEQ_WINDOW, 100 + NB_SEQ_WINDOW, 0, 0, 0, 1);
	feed(&t, 0, 101); /* duplicate at the window's top */
	feed(&t, 0, 100); /* next - W - 1: just too late */
	assert_counts(&t, 102 + NB_SEQ_WINDOW, 100 + NB_SEQ_WINDOW, 0, 1, 1, 1);

	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, 100);
	feed_range(&t, 0, 101, 100 + NB_SEQ_WINDOW); /* next = 100 + W */
	feed(&t, 0, 100); /* next - W: the oldest slot */
	assert_counts(&t, 100 + NB_SEQ_WINDOW, 100 + NB_SEQ_WINDOW, 1, 0, 0, 0);

	/* A gap jumped over, later filled in reverse order. */
	nb_seq_init(&t, 0);
	feed(&t, 0, 0);
	feed(&t, 0, 500);
	assert_counts(&t, 2, 2, 0, 0, 0, 499);
	for (i = 499; i >= 1; i--)
		feed(&t, 0, i);
	assert_counts(&t, 501, 501, 499, 0, 0, 0);
}

static void
test_reorder_out_of_window(void **state)
{
	struct nb_seq t;

	(void)state;
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, 10);
	feed_range(&t, 0, 11, 2000);
	assert_counts(&t, 1999, 1999, 0, 0, 0, 1);
	feed(&t, 0, 10);
	assert_counts(&t, 2000, 1999, 0, 0, 1, 1);
	/* Seen long ago and now out of the window: late, not duplicate. */
	feed(&t, 0, 5);
	assert_counts(&t, 2001, 1999, 0, 0, 2, 1);
	/* Far behind (but less than 2^47): late as well. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 1000000, 1000010);
	feed(&t, 0, 3);
	assert_counts(&t, 11, 10, 0, 0, 1, 1000000);

	/* A gap bigger than the window clears old state: nothing stale. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, NB_SEQ_WINDOW);
	feed(&t, 0, 10 * NB_SEQ_WINDOW);
	feed(&t, 0, 10 * NB_SEQ_WINDOW - 1); /* never seen: fills a gap */
	feed(&t, 0, 9 * NB_SEQ_WINDOW + 1);  /* oldest slot, never seen */
	feed(&t, 0, 9 * NB_SEQ_WINDOW);	     /* one below the window */
	assert_counts(&t, NB_SEQ_WINDOW + 4, NB_SEQ_WINDOW + 3, 2, 0, 1,
		      9 * NB_SEQ_WINDOW - 2);
}

static void
test_duplicates(void **state)
{
	struct nb_seq t;

	(void)state;
	nb_seq_init(&t, 0);
	feed(&t, 0, 0);
	feed(&t, 0, 0); /* immediately repeated */
	assert_counts(&t, 2, 1, 0, 1, 0, 0);
	feed_range(&t, 0, 1, 10);
	feed(&t, 0, 9); /* duplicate of the highest */
	feed(&t, 0, 9);
	feed(&t, 0, 5); /* older, in the window */
	assert_counts(&t, 14, 10, 0, 4, 0, 0);
	assert_int_equal(t.next, 10);

	/* Duplicate of a frame that itself arrived out of order. */
	feed(&t, 0, 12);
	feed(&t, 0, 10);
	feed(&t, 0, 10);
	feed(&t, 0, 11);
	feed(&t, 0, 12);
	assert_counts(&t, 19, 13, 2, 6, 0, 0);

	/* A duplicate at the bottom of the window, and just below it. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, 3 * NB_SEQ_WINDOW);
	feed(&t, 0, 2 * NB_SEQ_WINDOW);
	feed(&t, 0, 2 * NB_SEQ_WINDOW - 1);
	assert_counts(&t, 3 * NB_SEQ_WINDOW + 2, 3 * NB_SEQ_WINDOW, 0, 1, 1, 0);

	/* A gap of less than a window clears exactly the skipped slots. */
	nb_seq_init(&t, 0);
	feed_range(&t, 0, 0, NB_SEQ_WINDOW);
	feed(&t, 0, NB_SEQ_WINDOW + 100); /* skip W .. W+99 */
	feed(&t, 0, NB_SEQ_WINDOW + 50);  /* was a stale bit: not dup */
	feed(&t, 0, 150);		  /* still in window, seen */
	feed(&t, 0, 101);		  /* oldest slot, seen */
	feed(&t, 0, 100);		  /* below the window */
	assert_counts(&t, NB_SEQ_WINDOW + 5, NB_SEQ_WINDOW + 2, 1, 2, 1, 99);
}

static void
test_wrap(void **state)
{
	const uint64_t start = SEQ_WRAP - 5;
	uint64_t i, pos = 0, lost = 0;
	struct nb_seq t;

	(void)state;
	/* In order across 2^48. */
	nb_seq_init(&t, start);
	feed_range(&t, start, 0, 100000);
	assert_counts(&t, 100000, 100000, 0, 0, 0, 0);
	assert_int_equal(t.next, start + 100000);
	assert_true(t.next > SEQ_WRAP);

	/* Reorder, gap and duplicate straddling the wrap. */
	nb_seq_init(&t, start);
	feed_range(&t, start, 0, 3); /* 2^48-5 .. 2^48-3 */
	feed(&t, start, 6);	     /* wire 1: skip 2^48-2, -1, 0 */
	assert_counts(&t, 4, 4, 0, 0, 0, 3);
	feed(&t, start, 4); /* wire 2^48-1 */
	feed(&t, start, 5); /* wire 0 */
	feed(&t, start, 3); /* wire 2^48-2 */
	assert_counts(&t, 7, 7, 3, 0, 0, 0);
	feed(&t, start, 4); /* duplicate of 2^48-1 */
	feed(&t, start, 6); /* duplicate of the highest */
	assert_counts(&t, 9, 7, 3, 2, 0, 0);
	feed_range(&t, start, 7, 5000);
	assert_counts(&t, 5002, 5000, 3, 2, 0, 0);
	feed(&t, start, 4); /* now far too late */
	assert_counts(&t, 5003, 5000, 3, 2, 1, 0);

	/* Start exactly at the top wire value. */
	nb_seq_init(&t, NB_SEQ_MASK);
	feed_range(&t, NB_SEQ_MASK, 0, 3000);
	assert_counts(&t, 3000, 3000, 0, 0, 0, 0);

	/* Multiple wraps, via gaps of 2^46. */
	nb_seq_init(&t, 0);
	for (i = 0; i < 20; i++) {
		feed(&t, 0, pos);
		pos += UINT64_C(1) << 46;
		lost += (UINT64_C(1) << 46) - 1;
	}
	feed(&t, 0, pos);
	assert_counts(&t, 21, 21, 0, 0, 0, lost);
	assert_int_equal(t.next, pos + 1);
}

/* Before start: never a gap filler (unique would exceed next - start). */
static void
test_before_start(void **state)
{
	struct nb_seq t;

	(void)state;
	nb_seq_init(&t, 1000);
	nb_seq_update(&t, 999);
	nb_seq_update(&t, 990);
	assert_counts(&t, 2, 0, 0, 0, 2, 0);
	assert_int_equal(t.next, 1000);

	/* Stream at 0: the wire's 2^48-1 is "just before", not a jump. */
	nb_seq_init(&t, 0);
	nb_seq_update(&t, NB_SEQ_MASK);
	assert_counts(&t, 1, 0, 0, 0, 1, 0);
	nb_seq_update(&t, 0);
	nb_seq_update(&t, 1);
	nb_seq_update(&t, NB_SEQ_MASK);
	assert_counts(&t, 4, 2, 0, 0, 2, 0);
}

/* One arrival: the wire number and where it sorts. */
struct arrival {
	uint64_t key;
	uint64_t off;
};

static int
cmp_arrival(const void *a, const void *b)
{
	const struct arrival *x = a;
	const struct arrival *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Offsets 0..n-1, 2 % dropped, 1 % duplicated (up to 3 copies); each copy
 * sorted by off + rand(0..max_disp-1), so any frame arrives after at most
 * offsets < off + max_disp: displacement stays below max_disp.
 * The reference model: an array of seen flags and the highest seen + 1.
 */
static void
check_random(uint64_t seed, uint64_t start, uint64_t n, uint64_t max_disp)
{
	struct arrival *arr = malloc(n * 4 * sizeof(*arr));
	uint8_t *seen = calloc(n, 1);
	uint64_t st = seed, m = 0, i;
	uint64_t next = 0, received = 0, unique = 0, ooo = 0, dups = 0,
		 late = 0, lost = 0;
	struct nb_seq t;

	assert_non_null(arr);
	assert_non_null(seen);
	for (i = 0; i < n; i++) {
		uint64_t r = rng_next(&st) % 1000, copies = 1, c;

		if (r < 20)
			continue;
		if (r < 30)
			copies += 1 + rng_next(&st) % 3;
		for (c = 0; c < copies; c++) {
			arr[m].key = i + rng_next(&st) % max_disp;
			arr[m].off = i;
			m++;
		}
	}
	qsort(arr, m, sizeof(*arr), cmp_arrival);

	nb_seq_init(&t, start);
	for (i = 0; i < m; i++) {
		uint64_t s = arr[i].off;

		feed(&t, start, s);
		received++;
		if (s >= next) {
			next = s + 1;
			seen[s] = 1;
			unique++;
		} else if (next - s > NB_SEQ_WINDOW) {
			late++;
		} else if (seen[s]) {
			dups++;
		} else {
			seen[s] = 1;
			unique++;
			ooo++;
		}
		if (t.received != received || t.unique != unique ||
		    t.out_of_order != ooo || t.duplicates != dups ||
		    t.late != late || t.next != start + next)
			fail_msg("seed %llu: diverged at arrival %llu (off "
				 "%llu)",
				 (unsigned long long)seed,
				 (unsigned long long)i, (unsigned long long)s);
	}
	assert_counts(&t, received, unique, ooo, dups, late, next - unique);

	/* Loss, independently: offsets below next never recorded as seen. */
	for (i = 0; i < next; i++)
		lost += !seen[i];
	assert_int_equal(nb_seq_gap_lost(&t), lost);
	if (max_disp <= NB_SEQ_WINDOW) {
		assert_int_equal(late, 0);
		assert_true(ooo > 0 && dups > 0);
	} else {
		assert_true(late > 0);
	}

	free(arr);
	free(seen);
}

static void
test_random_in_window(void **state)
{
	(void)state;
	check_random(101, 0, 200000, 16);
	check_random(102, 12345, 200000, NB_SEQ_WINDOW / 2);
	check_random(103, SEQ_WRAP - 100000, 200000, NB_SEQ_WINDOW);
	check_random(104, SEQ_WRAP - 1, 200000, 200);
}

static void
test_random_beyond_window(void **state)
{
	(void)state;
	check_random(201, SEQ_WRAP - 50000, 200000, 3 * NB_SEQ_WINDOW);
	check_random(202, 0, 200000, NB_SEQ_WINDOW + 64);
}

/*
 * nb_seq_update_in (the sink's inline path) and nb_seq_update_u against
 * nb_seq_update: the same state after every frame of a sequence with
 * gaps, reordering, duplicates, late frames and a wrap, the same
 * unwrapped numbers and the same "new" answers.
 */
static void
test_update_variants_agree(void **state)
{
	struct nb_seq a, b, c;
	uint64_t x = 7, q = NB_SEQ_MASK - 3000, i;

	(void)state;
	nb_seq_init(&a, q);
	nb_seq_init(&b, q);
	nb_seq_init(&c, q);
	for (i = 0; i < 200000; i++) {
		uint64_t s, ub, uc, before = a.unique;
		int nb, nc;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* mostly the next; now and then back (late, duplicate) or
		 * ahead (a gap) */
		s = x % 16 == 0 ? q - x % 1500 : x % 16 == 1 ? q + x % 40 : q;
		s &= NB_SEQ_MASK;
		if (s == (q & NB_SEQ_MASK) || x % 16 == 1)
			q = s + 1;
		nb_seq_update(&a, s);
		nb = nb_seq_update_u(&b, s, &ub);
		nc = nb_seq_update_in(&c, s, &uc);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_memory_equal(&a, &c, sizeof(a));
		assert_int_equal(nb, nc);
		assert_true(ub == uc);
		assert_int_equal(nb, a.unique != before);
		assert_true((ub & NB_SEQ_MASK) == s);
	}
	assert_true(a.out_of_order > 0 && a.duplicates > 0 && a.late > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_reorder_in_window),
		cmocka_unit_test(test_reorder_out_of_window),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_before_start),
		cmocka_unit_test(test_random_in_window),
		cmocka_unit_test(test_random_beyond_window),
		cmocka_unit_test(test_update_variants_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
