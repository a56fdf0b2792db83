/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --serve API's pure parts: requests parsed and refused with
 * JSON-RPC's codes, the version check, a run's options through the CLI's
 * parser (the same messages), the fit to the server's setup, request
 * framing with its 1 MiB limit, the event log, the key proof.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_api.h"
#include "nb_auth.h"
#include "nb_options.h"

#define ERRLEN 1024

static int
parse(const char *line, struct nb_api_req *rq, char *err)
{
	json_t *root = NULL;
	int ret = nb_api_parse(line, strlen(line), &root, rq, err, ERRLEN);

	json_decref(root);
	return ret;
}

static void
test_requests(void **state)
{
	struct nb_api_req rq;
	char err[ERRLEN];
	json_t *root;
	const char *ok = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"run\","
			 "\"params\":{\"time\":1},\"nbench_api\":\"1.2\"}";

	(void)state;
	assert_int_equal(nb_api_parse(ok, strlen(ok), &root, &rq, err, ERRLEN),
			 0);
	assert_string_equal(rq.method, "run");
	assert_int_equal(json_integer_value(rq.id), 7);
	assert_int_equal(json_integer_value(json_object_get(rq.params, "time")),
			 1);
	assert_string_equal(rq.client_version, "1.2");
	json_decref(root);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"method\":", &rq, err),
			 NB_API_PARSE);
	assert_non_null(strstr(err, "malformed JSON"));
	assert_int_equal(parse("[1]", &rq, err), NB_API_INVALID);
	assert_int_equal(parse("{\"method\":\"x\",\"id\":1}", &rq, err),
			 NB_API_INVALID);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1}", &rq, err),
			 NB_API_INVALID);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":"
			       "\"x\"}",
			       &rq, err),
			 NB_API_INVALID);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			       "\"x\",\"params\":[1]}",
			       &rq, err),
			 NB_API_INVALID);
	/* a repeated key is refused, not silently the last one */
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,"
			       "\"method\":\"x\"}",
			       &rq, err),
			 NB_API_PARSE);
}

static void
test_answers(void **state)
{
	json_t *id = json_integer(3);
	char *l;

	(void)state;
	l = nb_api_error(id, NB_API_BUSY, "busy");
	assert_string_equal(l, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":"
			       "{\"code\":-32002,\"message\":\"busy\"}}\n");
	free(l);
	l = nb_api_result(NULL, json_integer(5));
	assert_string_equal(l, "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":"
			       "5}\n");
	free(l);
	json_decref(id);
}

static void
test_versions(void **state)
{
	char err[ERRLEN];

	(void)state;
	assert_int_equal(nb_api_version_check("1.0", err, ERRLEN), 0);
	assert_int_equal(nb_api_version_check("1.9", err, ERRLEN), 0);
	assert_int_equal(nb_api_version_check("2.0", err, ERRLEN),
			 NB_API_VERSION);
	assert_non_null(strstr(err, "the client speaks 2.0, this server 1.0"));
	assert_int_equal(nb_api_version_check("one", err, ERRLEN),
			 NB_API_VERSION);
	assert_int_equal(nb_api_version_check("1.0x", err, ERRLEN),
			 NB_API_VERSION);
}

/* The server's options as parsed (not checked), and checked. */
static void
server(struct nb_config *base, struct nb_config *setup, const char *const *argv)
{
	char err[ERRLEN];
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	nb_config_defaults(base);
	assert_int_equal(
		nb_options_parse(base, argc, (char **)argv, err, ERRLEN), 0);
	*setup = *base;
	assert_int_equal(nb_config_check(setup, err, ERRLEN), 0);
}

static int
run(struct nb_config *r, const struct nb_config *base,
    const struct nb_config *setup, const char *json, char *err)
{
	json_t *o = json_loads(json, 0, NULL);
	int ret;

	assert_non_null(o);
	ret = nb_api_options(r, base, o, err, ERRLEN);
	if (ret == 0)
		ret = nb_api_same_setup(setup, r, err, ERRLEN);
	json_decref(o);
	return ret;
}

