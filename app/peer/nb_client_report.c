/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the client writes: --conf, the test's header line, and the report
 * of each direction, made by pairing each end's sender with the other
 * end's receiver (nb_peer_result_merge).
 */
#include <stdio.h>
#include <string.h>

#include "nb_client_report.h"
#include "nb_peer_iv_io.h"
#include "nb_log.h"
#include "nb_mesh.h"
#include "nb_mesh_peer.h"
#include "nb_peer_result.h"
#include "nb_setup.h"

/* The peer's strings are its own: escaped before they reach a terminal. */
struct safe_conf {
	char host[4 * NB_CTL_HOST_STR], cpu[4 * NB_CTL_CPU_STR];
	char os[4 * NB_CTL_OS_STR], ver[4 * NB_CTL_VERSION_STR];
	char dpdk[4 * NB_CTL_DPDK_STR], driver[4 * NB_CTL_DRIVER_STR];
};

static void
safe_conf(struct safe_conf *s, const struct nb_ctl_conf *c)
{
	nb_escape(c->host, sizeof(c->host), s->host, sizeof(s->host));
	nb_escape(c->cpu, sizeof(c->cpu), s->cpu, sizeof(s->cpu));
	nb_escape(c->os, sizeof(c->os), s->os, sizeof(s->os));
	nb_escape(c->tool_version, sizeof(c->tool_version), s->ver,
		  sizeof(s->ver));
	nb_escape(c->dpdk_version, sizeof(c->dpdk_version), s->dpdk,
		  sizeof(s->dpdk));
	nb_escape(c->driver, sizeof(c->driver), s->driver, sizeof(s->driver));
}

/* The responder's address as text: its own word (WELCOME) over IPv4,
 * the one we talk to over IPv6. */
static struct nb_addr_text
their_addr(const struct nb_peer *pr)
{
	return nb_addr_text(pr->theirs.ipv4, pr->io->v6 ? pr->peer_ip6 : NULL);
}

static void
print_conf(const char *who, const struct nb_ctl_conf *c, const char *ip)
{
	struct safe_conf s;

	safe_conf(&s, c);
	printf("%s:\n  node %s\n  cpu %s\n  os %s\n  dpdk-nbench %s, %s\n"
	       "  driver %s, link %u Mbps, numa %d\n  queues rx %u tx %u, "
	       "workers %u\n  mac " NB_MAC_FMT " ip %s\n",
	       who, s.host, s.cpu, s.os, s.ver, s.dpdk, s.driver,
	       c->link_speed_mbps, c->numa_node, c->nb_rxq, c->nb_txq,
	       c->nb_workers, NB_MAC_ARGS(c->mac), ip);
	if (c->tsc_bound_ppb)
		printf("  clock tsc at %.6f GHz, +-%.3f ppm against "
		       "CLOCK_MONOTONIC_RAW\n",
		       c->tsc_hz / 1e9, c->tsc_bound_ppb / 1e3);
	else
		printf("  clock tsc at %.6f GHz (DPDK's estimate, not "
		       "calibrated)\n",
		       c->tsc_hz / 1e9);
}

/*
 * A peer string as JSON: as it is when it is UTF-8 (jansson escapes what
 * JSON needs), else with its bytes shown as \xNN.
 */
static json_t *
jstr(const char *s, size_t n)
{
	char e[4 * NB_CTL_REASON_STR];
	json_t *j = json_stringn(s, strnlen(s, n));

	if (j != NULL)
		return j;
	nb_escape(s, n, e, sizeof(e));
	return json_string(e);
}

static void
conf_json(json_t *o, const char *key, const struct nb_ctl_conf *c)
{
	char mac[18];

	snprintf(mac, sizeof(mac), NB_MAC_FMT, NB_MAC_ARGS(c->mac));
	json_object_set_new(
		o, key,
		json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:i,s:i,s:i,s:s}",
			  "host", jstr(c->host, sizeof(c->host)), "cpu",
			  jstr(c->cpu, sizeof(c->cpu)), "os",
			  jstr(c->os, sizeof(c->os)), "version",
			  jstr(c->tool_version, sizeof(c->tool_version)),
			  "dpdk",
			  jstr(c->dpdk_version, sizeof(c->dpdk_version)),
			  "driver", jstr(c->driver, sizeof(c->driver)),
			  "link_speed_mbps", (int)c->link_speed_mbps,
			  "numa_node", (int)c->numa_node, "rx_queues",
			  (int)c->nb_rxq, "tx_queues", (int)c->nb_txq,
			  "workers", (int)c->nb_workers, "mac", mac));
	json_object_set_new(json_object_get(o, key), "tsc_hz",
			    json_integer((json_int_t)c->tsc_hz));
	json_object_set_new(json_object_get(o, key), "tsc_uncertainty_ppm",
			    c->tsc_bound_ppb ? json_real(c->tsc_bound_ppb / 1e3)
					     : json_null());
}

