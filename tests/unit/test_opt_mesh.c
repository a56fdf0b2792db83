/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports (nb_mesh.h): each --mesh pattern's pairs, counted
 * from its definition; every stream sent by exactly one TX queue of its
 * pair's source, with every pair getting --streams of them, over 1-3
 * queues; the plan's rate split; the refusals; the learning frame byte
 * for byte; the loss matrix and end.mesh from a known result.
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

#include "nb_mesh.h"
#include "nb_options.h"
#include "nb_plan.h"
#include "nb_result.h"
#include "nb_rfc2889.h"
#include "nb_rfc2889_err.h"
#include "nb_suite_opts.h"

#include "opt_fixtures.h"

/* Does (src, dst) of port ids appear among the pairs? */
static int
has_pair(const struct nb_mesh_cfg *m, uint16_t src, uint16_t dst)
{
	uint16_t k;

	for (k = 0; k < m->nb_pairs; k++)
		if (m->ports[m->pairs[k].src] == src &&
		    m->ports[m->pairs[k].dst] == dst)
			return 1;
	return 0;
}

static void
test_patterns(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];
	uint16_t i, j;

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "3,4,5,6,7"), 0);
	assert_int_equal(cfg.mesh.kind, NB_MESH_FULL);
	assert_int_equal(cfg.mesh.nb_pairs, 5 * 4);
	for (i = 3; i <= 7; i++)
		for (j = 3; j <= 7; j++)
			assert_int_equal(has_pair(&cfg.mesh, i, j), i != j);
	assert_int_equal(cfg.nb_tx_ports, 5);
	assert_int_equal(cfg.nb_rx_ports, 5);
	assert_int_equal(cfg.streams, 20);

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3", "--mesh",
				   "pairs", "--streams", "2"),
			 0);
	assert_int_equal(cfg.mesh.nb_pairs, 4);
	assert_true(has_pair(&cfg.mesh, 0, 1) && has_pair(&cfg.mesh, 1, 0) &&
		    has_pair(&cfg.mesh, 2, 3) && has_pair(&cfg.mesh, 3, 2));
	assert_int_equal(cfg.streams, 8);
	assert_int_equal(cfg.mesh.per_pair, 2);

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3", "--mesh",
				   "one-to-many"),
			 0);
	assert_int_equal(cfg.mesh.nb_pairs, 3);
	assert_int_equal(cfg.nb_tx_ports, 1);
	assert_int_equal(cfg.tx_ports[0], 0);
	assert_int_equal(cfg.nb_rx_ports, 3);

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3", "--mesh",
				   "many-to-one"),
			 0);
	assert_int_equal(cfg.mesh.nb_pairs, 3);
	assert_int_equal(cfg.nb_tx_ports, 3);
	assert_int_equal(cfg.nb_rx_ports, 1);
	assert_int_equal(cfg.rx_ports[0], 0);

	/* 5 ports: halves {0,1} and {2,3,4}, 2 x 3 pairs each way */
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3,4", "--mesh",
				   "backbone"),
			 0);
	assert_int_equal(cfg.mesh.nb_pairs, 12);
	assert_true(has_pair(&cfg.mesh, 0, 4) && has_pair(&cfg.mesh, 4, 1));
	assert_false(has_pair(&cfg.mesh, 0, 1) || has_pair(&cfg.mesh, 2, 3));

	/* a list: its ports in order of mention, pairs source-major */
	assert_int_equal(CHECK_CFG(&cfg, err, "--mesh", "5>2,1>2,5>3"), 0);
	assert_int_equal(cfg.mesh.nb_ports, 4);
	assert_int_equal(cfg.mesh.ports[0], 5);
	assert_int_equal(cfg.mesh.ports[1], 2);
	assert_int_equal(cfg.mesh.nb_pairs, 3);
	assert_int_equal(cfg.nb_tx_ports, 2);
	assert_int_equal(cfg.nb_rx_ports, 2);
	assert_true(has_pair(&cfg.mesh, 1, 2));
	assert_false(has_pair(&cfg.mesh, 2, 1));
}

