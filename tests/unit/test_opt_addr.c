/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.7/5.8's options (core/nb_rfc2889_addr.c): --ports L,T,M laid
 * out with no mesh pairs (so no broadcast learning frame is sent), the
 * refusals, the ageing wait, and the text tables from known rows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_options.h"
#include "nb_rfc2889.h"
#include "nb_suite_opts.h"

#include "opt_fixtures.h"

static void
test_layout(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "3,4,5", "--test",
				   "address-caching", "--aging", "2"),
			 0);
	assert_int_equal(cfg.addr_port[0], 3);
	assert_int_equal(cfg.addr_port[1], 4);
	assert_int_equal(cfg.addr_port[2], 5);
	assert_int_equal(cfg.mesh.nb_pairs, 0); /* no learning frames */
	assert_int_equal(cfg.nb_tx_ports, 1);
	assert_int_equal(cfg.tx_ports[0], 3);
	assert_int_equal(cfg.nb_rx_ports, 2);
	assert_int_equal(cfg.streams, 1);
	assert_int_equal(cfg.tx_csum, NB_CSUM_SW);
	assert_false(cfg.addresses_set);
	/* no --size: 64 B alone, not RFC 2544's seven */
	assert_int_equal(cfg.sweep.n, 1);
	assert_int_equal(cfg.sweep.sizes[0], 64);

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-caching,address-learning",
				   "--aging", "300", "--addresses", "4096"),
			 0);
	assert_int_equal(cfg.suite, NB_SUITE_ADDR_CACHE | NB_SUITE_ADDR_LEARN);
	assert_int_equal(cfg.addresses, 4096);
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-caching", "--aging", "1", "--size",
				   "64,128"),
			 0);
	assert_int_equal(cfg.sweep.n, 2);
}

static void
test_refused(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-caching"),
			 -EINVAL);
	assert_non_null(strstr(err, "needs --aging"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-learning", "--aging", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "needs --addresses N"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3", "--test",
				   "address-caching", "--aging", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "takes --ports L,T,M"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-learning", "--aging", "1",
				   "--addresses", "9", "--dst-mac",
				   "02:00:00:00:00:01"),
			 -EINVAL);
	assert_non_null(strstr(err, "takes --ports L,T,M"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-caching", "--aging", "1",
				   "--tx-checksum", "hw"),
			 -EINVAL);
	assert_non_null(strstr(err, "--tx-checksum hw"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "throughput", "--aging", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "are for --test address-caching"));
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test",
				   "address-caching,broadcast", "--aging", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "give it alone"));
}

static void
test_wait(void **state)
{
	(void)state;
	assert_true(nb_rfc2889_aging_wait(0) == NB_RFC2889_AGING_MARGIN_S);
	assert_true(nb_rfc2889_aging_wait(300) ==
		    300 + NB_RFC2889_AGING_MARGIN_S + 30);
}

/* The text of one row, into a string the caller frees. */
static char *
text_of(void (*w)(FILE *, const struct nb_suite_row *),
	const struct nb_suite_row *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	w(f, r);
	fclose(f);
	return buf;
}

static void
test_text(void **state)
{
	struct nb_suite_row r;
	char *s;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.size = 64;
	r.trials = 26;
	r.detail = json_pack(
		"{s:i,s:i,s:i,s:i,s:b,s:f,s:{s:i,s:i,s:i},s:f,s:f,s:[{s:i,s:f,"
		"s:b,s:i,s:i,s:b,s:b,s:f},{s:i,s:f,s:b,s:i,s:i,s:b,s:b,s:f}]}",
		"capacity", 1000, "max", 2048, "lower", 1000, "upper", 1001,
		"ceiling_hit", 0, "learning_pps", 20000.0, "address_ports",
		"learning", 0, "test", 1, "monitor", 2, "aging_s", 1.0,
		"wait_s", 1.6, "address_trials", "addresses", 2048,
		"learning_pps", 20000.0, "rate_not_reached", 0, "forwarded",
		2048, "flooded", 1048, "pass", 0, "confirm", 0, "gap_ms", 110.8,
		"addresses", 1000, "learning_pps", 20000.0, "rate_not_reached",
		0, "forwarded", 1000, "flooded", 0, "pass", 1, "confirm", 1,
		"gap_ms", 112.1);
	assert_non_null(r.detail);
	s = text_of(nb_rfc2889_text_addr_cache, &r);
	assert_non_null(strstr(s, "    64       1000      1000..1001  "));
	assert_non_null(strstr(s, "learning 0, test 1, monitor 2"));
	assert_non_null(strstr(s, "wait of 1.60 s (--aging 1.00 s"));
	assert_non_null(strstr(s, "trial      2048 addresses at      20000.0 "
				  "fps: forwarded 2048 to L, flooded 1048 to "
				  "M, FAIL (test 110.8 ms"));
	assert_non_null(strstr(s, "confirm    1000 addresses"));
	assert_null(strstr(s, "ceiling"));
	free(s);
	/* a search that passed at its maximum says so */
	json_object_set_new(r.detail, "ceiling_hit", json_true());
	json_object_set_new(r.detail, "upper", json_null());
	s = text_of(nb_rfc2889_text_addr_cache, &r);
	assert_non_null(strstr(s, "1000..2049"));
	assert_non_null(strstr(s, "the search's ceiling (--addresses)"));
	free(s);
	json_decref(r.detail);

	r.detail = json_pack(
		"{s:i,s:f,s:f,s:b,s:{s:i,s:i,s:i},s:f,s:f,s:[]}", "addresses",
		1000, "rate_pps", 50000.0, "failed_pps", 0.0, "ceiling_hit", 1,
		"address_ports", "learning", 0, "test", 1, "monitor", 2,
		"aging_s", 1.5, "wait_s", 2.15, "address_trials");
	s = text_of(nb_rfc2889_text_addr_learn, &r);
	assert_non_null(strstr(s, "    64       1000       50000.0"));
	assert_non_null(strstr(s, "the search's ceiling (--rate or the line "
				  "rate)"));
	free(s);
	json_decref(r.detail);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_wait),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
