/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --flows' fields (app/core/nb_flows.c): the ranges' checks, flows in
 * order as mixed-radix digits, RFC 4814's shuffled flows always distinct,
 * in range and repeatable, and the permutation a bijection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_flows.h"

/* RFC 4814's default: both ports over 1024-65535, addresses fixed. */
static void
rfc4814(struct nb_flows_spec *s, uint32_t n, int shuffled, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->shuffled = shuffled;
	s->seed = seed;
	s->r[NB_FF_SPORT] = (struct nb_range){NB_FLOW_PORT_LO, NB_FLOW_PORT_HI};
	s->r[NB_FF_DPORT] = (struct nb_range){NB_FLOW_PORT_LO, NB_FLOW_PORT_HI};
	s->r[NB_FF_SIP] = (struct nb_range){0xc6120001u, 0xc6120001u};
	s->r[NB_FF_DIP] = (struct nb_range){0xc6130001u, 0xc6130001u};
	s->r[NB_FF_SMAC] = (struct nb_range){2, 2};
	s->r[NB_FF_DMAC] = (struct nb_range){4, 4};
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* n flows' (sport, dport, sip, dip) as keys, sorted: how many repeat. */
static unsigned int
repeats(const struct nb_flows_spec *s, uint64_t *keys)
{
	uint64_t v[NB_FF_N];
	unsigned int i, rep = 0;

	for (i = 0; i < s->n; i++) {
		nb_flows_fields(s, i, v);
		for (int k = 0; k < NB_FF_N; k++) {
			assert_true(v[k] >= s->r[k].lo);
			assert_true(v[k] <= s->r[k].hi);
		}
		keys[i] = v[NB_FF_SPORT] | v[NB_FF_DPORT] << 16 |
			  (v[NB_FF_SIP] & 0xff) << 32 |
			  (v[NB_FF_DIP] & 0xff) << 40;
	}
	qsort(keys, s->n, sizeof(*keys), cmp_u64);
	for (i = 1; i < s->n; i++)
		rep += keys[i] == keys[i - 1];
	return rep;
}

static void
test_in_order(void **state)
{
	struct nb_flows_spec s;
	uint64_t v[NB_FF_N];

	(void)state;
	rfc4814(&s, 65536, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){1000, 1009}; /* 10 values */
	s.r[NB_FF_DIP] = (struct nb_range){0x0a000001, 0x0a000003}; /* 3 */
	assert_int_equal(nb_flows_check(&s, (char[128]){0}, 128), 0);
	/* f = 57: source port digit 7, destination port digit 5 */
	nb_flows_fields(&s, 57, v);
	assert_int_equal(v[NB_FF_SPORT], 1007);
	assert_int_equal(v[NB_FF_DPORT], 1024 + 5);
	assert_int_equal(v[NB_FF_SIP], 0xc6120001u);
	assert_int_equal(v[NB_FF_DIP], 0x0a000001);
	/* past both ports' 10 x 64512: the next destination address */
	nb_flows_fields(&s, 10 * 64512 + 3, v);
	assert_int_equal(v[NB_FF_SPORT], 1003);
	assert_int_equal(v[NB_FF_DPORT], 1024);
	assert_int_equal(v[NB_FF_DIP], 0x0a000002);
	assert_int_equal(nb_flows_space(&s), 10ull * 64512 * 3);
}

static void
test_shuffled_distinct_repeatable(void **state)
{
	static uint64_t a[65536], b[65536];
	struct nb_flows_spec s, t;
	uint64_t v[NB_FF_N], w[NB_FF_N];
	unsigned int i, same = 0, low = 0;

	(void)state;
	rfc4814(&s, 65536, 1, 42);
	assert_int_equal(nb_flows_check(&s, (char[128]){0}, 128), 0);
	assert_int_equal(repeats(&s, a), 0);
	/* in order they are distinct too */
	rfc4814(&t, 65536, 0, 42);
	assert_int_equal(repeats(&t, b), 0);
	/* the same seed: the same flows; another: others */
	rfc4814(&t, 65536, 1, 43);
	for (i = 0; i < 65536; i++) {
		nb_flows_fields(&s, i, v);
		nb_flows_fields(&s, i, w);
		assert_memory_equal(v, w, sizeof(v));
		nb_flows_fields(&t, i, w);
		same += v[NB_FF_SPORT] == w[NB_FF_SPORT] &&
			v[NB_FF_DPORT] == w[NB_FF_DPORT];
		/* pseudorandom over the range, not clustered at its start */
		low += v[NB_FF_DPORT] < NB_FLOW_PORT_LO + 1000;
	}
	assert_true(same < 10);
	/* 1000 of 64512 values: about 1,016 of 65,536 flows */
	assert_in_range(low, 700, 1350);
}

static void
test_permute_bijection(void **state)
{
	static uint8_t seen[5000];
	uint64_t space, x;

	(void)state;
	for (space = 1; space <= 5000; space += space < 70 ? 1 : 397) {
		memset(seen, 0, sizeof(seen));
		for (x = 0; x < space; x++) {
			uint64_t y = nb_flows_permute(x, space, 7);

			assert_true(y < space);
			assert_int_equal(seen[y], 0);
			seen[y] = 1;
		}
	}
	/* a space wider than 2^62 (MAC ranges): still distinct values */
	assert_int_not_equal(nb_flows_permute(1, UINT64_MAX, 3),
			     nb_flows_permute(2, UINT64_MAX, 3));
}

static void
test_checks(void **state)
{
	struct nb_flows_spec s;
	char err[256];

	(void)state;
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){2000, 1999};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "source port range is empty"));
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_DPORT].hi = 70000;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "destination port range goes past 65535"));
	rfc4814(&s, 100, 0, 0);
	s.r[NB_FF_SIP] = (struct nb_range){0x0a000000, 0x0a0000ff};
	s.r[NB_FF_DIP] = (struct nb_range){0x0a000080, 0x0a000180};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ranges overlap"));
	rfc4814(&s, 101, 0, 0);
	s.r[NB_FF_SPORT] = (struct nb_range){1, 10};
	s.r[NB_FF_DPORT] = (struct nb_range){1, 10};
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "only 100 distinct flows"));
	s.n = 100;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), 0);
	s.n = NB_MAX_FLOWS + 1;
	assert_int_equal(nb_flows_check(&s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_shuffled_distinct_repeatable),
		cmocka_unit_test(test_permute_bijection),
		cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
