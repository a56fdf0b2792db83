/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stop-and-wait reliable delivery of control messages.  See nb_link.h.
 */
#include <errno.h>
#include <string.h>

#include "nb_link.h"

static inline uint32_t
seq_next(uint32_t s)
{
	return s == UINT32_MAX ? 1 : s + 1;
}

/*
 * How far seq b is ahead of seq a on the cycle 1 .. UINT32_MAX (0 is never
 * used): 0 .. 2^32 - 2.
 */
static inline uint64_t
seq_dist(uint32_t a, uint32_t b)
{
	const uint64_t cycle = UINT32_MAX; /* 2^32 - 1 sequence numbers */

	return ((uint64_t)b + cycle - a) % cycle;
}

static inline uint64_t
sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The rto a new message starts from. */
static uint64_t
link_base_rto(const struct nb_link *l)
{
	uint64_t r = l->rto_min;

	if (l->rtt_samples > 0) {
		uint64_t est = sat_add(l->srtt_ns, 4 * l->rttvar_ns);

		if (est > r)
			r = est;
	}
	return r < l->rto_max ? r : l->rto_max;
}

int
nb_link_init(struct nb_link *l, uint64_t rto_min_ns, uint64_t rto_max_ns,
	     uint64_t timeout_ns)
{
	if (l == NULL || rto_min_ns == 0 || rto_min_ns > rto_max_ns ||
	    timeout_ns == 0)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->rto_min = rto_min_ns;
	l->rto_max = rto_max_ns;
	l->timeout = timeout_ns;
	l->rto = rto_min_ns;
	l->next_seq = 1;
	return 0;
}

void
nb_link_reset(struct nb_link *l)
{
	(void)nb_link_init(l, l->rto_min, l->rto_max, l->timeout);
}

int
nb_link_send(struct nb_link *l, struct nb_ctl_msg *m, uint64_t now)
{
	uint32_t saved;
	int n;

	if (l == NULL || m == NULL || m->type == NB_CTL_ACK)
		return -EINVAL;
	if (l->pending)
		return -EBUSY;
	saved = m->seq;
	m->seq = l->next_seq;
	n = nb_ctl_encode(m, l->out, sizeof(l->out));
	if (n < 0) {
		m->seq = saved;
		return n;
	}
	l->out_len = (size_t)n;
	l->out_seq = m->seq;
	l->next_seq = seq_next(l->next_seq);
	l->pending = 1;
	l->out_tx = 0;
	l->next_tx = now;
	l->deadline = sat_add(now, l->timeout);
	l->rto = link_base_rto(l);
	l->sent++;
	return 0;
}

enum nb_link_action
nb_link_poll(struct nb_link *l, uint64_t now, const uint8_t **buf, size_t *len)
{
	if (!l->pending)
		return NB_LINK_IDLE;
	if (now >= l->deadline) {
		l->pending = 0;
		l->timeouts++;
		return NB_LINK_TIMEOUT;
	}
	if (now < l->next_tx)
		return NB_LINK_IDLE;
	if (l->out_tx == 0) {
		l->first_tx = now;
	} else {
		/* The timer expired: back off (RFC 6298 5.5). */
		l->rto = l->rto > l->rto_max / 2 ? l->rto_max : 2 * l->rto;
		l->retransmits++;
	}
	l->out_tx++;
	l->next_tx = sat_add(now, l->rto);
	*buf = l->out;
	*len = l->out_len;
	return NB_LINK_TRANSMIT;
}

uint64_t
nb_link_next_event(const struct nb_link *l)
{
	if (!l->pending)
		return UINT64_MAX;
	return l->next_tx < l->deadline ? l->next_tx : l->deadline;
}

/* RFC 6298 section 2, in integer ns. */
static void
link_rtt_sample(struct nb_link *l, uint64_t r)
{
	uint64_t d;

	l->rtt_ns = r;
	if (l->rtt_samples++ == 0) {
		l->srtt_ns = r;
		l->rttvar_ns = r / 2;
		return;
	}
	d = l->srtt_ns > r ? l->srtt_ns - r : r - l->srtt_ns;
	l->rttvar_ns = l->rttvar_ns - l->rttvar_ns / 4 + d / 4;
	l->srtt_ns = l->srtt_ns - l->srtt_ns / 8 + r / 8;
}

int
nb_link_on_ack(struct nb_link *l, uint32_t seq, uint64_t now)
{
	if (!l->pending || seq != l->out_seq || l->out_tx == 0)
		return 0;
	if (l->out_tx == 1 && now >= l->first_tx)
		link_rtt_sample(l, now - l->first_tx);
	l->pending = 0;
	l->acked++;
	return 1;
}

int
nb_link_accept(struct nb_link *l, const struct nb_ctl_msg *m)
{
	uint64_t d;

	if (l == NULL || m == NULL || m->type == NB_CTL_ACK || m->seq == 0)
		return -EINVAL;
	d = l->last_rx_seq == 0 ? 1 : seq_dist(l->last_rx_seq, m->seq);
	if (d == 1) {
		l->last_rx_seq = m->seq;
		return 1;
	}
	if (d == 0 || d >= (UINT64_C(1) << 31)) {
		/* At or behind last_rx_seq. */
		l->duplicates++;
		return 0;
	}
	return -EPROTO;
}
