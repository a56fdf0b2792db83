/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 6528 initial sequence numbers (see nb_tcp_isn.h). */
#include "nb_tcp_isn.h"

#include <pthread.h>
#include <time.h>

#include "nb_auth.h"
#include "nb_frame.h"

int
nb_tcp_isn_init(struct nb_tcp_isn *k)
{
	return nb_auth_random(k->secret, sizeof(k->secret));
}

static struct nb_tcp_isn process_isn;
static int process_isn_ok;
static pthread_once_t process_isn_once = PTHREAD_ONCE_INIT;

static void
process_isn_make(void)
{
	process_isn_ok = nb_tcp_isn_init(&process_isn) == 0;
}

const struct nb_tcp_isn *
nb_tcp_isn_process(void)
{
	pthread_once(&process_isn_once, process_isn_make);
	return process_isn_ok ? &process_isn : NULL;
}

uint32_t
nb_tcp_isn_hash(const struct nb_tcp_isn *k, uint32_t lip, uint16_t lport,
		uint32_t rip, uint16_t rport)
{
	uint8_t tuple[12], mac[32];
	const void *parts[] = {tuple};
	const size_t lens[] = {sizeof(tuple)};

	nb_put_be32(tuple, lip);
	nb_put_be16(tuple + 4, lport);
	nb_put_be32(tuple + 6, rip);
	nb_put_be16(tuple + 10, rport);
	nb_auth_hmac(k->secret, sizeof(k->secret), parts, lens, 1, mac);
	return nb_get_be32(mac);
}

uint32_t
nb_tcp_isn_next(const struct nb_tcp_isn *k, uint32_t lip, uint16_t lport,
		uint32_t rip, uint16_t rport, uint64_t now_ns)
{
	uint32_t m = (uint32_t)(now_ns / NB_TCP_ISN_TICK_NS);

	return m + nb_tcp_isn_hash(k, lip, lport, rip, rport);
}

uint32_t
nb_tcp_isn_now(const struct nb_tcp_isn *k, uint32_t lip, uint16_t lport,
	       uint32_t rip, uint16_t rport)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return nb_tcp_isn_next(k, lip, lport, rip, rport,
			       (uint64_t)ts.tv_sec * 1000000000u +
				       (uint64_t)ts.tv_nsec);
}