static void
test_run_options(void **state)
{
	static const char *const srv[] = {
		"x",	  "--serve", "--tx-port", "0", "--rx-port", "1",
		"--size", "512",     "--time",	  "5", NULL};
	static struct nb_config base, setup, r, cli;
	char err[ERRLEN], cli_err[ERRLEN];

	(void)state;
	server(&base, &setup, srv);
	/* the server's options are the defaults; a run's win */
	assert_int_equal(run(&r, &base, &setup, "{}", err), 0);
	assert_true(r.duration == 5.0);
	assert_int_equal(run(&r, &base, &setup,
			     "{\"time\": 1.5, \"streams\": 3, \"size\": 64, "
			     "\"gaps\": true, \"omit\": false}",
			     err),
			 0);
	assert_true(r.duration == 1.5);
	assert_int_equal(r.streams, 3);
	assert_int_equal(r.sizes.sizes[0], 64);
	assert_int_equal(r.gaps, 1);
	/* an option the server also gave is no repeat */
	assert_int_equal(run(&r, &base, &setup, "{\"time\": \"2\"}", err), 0);
	/* a bad value: the CLI's message, word for word */
	assert_int_equal(run(&r, &base, &setup, "{\"rate\": \"fast\"}", err),
			 NB_API_PARAMS);
	nb_config_defaults(&cli);
	assert_int_not_equal(
		nb_options_parse(&cli, 3, (char *[]){"x", "--rate=fast", NULL},
				 cli_err, ERRLEN),
		0);
	assert_string_equal(err, cli_err);
	assert_int_equal(run(&r, &base, &setup, "{\"nosuch\": 1}", err),
			 NB_API_PARAMS);
	assert_non_null(strstr(err, "unknown option '--nosuch'"));
	assert_int_equal(run(&r, &base, &setup, "{\"time\": {}}", err),
			 NB_API_PARAMS);
	assert_int_equal(run(&r, &base, &setup, "{\"config\": \"a.ini\"}", err),
			 NB_API_PARAMS);
	assert_non_null(strstr(err, "not an option of a run"));
	/* no path of the server's host, to read or to write */
	assert_int_equal(
		run(&r, &base, &setup, "{\"per-flow\": \"/etc/passwd\"}", err),
		NB_API_PARAMS);
	assert_non_null(strstr(err, "names a file"));
	assert_int_equal(
		run(&r, &base, &setup, "{\"auth-key\": \"/root/k\"}", err),
		NB_API_PARAMS);
	/* the checks that need all options: the CLI's too */
	assert_int_equal(run(&r, &base, &setup,
			     "{\"time\": 1, \"packets\": 5, \"bytes\": 9}",
			     err),
			 NB_API_PARAMS);
	/* what the ports were set up for */
	assert_int_equal(run(&r, &base, &setup, "{\"queues\": 2}", err),
			 NB_API_PARAMS);
	assert_non_null(strstr(err, "--queues"));
	assert_int_equal(run(&r, &base, &setup, "{\"size\": 1024}", err),
			 NB_API_PARAMS);
	assert_non_null(strstr(err, "--size"));
	assert_int_equal(run(&r, &base, &setup, "{\"tx-port\": \"1\"}", err),
			 NB_API_PARAMS);
	assert_int_equal(run(&r, &base, &setup,
			     "{\"peer\": \"02:00:00:00:00:01\"}", err),
			 NB_API_PARAMS);
	/* an array: the option given again (--allow-like repeats only) */
	assert_int_equal(run(&r, &base, &setup, "{\"time\": [1, 2]}", err),
			 NB_API_PARAMS);
	assert_non_null(strstr(err, "given twice"));
}