/* The other source MACs of an end (a TLB or ALB bond's members). */
static json_t *
macs_json(const struct nb_ctl_macs *a)
{
	json_t *l = json_array();
	char mac[18];
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		snprintf(mac, sizeof(mac), NB_MAC_FMT, NB_MAC_ARGS(a->mac[i]));
		json_array_append_new(l, json_string(mac));
	}
	return l;
}

static void
print_macs(const char *who, const struct nb_ctl_macs *a)
{
	unsigned int i;

	if (a->n == 0)
		return;
	printf("%s data also from", who);
	for (i = 0; i < a->n; i++)
		printf(" " NB_MAC_FMT, NB_MAC_ARGS(a->mac[i]));
	printf(" (its bond's members' own MACs)\n");
}

static int
emit_json(struct nb_app *app, json_t *doc)
{
	app->emitted = 1;
	if (nb_out_finish(&app->out, doc) != 0) {
		nb_app_error(app, "cannot write --json-file %s",
			     app->cfg.json_file);
		return -1;
	}
	return 0;
}

static void
print_result(struct nb_app *app, struct nb_result *r, const char *title,
	     const char *direction, json_t **doc)
{
	if (app->out.kind == NB_OUT_JSON ||
	    app->out.kind == NB_OUT_JSON_STREAM || app->out.json_file != NULL)
		*doc = nb_report_json(r);
	nb_out_result(&app->out, r, title, direction);
}

void
nb_client_report_conf(struct nb_peer *pr)
{
	struct nb_numa_layout *l = &pr->app->result.numa;
	char numa[512];
	json_t *doc;

	/* this end's lcores (no test planned: no crossings yet) */
	nb_setup_numa(pr->app);
	if (!pr->app->cfg.json) {
		print_conf("local", &pr->mine,
			   nb_addr_text(pr->io->ip,
					pr->io->v6 ? pr->io->ip6 : NULL)
				   .s);
		nb_numa_text(l, numa, sizeof(numa));
		printf("  numa %s\n", numa);
		print_conf("remote", &pr->theirs, their_addr(pr).s);
		return;
	}
	doc = json_object();
	conf_json(doc, "local", &pr->mine);
	json_object_set_new(json_object_get(doc, "local"), "numa",
			    nb_numa_json(l));
	conf_json(doc, "remote", &pr->theirs);
	emit_json(pr->app, doc);
}

void
nb_client_report_header(struct nb_peer *pr, const struct nb_ctl_params *p)
{
	const struct nb_config *cfg = &pr->app->cfg;
	char host[4 * NB_CTL_HOST_STR];

	if (!nb_out_chatty(&pr->app->out))
		return;
	nb_escape(pr->theirs.host, sizeof(pr->theirs.host), host, sizeof(host));
	if (cfg->pingpong) {
		printf("Ping-pong test with %s (%s): round trips "
		       "of one %s probe at a time (%u B), %.2f s\n",
		       host, their_addr(pr).s,
		       cfg->proto == NB_IPPROTO_TCP ? "TCP-framed" : "UDP",
		       cfg->sizes.sizes[0], cfg->duration);
		fflush(stdout);
		return;
	}
	if (p->mesh.nb_ports) {
		const struct nb_mesh_cfg *m = &cfg->mesh;
		uint16_t k;

		printf("Peer test with %s (%s)", host, their_addr(pr).s);
		for (k = 0; k < pr->nb_group; k++) {
			const struct nb_peer *g = pr->group[k];

			nb_escape(g->theirs.host, sizeof(g->theirs.host), host,
				  sizeof(host));
			printf(", %s (%s)", host, their_addr(g).s);
		}
		printf(": a mesh of %u ports (%u here, %u the %s: %s), %s, "
		       "%u pairs, %u stream%s a pair, UDP\n",
		       m->nb_ports, m->nb_local, m->nb_ports - m->nb_local,
		       pr->nb_group ? "responders'" : "responder's",
		       pr->nb_group ? "rN the first's, rK.N the K-th's" : "rN",
		       nb_mesh_rfc_name(m->kind), m->nb_pairs, m->per_pair,
		       m->per_pair == 1 ? "" : "s");
		fflush(stdout);
		return;
	}
	printf("Peer test with %s (%s): %s, %u stream%s, %s\n", host,
	       their_addr(pr).s,
	       p->direction == NB_CTL_DIR_BIDIR	    ? "both ways"
	       : p->direction == NB_CTL_DIR_REVERSE ? "responder -> client "
						      "(reverse)"
						    : "client -> responder",
	       cfg->streams, cfg->streams == 1 ? "" : "s",
	       cfg->proto == NB_IPPROTO_TCP ? "TCP" : "UDP");
	if (cfg->replay.active) {
		char rp[400];

		nb_replay_text(&cfg->replay, &pr->app->replay, rp, sizeof(rp));
		printf("%s\n", rp);
	}
	print_macs("this port sends", &p->client_macs);
	print_macs("the responder sends", &pr->peer_macs);
	fflush(stdout);
}