/* Every stream once, from its pair's source; every pair per_pair times. */
static void
check_cover(const char *mesh, const char *ports, const char *streams,
	    uint32_t nq)
{
	struct nb_config cfg;
	char err[ERRLEN];
	uint32_t seen[NB_MAX_STREAMS] = {0}, per[NB_MESH_MAX_PAIRS] = {0};
	uint32_t q, first, stride, n, k, s;
	uint16_t i;

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", ports, "--mesh", mesh,
				   "--streams", streams),
			 0);
	for (i = 0; i < cfg.mesh.nb_ports; i++)
		for (q = 0; q < nq; q++) {
			nb_mesh_job_streams(&cfg.mesh, i, q, nq, &first,
					    &stride, &n);
			for (k = 0; k < n; k++) {
				s = first + k * stride;
				assert_true(s < cfg.streams);
				seen[s]++;
				assert_int_equal(
					cfg.mesh.pairs[nb_mesh_stream_pair(
							       &cfg.mesh, s)]
						.src,
					i);
			}
		}
	for (s = 0; s < cfg.streams; s++) {
		assert_int_equal(seen[s], 1);
		per[nb_mesh_stream_pair(&cfg.mesh, s)]++;
		assert_int_equal(
			nb_mesh_stream_dst(&cfg.mesh, s),
			cfg.mesh.ports[cfg.mesh.pairs[nb_mesh_stream_pair(
							      &cfg.mesh, s)]
					       .dst]);
	}
	for (k = 0; k < cfg.mesh.nb_pairs; k++)
		assert_int_equal(per[k], cfg.mesh.per_pair);
}

static void
test_streams_cover(void **state)
{
	static const char *const meshes[] = {"full", "pairs", "one-to-many",
					     "many-to-one", "backbone"};
	static const char *const per[] = {"1", "3"};
	size_t a, b;
	uint32_t nq;

	(void)state;
	for (a = 0; a < 5; a++)
		for (b = 0; b < 2; b++)
			for (nq = 1; nq <= 3; nq++)
				check_cover(meshes[a], "0,1,2,3,4,5", per[b],
					    nq);
	check_cover("full", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", "4", 2);
	check_cover("0>2,1>2,0>3", "0,1,2,3", "2", 2);
}

/* The plan: each TX job's streams and rate are its port's share. */
static void
test_plan_split(void **state)
{
	struct nb_plan *plan = calloc(1, sizeof(*plan));
	struct nb_lcore_desc lc[4];
	struct nb_config cfg;
	char err[ERRLEN];
	unsigned int i, c;

	(void)state;
	assert_non_null(plan);
	for (i = 0; i < 4; i++) {
		memset(&lc[i], 0, sizeof(lc[i]));
		lc[i].id = i;
		lc[i].cpu = i;
		lc[i].cpus[0] = UINT64_C(1) << i;
	}
	/* 0>2, 1>2, 0>3: port 0 sends 2 of the 3 pairs */
	assert_int_equal(CHECK_CFG(&cfg, err, "--mesh", "0>2,1>2,0>3",
				   "--packets", "3000"),
			 0);
	assert_int_equal(nb_plan_roles(plan, lc, 4, err, ERRLEN), 0);
	assert_int_equal(nb_plan_jobs(plan, &cfg, 3000, 1, 3000, err, ERRLEN),
			 0);
	assert_int_equal(plan->nb_tx_jobs, 2);
	for (i = 0; i < plan->nb_tx_jobs; i++) {
		const struct nb_job *j = &plan->jobs[i];
		uint32_t want = j->port == 0 ? 2 : 1;

		assert_int_equal(j->nb_streams, want);
		assert_int_equal(j->packets, 1000 * want);
		/* 3000 pps x want / 3 */
		assert_int_equal(j->rate_num * 3, 3000 * want * j->rate_den);
	}
	/* receivers: ports 2 and 3, in --mesh's order of mention */
	for (c = 0, i = plan->nb_tx_jobs; i < plan->nb_jobs; i++, c++)
		assert_int_equal(plan->jobs[i].port, c == 0 ? 2 : 3);
	free(plan);
}

static void
test_refusals(void **state)
{
	char err[ERRLEN];

	(void)state;
	assert_int_equal(CHECK(err, "--ports", "0,1,2", "--mesh", "pairs"),
			 -EINVAL);
	assert_non_null(strstr(err, "even number"));
	assert_int_equal(CHECK(err, "--ports", "0,1,2", "--mesh", "0>5"),
			 -EINVAL);
	assert_non_null(strstr(err, "port 5, which is not in --ports"));
	assert_int_equal(CHECK(err, "--ports", "0,1,2", "--tx-port", "0",
			       "--rx-port", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "--tx-port"));
	assert_int_equal(
		CHECK(err, "--ports", "0,1", "--dst-mac", "02:00:00:00:00:01"),
		-EINVAL);
	assert_non_null(strstr(err, "destination port's MAC"));
	assert_int_equal(CHECK(err, "--ports", "0,1", "--dst-ip", "239.1.1.1"),
			 -EINVAL);
	assert_non_null(strstr(err, "multicast"));
	/* 16 x 15 pairs x 5 streams = 1200 > 1024 */
	assert_int_equal(CHECK(err, "--ports",
			       "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
			       "--streams", "5"),
			 -EINVAL);
	assert_non_null(strstr(err, "1200 streams"));
	/* one port is a loopback mesh of none */
	assert_int_equal(CHECK(err, "--ports", "3"), -EINVAL);
	assert_non_null(strstr(err, "2 to 16 ports, not 1"));
	assert_int_equal(CHECK(err, "--ports", "0,1", "--tcp"), -EINVAL);
	assert_non_null(strstr(err, "open-loop"));
}

static void
test_learning_frame(void **state)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 7};
	uint8_t buf[80];

	(void)state;
	assert_int_equal(nb_mesh_learn_frame(buf, 59, mac, 0), -1);
	assert_int_equal(nb_mesh_learn_frame(buf, sizeof(buf), mac, 0), 60);
	assert_memory_equal(buf,
			    ((uint8_t[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2,
					 0, 0, 0, 0, 7, 0x88, 0xb5}),
			    14);
	assert_memory_equal(buf + 14, "dpdk-nbench learning frame", 26);
	assert_int_equal(buf[59], 0);
	assert_int_equal(nb_mesh_learn_frame(buf, sizeof(buf), mac, 100), 64);
	assert_memory_equal(
		buf + 12, ((uint8_t[]){0x81, 0x00, 0x00, 100, 0x88, 0xb5}), 6);
	/* the receivers know it, tagged or not, and nothing shorter */
	assert_true(nb_mesh_is_learn(buf, 64));
	assert_false(nb_mesh_is_learn(buf, 17));
	assert_int_equal(nb_mesh_learn_frame(buf, sizeof(buf), mac, 0), 60);
	assert_true(nb_mesh_is_learn(buf, 60));
	assert_false(nb_mesh_is_learn(buf, 13));
	buf[13] = 0x00; /* IPv4's EtherType */
	assert_false(nb_mesh_is_learn(buf, 60));
}

