/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of a closed-loop TCP report that are not rows: the header,
 * each port's frames, the responder's, ping-pong (nb_tcprun_int.h). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_json.h"
#include "nb_setup.h"
#include "nb_tcp_engine.h"
#include "nb_tcp_report.h"
#include "nb_tcp_wire.h"
#include "nb_tcprun_int.h"

void
nb_tcprun_addr_text(char *b, size_t n, uint32_t ip, const uint8_t *ip6,
		    uint16_t port)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ip6 != NULL) {
		inet_ntop(AF_INET6, ip6, a, sizeof(a));
		snprintf(b, n, "[%s]:%u", a, port);
		return;
	}
	snprintf(b, n, "%u.%u.%u.%u:%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff, port);
}

/* Each port's frames as the tool and the PMD counted them. */
json_t *
nb_tcprun_ports_json(const struct tcprun *t)
{
	const struct nb_tcpjob *js[2] = {t->cj, t->sj};
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct nb_pmd_stats ps;

		if (js[i] == NULL)
			continue;
		memset(&ps, 0, sizeof(ps));
		nb_port_stats(js[i]->port, &ps);
		json_array_append_new(
			a,
			json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, "
				  "s:I, s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, "
				  "s:I, s:I, s:I, s:I}}",
				  "port", js[i]->port, "role",
				  js[i]->server ? "server" : "client",
				  "tool_tx_packets", (json_int_t)js[i]->tx_pkts,
				  "tool_rx_packets", (json_int_t)js[i]->rx_pkts,
				  "foreign", (json_int_t)js[i]->foreign,
				  "bad_checksum", (json_int_t)js[i]->bad_csum,
				  "stray", (json_int_t)js[i]->stray,
				  "arp_answered",
				  (json_int_t)js[i]->arp_answered,
				  "nd_answered", (json_int_t)js[i]->nd_answered,
				  "alloc_fail", (json_int_t)js[i]->alloc_fail,
				  "reclaimed", (json_int_t)js[i]->reclaimed,
				  "half_open_dropped",
				  (json_int_t)js[i]->half_open_dropped,
				  "rx_bytes", (json_int_t)js[i]->rx_bytes,
				  "tx_bytes", (json_int_t)js[i]->tx_bytes,
				  "pmd", "opackets", (json_int_t)ps.opackets,
				  "ipackets", (json_int_t)ps.ipackets,
				  "imissed", (json_int_t)ps.imissed, "ierrors",
				  (json_int_t)ps.ierrors, "oerrors",
				  (json_int_t)ps.oerrors, "rx_nombuf",
				  (json_int_t)ps.rx_nombuf));
	}
	return a;
}

static const char *
cap_unit_name(uint64_t unit)
{
	return unit == NB_CTL_CAP_FRAMES ? "frames/s"
	       : unit == NB_CTL_CAP_L2	 ? "bytes/s (L2)"
					 : "bytes/s (L1)";
}

void
nb_tcprun_ports_text(const struct tcprun *t, FILE *f)
{
	const struct nb_tcpjob *js[2] = {t->cj, t->sj};
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (js[i] != NULL)
			fprintf(f,
				"frames: port %u (%s) sent %llu, received "
				"%llu; foreign %llu, bad checksum %llu, stray "
				"(RST sent) %llu, ARP answered %llu, "
				"neighbour solicitations answered %llu\n",
				js[i]->port,
				js[i]->server ? "server" : "client",
				(unsigned long long)js[i]->tx_pkts,
				(unsigned long long)js[i]->rx_pkts,
				(unsigned long long)js[i]->foreign,
				(unsigned long long)js[i]->bad_csum,
				(unsigned long long)js[i]->stray,
				(unsigned long long)js[i]->arp_answered,
				(unsigned long long)js[i]->nd_answered);
	if (t->rhdr == NULL)
		return;
	fprintf(f,
		"frames: the responder sent %llu, received %llu; foreign "
		"%llu, bad checksum %llu, stray (RST sent) %llu\n",
		(unsigned long long)t->rhdr->tx_pkts,
		(unsigned long long)t->rhdr->rx_pkts,
		(unsigned long long)t->rhdr->foreign,
		(unsigned long long)t->rhdr->bad_csum,
		(unsigned long long)t->rhdr->stray);
	if (t->pp.peer_setup_known) {
		char o[200];

		nb_offload_text(&t->pp.peer_offload, o, sizeof(o));
		fprintf(f, "the responder's port: offloads %s\n", o);
	}
	if (t->rhdr->cap_unit != NB_CTL_CAP_NONE)
		fprintf(f,
			"the responder sends at most %llu %s (its "
			"--max-rate): the cap held its TCP sender back %llu "
			"times\n",
			(unsigned long long)t->rhdr->cap_rate,
			cap_unit_name(t->rhdr->cap_unit),
			(unsigned long long)t->rhdr->cap_held);
}

