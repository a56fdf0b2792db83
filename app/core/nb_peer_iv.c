/* SPDX-License-Identifier: BSD-3-Clause */
/* Peer-mode intervals (see nb_peer_iv.h).  Pure. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nb_math.h"
#include "nb_peer_iv.h"

/* A stream's value, 0 when the interval has no such array. */
static uint64_t
at(const uint64_t *a, uint32_t k)
{
	return a != NULL ? a[k] : 0;
}

uint32_t
nb_peer_iv_export(const struct nb_interval *iv, uint32_t index, uint32_t first,
		  struct nb_ctl_interval *out)
{
	uint32_t n, i;

	memset(out, 0, sizeof(*out));
	out->index = index;
	out->nb_streams = (uint16_t)iv->nb_streams;
	out->start_ns = nb_to_units(iv->start, 1e9);
	out->end_ns = nb_to_units(iv->end, 1e9);
	if (out->end_ns < out->start_ns)
		out->end_ns = out->start_ns;
	out->tx_pkts = iv->tx_pkts;
	out->tx_bytes = iv->tx_bytes;
	out->rx_pkts = iv->rx_pkts;
	out->rx_bytes = iv->rx_bytes;
	out->lost = iv->lost;
	out->out_of_order = iv->out_of_order;
	out->duplicates = iv->duplicates;
	out->jitter_ps = nb_to_units(iv->jitter_ns, 1e3);
	out->lat_count = iv->lat_count;
	out->lat_p50_ns = iv->lat_p50;
	out->lat_p99_ns = iv->lat_p99;
	out->lat_max_ns = iv->lat_max;
	if (iv->omitted || iv->stream_tx_pkts == NULL) {
		out->flags = NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST;
		return 0;
	}
	n = iv->nb_streams - first;
	if (n > NB_CTL_IV_STREAMS)
		n = NB_CTL_IV_STREAMS;
	out->first = (uint16_t)first;
	out->count = (uint16_t)n;
	for (i = 0; i < n; i++) {
		struct nb_ctl_iv_stream *s = &out->s[i];
		uint32_t k = first + i;

		s->tx_pkts = iv->stream_tx_pkts[k];
		s->tx_bytes = iv->stream_tx_bytes[k];
		s->rx_pkts = iv->stream_rx_pkts[k];
		s->rx_bytes = iv->stream_rx_bytes[k];
		s->lost = at(iv->stream_lost, k);
		s->out_of_order = at(iv->stream_out_of_order, k);
		s->duplicates = at(iv->stream_duplicates, k);
		s->jitter_ps =
			iv->stream_jitter_ns != NULL
				? nb_to_units(iv->stream_jitter_ns[k], 1e3)
				: 0;
	}
	if (first + n == iv->nb_streams) {
		out->flags = NB_CTL_IV_F_LAST;
		return 0;
	}
	return first + n;
}

void
nb_peer_ivs_init(struct nb_peer_ivs *s, uint32_t nb_streams)
{
	memset(s, 0, sizeof(*s));
	s->nb_streams = nb_streams;
}

void
nb_peer_ivs_free(struct nb_peer_ivs *s)
{
	uint32_t i, n = s->complete + (s->next_first != 0);

	for (i = 0; i < n && i < s->cap; i++)
		nb_interval_release(&s->iv[i]);
	free(s->iv);
	nb_peer_ivs_init(s, s->nb_streams);
}

/* Interval `complete`, allocated and filled from its first part. */
static int
ivs_begin(struct nb_peer_ivs *s, const struct nb_ctl_interval *v)
{
	struct nb_interval *iv;
	int omitted = (v->flags & NB_CTL_IV_F_OMITTED) != 0;

	if (s->complete == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 16;
		struct nb_interval *a = realloc(s->iv, cap * sizeof(*a));

		if (a == NULL)
			return -ENOMEM;
		s->iv = a;
		s->cap = cap;
	}
	iv = &s->iv[s->complete];
	memset(iv, 0, sizeof(*iv));
	if (!omitted && nb_interval_alloc(iv, s->nb_streams, 1) != 0)
		return -ENOMEM;
	iv->nb_streams = s->nb_streams;
	iv->omitted = omitted;
	iv->start = v->start_ns / 1e9;
	iv->end = v->end_ns / 1e9;
	iv->tx_pkts = v->tx_pkts;
	iv->tx_bytes = v->tx_bytes;
	iv->rx_pkts = v->rx_pkts;
	iv->rx_bytes = v->rx_bytes;
	iv->lost = v->lost;
	iv->out_of_order = v->out_of_order;
	iv->duplicates = v->duplicates;
	iv->jitter_ns = v->jitter_ps / 1e3;
	iv->lat_count = v->lat_count;
	iv->lat_p50 = v->lat_p50_ns;
	iv->lat_p99 = v->lat_p99_ns;
	iv->lat_max = v->lat_max_ns;
	return 0;
}

