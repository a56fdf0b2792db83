/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_math.h"
#include "nb_mesh.h"
#include "nb_pacer.h"
#include "nb_plan.h"

static int
cpus_overlap(const struct nb_lcore_desc *a, const struct nb_lcore_desc *b)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (a->cpus[i] & b->cpus[i])
			return 1;
	return 0;
}

int
nb_plan_roles(struct nb_plan *plan, const struct nb_lcore_desc *lcores,
	      unsigned int nb_lcores, char *err, size_t errlen)
{
	unsigned int i, j;

	memset(plan, 0, sizeof(*plan));
	if (nb_lcores < 3) {
		snprintf(err, errlen,
			 "%u lcore%s given, 3 needed at least (control, stats, "
			 "one worker); on a 2-CPU host use "
			 "--lcores 0@0,1@0,2@0,3@1",
			 nb_lcores, nb_lcores == 1 ? "" : "s");
		return -EINVAL;
	}
	if (nb_lcores - 2 > NB_MAX_LCORES) {
		snprintf(err, errlen,
			 "too many lcores (%u), at most %d workers", nb_lcores,
			 NB_MAX_LCORES);
		return -EINVAL;
	}
	plan->control_lcore = lcores[0].id;
	plan->stats_lcore = lcores[1].id;
	for (i = 2; i < nb_lcores; i++) {
		for (j = 2; j < i; j++) {
			if (cpus_overlap(&lcores[i], &lcores[j])) {
				snprintf(err, errlen,
					 "worker lcores %u and %u share CPU "
					 "%u: two busy-polling workers on one "
					 "CPU starve each other; give each "
					 "worker its own CPU (e.g. --lcores "
					 "0@0,1@0,2@0,3@1)",
					 lcores[j].id, lcores[i].id,
					 lcores[i].cpu);
				return -EINVAL;
			}
		}
		plan->workers[plan->nb_workers].lcore = lcores[i].id;
		plan->workers[plan->nb_workers].cpu = lcores[i].cpu;
		plan->nb_workers++;
	}
	return 0;
}

static int
add_job(struct nb_plan *plan, int is_tx, uint16_t port, uint16_t peer,
	uint16_t queue, char *err, size_t errlen)
{
	struct nb_job *j;

	if (plan->nb_jobs >= NB_MAX_JOBS) {
		snprintf(err, errlen, "too many port queues");
		return -EINVAL;
	}
	j = &plan->jobs[plan->nb_jobs++];
	memset(j, 0, sizeof(*j));
	j->is_tx = (uint8_t)is_tx;
	j->port = port;
	j->peer_port = peer;
	j->queue = queue;
	return 0;
}

/* Streams round-robin over the first ntx (TX) jobs; rate and count by
 * share. */
static int
split_streams(struct nb_plan *plan, const struct nb_config *cfg,
	      unsigned int ntx, uint64_t rate_num, uint64_t rate_den,
	      uint64_t total_packets, char *err, size_t errlen)
{
	unsigned int i, s;
	uint64_t g;

	for (i = 0; i < ntx; i++) {
		struct nb_job *j = &plan->jobs[i];
		uint32_t first = i, stride = ntx, n, k;

		n = (cfg->streams + ntx - 1 - i) / ntx;
		if (cfg->mesh.nb_pairs) /* the port's own pairs' streams */
			nb_mesh_job_streams(&cfg->mesh,
					    (uint16_t)nb_mesh_port_index(
						    &cfg->mesh, j->port),
					    j->queue, cfg->queues, &first,
					    &stride, &n);
		j->first_stream = (uint16_t)first;
		j->stream_stride = (uint16_t)stride;
		j->nb_streams = n;
		j->packets = 0;
		for (k = 0, s = first; k < n; k++, s += stride)
			j->packets +=
				nb_split_count(total_packets, cfg->streams, s);
		if (rate_num == 0 || j->nb_streams == 0) {
			j->rate_num = 0;
			j->rate_den = 1;
			continue;
		}
		/* rate * nb_streams / streams, reduced to stay in range */
		g = nb_gcd_u64(j->nb_streams, cfg->streams);
		j->rate_num = rate_num * (j->nb_streams / g);
		j->rate_den = rate_den * (cfg->streams / g);
		if (j->rate_num / (j->nb_streams / g) != rate_num ||
		    j->rate_den / (cfg->streams / g) != rate_den) {
			snprintf(err, errlen, "rate split overflows");
			return -ERANGE;
		}
	}
	return 0;
}

