/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the result and report tests share: the two-stream fixture with
 * known counts and latencies (fill), JSON path lookups, a relative
 * comparison, the JSON round trip and appending an interval.
 */
#ifndef RESULT_FIXTURES_H
#define RESULT_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "nb_options.h"
#include "nb_result.h"

#define TX_SECS 2.0
#define RX_SECS 2.5
#define SIZE0	64
#define SIZE1	1518
#define BIG_NS	UINT64_C(1000000)

struct fixture {
	struct nb_config cfg;
	struct nb_result r;
};

/* The fixture's per-stream counts (fill() documents them). */
extern const uint64_t tx_pkts[2], tx_bytes[2], rx_pkts[2], rx_bytes[2],
	rx_unique[2];

void assert_close(double got, double want, const char *what);
json_t *jget(json_t *root, const char *path);
json_t *jneed(json_t *root, const char *path);
long long jint_at(json_t *root, const char *path);
double jnum_at(json_t *root, const char *path);
int jbool_at(json_t *root, const char *path);
unsigned int check_finite(json_t *j);
void fill(struct fixture *fx);
void roundtrip(json_t *root, size_t flags);
/* Append interval k of the fixture's pattern, counts from base. */
void add_one_interval(struct nb_result *r, double start, uint64_t base);
/* The JSON of that interval: times, counts, sums. */
void check_interval(json_t *root, size_t k, double start, uint64_t base);

#endif /* RESULT_FIXTURES_H */