int
nb_peer_ivs_put(struct nb_peer_ivs *s, const struct nb_ctl_interval *v)
{
	struct nb_interval *iv;
	uint32_t i;
	int ret;

	if (v->nb_streams != s->nb_streams || v->index != s->complete ||
	    v->first != s->next_first) {
		s->refused++;
		return -EPROTO;
	}
	if (s->next_first == 0 && (ret = ivs_begin(s, v)) != 0)
		return ret;
	iv = &s->iv[s->complete];
	for (i = 0; i < v->count && iv->stream_tx_pkts != NULL; i++) {
		const struct nb_ctl_iv_stream *p = &v->s[i];
		uint32_t k = v->first + i;

		iv->stream_tx_pkts[k] = p->tx_pkts;
		iv->stream_tx_bytes[k] = p->tx_bytes;
		iv->stream_rx_pkts[k] = p->rx_pkts;
		iv->stream_rx_bytes[k] = p->rx_bytes;
		iv->stream_lost[k] = p->lost;
		iv->stream_out_of_order[k] = p->out_of_order;
		iv->stream_duplicates[k] = p->duplicates;
		iv->stream_jitter_ns[k] = p->jitter_ps / 1e3;
	}
	if (!(v->flags & NB_CTL_IV_F_LAST)) {
		s->next_first = (uint32_t)v->first + v->count;
		return 0;
	}
	s->complete++;
	s->next_first = 0;
	return 1;
}

int
nb_peer_iv_merge(struct nb_interval *out, const struct nb_interval *local,
		 const struct nb_interval *remote, int we_send)
{
	const struct nb_interval *tx = we_send ? local : remote;
	const struct nb_interval *rx = we_send ? remote : local;
	uint32_t n = local->nb_streams, k;

	memset(out, 0, sizeof(*out));
	if (nb_interval_alloc(out, n, !local->omitted) != 0)
		return -ENOMEM;
	out->nb_streams = n;
	out->start = local->start;
	out->end = local->end;
	out->omitted = local->omitted;
	out->link_down_ns = local->link_down_ns; /* our port's link */
	if (local->omitted) {
		/* the warm-up as a whole */
		out->tx_pkts = tx != NULL ? tx->tx_pkts : 0;
		out->tx_bytes = tx != NULL ? tx->tx_bytes : 0;
		out->rx_pkts = rx != NULL ? rx->rx_pkts : 0;
		out->rx_bytes = rx != NULL ? rx->rx_bytes : 0;
		return 0;
	}
	for (k = 0; k < n; k++) {
		if (tx != NULL && k < tx->nb_streams) {
			out->stream_tx_pkts[k] = at(tx->stream_tx_pkts, k);
			out->stream_tx_bytes[k] = at(tx->stream_tx_bytes, k);
		}
		if (rx != NULL && k < rx->nb_streams) {
			out->stream_rx_pkts[k] = at(rx->stream_rx_pkts, k);
			out->stream_rx_bytes[k] = at(rx->stream_rx_bytes, k);
			out->stream_lost[k] = at(rx->stream_lost, k);
			out->stream_out_of_order[k] =
				at(rx->stream_out_of_order, k);
			out->stream_duplicates[k] =
				at(rx->stream_duplicates, k);
			out->stream_jitter_ns[k] =
				rx->stream_jitter_ns != NULL
					? rx->stream_jitter_ns[k]
					: 0;
		}
		out->tx_pkts += out->stream_tx_pkts[k];
		out->tx_bytes += out->stream_tx_bytes[k];
		out->rx_pkts += out->stream_rx_pkts[k];
		out->rx_bytes += out->stream_rx_bytes[k];
	}
	if (rx != NULL) {
		out->lost = rx->lost;
		out->out_of_order = rx->out_of_order;
		out->duplicates = rx->duplicates;
		out->jitter_ns = rx->jitter_ns;
		out->lat_count = rx->lat_count;
		out->lat_p50 = rx->lat_p50;
		out->lat_p99 = rx->lat_p99;
		out->lat_max = rx->lat_max;
	}
	return 0;
}
