/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the client asks the responder for: PARAMS from the options and
 * the session (a mesh across hosts adds its part: nb_mesh_peer.c).
 */
#include <string.h>

#include "nb_client_int.h"
#include "nb_port.h"
#include "nb_replay.h"
#include "nb_tcp.h"

void
nb_client_fill_params(struct nb_peer *pr, struct nb_ctl_params *p)
{
	struct nb_app *app = pr->app;
	const struct nb_config *cfg = &app->cfg;
	uint16_t i;

	memset(p, 0, sizeof(*p));
	p->direction = cfg->bidir     ? NB_CTL_DIR_BIDIR
		       : cfg->reverse ? NB_CTL_DIR_REVERSE
				      : NB_CTL_DIR_FORWARD;
	p->proto = cfg->proto;
	p->vlan_id = cfg->vlan_id;
	p->streams = cfg->streams;
	p->nb_sizes = cfg->sizes.nb_sizes;
	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		p->sizes[i] = cfg->sizes.sizes[i];
	p->nb_pattern = cfg->sizes.nb_pattern;
	memcpy(p->pattern, cfg->sizes.pattern, cfg->sizes.nb_pattern);
	if (cfg->replay.active) {
		/* the file's mix for the responder: its mean frame (the
		 * pattern: what --max-rate weighs) and its largest (what
		 * its port must take) */
		p->nb_sizes = 2;
		p->sizes[0] = nb_replay_mean_size(&app->replay);
		p->sizes[1] = cfg->sizes.sizes[0];
		p->nb_pattern = 1;
		p->pattern[0] = 0;
	}
	p->rate_num = app->rate.unlimited ? 0 : app->rate.pps_num;
	p->rate_den = app->rate.unlimited ? 1 : app->rate.pps_den;
	p->packets = app->total_packets;
	p->duration_ms = (uint64_t)(cfg->duration * 1000.0 + 0.5);
	p->omit_ms = (uint64_t)(cfg->omit * 1000.0 + 0.5);
	p->client_ip = pr->io->ip;
	memcpy(p->client_mac, app->ports[0].desc.mac, 6);
	p->client_macs.n = (uint8_t)nb_port_other_src_macs(
		pr->io->port, p->client_macs.mac, NB_CTL_MACS_MAX);
	/* nonzero asks the responder to reflect probes, at most that many
	 * per second: ping-pong goes as fast as the round trip allows */
	p->latency_rate =
		cfg->pingpong ? NB_CTL_MAX_LATENCY_RATE : cfg->latency_rate;
	p->sport_base = NB_DEFAULT_SPORT_BASE;
	p->dport = NB_DEFAULT_DPORT;
	/* the responder's counters come that often (none for ping-pong) */
	p->interval_ms = cfg->pingpong || cfg->mesh.nb_local
				 ? 0
				 : (uint32_t)(cfg->interval * 1000.0 + 0.5);
	/* the responder waits for us as long as we wait for it (the option
	 * takes 0.1-600 s, as PARAMS does) */
	p->peer_timeout_ms = (uint32_t)(cfg->peer_timeout * 1000.0 + 0.5);
	if (cfg->tcp) { /* closed loop: no rate, count, warm-up, probes */
		p->tcp = 1;
		p->proto = NB_IPPROTO_TCP;
		p->rate_num = p->packets = p->omit_ms = p->latency_rate = 0;
		p->rate_den = 1;
		p->dport = NB_TCP_DPORT;
		/* the client prints the intervals, from its own ends */
		p->interval_ms = 0;
		p->tcp_flags =
			(cfg->tcp_delayed_ack ? NB_CTL_TCP_F_DELACK : 0) |
			(cfg->tcp_no_sack ? NB_CTL_TCP_F_NO_SACK : 0);
		p->tcp_cc = (uint8_t)cfg->tcp_cc;
		p->tcp_window = cfg->tcp_window;
		p->tcp_msg = cfg->pingpong ? cfg->tcp_msg : 0;
		p->bytes = cfg->bytes;
		p->duration_ms =
			cfg->bytes && !cfg->duration_set
				? 0
				: (uint64_t)(cfg->duration * 1000.0 + 0.5);
	}
	nb_client_params_to(pr, p);
}

void
nb_client_params_to(const struct nb_peer *pr, struct nb_ctl_params *p)
{
	p->responder_ip = pr->peer_ip;
	memcpy(p->responder_mac, pr->peer_mac, 6);
	memcpy(p->proof.client_nonce, pr->cn, sizeof(pr->cn));
	memcpy(p->proof.cookie, pr->theirs.nonce, sizeof(pr->theirs.nonce));
}
