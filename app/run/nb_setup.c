/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a process sets up before any test: the lcore roles, the ports (one
 * bring-up for loopback, reflector, peer and --list-ports), and their
 * description on stdout; and the tear-down at exit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>

#include <rte_lcore.h>

#include "nb_devcaps.h"
#include "nb_drivers.h"
#include "nb_eal_args.h"
#include "nb_log.h"
#include "nb_offload.h"
#include "nb_phase.h"
#include "nb_setup.h"
#include "nb_tsc.h"

int
nb_setup_roles(struct nb_app *app, char *err, size_t errlen)
{
	struct nb_lcore_desc *d;
	unsigned int n = 0, id, c;
	int ret;

	d = calloc(RTE_MAX_LCORE, sizeof(*d));
	if (d == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	id = rte_get_main_lcore();
	for (;;) {
		rte_cpuset_t cs = rte_lcore_cpuset(id);
		int first = 1;

		d[n].id = id;
		for (c = 0; c < 256 && c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &cs))
				continue;
			d[n].cpus[c / 64] |= UINT64_C(1) << (c % 64);
			if (first) {
				d[n].cpu = c;
				first = 0;
			}
		}
		n++;
		/* the main lcore first, then every other in id order */
		id = rte_get_next_lcore(n == 1 ? (unsigned int)-1 : id, 1, 0);
		if (id >= RTE_MAX_LCORE)
			break;
	}
	ret = nb_plan_roles(&app->plan, d, n, err, errlen);
	free(d);
	return ret;
}

void
nb_setup_port_missing(uint16_t port, char *err, size_t errlen)
{
	uint16_t ids[NB_MAX_PORTS], n = nb_port_ids(ids, NB_MAX_PORTS), i;
	size_t off;

	off = (size_t)snprintf(err, errlen,
			       "port %u does not exist (%u port%s probed%s",
			       port, n, n == 1 ? "" : "s", n ? ": " : "");
	for (i = 0; i < n && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s%u",
					i ? ", " : "", ids[i]);
	if (off < errlen)
		snprintf(err + off, errlen - off, "; see --list-ports)");
}

/* A bond's member is the bond's to configure: say which port to name. */
static int
member_refused(uint16_t port, char *err, size_t errlen)
{
	int bond = nb_port_bond_of(port);
	struct nb_port_desc d;

	if (!nb_port_is_member(port))
		return 0;
	if (bond >= 0 && nb_port_describe((uint16_t)bond, &d) == 0)
		snprintf(err, errlen,
			 "port %u is a member of bond port %d (%s): the bond "
			 "configures it; test on port %d",
			 port, bond, d.name, bond);
	else
		snprintf(err, errlen,
			 "port %u is a member of a bond: test on the bond",
			 port);
	return -EINVAL;
}

int
nb_setup_check_ports(struct nb_config *cfg, char *err, size_t errlen)
{
	uint16_t i, n = cfg->nb_tx_ports + cfg->nb_rx_ports, ids[1];

	if (cfg->mode == NB_MODE_CLIENT || cfg->mode == NB_MODE_RESPONDER) {
		/* no --port: the first port a user tests on (a bond, not
		 * its first member) */
		if (!cfg->have_port && nb_port_valid(cfg->port) &&
		    nb_port_is_member(cfg->port) && nb_port_ids(ids, 1) == 1)
			cfg->port = ids[0];
		if (!nb_port_valid(cfg->port)) {
			nb_setup_port_missing(cfg->port, err, errlen);
			return -ENODEV;
		}
		return member_refused(cfg->port, err, errlen);
	}
	if (cfg->mode != NB_MODE_LOOPBACK && cfg->mode != NB_MODE_REFLECTOR)
		return 0;
	for (i = 0; i < n; i++) {
		uint16_t p = i < cfg->nb_tx_ports
				     ? cfg->tx_ports[i]
				     : cfg->rx_ports[i - cfg->nb_tx_ports];

		if (!nb_port_valid(p)) {
			nb_setup_port_missing(p, err, errlen);
			return -ENODEV;
		}
		if (member_refused(p, err, errlen) != 0)
			return -EINVAL;
	}
	return 0;
}