/* --pingpong: the round trips of request and answer. */
void
nb_tcprun_pingpong_text(const struct tcprun *t, double secs, FILE *f)
{
	const struct nb_hist *h = t->cj->rtt;

	if (h->count == 0) {
		fprintf(f, "ping-pong: no round trip completed\n");
		return;
	}
	fprintf(f,
		"ping-pong: %llu round trips of %u-byte requests and answers "
		"(%.0f per second): RTT min %.2f us, p50 %.2f us, p99 %.2f "
		"us, max %.2f us, mean %.2f us\n",
		(unsigned long long)h->count, t->cj->pp_msg,
		secs > 0 ? (double)h->count / secs : 0, h->min / 1e3,
		nb_hist_percentile(h, 50) / 1e3,
		nb_hist_percentile(h, 99) / 1e3, h->max / 1e3,
		nb_hist_mean(h) / 1e3);
}

json_t *
nb_tcprun_pingpong_json(const struct tcprun *t, double secs)
{
	const struct nb_hist *h = t->cj->rtt;
	json_t *o = json_pack("{s:i, s:I, s:f}", "msg_size", (int)t->cj->pp_msg,
			      "round_trips", (json_int_t)h->count, "per_second",
			      secs > 0 ? (double)h->count / secs : 0.0);

	if (h->count)
		json_object_set_new(o, "rtt_ns", nb_tcp_json_hist(h));
	return o;
}

/* The responder's TCP worker and port, from its results. */
json_t *
nb_tcprun_responder_json(const struct tcprun *t)
{
	const struct nb_ctl_tcp_hdr *h = t->rhdr;
	json_t *o = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, "
		"s:I, s:I, s:I, s:I}, s:{s:f, s:f}}",
		"tool_tx_packets", (json_int_t)h->tx_pkts, "tool_rx_packets",
		(json_int_t)h->rx_pkts, "tx_bytes", (json_int_t)h->tx_bytes,
		"rx_bytes", (json_int_t)h->rx_bytes, "foreign",
		(json_int_t)h->foreign, "bad_checksum", (json_int_t)h->bad_csum,
		"stray", (json_int_t)h->stray, "alloc_fail",
		(json_int_t)h->alloc_fail, "ctl_dropped",
		(json_int_t)h->ctl_dropped, "pmd", "opackets",
		(json_int_t)h->pmd.opackets, "ipackets",
		(json_int_t)h->pmd.ipackets, "imissed",
		(json_int_t)h->pmd.imissed, "ierrors",
		(json_int_t)h->pmd.ierrors, "oerrors",
		(json_int_t)h->pmd.oerrors, "rx_nombuf",
		(json_int_t)h->pmd.rx_nombuf, "cpu", "wall_s",
		h->cpu.wall_ns / 1e9, "busy_s",
		(h->cpu.user_ns + h->cpu.system_ns) / 1e9);

	if (h->cap_unit != NB_CTL_CAP_NONE)
		json_object_set_new(o, "send_cap",
				    json_pack("{s:I, s:s, s:I}", "rate",
					      (json_int_t)h->cap_rate, "unit",
					      cap_unit_name(h->cap_unit),
					      "held", (json_int_t)h->cap_held));
	if (t->pp.peer_setup_known) {
		json_object_set_new(o, "offloads",
				    nb_offload_json(&t->pp.peer_offload));
		json_object_set_new(o, "numa",
				    nb_numa_brief_json(&t->pp.peer_numa));
	}
	return o;
}

const char *
nb_tcprun_tx_payload(const struct tcprun *t)
{
	const struct nb_tcpjob *js[2] = {t->cj, t->sj};
	int i;

	for (i = 0; i < 2; i++)
		if (js[i] != NULL && js[i]->sends)
			return js[i]->zc_pool != NULL ? "zero-copy" : "copied";
	return NULL;
}

