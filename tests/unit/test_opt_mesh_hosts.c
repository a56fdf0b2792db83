/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test of many ports across hosts (nb_mesh_opts.c, nb_mesh_hosts.c,
 * nb_mesh_merge.c): the options by mode, the client joining the
 * responder's offer and both ends reading the same mesh from PARAMS, an
 * end's share on the wire with every lie it can tell refused, and the
 * merge of the ends, each against counts worked out here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nb_ctl.h"
#include "nb_frame.h"
#include "nb_mesh.h"
#include "nb_mesh_hosts.h"
#include "nb_mesh_merge.h"
#include "nb_options.h"

#include "opt_fixtures.h"

/* one responder's offer, as nb_mesh_join takes a list of them */
#define ONE(o) ((const struct nb_ctl_offer *const[]){o})

static void
test_modes(void **state)
{
	struct nb_config cfg;
	char err[ERRLEN];

	(void)state;
	assert_int_equal(
		CHECK_CFG(&cfg, err, "--peer", "198.18.0.2", "--ports", "3,1"),
		0);
	assert_int_equal(cfg.mode, NB_MODE_CLIENT);
	assert_int_equal(cfg.port, 3); /* control on the first */
	assert_int_equal(cfg.mesh.kind, NB_MESH_FULL);
	assert_int_equal(cfg.mesh.nb_local, 2);
	/* one port of ours is a mesh with the responder's */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "198.18.0.2", "--ports",
				   "2", "--mesh", "one-to-many"),
			 0);
	assert_int_equal(cfg.mesh.kind, NB_MESH_ONE_TO_MANY);
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--reverse"),
			 -EINVAL);
	assert_non_null(strstr(err, "--reverse (the mesh says who sends)"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--port", "1"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--latency-rate", "100"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--mesh", "0>1"),
			 -EINVAL);
	assert_non_null(strstr(err, "one host"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--mesh", "full"),
			 -EINVAL);
	assert_non_null(strstr(err, "needs --ports"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports",
			       "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"),
			 -EINVAL);
	assert_non_null(strstr(err, "at least one"));
	assert_int_equal(CHECK(err, "--iperf3", "198.18.0.2", "--ports", "0,1"),
			 -EINVAL);
	/* a percentage of the mesh's sending ports' line rate, resolved
	 * once the responder's are known */
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--rate", "50%"),
			 0);
	/* suites across hosts: RFC 2544's and RFC 2889's forwarding rates,
	 * each size a row; a size range without a suite is refused */
	assert_int_equal(CHECK_CFG(&cfg, err, "--peer", "198.18.0.2", "--ports",
				   "0,1", "--test",
				   "forwarding-rate,throughput", "--size",
				   "64,512"),
			 0);
	assert_int_equal(cfg.sweep.n, 2);
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--size", "64:512:*2"),
			 -EINVAL);
	assert_non_null(strstr(err, "not a sweep (a suite, --test"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2", "--ports", "0,1",
			       "--test", "forwarding-rate,address-caching"),
			 -EINVAL);
	assert_non_null(strstr(err, "--test address-caching lays out"));
	assert_non_null(strstr(err, "RFC 2889 runs forwarding-rate"));
	assert_int_equal(
		CHECK(err, "--peer", "198.18.0.2", "--test", "forwarding-rate"),
		-EINVAL);
	assert_non_null(strstr(err, "given with --ports"));
	/* the responder's */
	assert_int_equal(CHECK_CFG(&cfg, err, "--mesh-ports", "4,2"), 0);
	assert_int_equal(cfg.mode, NB_MODE_RESPONDER);
	assert_int_equal(cfg.port, 4);
	assert_int_equal(cfg.nb_serve_ports, 2);
	assert_int_equal(CHECK(err, "--mesh-ports", "4,2", "--port", "4"),
			 -EINVAL);
	assert_int_equal(CHECK(err, "--mesh-ports", "4,2", "--tx-port", "0",
			       "--rx-port", "1"),
			 -EINVAL);
	assert_non_null(strstr(err, "--mesh-ports is for the responder"));
}