/* A result with 0>1 and 1>0, the second losing 1 of 3 frames. */
static void
test_report(void **state)
{
	struct nb_mesh_result *m = calloc(1, sizeof(*m));
	struct nb_result r;
	char *text = NULL, *js;
	size_t len = 0;
	json_t *o;
	FILE *f;

	(void)state;
	assert_non_null(m);
	memset(&r, 0, sizeof(r));
	m->kind = NB_MESH_FULL;
	m->per_pair = 1;
	m->nb_pairs = 2;
	m->nb_ports = 2;
	m->pairs[0] = (struct nb_mesh_pair_result){
		.src = 0, .dst = 1, .sent = 3, .received = 3, .unique = 3};
	m->pairs[1] = (struct nb_mesh_pair_result){.src = 1,
						   .dst = 0,
						   .sent = 3,
						   .received = 2,
						   .unique = 2,
						   .lost = 1,
						   .elsewhere = 4};
	m->ports[0] = (struct nb_mesh_port_result){
		.port = 0, .sent = 3, .received = 2, .lost_in = 1};
	m->ports[1] = (struct nb_mesh_port_result){
		.port = 1, .sent = 3, .received = 3, .foreign = 4};
	r.mesh = m;
	r.tx_seconds = r.rx_seconds = 1.0;
	f = open_memstream(&text, &len);
	nb_report_mesh_text(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "fully meshed (RFC 2889 5.1)"));
	assert_non_null(strstr(text, "        0      .      0\n"));
	assert_non_null(strstr(text, "        1   33.3      .\n"));
	free(text);
	o = nb_json_mesh(&r);
	js = json_dumps(o, JSON_COMPACT);
	assert_non_null(strstr(js, "\"pattern\":\"full\""));
	assert_non_null(strstr(js,
			       "\"src\":1,\"dst\":0,\"sent\":3,"
			       "\"received\":2,\"forwarded\":2,\"lost\":1"));
	assert_non_null(strstr(js, "\"elsewhere\":4"));
	free(js);
	json_decref(o);
	free(m);
}

/* RFC 2889's tests lay out the ports: congestion's weighted pairs,
 * broadcast's fan-out; the refusals. */
