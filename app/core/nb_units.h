/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parsing of user-facing quantities: rates, counts, byte sizes, durations,
 * frame-size lists, MAC and IPv4 addresses.  Pure: no DPDK calls.
 *
 * Every parser returns 0 on success and -EINVAL (or -ERANGE for a value
 * outside the allowed range) on failure, and never writes *out on failure.
 * Leading/trailing garbage is rejected ("10Gx", " 10G", "" are errors).
 */
#ifndef NB_UNITS_H
#define NB_UNITS_H

#include <stdint.h>

/* How the user asked for a rate. */
enum nb_rate_kind {
	NB_RATE_MAX = 0, /* "max": as fast as the port takes it */
	NB_RATE_BPS_L1, /* "10G", "10Gl1", "2.5G", "100M", "1000": bits/s on the
			 * wire, counting 20 B preamble+SFD+IFG per frame
			 * (the default layer, as RFC 2544 counts) */
	NB_RATE_BPS_L2, /* "10Gl2", "100Ml2": bits/s of frames incl. FCS */
	NB_RATE_PPS,	/* "14.88Mpps", "500Kpps", "1000pps" */
	NB_RATE_PERCENT, /* "50%", "99.5%": percent of link speed (L1) */
};

struct nb_rate_spec {
	enum nb_rate_kind kind;
	/*
	 * bits/s for BPS kinds, packets/s for PPS, percent (0 < v <= 100) for
	 * PERCENT; 0 for MAX.  Suffixes K/M/G are decimal (1e3/1e6/1e9) and
	 * case-insensitive; fractions are allowed ("2.5G").  Zero or negative
	 * rates are rejected.
	 */
	double value;
};

/* The largest rates accepted: beyond any port, and safe in the pacer's and
 * the plan's 64-bit arithmetic. */
#define NB_RATE_MAX_BPS 10e12 /* 10 Tbit/s */
#define NB_RATE_MAX_PPS 10e9  /* 10 Gpps */

int nb_parse_rate(const char *s, struct nb_rate_spec *out);

/*
 * Why nb_parse_rate() refuses s: a phrase such as "a rate must be above 0
 * ...", or "" for a syntax error (the caller shows examples); NULL when s
 * is a valid rate.
 */
const char *nb_rate_error(const char *s);

/* Decimal integer with optional K/M/G suffix (1e3/1e6/1e9): "--packets 10M". */
int nb_parse_count(const char *s, uint64_t *out);

/*
 * Byte amount with optional K/M/G suffix, binary like iperf3 -n
 * (1024/1048576/1073741824): "--bytes 10G".
 */
int nb_parse_bytes(const char *s, uint64_t *out);

/* Seconds, fractions allowed, >= 0: "10", "0.5". */
int nb_parse_seconds(const char *s, double *out);

/* Unsigned decimal integer in [min, max]. */
int nb_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/* "02:00:00:00:00:01" (also accepts '-' separators). */
int nb_parse_mac(const char *s, uint8_t mac[6]);

/* Dotted quad; result in host byte order. */
int nb_parse_ipv4(const char *s, uint32_t *out);

/* Frame sizes, in bytes including the 4 B FCS, as RFC 2544 counts. */
#define NB_FRAME_MIN   64
#define NB_FRAME_MAX   9000
#define NB_MAX_SIZES   16
#define NB_MAX_PATTERN 64

struct nb_size_list {
	uint16_t nb_sizes; /* distinct sizes, in the order given */
	uint16_t sizes[NB_MAX_SIZES];
	/*
	 * The repeating order in which frames are sent: indices into sizes[].
	 * For a plain list "64,512,1518" it is 0,1,2.  For "imix" (64/594/1518
	 * in 7:4:1) it is 12 entries, interleaved so that the big frames are
	 * spread out rather than sent back to back.
	 */
	uint16_t nb_pattern;
	uint8_t pattern[NB_MAX_PATTERN];
};

/* "64", "64,128,1518", "imix".  Each size in [NB_FRAME_MIN, NB_FRAME_MAX]. */
int nb_parse_sizes(const char *s, struct nb_size_list *out);

/* Mean frame size over one pattern cycle (bytes incl. FCS). */
double nb_sizes_mean(const struct nb_size_list *l);

/*
 * A rate resolved to packets per second as an exact rational
 * pps = pps_num / pps_den.  unlimited = 1 for "max".
 */
struct nb_rate {
	int unlimited;
	uint64_t pps_num;
	uint64_t pps_den;
};

/*
 * Resolve a spec for a given size pattern and link speed (bits/s, 0 =
 * unknown).  L1 bits per frame are (size + 20) * 8, L2 bits size * 8,
 * averaged exactly over the pattern:
 *   pps = bps * nb_pattern / sum_over_pattern(bits per frame).
 * Bits/s are rounded to an integer first; pps to 1/1000 pps.
 * Returns -ENOTSUP for a percent rate when link_bps == 0.
 */
int nb_rate_resolve(const struct nb_rate_spec *spec,
		    const struct nb_size_list *sizes, uint64_t link_bps,
		    struct nb_rate *out);

/* L1 and L2 bits per second for a packet rate and size pattern. */
double nb_rate_l1_bps(double pps, const struct nb_size_list *sizes);
double nb_rate_l2_bps(double pps, const struct nb_size_list *sizes);

#endif /* NB_UNITS_H */
