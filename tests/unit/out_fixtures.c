/* SPDX-License-Identifier: BSD-3-Clause */
/* The output tests' three-stream result: see out_fixtures.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_options.h"
#include "nb_output.h"
#include "nb_rxonly.h"

#include "out_fixtures.h"

/* Three streams; two intervals recorded by "the stats lcore"; totals set
 * as the final collector would, a few frames above the intervals' sums. */
void
setup_fx(struct fx *fx, int intervals_reach_end)
{
	uint64_t a[8 * NS];
	struct nb_interval iv;
	uint32_t k, i;

	nb_config_defaults(&fx->cfg);
	fx->cfg.mode = NB_MODE_LOOPBACK;
	fx->cfg.streams = NS;
	assert_int_equal(nb_result_init(&fx->r, &fx->cfg, NS), 0);
	for (i = 0; i < 2; i++) {
		memset(&iv, 0, sizeof(iv));
		memset(a, 0, sizeof(a));
		iv.start = i;
		iv.end = i + 1;
		iv.nb_streams = NS;
		iv.stream_tx_pkts = a;
		iv.stream_tx_bytes = a + NS;
		iv.stream_rx_pkts = a + 2 * NS;
		iv.stream_rx_bytes = a + 3 * NS;
		iv.stream_lost = a + 4 * NS;
		iv.stream_out_of_order = a + 5 * NS;
		iv.stream_duplicates = a + 6 * NS;
		iv.stream_jitter_ns = (double *)(a + 7 * NS);
		for (k = 0; k < NS; k++) {
			a[k] = 1000 + 10 * k + i;
			a[NS + k] = a[k] * 64;
			a[2 * NS + k] = a[k] - 1;
			a[3 * NS + k] = (a[k] - 1) * 64;
			a[4 * NS + k] = 1;
			iv.tx_pkts += a[k];
			iv.tx_bytes += a[NS + k];
			iv.rx_pkts += a[2 * NS + k];
			iv.rx_bytes += a[3 * NS + k];
		}
		iv.lost = NS;
		iv.lat_p50 = 500;
		iv.lat_p99 = 900;
		iv.lat_max = 1000;
		assert_int_equal(nb_result_add_interval(&fx->r, &iv), 0);
	}
	/* end totals: every frame sent arrived, 5 late per stream */
	for (k = 0; k < NS; k++) {
		struct nb_stream_result *s = &fx->r.streams[k];

		s->tx_pkts = (1000 + 10 * k) * 2 + 1 + 5;
		s->tx_bytes = s->tx_pkts * 64;
		s->rx_pkts = s->rx_unique = s->tx_pkts;
		s->rx_bytes = s->tx_bytes;
		nb_hist_record(&s->hist, 700);
	}
	fx->r.tx_seconds = intervals_reach_end ? 2.0 : 3.0;
	fx->r.rx_seconds = fx->r.tx_seconds + 0.01;
	nb_result_finish(&fx->r);
}