int
nb_client_report_partial(struct nb_peer *pr, const char *why)
{
	struct nb_app *app = pr->app;
	json_t *doc = NULL;

	snprintf(app->result.error, sizeof(app->result.error), "%s", why);
	NB_LOG(ERR, "%s; partial results (this side's counters only) follow",
	       why);
	print_result(app, &app->result, "partial results:", "partial", &doc);
	if (doc != NULL)
		emit_json(app, doc);
	app->emitted = 1;
	return 1;
}

/* The round trips of the probes, into the forward direction's report. */
static void
add_probes(struct nb_app *app, struct nb_result *fwd)
{
	const struct nb_jobs *js = &app->jobs;
	unsigned int i;

	fwd->probes_sent = js->probe->sent;
	fwd->rtt_method = app->cfg.pingpong
				  ? "ping-pong, one probe outstanding, "
				    "reflected by the responder's worker; one "
				    "clock"
				  : "probes at --latency-rate inside the test, "
				    "reflected by the responder's worker; one "
				    "clock";
	for (i = 0; i < js->nb_rx; i++) {
		fwd->probes_returned += js->rx[i]->probes;
		nb_hist_merge(&fwd->rtt, js->rx[i]->rtt);
	}
}

json_t *
nb_client_start_json(struct nb_peer *pr, const struct nb_ctl_params *p)
{
	json_t *o = json_object();

	json_object_set_new(
		o, "direction",
		json_string(p->direction == NB_CTL_DIR_BIDIR	 ? "bidir"
			    : p->direction == NB_CTL_DIR_REVERSE ? "reverse"
								 : "forward"));
	conf_json(o, "remote", &pr->theirs);
	json_object_set_new(o, "other_src_macs", macs_json(&p->client_macs));
	json_object_set_new(json_object_get(o, "remote"), "other_src_macs",
			    macs_json(&pr->peer_macs));
	return o;
}

/*
 * The responder's port: its driver, MAC and link speed as its WELCOME gave
 * them (the session ran over its link: up), the set-up its ACCEPT said.
 * Its MTU is not said (null in JSON).
 */
static void
responder_setup(const struct nb_peer *pr, struct nb_result *out)
{
	struct nb_port_desc *d = &out->ports[1].desc;

	nb_escape(pr->theirs.driver, sizeof(pr->theirs.driver), d->driver,
		  sizeof(d->driver));
	memcpy(d->mac, pr->theirs.mac, sizeof(d->mac));
	d->link_speed = pr->theirs.link_speed_mbps;
	d->link_up = 1;
	out->ports[1].offload = pr->peer_offload;
	out->ports[1].has_offload = 1;
	out->ports[1].numa_brief = pr->peer_numa;
	out->ports[1].has_numa_brief = 1;
	out->ports[1].desc.numa_node = pr->peer_numa.port_node;
}

/* A mesh across hosts: both ends' counts, each pair as its two ends saw
 * it; 0 or -errno (the pairs could not be put together). */
static int
mesh_result(struct nb_peer *pr, const struct nb_ctl_results_hdr *h,
	    const struct nb_ctl_stream_res *res, uint32_t nres,
	    struct nb_result *out)
{
	struct nb_app *app = pr->app;

	nb_peer_result_side_init(out, &app->result, pr->method);
	nb_peer_result_mesh(out, &app->result, h, res, nres);
	responder_setup(pr, out);
	return nb_mesh_peer_merge(pr, out);
}