static void
offer(struct nb_ctl_offer *o, unsigned int n, uint16_t first_id)
{
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->n = (uint8_t)n;
	for (i = 0; i < n; i++) {
		o->port[i].id = (uint16_t)(first_id + 2 * i);
		memcpy(o->port[i].mac, "\x02\x00\x00\x00\x01\x00", 6);
		o->port[i].mac[5] = (uint8_t)i;
	}
}

/* The client's config for --ports 0,1 --streams S, with its MACs. */
static void
client_cfg(struct nb_config *cfg, const char *streams)
{
	char err[ERRLEN];

	assert_int_equal(CHECK_CFG(cfg, err, "--peer", "198.18.0.2", "--ports",
				   "0,1", "--streams", streams),
			 0);
	memcpy(cfg->mesh.macs[0], "\x02\x00\x00\x00\x00\x0a", 6);
	memcpy(cfg->mesh.macs[1], "\x02\x00\x00\x00\x00\x0b", 6);
}

/* One-to-many from our one port: the line rate is that port's alone (the
 * responder's receive only, their speeds unknown or not). */
static void
test_line_rate_sources(void **state)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_ctl_offer o;
	char err[ERRLEN];
	uint16_t u = 0;

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(CHECK_CFG(cfg, err, "--peer", "198.18.0.2", "--ports",
				   "0", "--mesh", "one-to-many", "--rate",
				   "50%"),
			 0);
	memcpy(cfg->mesh.macs[0], "\x02\x00\x00\x00\x00\x0a", 6);
	cfg->mesh.speed_mbps[0] = 1000;
	offer(&o, 3, 1); /* speeds 0: none reported */
	assert_int_equal(nb_mesh_join(cfg, ONE(&o), 1, err, sizeof(err)), 0);
	assert_int_equal(cfg->mesh.nb_pairs, 3);
	assert_true(nb_mesh_line_bps(&cfg->mesh, &u) == 1000000000ull);
	free(cfg);
}