/*
 * Jobs to workers from the last worker backwards: the first worker lcore
 * usually shares its CPU with the sleeping control and stats lcores, so it
 * gets the receivers, whose rings absorb a stall, and a CPU of its own goes
 * to the senders, whose timing is what the test measures.
 */
static void
place_jobs(struct nb_plan *plan)
{
	unsigned int i, w;

	for (i = 0; i < plan->nb_jobs; i++) {
		struct nb_worker_plan *wp;

		w = plan->nb_workers - 1 - i % plan->nb_workers;
		wp = &plan->workers[w];
		plan->jobs[i].worker = (uint16_t)w;
		wp->jobs[wp->nb_jobs++] = (uint16_t)i;
		if (plan->jobs[i].is_tx)
			wp->nb_tx++;
		else
			wp->nb_rx++;
	}
}

int
nb_plan_jobs(struct nb_plan *plan, const struct nb_config *cfg,
	     uint64_t rate_num, uint64_t rate_den, uint64_t total_packets,
	     char *err, size_t errlen)
{
	unsigned int i, q;
	int rc;

	plan->nb_jobs = 0;
	for (i = 0; i < plan->nb_workers; i++) {
		plan->workers[i].nb_jobs = 0;
		plan->workers[i].nb_tx = 0;
		plan->workers[i].nb_rx = 0;
	}
	for (i = 0; i < cfg->nb_tx_ports; i++)
		for (q = 0; q < cfg->queues; q++)
			if (add_job(plan, 1, cfg->tx_ports[i],
				    cfg->mesh.nb_pairs ? cfg->tx_ports[i]
						       : cfg->rx_ports[i],
				    (uint16_t)q, err, errlen))
				return -EINVAL;
	plan->nb_tx_jobs = plan->nb_jobs;
	for (i = 0; i < cfg->nb_rx_ports; i++)
		for (q = 0; q < cfg->queues + cfg->extra_rxq; q++)
			if (add_job(plan, 0, cfg->rx_ports[i],
				    i < cfg->nb_tx_ports ? cfg->tx_ports[i]
							 : cfg->rx_ports[i],
				    (uint16_t)q, err, errlen))
				return -EINVAL;
	if (plan->nb_workers == 0) {
		snprintf(err, errlen, "no worker lcores");
		return -EINVAL;
	}
	if (plan->nb_jobs >
	    (unsigned int)plan->nb_workers * NB_MAX_WORKER_JOBS) {
		snprintf(err, errlen,
			 "%u port queues are too many for %u "
			 "workers",
			 plan->nb_jobs, plan->nb_workers);
		return -EINVAL;
	}
	rc = split_streams(plan, cfg, plan->nb_tx_jobs, rate_num, rate_den,
			   total_packets, err, errlen);
	if (rc != 0)
		return rc;
	place_jobs(plan);
	return 0;
}

/*
 * Whole cycles of the pattern, then the frames of the last part cycle.  The
 * remainder counts down (it is below one cycle), so no sum can wrap: a sum
 * of sizes that counted up to `bytes` wrapped near 2^64 and looped for ever.
 * The result always fits: cycle >= nb_pattern, so whole cycles give at most
 * `bytes` frames, and a part cycle is only there when some bytes are left.
 */
uint64_t
nb_bytes_to_packets(uint64_t bytes, const struct nb_size_list *l)
{
	uint64_t cycle = 0, n, rem;
	unsigned int i;

	for (i = 0; i < l->nb_pattern; i++)
		cycle += l->sizes[l->pattern[i]];
	if (cycle == 0)
		return 0;
	n = bytes / cycle * l->nb_pattern;
	rem = bytes % cycle;
	for (i = 0; rem > 0 && i < l->nb_pattern; i++) {
		uint64_t s = l->sizes[l->pattern[i]];

		rem = rem > s ? rem - s : 0;
		n++;
	}
	return n;
}

unsigned int
nb_plan_ctl_ring(const struct nb_pool_budget *b, unsigned int *spare_out)
{
	uint64_t held, spare, share;

	held = (uint64_t)b->rxd * b->nb_rxq +
	       (uint64_t)b->lcores * (b->cache + b->cache / 2 + b->burst);
	spare = b->pool > held ? b->pool - held : 0;
	if (spare_out != NULL)
		*spare_out =
			spare > UINT32_MAX ? UINT32_MAX : (unsigned int)spare;
	if (b->nb_rxq == 0)
		return 0;
	share = spare / NB_CTL_RING_SHARE / b->nb_rxq;
	return share > NB_CTL_RING_MAX ? NB_CTL_RING_MAX : (unsigned int)share;
}
