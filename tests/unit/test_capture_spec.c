/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for --capture's specification (app/core/nb_capture_spec.c): the
 * file name, every=, count=, snaplen=, their bounds, and the text the
 * report prints.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nb_test_util.h"

#include "nb_capture_spec.h"

static void
test_defaults(void **state)
{
	struct nb_capture_spec c;
	char why[200] = "";

	(void)state;
	assert_int_equal(nb_capture_spec_parse("rx.pcap", &c, why, sizeof(why)),
			 0);
	assert_true(c.active);
	assert_string_equal(c.path, "rx.pcap");
	assert_int_equal(c.every, 1);
	assert_int_equal(c.count, 0);
	assert_int_equal(c.snaplen, 65535);
}

static void
test_keys(void **state)
{
	struct nb_capture_spec c;
	char why[200] = "";

	(void)state;
	assert_int_equal(
		nb_capture_spec_parse("/tmp/a b.pcap,every=10,count=2K,"
				      "snaplen=128",
				      &c, why, sizeof(why)),
		0);
	assert_string_equal(c.path, "/tmp/a b.pcap");
	assert_int_equal(c.every, 10);
	assert_int_equal(c.count, 2000);
	assert_int_equal(c.snaplen, 128);
	/* any order; a key given twice: the last one */
	assert_int_equal(nb_capture_spec_parse("x,snaplen=14,every=1,every=3",
					       &c, why, sizeof(why)),
			 0);
	assert_int_equal(c.every, 3);
	assert_int_equal(c.snaplen, 14);
}

static void
refused(const char *spec, const char *says)
{
	struct nb_capture_spec c;
	char why[200] = "";

	memset(&c, 0x5a, sizeof(c));
	if (nb_capture_spec_parse(spec, &c, why, sizeof(why)) != -EINVAL)
		fail_msg("'%s' was taken", spec);
	if (strstr(why, says) == NULL)
		fail_msg("'%s': '%s' does not say '%s'", spec, why, says);
	/* nothing half-parsed is left behind */
	assert_int_equal(c.active, 0x5a5a5a5a);
}

static void
test_refused(void **state)
{
	char longname[300];

	(void)state;
	refused("", "expected FILE");
	refused(",every=2", "expected FILE");
	refused("x.pcap,", "expected KEY=VALUE");
	refused("x.pcap,,every=2", "expected KEY=VALUE");
	refused("x.pcap,every", "expected KEY=VALUE");
	refused("x.pcap,every=", "expected KEY=VALUE");
	refused("x.pcap,every=0", "every=0");
	refused("x.pcap,every=-1", "every=-1");
	refused("x.pcap,count=0", "count=0");
	refused("x.pcap,count=2T", "count=2T");
	refused("x.pcap,snaplen=13", "14..65535");
	refused("x.pcap,snaplen=65536", "14..65535");
	refused("x.pcap,size=10", "unknown key 'size'");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	refused(longname, "longer than 255");
}

static void
test_text(void **state)
{
	struct nb_capture_spec c;
	char why[200], buf[400];

	(void)state;
	nb_capture_spec_parse("rx.pcap", &c, why, sizeof(why));
	nb_capture_spec_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "rx.pcap (every frame, whole frames)");
	nb_capture_spec_parse("rx.pcap,every=2,snaplen=64,count=100", &c, why,
			      sizeof(why));
	nb_capture_spec_text(&c, buf, sizeof(buf));
	assert_string_equal(
		buf, "rx.pcap (every 2nd frame, first 64 bytes, at most 100 "
		     "frames)");
	nb_capture_spec_parse("r,every=11", &c, why, sizeof(why));
	nb_capture_spec_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "r (every 11th frame, whole frames)");
	nb_capture_spec_parse("r,every=21", &c, why, sizeof(why));
	nb_capture_spec_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "r (every 21st frame, whole frames)");
	nb_capture_spec_parse("r,every=113", &c, why, sizeof(why));
	nb_capture_spec_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "r (every 113th frame, whole frames)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