static void
test_join_and_wire(void **state)
{
	struct nb_config *cli = calloc(1, sizeof(*cli)),
			 *rsp = calloc(1, sizeof(*rsp));
	struct nb_ctl_offer o;
	struct nb_ctl_mesh w;
	char err[ERRLEN];
	uint32_t s, fc, sc, nc, fr, sr, nr;
	uint16_t i;

	(void)state;
	assert_non_null(cli);
	assert_non_null(rsp);
	client_cfg(cli, "2");
	offer(&o, 2, 5); /* the responder's ports 5 and 7 */
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)), 0);
	/* 4 ports, 12 pairs x 2 streams */
	assert_int_equal(cli->mesh.nb_ports, 4);
	assert_int_equal(cli->mesh.ports[2], NB_MESH_REMOTE | 5);
	assert_int_equal(cli->mesh.ports[3], NB_MESH_REMOTE | 7);
	assert_int_equal(cli->mesh.nb_pairs, 12);
	assert_int_equal(cli->streams, 24);
	/* jobs on our ports only */
	assert_int_equal(cli->nb_tx_ports, 2);
	assert_int_equal(cli->nb_rx_ports, 2);
	assert_int_equal(cli->tx_ports[1], 1);
	assert_int_equal(nb_mesh_local_mask(&cli->mesh), 3);
	/* a second session joins again: --streams stays per pair */
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)), 0);
	assert_int_equal(cli->streams, 24);
	assert_int_equal(cli->mesh.nb_ports, 4);
	/* the line rate of the sending ports: all four in a full mesh, the
	 * offer's speeds beside ours; one unknown names the port */
	cli->mesh.speed_mbps[0] = cli->mesh.speed_mbps[1] = 10000;
	o.speed_mbps[0] = 25000;
	o.speed_mbps[1] = 10000;
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)), 0);
	assert_int_equal(cli->mesh.speed_mbps[2], 25000);
	assert_true(nb_mesh_line_bps(&cli->mesh, &i) == 55000000000ull);
	o.speed_mbps[1] = 0;
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)), 0);
	assert_true(nb_mesh_line_bps(&cli->mesh, &i) == 0);
	assert_int_equal(i, NB_MESH_REMOTE | 7);
	o.speed_mbps[1] = 10000;
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)), 0);

	nb_mesh_to_wire(&cli->mesh, NB_MESH_CLIENT, &w);
	assert_int_equal(w.nb_ports, 4);
	assert_int_equal(w.per_pair, 2);
	assert_int_equal(w.owner[1], NB_MESH_CLIENT);
	assert_int_equal(w.owner[2], NB_MESH_RESPONDER);
	assert_int_equal(w.port[3].id, 7);
	assert_memory_equal(w.port[3].mac, o.port[1].mac, 6);
	assert_memory_equal(w.port[0].mac, cli->mesh.macs[0], 6);
	assert_int_equal(w.weight[2][0], 1);
	assert_int_equal(w.weight[2][2], 0);
	assert_int_equal(nb_ctl_mesh_direction(&w), NB_CTL_DIR_BIDIR);

	/* the responder reads the same mesh, its own ports by id */
	assert_int_equal(
		nb_mesh_offer_is(&w, NB_MESH_RESPONDER, &o, err, sizeof(err)),
		0);
	nb_mesh_from_wire(rsp, &w, NB_MESH_RESPONDER);
	assert_int_equal(rsp->mesh.ports[0], NB_MESH_REMOTE | 0);
	assert_int_equal(rsp->mesh.ports[2], 5);
	assert_int_equal(rsp->mesh.nb_local, 2);
	assert_int_equal(rsp->streams, 24);
	assert_int_equal(rsp->nb_tx_ports, 2);
	assert_int_equal(rsp->tx_ports[0], 5);
	assert_int_equal(rsp->rx_ports[1], 7);
	assert_int_equal(nb_mesh_local_mask(&rsp->mesh), 12);
	/* every stream is the same pair on both ends, and each end's TX
	 * queue 0 of 1 sends its ports' streams: 6 each */
	for (s = 0; s < 24; s++)
		assert_int_equal(nb_mesh_stream_pair(&cli->mesh, s),
				 nb_mesh_stream_pair(&rsp->mesh, s));
	for (i = 0; i < 4; i++) {
		nb_mesh_job_streams(&cli->mesh, i, 0, 1, &fc, &sc, &nc);
		nb_mesh_job_streams(&rsp->mesh, i, 0, 1, &fr, &sr, &nr);
		assert_int_equal(fc, fr);
		assert_int_equal(nc, 6);
		assert_int_equal(nr, 6);
	}
	/* the responder's stream 12 goes to the client's port 0 */
	assert_int_equal(nb_mesh_stream_dst(&rsp->mesh, 12), NB_MESH_REMOTE);

	/* what the responder does not take */
	o.port[1].id = 8;
	assert_int_equal(
		nb_mesh_offer_is(&w, NB_MESH_RESPONDER, &o, err, sizeof(err)),
		-EINVAL);
	offer(&o, 3, 5);
	assert_int_equal(
		nb_mesh_offer_is(&w, NB_MESH_RESPONDER, &o, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "takes 2 of the 3"));
	offer(&o, 0, 5);
	assert_int_equal(
		nb_mesh_offer_is(&w, NB_MESH_RESPONDER, &o, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "offers no ports to a mesh"));
	/* what the client cannot join */
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--mesh-ports"));
	offer(&o, 15, 5);
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "more than 16"));
	offer(&o, 2, 5);
	memcpy(o.port[1].mac, cli->mesh.macs[1], 6);
	assert_int_equal(nb_mesh_join(cli, ONE(&o), 1, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(
		err, "the responder's port 7 has the MAC of port 1 (client)"));
	free(cli);
	free(rsp);
}

/* A client owning ports 0, 1 and a responder owning 2, 3 of a full mesh
 * of 4 (12 pairs), each pair k sending 100 + k; the responder's ports
 * lose 3 of each pair into them, and port 1 takes in 5 frames of 0>2. */
