/* SPDX-License-Identifier: BSD-3-Clause */
/* TCP's SACK scoreboard on the sender (RFC 6675).  Pure. */
#include "nb_tcp_int.h"

#include <string.h>

/* The SACK scoreboard (RFC 6675): sorted, disjoint ranges above
 * snd_una. */
void
nb_tcp_sb_sum(struct nb_tcp_conn *c)
{
	unsigned int i;

	c->sacked_bytes = 0;
	c->sack_hi = 0;
	for (i = 0; i < c->nb_sacked; i++)
		c->sacked_bytes += c->sacked[i].hi - c->sacked[i].lo;
	if (c->nb_sacked)
		c->sack_hi = c->sacked[c->nb_sacked - 1].hi;
}

void
nb_tcp_sb_prune(struct nb_tcp_conn *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nb_sacked; i++) {
		if (c->sacked[i].hi <= c->snd_una)
			continue;
		c->sacked[n] = c->sacked[i];
		if (c->sacked[n].lo < c->snd_una)
			c->sacked[n].lo = c->snd_una;
		n++;
	}
	c->nb_sacked = (uint8_t)n;
	nb_tcp_sb_sum(c);
}

static void
sb_add(struct nb_tcp_conn *c, uint64_t lo, uint64_t hi)
{
	unsigned int i, j;

	for (i = 0; i < c->nb_sacked && c->sacked[i].hi < lo; i++)
		;
	/* ranges from i on that touch [lo, hi) merge into it */
	j = i;
	while (j < c->nb_sacked && c->sacked[j].lo <= hi) {
		lo = min64(lo, c->sacked[j].lo);
		hi = max64(hi, c->sacked[j].hi);
		j++;
	}
	if (j > i) { /* replace sacked[i..j) by one */
		c->sacked[i].lo = lo;
		c->sacked[i].hi = hi;
		memmove(&c->sacked[i + 1], &c->sacked[j],
			(c->nb_sacked - j) * sizeof(c->sacked[0]));
		c->nb_sacked = (uint8_t)(c->nb_sacked - (j - i - 1));
		return;
	}
	if (c->nb_sacked == NB_TCP_SACKB) {
		if (i == NB_TCP_SACKB)
			return; /* above all kept: not kept */
		c->nb_sacked--; /* the highest goes */
	}
	memmove(&c->sacked[i + 1], &c->sacked[i],
		(c->nb_sacked - i) * sizeof(c->sacked[0]));
	c->sacked[i].lo = lo;
	c->sacked[i].hi = hi;
	c->nb_sacked++;
}

void
nb_tcp_sb_update(struct nb_tcp_conn *c, const struct nb_tcp_seg *s)
{
	unsigned int i;
	int64_t lo, hi;

	for (i = 0; i < s->nb_sack && i < NB_TCP_SACK_MAX; i++) {
		lo = snd_off(c, s->sack[i][0]);
		hi = snd_off(c, s->sack[i][1]);
		if (lo >= hi || hi > (int64_t)c->snd_max ||
		    hi <= (int64_t)c->snd_una)
			continue; /* stale or bogus: ignored */
		if (lo < (int64_t)c->snd_una)
			lo = (int64_t)c->snd_una;
		sb_add(c, (uint64_t)lo, (uint64_t)hi);
	}
	nb_tcp_sb_sum(c);
}

/* The first hole at or above from, below the highest SACKed byte:
 * 1 and [*lo, *hi), or 0. */
int
nb_tcp_sb_hole(const struct nb_tcp_conn *c, uint64_t from, uint64_t *lo,
	       uint64_t *hi)
{
	unsigned int i;

	for (i = 0; i < c->nb_sacked; i++) {
		if (c->sacked[i].hi <= from)
			continue;
		if (c->sacked[i].lo > from) {
			*lo = from;
			*hi = c->sacked[i].lo;
			return 1;
		}
		from = c->sacked[i].hi;
	}
	return 0;
}

/* RFC 6675 SetPipe: what is in the network.  Holes below HighRxt were
 * sent again (in flight once); holes above it are lost. */
uint64_t
nb_tcp_sb_pipe(const struct nb_tcp_conn *c)
{
	uint64_t pipe = nb_tcp_flight(c) - c->sacked_bytes;
	uint64_t from = max64(c->rexmit_hi, c->snd_una), lo, hi;

	while (nb_tcp_sb_hole(c, from, &lo, &hi)) {
		pipe -= hi - lo;
		from = hi;
	}
	return pipe;
}
