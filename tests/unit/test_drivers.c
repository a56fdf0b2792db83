/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the driver table (app/core/nb_drivers.c): what a user is
 * told when a port has too few queue pairs, per driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_drivers.h"

static void
test_lookup(void **state)
{
	const struct nb_driver_profile *p;

	(void)state;
	p = nb_driver_profile("net_af_packet");
	assert_non_null(p);
	assert_string_equal(p->driver, "net_af_packet");
	assert_non_null(nb_driver_profile("net_ixgbe"));
	assert_non_null(nb_driver_profile("net_i40e"));
	assert_non_null(nb_driver_profile("net_bnxt"));
	assert_non_null(nb_driver_profile("net_bnx2x"));
	assert_null(nb_driver_profile("net_nonesuch"));
	assert_null(nb_driver_profile(NULL));
	/* virtio-user needs an EAL option against vhost-user: told */
	p = nb_driver_profile("net_virtio_user");
	assert_non_null(p->eal_hint);
	assert_non_null(strstr(p->eal_hint, "--single-file-segments"));
}

static void
test_queue_hints(void **state)
{
	char buf[400];
	int n;

	(void)state;
	n = nb_driver_queue_hint("net_af_packet", 2, 1, 1, buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	assert_non_null(strstr(buf, "af_packet vdev has 1 RX / 1 TX queue, "
				    "2 of each are needed: add qpairs=2 "));
	assert_non_null(strstr(buf, ", or lower --queues to 1"));

	nb_driver_queue_hint("net_virtio_user", 4, 2, 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, "2 RX / 2 TX queues, 4 of each"));
	assert_non_null(strstr(buf, "add queues=4 to its --vdev"));

	/* a NIC with its maximum: only --queues helps */
	nb_driver_queue_hint("net_ixgbe", 200, 128, 64, buf, sizeof(buf));
	assert_string_equal(buf, "Intel 82599/X540/X550 NIC has 128 RX / 64 "
				 "TX queues, 200 of each are needed: lower "
				 "--queues to 64");

	/* a driver the table does not know: its name */
	nb_driver_queue_hint("net_foo", 3, 2, 2, buf, sizeof(buf));
	assert_string_equal(buf, "net_foo has 2 RX / 2 TX queues, 3 of each "
				 "are needed: lower --queues to 2");
}

static void
test_truncation(void **state)
{
	char buf[400], small[24];
	size_t len;
	int n;

	(void)state;
	n = nb_driver_queue_hint("net_virtio", 8, 1, 1, buf, sizeof(buf));
	/* every size is cut safely and NUL-terminated */
	for (len = 1; len < sizeof(small); len++) {
		memset(small, 'x', sizeof(small));
		nb_driver_queue_hint("net_virtio", 8, 1, 1, small, len);
		assert_int_equal(small[len - 1 < strlen(buf) ? len - 1 : 0],
				 '\0');
		assert_memory_equal(small, buf, strlen(small));
	}
	assert_true(n > 0 && (size_t)n == strlen(buf));
}

/* Which ports are restarted while their link is awaited: memif clients
 * only, their devargs read token by token. */
static void
test_redials(void **state)
{
	(void)state;
	assert_int_equal(nb_driver_redials("net_memif",
					   "role=client,socket=/tmp/a.sock"),
			 1);
	assert_int_equal(
		nb_driver_redials("net_memif",
				  "socket=/tmp/a,rsize=14,role=client"),
		1);
	/* a server (the default role) waits for its clients */
	assert_int_equal(nb_driver_redials("net_memif", "role=server"), 0);
	assert_int_equal(nb_driver_redials("net_memif", "socket=/tmp/a"), 0);
	assert_int_equal(nb_driver_redials("net_memif", ""), 0);
	assert_int_equal(nb_driver_redials("net_memif", NULL), 0);
	/* the token whole, not inside another key or value */
	assert_int_equal(
		nb_driver_redials("net_memif", "socket=/tmp/role=client"), 0);
	assert_int_equal(nb_driver_redials("net_memif", "role=clients"), 0);
	assert_int_equal(nb_driver_redials("net_memif", "xrole=client"), 0);
	/* other drivers never */
	assert_int_equal(nb_driver_redials("net_af_packet", "role=client"), 0);
	assert_int_equal(nb_driver_redials("net_foo", "role=client"), 0);
	assert_int_equal(nb_driver_redials(NULL, "role=client"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_queue_hints),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_redials),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