struct two_ends {
	struct nb_config cfg;
	struct nb_mesh_end cli, rsp;
};

static void
two_ends(struct two_ends *t)
{
	struct nb_ctl_offer o;
	char err[ERRLEN];
	uint32_t k;

	client_cfg(&t->cfg, "1");
	offer(&o, 2, 5);
	assert_int_equal(nb_mesh_join(&t->cfg, ONE(&o), 1, err, sizeof(err)),
			 0);
	memset(&t->cli, 0, sizeof(t->cli));
	memset(&t->rsp, 0, sizeof(t->rsp));
	t->cli.owned = 3;
	t->rsp.owned = 12;
	t->cli.nb_pairs = t->rsp.nb_pairs = 12;
	for (k = 0; k < 12; k++) {
		const struct nb_mesh_pair *p = &t->cfg.mesh.pairs[k];
		struct nb_mesh_end *src = p->src < 2 ? &t->cli : &t->rsp;
		struct nb_mesh_end *dst = p->dst < 2 ? &t->cli : &t->rsp;
		uint64_t got = 100 + k - (p->dst >= 2 ? 3 : 0);

		src->pairs[k].sent = 100 + k;
		dst->pairs[k].received = got + 1; /* one duplicate */
		dst->pairs[k].unique = got;
		dst->pairs[k].duplicates = 1;
		dst->pairs[k].lat_n = got + 1;
		dst->pairs[k].lat_min = 1000;
		dst->pairs[k].lat_p50 = 2000 + k;
		dst->pairs[k].lat_p99 = 3000;
		dst->pairs[k].lat_max = 4000;
		dst->pairs[k].lat_mean = 2500.5;
	}
	/* pair 0>2 is pair 1; port 1 took in 5 of its frames */
	t->cli.pairs[1].elsewhere = 5;
	t->cli.foreign[1] = 5;
}

static void
test_merge(void **state)
{
	struct two_ends *t = calloc(1, sizeof(*t));
	struct nb_mesh_end ends[2];
	struct nb_mesh_result *r = calloc(1, sizeof(*r));
	char err[ERRLEN];
	uint32_t k;

	(void)state;
	assert_non_null(t);
	assert_non_null(r);
	two_ends(t);
	ends[0] = t->rsp; /* any order */
	ends[1] = t->cli;
	assert_int_equal(
		nb_mesh_merge(&t->cfg.mesh, ends, 2, r, err, sizeof(err)), 0);
	assert_int_equal(r->nb_pairs, 12);
	for (k = 0; k < 12; k++) {
		const struct nb_mesh_pair *p = &t->cfg.mesh.pairs[k];
		uint64_t lost = p->dst >= 2 ? 3 : 0;

		assert_int_equal(r->pairs[k].src, t->cfg.mesh.ports[p->src]);
		assert_int_equal(r->pairs[k].dst, t->cfg.mesh.ports[p->dst]);
		assert_int_equal(r->pairs[k].sent, 100 + k);
		assert_int_equal(r->pairs[k].unique, 100 + k - lost);
		assert_int_equal(r->pairs[k].lost, lost);
		assert_int_equal(r->pairs[k].duplicates, 1);
		assert_int_equal(r->pairs[k].lat_p50, 2000 + k);
		assert_int_equal(r->pairs[k].elsewhere, k == 1 ? 5 : 0);
	}
	assert_int_equal(r->pairs[1].dst, NB_MESH_REMOTE | 5);
	/* port 2 (the responder's 5): pairs 0>2, 1>2, 3>2 are k 1, 4, 11 */
	assert_int_equal(r->ports[2].port, NB_MESH_REMOTE | 5);
	assert_int_equal(r->ports[2].lost_in, 9);
	assert_int_equal(r->ports[2].received, (101 + 104 + 111) - 9);
	/* port 0 sent pairs 0, 1, 2 */
	assert_int_equal(r->ports[0].sent, 100 + 101 + 102);
	assert_int_equal(r->ports[1].foreign, 5);

	/* two ends owning port 1; no end owning 3; a short count */
	ends[0].owned = 6;
	assert_int_equal(
		nb_mesh_merge(&t->cfg.mesh, ends, 2, r, err, sizeof(err)),
		-EINVAL);
	ends[0].owned = 4;
	assert_int_equal(
		nb_mesh_merge(&t->cfg.mesh, ends, 2, r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "no end's"));
	ends[0].owned = 12;
	ends[0].nb_pairs = 11;
	assert_int_equal(
		nb_mesh_merge(&t->cfg.mesh, ends, 2, r, err, sizeof(err)),
		-EINVAL);
	free(t);
	free(r);
}

