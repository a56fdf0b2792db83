/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the per-queue interval rows (app/core/nb_queue_iv.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "nb_queue_iv.h"

static struct nb_iv_queue rows0[] = {
	{3, 0, 100, 6400, 90, 5760},
	{3, 1, 300, 19200, 310, 19840},
};

/* copy is deep; release frees and clears */
static void
test_copy(void **state)
{
	struct nb_interval a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.queues = rows0;
	a.nb_queues = 2;
	assert_int_equal(nb_queue_iv_copy(&b, &a), 0);
	assert_int_equal(b.nb_queues, 2);
	assert_ptr_not_equal(b.queues, a.queues);
	assert_memory_equal(b.queues, rows0, sizeof(rows0));
	nb_queue_iv_release(&b);
	assert_null(b.queues);
	assert_int_equal(b.nb_queues, 0);
	a.queues = NULL;
	a.nb_queues = 0;
	assert_int_equal(nb_queue_iv_copy(&b, &a), 0);
	assert_null(b.queues);
}

/* the rows of all intervals add up to the end's after the close */
static void
test_close_folds_the_rest(void **state)
{
	struct nb_result *r = calloc(1, sizeof(*r));
	struct nb_interval iv[2];
	struct nb_port_result *p;
	uint16_t q;

	(void)state;
	assert_non_null(r);
	memset(iv, 0, sizeof(iv));
	for (q = 0; q < 2; q++) {
		assert_int_equal(
			nb_queue_iv_copy(&iv[q],
					 &(struct nb_interval){.queues = rows0,
							       .nb_queues = 2}),
			0);
	}
	r->intervals = iv;
	r->nb_intervals = 2;
	r->nb_ports = 1;
	p = &r->ports[0];
	p->desc.port_id = 3;
	p->nb_queues = 2;
	/* the end: 2 intervals' worth plus what came after the last tick */
	p->q_tx_pkts[0] = 200 + 7;
	p->q_tx_bytes[0] = 12800 + 448;
	p->q_rx_pkts[0] = 180 + 11;
	p->q_rx_bytes[0] = 11520 + 704;
	p->q_tx_pkts[1] = 600;
	p->q_tx_bytes[1] = 38400;
	p->q_rx_pkts[1] = 620 + 1;
	p->q_rx_bytes[1] = 39680 + 64;
	nb_queue_iv_close(r, &iv[1]);
	/* the first interval is left as it was */
	assert_memory_equal(iv[0].queues, rows0, sizeof(rows0));
	assert_int_equal(iv[1].queues[0].tx_pkts, 107);
	assert_int_equal(iv[1].queues[0].tx_bytes, 6400 + 448);
	assert_int_equal(iv[1].queues[0].rx_pkts, 101);
	assert_int_equal(iv[1].queues[0].rx_bytes, 5760 + 704);
	assert_int_equal(iv[1].queues[1].tx_pkts, 300);
	assert_int_equal(iv[1].queues[1].rx_pkts, 311);
	assert_int_equal(iv[1].queues[1].rx_bytes, 19840 + 64);
	/* a second close changes nothing: the sums match now */
	nb_queue_iv_close(r, &iv[1]);
	assert_int_equal(iv[1].queues[0].tx_pkts, 107);
	nb_queue_iv_release(&iv[0]);
	nb_queue_iv_release(&iv[1]);
	free(r);
}

/* shares are of the port's frames in the interval; rates over its span */
static void
test_json(void **state)
{
	struct nb_interval iv;
	json_t *a, *e;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	iv.start = 1.0;
	iv.end = 1.5;
	iv.queues = rows0;
	iv.nb_queues = 2;
	a = nb_queue_iv_json(&iv);
	assert_int_equal(json_array_size(a), 2);
	e = json_array_get(a, 1);
	assert_int_equal(json_integer_value(json_object_get(e, "port")), 3);
	assert_int_equal(json_integer_value(json_object_get(e, "queue")), 1);
	assert_int_equal(
		json_integer_value(json_object_get(e, "tool_rx_packets")), 310);
	assert_true(json_real_value(json_object_get(e, "tx_share_percent")) ==
		    75.0);
	assert_true(json_real_value(json_object_get(e, "rx_share_percent")) ==
		    100.0 * 310 / 400);
	assert_true(json_real_value(json_object_get(e, "rx_bits_per_second")) ==
		    19840 * 8 / 0.5);
	assert_true(
		json_real_value(json_object_get(e, "rx_l1_bits_per_second")) ==
		(19840 + 310 * 20) * 8 / 0.5);
	assert_true(json_real_value(json_object_get(e, "rx_pps")) == 310 / 0.5);
	json_decref(a);
	assert_true(nb_queue_iv_share(1, 0) == 0.0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_close_folds_the_rest),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