void
nb_setup_lcore_map(const struct nb_app *app, char *buf, size_t len)
{
	const struct nb_plan *plan = &app->plan;
	size_t off = 0;
	unsigned int i, k;

	off += (size_t)snprintf(buf + off, len - off, "control=%u stats=%u",
				plan->control_lcore, plan->stats_lcore);
	for (i = 0; i < plan->nb_workers && off < len; i++) {
		const struct nb_worker_plan *wp = &plan->workers[i];

		off += (size_t)snprintf(buf + off, len - off,
					" worker%u=%u(cpu%u:", i, wp->lcore,
					wp->cpu);
		for (k = 0; k < wp->nb_jobs && off < len; k++) {
			const struct nb_job *j = &plan->jobs[wp->jobs[k]];

			off += (size_t)snprintf(buf + off, len - off,
						"%s%s p%u/q%u", k ? "," : "",
						j->is_tx ? "tx" : "rx", j->port,
						j->queue);
		}
		if (wp->nb_jobs == 0 && off < len)
			off += (size_t)snprintf(buf + off, len - off, "idle");
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, ")");
	}
}

void
nb_setup_numa(struct nb_app *app)
{
	const struct nb_plan *plan = &app->plan;
	struct nb_numa_layout *l = &app->result.numa;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->available = numa_available() >= 0;
	l->nb_nodes = l->available ? numa_num_configured_nodes() : 0;
	for (i = 0; i < plan->nb_workers && i < NB_NUMA_MAX; i++) {
		l->workers[i].lcore = plan->workers[i].lcore;
		l->workers[i].cpu = plan->workers[i].cpu;
		l->workers[i].node =
			l->available
				? numa_node_of_cpu((int)plan->workers[i].cpu)
				: -1;
	}
	l->nb_workers = (uint16_t)i;
	for (i = 0; i < app->nb_ports && i < NB_MAX_PORTS; i++) {
		l->ports[i].port = app->port_ids[i];
		l->ports[i].node = app->ports[i].desc.numa_node;
	}
	l->nb_ports = (uint16_t)i;
	nb_numa_check(l, plan);
}

void
nb_setup_numa_brief(const struct nb_app *app, int planned,
		    struct nb_numa_brief *b)
{
	if (planned) {
		nb_numa_brief(&app->result.numa, b);
		return;
	}
	memset(b, 0, sizeof(*b));
	b->nodes = numa_available() >= 0 ? (uint16_t)numa_num_configured_nodes()
					 : 0;
	b->port_node = (int16_t)app->ports[0].desc.numa_node;
}

void
nb_setup_check_numa(const struct nb_app *app)
{
	const struct nb_numa_layout *l = &app->result.numa;
	uint16_t i;

	for (i = 0; i < l->nb_mismatch; i++)
		NB_LOG(WARNING,
		       "warning: worker lcore %u (cpu %u, NUMA node %d) serves "
		       "port %u on node %d; expect lower rates",
		       l->mismatch[i].lcore, l->mismatch[i].cpu,
		       l->mismatch[i].lcore_node, l->mismatch[i].port,
		       l->mismatch[i].port_node);
}

void
nb_setup_print_port(FILE *f, const struct nb_port_desc *d)
{
	fprintf(f,
		"port %u: %s driver %s mac %02x:%02x:%02x:%02x:%02x:%02x "
		"link %s %u Mbps%s numa %d mtu %u\n",
		d->port_id, d->name, d->driver, d->mac[0], d->mac[1], d->mac[2],
		d->mac[3], d->mac[4], d->mac[5], d->link_up ? "up" : "DOWN",
		d->link_speed, d->full_duplex ? " full-duplex" : "",
		d->numa_node, d->mtu);
}

void
nb_setup_print_test_port(FILE *f, const struct nb_port *p)
{
	char t[200];

	nb_setup_print_port(f, &p->desc);
	nb_offload_text(&p->offload, t, sizeof(t));
	fprintf(f, "  offloads: %s\n", t);
}

static int eal_single_file;

void
nb_setup_note_eal(int argc, char **argv)
{
	int i;

	nb_eal_args_note(argc, argv);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--single-file-segments") == 0)
			eal_single_file = 1;
}

/*
 * A driver that needs an EAL option it was not given: virtio-user against
 * vhost-user fails only later, in a memory callback ("Too many memory
 * regions"), and the port then carries nothing.  Say it up front.
 */
static void
check_eal_needs(uint16_t port)
{
	struct nb_port_desc d;
	const struct nb_driver_profile *p;

	if (nb_port_describe(port, &d) != 0)
		return;
	p = nb_driver_profile(d.driver);
	if (p != NULL && p->eal_hint != NULL && !eal_single_file &&
	    strstr(p->eal_hint, "--single-file-segments") != NULL)
		NB_LOG(WARNING,
		       "warning: port %u (%s) is a %s: give the EAL option %s",
		       port, d.name, p->what, p->eal_hint);
}