/* The responder's share through its bytes, with a byte changed at off
 * (a u64 set to v): refused. */
static void
lie(const struct two_ends *t, const uint8_t *good, size_t len, size_t off,
    uint64_t v, const char *what)
{
	uint8_t *b = malloc(len);
	struct nb_mesh_end *e = malloc(sizeof(*e));

	assert_non_null(b);
	assert_non_null(e);
	memcpy(b, good, len);
	nb_put_be32(b + off, (uint32_t)(v >> 32));
	nb_put_be32(b + off + 4, (uint32_t)v);
	if (nb_mesh_end_read(b, len, &t->cfg.mesh, 12, e) != -EPROTO)
		fail_msg("%s: taken", what);
	free(b);
	free(e);
}

static void
test_end_bytes(void **state)
{
	struct two_ends *t = calloc(1, sizeof(*t));
	struct nb_mesh_end *e = malloc(sizeof(*e));
	size_t len = nb_mesh_end_size(12, 4), pair0, pair1;
	uint8_t *b = malloc(len + 1);

	(void)state;
	assert_non_null(t);
	assert_non_null(e);
	assert_non_null(b);
	two_ends(t);
	assert_int_equal(len, 12 + 12 * 96 + 4 * 8);
	assert_int_equal(nb_mesh_end_write(&t->rsp, 4, b, len - 1), -ENOSPC);
	assert_int_equal(nb_mesh_end_write(&t->rsp, 4, b, len), 0);
	assert_memory_equal(b, "NBME\0\0\0\x0c\0\x0c\0\x04", 12);
	assert_int_equal(nb_mesh_end_read(b, len, &t->cfg.mesh, 12, e), 0);
	assert_memory_equal(e->pairs, t->rsp.pairs, sizeof(e->pairs));
	assert_memory_equal(e->foreign, t->rsp.foreign, sizeof(e->foreign));
	/* a byte more or less; another end's mask */
	assert_int_equal(nb_mesh_end_read(b, len - 1, &t->cfg.mesh, 12, e),
			 -EPROTO);
	assert_int_equal(nb_mesh_end_read(b, len + 1, &t->cfg.mesh, 12, e),
			 -EPROTO);
	assert_int_equal(nb_mesh_end_read(b, len, &t->cfg.mesh, 3, e), -EPROTO);
	/* pair 0 is 0>1 (neither port the responder's), pair 1 is 0>2 */
	pair0 = 12;
	pair1 = 12 + 96;
	lie(t, b, len, pair0, 1, "sent from a port it does not own");
	lie(t, b, len, pair0 + 8, 1, "arrivals at a port it does not own");
	lie(t, b, len, pair1 + 16, 1000, "unique above received");
	lie(t, b, len, pair1 + 7 * 8, 5000, "min above p50");
	lie(t, b, len, pair1 + 10 * 8, 2500, "max below p99");
	lie(t, b, len, pair1 + 11 * 8, 100, "mean below min");
	lie(t, b, len, 12 + 12 * 96, 1, "foreign at a port it does not own");
	lie(t, b, len, 0, 0x4e424d46ull << 32, "magic");
	free(t);
	free(e);
	free(b);
}

/* The ports' owners in the client's mesh of test_several: 0, 1 ours, 2
 * the first responder's, 3 and 4 the second's. */