static void
test_rfc2889_layouts(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];
	uint32_t s, per[3] = {0};

	(void)state;
	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "4,5,6,7", "--test",
				   "congestion"),
			 0);
	assert_int_equal(cfg.suite, NB_SUITE_CONGESTION);
	assert_int_equal(cfg.mesh.nb_pairs, 3);
	assert_true(has_pair(&cfg.mesh, 4, 6) && has_pair(&cfg.mesh, 4, 7) &&
		    has_pair(&cfg.mesh, 5, 6));
	/* A's two streams (one to C, one to D) and B's two to C: each
	 * sender offers half, A half of its own to each */
	assert_int_equal(cfg.streams, 4);
	assert_int_equal(cfg.nb_tx_ports, 2);
	for (s = 0; s < 4; s++)
		per[nb_mesh_stream_pair(&cfg.mesh, s)]++;
	assert_int_equal(per[0], 1); /* 4>6 */
	assert_int_equal(per[1], 1); /* 4>7 */
	assert_int_equal(per[2], 2); /* 5>6 */
	assert_int_equal(nb_mesh_stream_dst(&cfg.mesh, 0), 6);
	assert_int_equal(nb_mesh_stream_dst(&cfg.mesh, 1), 7);
	assert_int_equal(nb_mesh_stream_dst(&cfg.mesh, 2), 6);
	assert_int_equal(nb_mesh_stream_dst(&cfg.mesh, 3), 6);

	assert_int_equal(
		CHECK_CFG(&cfg, err, "--ports", "0,1,2", "--test", "broadcast"),
		0);
	assert_int_equal(cfg.mesh.nb_pairs, 0);
	assert_int_equal(cfg.nb_tx_ports, 1);
	assert_int_equal(cfg.tx_ports[0], 0);
	assert_int_equal(cfg.nb_rx_ports, 2);
	assert_int_equal(cfg.rx_ports[1], 2);
	assert_memory_equal(cfg.dst_mac,
			    ((uint8_t[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
			    6);

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "0,1,2,3", "--test",
				   "forwarding-rate,throughput", "--mesh",
				   "backbone"),
			 0);
	assert_int_equal(cfg.mesh.nb_pairs, 8);

	assert_int_equal(CHECK(err, "--ports", "0,1,2", "--test", "congestion"),
			 -EINVAL);
	assert_non_null(strstr(err, "four ports"));
	assert_int_equal(CHECK(err, "--ports", "0,1,2,3", "--test",
			       "congestion,throughput"),
			 -EINVAL);
	assert_non_null(strstr(err, "give it alone"));
	assert_int_equal(CHECK(err, "--ports", "0,1,2", "--test", "broadcast",
			       "--dst-mac", "02:00:00:00:00:01"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--tx-port", "0", "--rx-port", "1",
			       "--test", "forwarding-rate"),
			 -EINVAL);
	assert_non_null(strstr(err, "--ports"));
}

static char *
row_text(void (*fn)(FILE *, const struct nb_suite_row *),
	 struct nb_suite_row *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fn(f, r);
	fclose(f);
	json_decref(r->detail);
	return text;
}

static void
test_rfc2889_text(void **state)
{
	struct nb_suite_row r;
	char *t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.size = 64;
	r.trials = 3;
	r.detail = json_pack(
		"{s:f,s:f,s:f,s:f,s:[],s:[{s:i,s:f,s:f}],s:[{s:i,s:i,s:i,"
		"s:i}]}",
		"offered_max_pps", 3e6, "fr_mol_pps", 2.5e6, "mfr_pps", 2.7e6,
		"mfr_offered_pps", 2.7e6, "steps", "ports", "port", 3,
		"offered_pps", 1e6, "forwarded_pps", 5e5, "lossy_pairs", "src",
		0, "dst", 3, "sent", 100, "lost", 40);
	t = row_text(nb_rfc2889_text_fwd, &r);
	assert_non_null(strstr(t, "    64      3.000000      2.500000    "
				  "2.700000        2.700000       3\n"));
	assert_non_null(strstr(t, "port  3 at the maximum load: offered "
				  "1.000000 Mpps, forwarded to it 0.500000"));
	assert_non_null(strstr(t, "pair 0>3 lost 40 of 100"));
	free(t);

	r.detail = json_pack("{s:s,s:[{s:i,s:i,s:s,s:i,s:i,s:i,s:f}],s:s}",
			     "verdict", "no head-of-line blocking: x", "pairs",
			     "src", 0, "dst", 3, "role", "uncongested", "sent",
			     10, "forwarded", 10, "lost", 0, "lost_percent",
			     0.0, "back_pressure", "cannot be seen: y");
	t = row_text(nb_rfc2889_text_congestion, &r);
	assert_non_null(strstr(t, "    64  no head-of-line blocking: x\n"));
	assert_non_null(strstr(t, "0>3  uncongested sent 10, forwarded 10"));
	assert_non_null(strstr(t, "back pressure: cannot be seen: y\n"));
	free(t);

	r.detail =
		json_pack("{s:i,s:f,s:f,s:[{s:i,s:i,s:i,s:i,s:f,s:n}]}",
			  "source", 0, "throughput_pps", 4000.0, "upper_pps",
			  4200.0, "ports", "port", 2, "sent", 8000, "received",
			  8000, "lost", 0, "forwarded_pps", 4000.0, "latency");
	t = row_text(nb_rfc2889_text_broadcast, &r);
	assert_non_null(strstr(t, "from port 0: 0.004000 Mpps reached every "
				  "port (upper 0.004200), 3 trials"));
	assert_non_null(strstr(t, "port  2: received 8000 of 8000, lost 0, "
				  "0.004000 Mpps\n"));
	free(t);
}