/* ", TX zero-copy" in the header when this end sends so. */
static void
print_zero_copy(const struct tcprun *t)
{
	const char *how = nb_tcprun_tx_payload(t);

	if (how != NULL && strcmp(how, "zero-copy") == 0)
		printf(", TX zero-copy");
}

void
nb_tcprun_print_header(const struct tcprun *t)
{
	const struct nb_config *cfg = &t->app->cfg;
	int v6 = cfg->stack.family == 6;
	char a1[64], a2[64];
	uint16_t i;

	for (i = 0; i < t->app->nb_ports; i++)
		nb_setup_print_test_port(stdout, &t->app->ports[i]);
	nb_tcprun_addr_text(a1, sizeof(a1), cfg->src_ip,
			    v6 ? cfg->stack.src6.a : NULL,
			    NB_DEFAULT_SPORT_BASE);
	nb_tcprun_addr_text(a2, sizeof(a2), cfg->dst_ip,
			    v6 ? cfg->stack.dst6.a : NULL, TCP_DPORT);
	if (t->is_peer) {
		const struct nb_tcppeer *p = &t->pp;

		nb_tcprun_addr_text(a1, sizeof(a1), p->ip,
				    p->family == 6 ? p->ip6 : NULL,
				    p->sport_base);
		nb_tcprun_addr_text(a2, sizeof(a2), p->peer_ip,
				    p->family == 6 ? p->peer_ip6 : NULL,
				    p->dport);
		printf("Peer TCP test (%s): %u connection%s %s%s -> %s "
		       "(responder %02x:%02x:%02x:%02x:%02x:%02x), MSS %u, "
		       "window %u, SACK %s, delayed ACK %s, %s",
		       p->c2r && p->r2c ? "both ways"
		       : p->c2r		? "client sends"
					: "responder sends",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       p->peer_mac[0], p->peer_mac[1], p->peer_mac[2],
		       p->peer_mac[3], p->peer_mac[4], p->peer_mac[5], t->mss,
		       p->window, p->no_sack ? "off" : "on",
		       p->delayed_ack ? "on" : "off",
		       p->cc ? "CUBIC" : "NewReno");
		print_zero_copy(t);
		if (p->bytes)
			printf(", %llu bytes", (unsigned long long)p->bytes);
		else
			printf(", %.2f s", p->duration);
		printf("\n");
		if (t->app->out.intervals && !t->no_iv)
			nb_tcp_text_header(t->app->out.f, 0, t->ndir == 2);
		fflush(stdout);
		return;
	}
	if (t->loop)
		printf("Loopback TCP test: %u connection%s %s%s -> %s (port "
		       "%u -> port %u)",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       t->cj->port, t->sj->port);
	else if (t->cj)
		printf("TCP client: %u connection%s %s%s -> %s (port %u, "
		       "next hop %02x:%02x:%02x:%02x:%02x:%02x)",
		       t->n, t->n == 1 ? "" : "s", a1, t->n > 1 ? "+" : "", a2,
		       t->cj->port, t->peer_mac[0], t->peer_mac[1],
		       t->peer_mac[2], t->peer_mac[3], t->peer_mac[4],
		       t->peer_mac[5]);
	else
		printf("TCP server: listening on %s (port %u), up to %u "
		       "connection%s",
		       a2, t->sj->port, t->n, t->n == 1 ? "" : "s");
	printf(", MSS %u, window %u, SACK %s, delayed ACK %s, %s", t->mss,
	       cfg->tcp_window, cfg->tcp_no_sack ? "off" : "on",
	       cfg->tcp_delayed_ack ? "on" : "off",
	       cfg->tcp_cc ? "CUBIC" : "NewReno");
	print_zero_copy(t);
	if (cfg->bytes && t->cj)
		printf(", %llu bytes", (unsigned long long)cfg->bytes);
	else if (cfg->duration > 0 && (t->cj || cfg->duration_set))
		printf(", %.2f s", cfg->duration);
	printf("\n");
	if (cfg->tcp_msgs.n)
		printf("ping-pong: %u message sizes, %u to %u B, a test of "
		       "%.2f s each\n",
		       cfg->tcp_msgs.n, cfg->tcp_msgs.sizes[0],
		       cfg->tcp_msgs.sizes[cfg->tcp_msgs.n - 1], cfg->duration);
	if (t->app->out.intervals && !t->no_iv)
		nb_tcp_text_header(t->app->out.f, 0, 0);
	fflush(stdout);
}