static unsigned int
owner_at(unsigned int i)
{
	return i < 2 ? 0 : i == 2 ? 1 : 2;
}

/* Two responders' results as one: each stream's sending counts from its
 * source port's responder, its receiving counts from its destination's. */
static void
check_combine(const struct nb_config *cli)
{
	const struct nb_mesh_cfg *m = &cli->mesh;
	struct nb_ctl_results_hdr h[2], out_h;
	struct nb_ctl_stream_res *res[2], *out;
	uint32_t s, n = cli->streams;
	unsigned int k;

	memset(h, 0, sizeof(h));
	h[0].tx_seconds_ns = 2000;
	h[1].tx_seconds_ns = 3000;
	h[0].tx_dropped = 4;
	h[1].tx_dropped = 5;
	out = calloc(n, sizeof(*out));
	assert_non_null(out);
	for (k = 0; k < 2; k++) {
		res[k] = calloc(n, sizeof(*res[k]));
		assert_non_null(res[k]);
		for (s = 0; s < n; s++) {
			res[k][s].tx_pkts = 1000 * (k + 1) + s;
			res[k][s].rx_pkts = 2000 * (k + 1) + s;
			res[k][s].hist.count = 3000 * (k + 1) + s;
		}
	}
	nb_mesh_results_combine(m, n, h,
				(const struct nb_ctl_stream_res *const *)res, 2,
				&out_h, out);
	assert_int_equal(out_h.tx_seconds_ns, 3000);
	assert_int_equal(out_h.tx_dropped, 9);
	for (s = 0; s < n; s++) {
		const struct nb_mesh_pair *p =
			&m->pairs[nb_mesh_stream_pair(m, s)];
		unsigned int src = owner_at(p->src), dst = owner_at(p->dst);

		assert_int_equal(out[s].tx_pkts, src ? 1000 * src + s : 0);
		assert_int_equal(out[s].rx_pkts, dst ? 2000 * dst + s : 0);
		assert_int_equal(out[s].hist.count, dst ? 3000 * dst + s : 0);
	}
	free(res[0]);
	free(res[1]);
	free(out);
}

/* --peer A,B with --ports: two responders, one mesh.  Their ports join
 * after ours in --peer's order, each responder knows its own by its
 * offer's MACs, and the labels name which responder's a port is. */