/* A bond goes on once it uses every member with a link (a warning if
 * not within the link timeout: the test may then see flows move). */
static void
settle_bond(uint16_t port_id, double timeout_s)
{
	double waited;
	int ret = nb_port_bond_settle(port_id, timeout_s, &waited);

	if (ret == -ETIMEDOUT)
		NB_LOG(WARNING,
		       "bond port %u still has members with a link that it "
		       "does not use after %.1f s (raise --link-timeout?)",
		       port_id, waited);
	else if (ret == 1)
		NB_LOG(DEBUG,
		       "bond port %u: every member with a link active "
		       "after %.3f s",
		       port_id, waited);
}

/* 802.3ad bonds carry data once LACP agrees with the partner: wait for
 * it, as long as for a link. */
static int
settle_lacp(struct nb_app *app, double timeout_s)
{
	uint16_t nb_rxq[NB_MAX_PORTS], i;
	double waited;
	char err[400];
	int ret;

	for (i = 0; i < app->nb_ports; i++)
		nb_rxq[i] = app->ports[i].desc.nb_rxq;
	ret = nb_ports_lacp_settle(app->port_ids, nb_rxq, app->nb_ports,
				   timeout_s, &waited, err, sizeof(err));
	if (ret == -ETIMEDOUT) {
		nb_app_error(app,
			     "%s (is LACP on at the far end? a switch needs "
			     "the ports in an LACP LAG; raise --link-timeout)",
			     err);
		return ret;
	}
	if (ret == 1)
		NB_LOG(INFO,
		       "802.3ad: LACP in step with the partner on every "
		       "member after %.2f s",
		       waited);
	return 0;
}

#define INTERRUPTED "interrupted while setting up the ports"

/* The largest frame of the test, at least min. */
static uint32_t
max_frame_of(const struct nb_config *cfg, uint32_t min)
{
	uint32_t m = min;
	uint16_t i;

	for (i = 0; i < cfg->sizes.nb_sizes; i++)
		if (cfg->sizes.sizes[i] > m)
			m = cfg->sizes.sizes[i];
	return m;
}

int
nb_setup_ports(struct nb_app *app, const uint16_t *ids, uint16_t n,
	       const struct nb_setup_req *sr)
{
	const struct nb_config *cfg = &app->cfg;
	uint32_t max_frame = max_frame_of(cfg, sr->min_frame);
	char err[1024];
	uint16_t i;
	int ret;

	app->nb_ports = 0;
	for (i = 0; i < n; i++) {
		struct nb_port_req req = {
			.nb_rxq = sr->nb_queues,
			.nb_txq = sr->nb_queues,
			.rxd = (uint16_t)cfg->rxd,
			.txd = (uint16_t)cfg->txd,
			.max_frame = max_frame,
			/* rings full, per-lcore caches, bursts in hand */
			.nb_rx_mbufs = cfg->rxd * sr->nb_queues +
				       512 * rte_lcore_count() + 4096,
			/* a memif client started before its server */
			.start_timeout = cfg->link_timeout,
			.tx_csum = cfg->tx_csum,
			.tunnel = cfg->stack.tun.kind != NB_ENCAP_NONE,
			.flows = cfg->flows.spec.n > 0,
			.proto = cfg->proto,
			.set = cfg->portset,
			.tx_chain = (uint8_t)(cfg->tcp != 0),
		};

		app->port_ids[i] = ids[i];
		check_eal_needs(ids[i]);
		ret = nb_port_setup(ids[i], &req, &app->ports[i], err,
				    sizeof(err));
		if (ret != 0) {
			nb_app_error(app, "%s",
				     nb_force_quit ? INTERRUPTED : err);
			return ret;
		}
		app->nb_ports = (uint16_t)(i + 1);
	}
	/* Wait after starting them all: a memif pair links up together. */
	for (i = 0; i < app->nb_ports; i++) {
		struct nb_port *p = &app->ports[i];

		if (sr->link_hint == NULL) {
			nb_port_describe(app->port_ids[i], &p->desc);
		} else if (nb_port_wait_link(p, cfg->link_timeout) != 0) {
			if (nb_force_quit) {
				nb_app_error(app, INTERRUPTED);
				return -EINTR;
			}
			if (sr->down_ok) {
				/* --list-ports says it is down, goes on */
				nb_port_describe(app->port_ids[i], &p->desc);
				continue;
			}
			nb_app_error(app,
				     "port %u (%s): link still down after "
				     "%.1f s (%s? raise --link-timeout)",
				     app->port_ids[i], p->desc.name,
				     cfg->link_timeout, sr->link_hint);
			return -ETIMEDOUT;
		}
		settle_bond(app->port_ids[i], cfg->link_timeout);
		/* describe() knows the queues only once configured */
		p->desc.nb_rxq = sr->nb_queues;
		p->desc.nb_txq = sr->nb_queues;
	}
	if (sr->lacp_wait && settle_lacp(app, cfg->link_timeout) != 0)
		return -ETIMEDOUT;
	/* the ports took time to come up: the clock's second reading */
	nb_app_phase(NB_PHASE_CALIBRATION);
	nb_tsc_finish();
	if (nb_force_quit) {
		nb_app_error(app, INTERRUPTED);
		return -EINTR;
	}
	return 0;
}