int
nb_client_result(struct nb_peer *pr, const struct nb_ctl_params *p,
		 const struct nb_ctl_results_hdr *h,
		 const struct nb_ctl_stream_res *res, struct nb_result *out)
{
	struct nb_app *app = pr->app;
	int we_send = p->direction != NB_CTL_DIR_REVERSE;

	if (nb_mesh_peer_on(pr))
		return mesh_result(pr, h, res, app->cfg.streams, out);
	nb_peer_result_side_init(out, &app->result, pr->method);
	nb_peer_result_merge(out, &app->result, h, res, app->cfg.streams,
			     we_send);
	responder_setup(pr, out);
	if (we_send && app->jobs.probe != NULL)
		add_probes(app, out);
	return 0;
}

/*
 * iperf3's --bidir keys: the reverse direction's sums beside the forward
 * ones, in the end object and in each interval (the whole reverse
 * document is under "reverse" as well).
 */
static void
bidir_sums(json_t *doc, json_t *rdoc)
{
	static const char *const keys[] = {"sum", "sum_sent", "sum_received"};
	json_t *end = json_object_get(doc, "end");
	json_t *rend = json_object_get(rdoc, "end");
	json_t *ivs = json_object_get(doc, "intervals");
	json_t *rivs = json_object_get(rdoc, "intervals");
	char key[48];
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(rend, keys[i]);

		snprintf(key, sizeof(key), "%s_bidir_reverse", keys[i]);
		if (v != NULL)
			json_object_set(end, key, v);
	}
	for (i = 0; i < json_array_size(ivs) && i < json_array_size(rivs); i++)
		json_object_set(
			json_array_get(ivs, i), "sum_bidir_reverse",
			json_object_get(json_array_get(rivs, i), "sum"));
}

/* A mesh across hosts: one report, each pair as its two ends saw it. */
static int
mesh_report(struct nb_peer *pr, const struct nb_ctl_params *p,
	    const struct nb_ctl_results_hdr *h,
	    const struct nb_ctl_stream_res *res, uint32_t nres)
{
	static struct nb_result r;
	struct nb_app *app = pr->app;
	json_t *doc = NULL;
	int ret = 0;

	if (mesh_result(pr, h, res, nres, &r) != 0)
		nb_app_error(app, "%s",
			     "the mesh's pairs could not be put together");
	print_result(app, &r, "mesh across hosts:", "mesh", &doc);
	if (doc != NULL) {
		json_t *extra = nb_client_start_json(pr, p);

		json_object_update(json_object_get(doc, "start"), extra);
		json_decref(extra);
		ret = emit_json(app, doc);
	}
	nb_result_free(&r);
	return ret;
}

int
nb_client_report(struct nb_peer *pr, const struct nb_ctl_params *p,
		 const struct nb_ctl_results_hdr *h,
		 const struct nb_ctl_stream_res *res, uint32_t nres)
{
	static struct nb_result fwd, rev;
	struct nb_app *app = pr->app;
	int sends = p->direction != NB_CTL_DIR_REVERSE;
	int receives = p->direction != NB_CTL_DIR_FORWARD;
	json_t *doc = NULL, *rdoc = NULL;
	int ret = 0;

	if (nb_mesh_peer_on(pr))
		return mesh_report(pr, p, h, res, nres);
	if (sends) {
		nb_peer_result_side_init(&fwd, &app->result, pr->method);
		nb_peer_result_merge(&fwd, &app->result, h, res, nres, 1);
		responder_setup(pr, &fwd);
		if (app->jobs.probe != NULL)
			add_probes(app, &fwd);
	}
	if (receives) {
		nb_peer_result_side_init(&rev, &app->result, pr->method);
		nb_peer_result_merge(&rev, &app->result, h, res, nres, 0);
		responder_setup(pr, &rev);
	}
	/* the interval rows first, closed against these totals */
	nb_peer_iv_io_finish(pr, sends ? &fwd : NULL, receives ? &rev : NULL);
	if (sends)
		print_result(app, &fwd, "client -> responder:", "forward",
			     &doc);
	if (receives)
		print_result(app, &rev, "responder -> client:", "reverse",
			     &rdoc);
	if (doc != NULL && rdoc != NULL) {
		bidir_sums(doc, rdoc);
		json_object_set_new(doc, "reverse", rdoc);
	} else if (rdoc != NULL)
		doc = rdoc;
	if (doc != NULL) {
		json_t *extra = nb_client_start_json(pr, p);

		json_object_update(json_object_get(doc, "start"), extra);
		json_decref(extra);
		ret = emit_json(app, doc);
	}
	if (sends)
		nb_result_free(&fwd);
	if (receives)
		nb_result_free(&rev);
	return ret;
}
