/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interarrival jitter as RFC 3550 section 6.4.1 defines it, in ns:
 *   D(i-1, i) = (R_i - R_{i-1}) - (S_i - S_{i-1})
 *   J += (|D| - J) / 16
 * kept scaled by 16 in an integer as the RFC's appendix A.8 does.  Pure.
 */
#ifndef NB_JITTER_H
#define NB_JITTER_H

#include <stdint.h>

struct nb_jitter {
	int64_t last_transit;
	uint64_t j16; /* jitter * 16, ns */
	uint64_t samples;
};

static inline void
nb_jitter_init(struct nb_jitter *j)
{
	j->last_transit = 0;
	j->j16 = 0;
	j->samples = 0;
}

/* tx_ns and rx_ns in any common unit of ns; only differences matter. */
static inline void
nb_jitter_update(struct nb_jitter *j, uint64_t tx_ns, uint64_t rx_ns)
{
	int64_t transit = (int64_t)(rx_ns - tx_ns);
	int64_t d = transit - j->last_transit;
	uint64_t ad = (uint64_t)(d < 0 ? -d : d);

	j->last_transit = transit;
	if (j->samples++ == 0)
		return;
	j->j16 += ad - ((j->j16 + 8) >> 4);
}

static inline double
nb_jitter_ns(const struct nb_jitter *j)
{
	return (double)j->j16 / 16.0;
}

#endif /* NB_JITTER_H */