void
nb_setup_shutdown(struct nb_app *app)
{
	nb_ports_shutdown(app->ports, app->nb_ports);
	app->nb_ports = 0;
}

/* A bond's members, under it: the bond configured them, not us. */
static void
print_members(uint16_t port)
{
	struct nb_bond_info b;
	struct nb_port_desc d;
	uint16_t i;

	if (nb_port_bond(port, &b) != 0 || b.mode < 0)
		return;
	printf("  bond mode %d (%s), %u members:\n", b.mode,
	       nb_bond_mode_name(b.mode), b.nb_members);
	for (i = 0; i < b.nb_members; i++) {
		if (nb_port_describe(b.m[i].port_id, &d) != 0)
			continue;
		printf("  member ");
		nb_setup_print_port(stdout, &d);
	}
}

static void
members_json(json_t *o, uint16_t port)
{
	struct nb_bond_info b;
	json_t *arr;
	uint16_t i;

	if (nb_port_bond(port, &b) != 0 || b.mode < 0)
		return;
	arr = json_array();
	for (i = 0; i < b.nb_members; i++) {
		struct nb_port_desc d;
		char mac[18];

		if (nb_port_describe(b.m[i].port_id, &d) != 0)
			continue;
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 d.mac[0], d.mac[1], d.mac[2], d.mac[3], d.mac[4],
			 d.mac[5]);
		json_array_append_new(
			arr, json_pack("{s:i,s:s,s:s,s:s,s:b,s:b}", "port",
				       (int)d.port_id, "name", d.name, "driver",
				       d.driver, "mac", mac, "link_up",
				       d.link_up, "active", b.m[i].active));
	}
	json_object_set_new(o, "bond",
			    json_pack("{s:i,s:s,s:i,s:o}", "mode", b.mode,
				      "mode_name", nb_bond_mode_name(b.mode),
				      "primary", b.primary, "members", arr));
}

static json_t *
caps_json(uint32_t caps)
{
	json_t *a = json_array();
	unsigned int b;

	for (b = 0; nb_cap_name(b) != NULL; b++)
		if (caps & (1u << b))
			json_array_append_new(a, json_string(nb_cap_name(b)));
	return a;
}

/* The PMD's extended counters' names, and the profile's that it lacks
 * (in missing, space-separated): how many those are. */
static unsigned int
xstats_check(const struct nb_port *p, const struct nb_driver_profile *prof,
	     json_t **names, char *missing, size_t len)
{
	unsigned int n, i, k = 0;
	char **x = nb_port_xstat_names(p->desc.port_id, &n);

	missing[0] = '\0';
	if (prof != NULL)
		k = nb_driver_xstats_missing(prof, (const char *const *)x, n,
					     missing, len);
	if (names != NULL) {
		*names = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(*names, json_string(x[i]));
	}
	free(x);
	return k;
}

/* Space-separated words as a JSON array. */
static json_t *
words_json(const char *w)
{
	json_t *a = json_array();
	const char *word;
	size_t n;

	while ((word = nb_words_next(&w, &n)) != NULL)
		json_array_append_new(a, json_stringn(word, n));
	return a;
}

/* What the PMD offers and how that compares with the driver's profile
 * (nb_drivers.c): the profiles proven against real PMDs where one runs. */