/* 5.9's frames: their bytes, the match (padded too), the layout. */
static void
test_errored_frames(void **state)
{
	static const uint8_t src[6] = {2, 0, 0, 0, 0, 1},
			     dst[6] = {2, 0, 0, 0, 0, 2};
	struct nb_config cfg;
	struct nb_suite_row r;
	char err[ERRLEN], *t;
	uint8_t buf[2048];

	(void)state;
	assert_int_equal(nb_err_frame(buf, 55, NB_ERR_UNDERSIZE, src, dst, 7),
			 -1);
	assert_int_equal(
		nb_err_frame(buf, sizeof(buf), NB_ERR_UNDERSIZE, src, dst, 7),
		56);
	assert_memory_equal(buf, dst, 6);
	assert_memory_equal(buf + 6, src, 6);
	assert_memory_equal(buf + 12, "\x88\xb5nbench-err\x00\x00\x00\x00\x07",
			    17);
	assert_int_equal(buf[55], 0);
	assert_int_equal(nb_err_match(buf, 56), NB_ERR_UNDERSIZE);
	assert_int_equal(nb_err_match(buf, 60), NB_ERR_UNDERSIZE); /* padded */
	assert_int_equal(nb_err_match(buf, 28), -1);
	buf[14] = 'N';
	assert_int_equal(nb_err_match(buf, 56), -1);
	assert_int_equal(nb_err_frame(buf, sizeof(buf), NB_ERR_OVERSIZE, src,
				      dst, 0x01020304),
			 1515);
	assert_memory_equal(buf + 24, "\x01\x01\x02\x03\x04", 5);
	assert_int_equal(nb_err_match(buf, 1515), NB_ERR_OVERSIZE);
	assert_int_equal(nb_err_wire_len(NB_ERR_OVERSIZE), 1519);
	assert_string_equal(nb_err_name(NB_ERR_UNDERSIZE), "undersize");

	assert_int_equal(CHECK_CFG(&cfg, err, "--ports", "3,5", "--test",
				   "errored-frames"),
			 0);
	assert_int_equal(cfg.nb_tx_ports, 1);
	assert_int_equal(cfg.tx_ports[0], 3);
	assert_int_equal(cfg.rx_ports[0], 5);
	assert_int_equal(cfg.mesh.nb_pairs, 0);
	assert_int_equal(
		CHECK(err, "--ports", "3,5,6", "--test", "errored-frames"),
		-EINVAL);
	assert_non_null(strstr(err, "two ports"));

	memset(&r, 0, sizeof(r));
	r.detail = json_pack("{s:[{s:s,s:i,s:i,s:i,s:s}],s:[s]}", "kinds",
			     "kind", "undersize", "wire_bytes", 60, "sent",
			     1000, "received", 0, "verdict", "filtered",
			     "cannot", "bad FCS: cannot be made");
	t = row_text(nb_rfc2889_text_errored, &r);
	assert_string_equal(t, "  undersize     60 B  sent   1000  received "
			       "     0  filtered\n  bad FCS: cannot be made\n");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_streams_cover),
		cmocka_unit_test(test_plan_split),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_learning_frame),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_rfc2889_layouts),
		cmocka_unit_test(test_rfc2889_text),
		cmocka_unit_test(test_errored_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