static void
test_framing(void **state)
{
	struct nb_api_inbuf b = {0};
	const char *line;
	char *big;
	size_t n;

	(void)state;
	assert_int_equal(nb_api_in_add(&b, "{\"a\":1}\r\n{\"b\"", 13), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 1);
	assert_int_equal(n, 7);
	assert_memory_equal(line, "{\"a\":1}", 7);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 0);
	assert_int_equal(nb_api_in_add(&b, ":2}\n", 4), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 1);
	assert_string_equal(line, "{\"b\":2}");
	/* over 1 MiB without a newline: refused once, skipped to the
	 * newline, and the next line is whole */
	big = malloc(NB_API_MAX_REQUEST + 10);
	memset(big, 'a', NB_API_MAX_REQUEST + 10);
	assert_int_equal(nb_api_in_add(&b, big, NB_API_MAX_REQUEST + 10), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), NB_API_TOO_LARGE);
	assert_int_equal(nb_api_in_add(&b, big, 1000), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 0);
	assert_int_equal(nb_api_in_add(&b, "aa\nok\n", 6), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 1);
	assert_string_equal(line, "ok");
	/* one over the limit with its newline in the same read */
	big[NB_API_MAX_REQUEST + 1] = '\n';
	assert_int_equal(nb_api_in_add(&b, big, NB_API_MAX_REQUEST + 2), 0);
	assert_int_equal(nb_api_in_add(&b, "x\n", 2), 0);
	assert_int_equal(nb_api_in_line(&b, &line, &n), NB_API_TOO_LARGE);
	assert_int_equal(nb_api_in_line(&b, &line, &n), 1);
	assert_string_equal(line, "x");
	assert_int_equal(nb_api_in_line(&b, &line, &n), 0);
	free(big);
	nb_api_in_free(&b);
}

static void
test_events(void **state)
{
	struct nb_api_events e = {0};
	json_t *v;
	uint64_t i;
	char line[64];

	(void)state;
	assert_int_equal(nb_api_events_write(&e, "{\"event\":\"st", 12), 0);
	assert_null(nb_api_events_get(&e, 0)); /* not whole yet */
	assert_int_equal(nb_api_events_write(&e, "art\"}\n{\"event\":1}\n", 18),
			 0);
	v = nb_api_events_get(&e, 0);
	assert_string_equal(json_string_value(json_object_get(v, "event")),
			    "start");
	json_decref(v);
	v = nb_api_events_get(&e, 1);
	assert_int_equal(json_integer_value(json_object_get(v, "event")), 1);
	json_decref(v);
	/* the newest NB_API_EVENTS_KEPT are kept */
	for (i = 2; i < NB_API_EVENTS_KEPT + 5; i++) {
		int k = snprintf(line, sizeof(line), "{\"i\":%llu}\n",
				 (unsigned long long)i);

		assert_int_equal(nb_api_events_write(&e, line, (size_t)k), 0);
	}
	assert_int_equal(e.first, 5);
	assert_null(nb_api_events_get(&e, 4));
	v = nb_api_events_get(&e, 5);
	assert_int_equal(json_integer_value(json_object_get(v, "i")), 5);
	json_decref(v);
	nb_api_events_clear(&e);
	assert_int_equal(e.next, 0);
}

static void
test_proof(void **state)
{
	const uint8_t key[32] = {1, 2, 3}, nonce[16] = {9};
	const void *parts[2] = {"nbench-api", nonce};
	const size_t lens[2] = {10, sizeof(nonce)};
	uint8_t mac[32];
	char want[65], got[65];
	int i;

	(void)state;
	/* independently: HMAC over the label and the nonce, in hex */
	nb_auth_hmac(key, sizeof(key), parts, lens, 2, mac);
	for (i = 0; i < 32; i++)
		snprintf(want + 2 * i, 3, "%02x", mac[i]);
	nb_api_proof(key, sizeof(key), nonce, sizeof(nonce), got);
	assert_string_equal(got, want);
	assert_true(
		nb_api_proof_ok(key, sizeof(key), nonce, sizeof(nonce), want));
	want[10] ^= 1;
	assert_false(
		nb_api_proof_ok(key, sizeof(key), nonce, sizeof(nonce), want));
	assert_false(
		nb_api_proof_ok(key, sizeof(key), nonce, sizeof(nonce), "abc"));
	assert_false(
		nb_api_proof_ok(key, sizeof(key), nonce, sizeof(nonce), NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_proof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