static void
device_json(json_t *o, const struct nb_port *p)
{
	const struct nb_driver_profile *prof =
		nb_driver_profile(p->desc.driver);
	struct nb_profile_diff d;
	char missing[512];
	json_t *names;
	unsigned int nx;
	int ok;

	nx = xstats_check(p, prof, &names, missing, sizeof(missing));
	json_object_set_new(o, "bus",
			    p->desc.bus[0] ? json_string(p->desc.bus)
					   : json_null());
	json_object_set_new(o, "device",
			    json_pack("{s:o,s:i,s:i,s:o}", "caps",
				      caps_json(p->caps.caps), "max_rx_queues",
				      (int)p->caps.max_rxq, "max_tx_queues",
				      (int)p->caps.max_txq, "xstats", names));
	if (prof == NULL) {
		json_object_set_new(o, "profile", json_null());
		return;
	}
	ok = nb_driver_profile_check(prof, &p->caps, &d) && nx == 0;
	json_object_set_new(
		o, "profile",
		json_pack("{s:s,s:o,s:i,s:i,s:s?,s:b,s:o,s:o,s:b,s:o,s:o}",
			  "what", prof->what, "caps",
			  caps_json(prof->caps.caps), "max_rx_queues",
			  (int)prof->caps.max_rxq, "max_tx_queues",
			  (int)prof->caps.max_txq, "note", prof->caps_note,
			  "agrees", ok, "missing", caps_json(d.missing),
			  "extra", caps_json(d.extra), "queues_differ",
			  d.rxq || d.txq, "xstats", words_json(prof->xstats),
			  "xstats_missing", words_json(missing)));
}

json_t *
nb_setup_ports_json(const struct nb_app *app, int offloads)
{
	json_t *root = json_object(), *arr = json_array(), *o;
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++) {
		const struct nb_port_desc *d = &app->ports[i].desc;
		char mac[18];

		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 d->mac[0], d->mac[1], d->mac[2], d->mac[3], d->mac[4],
			 d->mac[5]);
		o = json_pack("{s:i,s:s,s:s,s:s,s:i,s:b,s:i,s:i}", "port",
			      (int)d->port_id, "name", d->name, "driver",
			      d->driver, "mac", mac, "numa_node", d->numa_node,
			      "link_up", d->link_up, "link_speed_mbps",
			      (int)d->link_speed, "mtu", (int)d->mtu);
		members_json(o, app->port_ids[i]);
		if (offloads) {
			json_object_set_new(
				o, "offloads",
				nb_offload_json(&app->ports[i].offload));
			device_json(o, &app->ports[i]);
		}
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "ports", arr);
	json_object_set_new(root, "lcore_map",
			    json_string(app->result.lcore_map));
	return root;
}

static void
print_device(const struct nb_port *p)
{
	const struct nb_driver_profile *prof =
		nb_driver_profile(p->desc.driver);
	struct nb_profile_diff d;
	char missing[512];
	unsigned int b, nx, caps_ok;

	nx = xstats_check(p, prof, NULL, missing, sizeof(missing));
	printf("  device: bus %s, %u RX / %u TX queues at most, offers",
	       p->desc.bus[0] ? p->desc.bus : "?", p->caps.max_rxq,
	       p->caps.max_txq);
	for (b = 0; nb_cap_name(b) != NULL; b++)
		if (p->caps.caps & (1u << b))
			printf(" %s", nb_cap_name(b));
	if (p->caps.caps == 0)
		printf(" no offloads");
	if (prof == NULL) {
		printf("; no profile for %s\n", p->desc.driver);
		return;
	}
	caps_ok = (unsigned int)nb_driver_profile_check(prof, &p->caps, &d);
	if (caps_ok && nx == 0) {
		printf("; as its profile says\n");
		return;
	}
	printf("; its profile differs:");
	for (b = 0; nb_cap_name(b) != NULL; b++)
		if ((d.missing | d.extra) & (1u << b))
			printf(" %s%s", d.missing & (1u << b) ? "-" : "+",
			       nb_cap_name(b));
	if (d.rxq || d.txq)
		printf(" queues");
	if (nx)
		printf(" counters missing: %s", missing);
	printf(" (%s)\n", prof->caps_note ? prof->caps_note : "no conditions");
}

int
nb_setup_list_ports(struct nb_app *app)
{
	static const struct nb_setup_req req = {
		.nb_queues = 1,
		.link_hint = "",
		.down_ok = 1,
	};
	uint16_t ids[NB_MAX_PORTS], n = nb_port_ids(ids, NB_MAX_PORTS), i;
	json_t *root;

	nb_setup_lcore_map(app, app->result.lcore_map,
			   sizeof(app->result.lcore_map));
	if (nb_setup_ports(app, ids, n, &req) != 0)
		return 1;
	if (!app->cfg.json) {
		for (i = 0; i < app->nb_ports; i++) {
			nb_setup_print_test_port(stdout, &app->ports[i]);
			print_device(&app->ports[i]);
			print_members(app->port_ids[i]);
		}
		printf("lcores: %s\n", app->result.lcore_map);
		return 0;
	}
	root = nb_setup_ports_json(app, 1);
	json_dumpf(root, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(root);
	return 0;
}