static void
test_several(void **state)
{
	struct nb_config *cli = calloc(1, sizeof(*cli)),
			 *rsp = calloc(1, sizeof(*rsp));
	struct nb_ctl_offer a, b;
	const struct nb_ctl_offer *const both[] = {&a, &b};
	struct nb_ctl_mesh w;
	char err[ERRLEN], l[12];

	(void)state;
	assert_non_null(cli);
	assert_non_null(rsp);
	assert_int_equal(CHECK_CFG(cli, err, "--peer", "198.18.0.2,198.18.0.3",
				   "--ports", "0"),
			 0);
	assert_int_equal(cli->peer_ip, 0xc6120002);
	assert_int_equal(cli->nb_more_peers, 1);
	assert_int_equal(cli->more_peers[0], 0xc6120003);
	assert_int_equal(CHECK_CFG(rsp, err, "--peer", "198.18.0.2,198.18.0.2",
				   "--ports", "0"),
			 -EINVAL);
	assert_non_null(strstr(err, "198.18.0.2 is named twice"));
	assert_int_equal(CHECK_CFG(rsp, err, "--peer",
				   "198.18.0.2,02:00:00:00:00:01", "--ports",
				   "0"),
			 -EINVAL);
	assert_non_null(strstr(err, "is not an IPv4 address"));
	assert_int_equal(
		CHECK_CFG(rsp, err, "--peer", "198.18.0.2,", "--ports", "0"),
		-EINVAL);
	assert_non_null(strstr(err, "after the last comma"));
	assert_int_equal(
		CHECK_CFG(rsp, err, "--peer",
			  "1.0.0.1,1.0.0.2,1.0.0.3,"
			  "1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,1.0.0.8,"
			  "1.0.0.9,1.0.0.10,1.0.0.11,1.0.0.12,1.0.0.13,"
			  "1.0.0.14,1.0.0.15,1.0.0.16",
			  "--ports", "0"),
		-EINVAL);
	assert_non_null(strstr(err, "at most 15 responders"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2,198.18.0.3"),
			 -EINVAL);
	assert_non_null(strstr(err, "it needs --ports"));
	assert_int_equal(CHECK(err, "--peer", "198.18.0.2,198.18.0.3",
			       "--ports", "0", "--conf"),
			 -EINVAL);
	assert_non_null(strstr(err, "speak to one responder"));

	client_cfg(cli, "1");
	offer(&a, 1, 5); /* the first responder's port 5 */
	offer(&b, 2, 5); /* the second's 5 and 7, at first with a's MACs */
	assert_int_equal(nb_mesh_join(cli, both, 2, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "responder 2 (--peer's 2nd)'s port 5 has "
				    "the MAC of port r5 (responder)"));
	b.port[0].mac[4] = b.port[1].mac[4] = 2;
	b.port[1].id = NB_MESH_ID_MAX;
	assert_int_equal(nb_mesh_join(cli, both, 2, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "offers port id 1024"));
	b.port[1].id = 7;
	assert_int_equal(nb_mesh_join(cli, both, 2, err, sizeof(err)), 0);
	assert_int_equal(cli->mesh.nb_ports, 5);
	assert_int_equal(cli->mesh.nb_pairs, 20);
	assert_int_equal(cli->mesh.ports[2], NB_MESH_REMOTE | 5);
	assert_int_equal(cli->mesh.ports[4], NB_MESH_REMOTE | 1024 | 7);
	assert_string_equal(nb_mesh_port_label(cli->mesh.ports[2], l, 12),
			    "r5");
	assert_string_equal(nb_mesh_port_label(cli->mesh.ports[4], l, 12),
			    "r2.7");
	assert_string_equal(nb_mesh_host_of(cli->mesh.ports[3], l, 12),
			    "responder2");
	assert_int_equal(nb_mesh_port_id(cli->mesh.ports[4]), 7);
	assert_int_equal(nb_mesh_owner_mask(&cli->mesh, 0), 0x3);
	assert_int_equal(nb_mesh_owner_mask(&cli->mesh, 1), 0x4);
	assert_int_equal(nb_mesh_owner_mask(&cli->mesh, 2), 0x18);

	/* on the wire: owners 0 0 1 2 2, ids on their hosts */
	nb_mesh_to_wire(&cli->mesh, NB_MESH_CLIENT, &w);
	assert_memory_equal(w.owner, "\0\0\1\2\2", 5);
	assert_int_equal(w.port[4].id, 7);
	assert_int_equal(nb_ctl_mesh_direction(&w), NB_CTL_DIR_BIDIR);
	/* each responder finds itself by its offer's MACs */
	assert_int_equal(nb_mesh_owner_in(&w, &a), 1);
	assert_int_equal(nb_mesh_owner_in(&w, &b), 2);
	assert_int_equal(nb_mesh_offer_is(&w, 2, &b, err, sizeof(err)), 0);
	nb_mesh_from_wire(rsp, &w, 2);
	assert_int_equal(rsp->mesh.nb_local, 2);
	assert_int_equal(rsp->mesh.ports[3], 5);
	assert_int_equal(rsp->mesh.ports[4], 7);
	assert_int_equal(nb_mesh_local_mask(&rsp->mesh), 0x18);
	assert_int_equal(rsp->streams, 20);
	b.port[0].mac[5] = 9; /* an offer not in the mesh */
	assert_int_equal(nb_mesh_owner_in(&w, &b), -1);

	check_combine(cli);
	free(cli);
	free(rsp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_line_rate_sources),
		cmocka_unit_test(test_join_and_wire),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_end_bytes),
		cmocka_unit_test(test_several),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
