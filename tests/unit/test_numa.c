/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for app/core/nb_numa.c: which worker lcores serve a port of
 * another NUMA node, on hand-made two-node layouts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_numa.h"

static struct nb_plan plan;

/* job j: port, queue, TX?, on worker w */
static void
add_job(uint16_t port, uint16_t queue, int tx, uint16_t w)
{
	struct nb_job *j = &plan.jobs[plan.nb_jobs];
	struct nb_worker_plan *wp = &plan.workers[w];

	memset(j, 0, sizeof(*j));
	j->port = port;
	j->queue = queue;
	j->is_tx = (uint8_t)tx;
	j->worker = w;
	wp->jobs[wp->nb_jobs++] = (uint16_t)plan.nb_jobs++;
}

/* Two workers: lcore 2 on cpu 1 (node 0) receives on port 1; lcore 3 on
 * cpu 9 (node 1) sends on port 0, queues 0 and 1. */
static void
two_nodes(struct nb_numa_layout *l, int port0_node, int port1_node)
{
	memset(&plan, 0, sizeof(plan));
	plan.nb_workers = 2;
	plan.workers[0].lcore = 2;
	plan.workers[0].cpu = 1;
	plan.workers[1].lcore = 3;
	plan.workers[1].cpu = 9;
	add_job(0, 0, 1, 1);
	add_job(0, 1, 1, 1);
	add_job(1, 0, 0, 0);
	memset(l, 0, sizeof(*l));
	l->available = 1;
	l->nb_nodes = 2;
	l->nb_workers = 2;
	l->workers[0] = (struct nb_numa_worker){2, 1, 0};
	l->workers[1] = (struct nb_numa_worker){3, 9, 1};
	l->nb_ports = 2;
	l->ports[0] = (struct nb_numa_port){0, port0_node};
	l->ports[1] = (struct nb_numa_port){1, port1_node};
}

static void
test_all_local(void **state)
{
	struct nb_numa_layout l;

	(void)state;
	/* the sender (node 1) has port 0 on node 1, the receiver port 1
	 * on node 0 */
	two_nodes(&l, 1, 0);
	nb_numa_check(&l, &plan);
	assert_int_equal(l.nb_mismatch, 0);
}

static void
test_crossed(void **state)
{
	struct nb_numa_layout l;
	char buf[512];

	(void)state;
	two_nodes(&l, 0, 1);
	nb_numa_check(&l, &plan);
	/* lcore 3 serves port 0 twice (two queues): listed once */
	assert_int_equal(l.nb_mismatch, 2);
	/* in the plan's worker order: lcore 2 first */
	assert_int_equal(l.mismatch[0].lcore, 2);
	assert_int_equal(l.mismatch[0].cpu, 1);
	assert_int_equal(l.mismatch[0].lcore_node, 0);
	assert_int_equal(l.mismatch[0].port, 1);
	assert_int_equal(l.mismatch[0].port_node, 1);
	assert_int_equal(l.mismatch[1].lcore, 3);
	assert_int_equal(l.mismatch[1].cpu, 9);
	assert_int_equal(l.mismatch[1].lcore_node, 1);
	assert_int_equal(l.mismatch[1].port, 0);
	assert_int_equal(l.mismatch[1].port_node, 0);
	nb_numa_text(&l, buf, sizeof(buf));
	assert_string_equal(buf,
			    "2 nodes; workers 2@cpu1:node0 3@cpu9:node1; "
			    "ports 0:node0 1:node1; worker lcore 2 (node 0) "
			    "serves port 1 (node 1); worker lcore 3 (node 1) "
			    "serves port 0 (node 0)");
	/* checked again, the same list (not appended) */
	nb_numa_check(&l, &plan);
	assert_int_equal(l.nb_mismatch, 2);
}

static void
test_unknown_never_mismatches(void **state)
{
	struct nb_numa_layout l;
	char buf[256];

	(void)state;
	two_nodes(&l, -1, 1);
	l.workers[0].node = -1;
	nb_numa_check(&l, &plan);
	assert_int_equal(l.nb_mismatch, 0);
	assert_int_equal(nb_numa_port_node(&l, 0), -1);
	assert_int_equal(nb_numa_port_node(&l, 1), 1);
	assert_int_equal(nb_numa_port_node(&l, 7), -1);
	l.available = 0;
	l.nb_nodes = 0;
	nb_numa_text(&l, buf, sizeof(buf));
	assert_string_equal(buf, "unknown (no NUMA support on this host); "
				 "workers 2@cpu1:node-1 3@cpu9:node1; ports "
				 "0:node-1 1:node1");
}

static void
test_text_truncates(void **state)
{
	struct nb_numa_layout l;
	char full[512], small[20];
	int n;

	(void)state;
	two_nodes(&l, 0, 1);
	nb_numa_check(&l, &plan);
	n = nb_numa_text(&l, full, sizeof(full));
	assert_int_equal(n, (int)strlen(full));
	assert_int_equal(nb_numa_text(&l, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, full, sizeof(small) - 1);
	assert_int_equal(nb_numa_text(&l, NULL, 0), n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_local),
		cmocka_unit_test(test_crossed),
		cmocka_unit_test(test_unknown_never_mismatches),
		cmocka_unit_test(test_text_truncates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
