/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP worker's edges (see nb_tcp_engine_int.h): off the per-segment
 * path. */
#include "nb_tcp_engine_int.h"

#include <string.h>

#include <rte_ring.h>

#include "nb_l2.h"
#include "nb_l2_v6.h"
#include "nb_tcp_wire.h"

/* Listen again on end e with its ISS for the SYN of flow f (ours the
 * destination). */
static void
listen_for(struct nb_tcpjob *j, struct nb_tcp_end *e, const struct nb_flow *f)
{
	struct nb_tcp_params p = j->params;

	p.iss = nb_tcp_isn_now(j->isn, nb_flow_ip32(f, 1), f->dst_port,
			       nb_flow_ip32(f, 0), f->src_port);
	nb_tcp_listen(&e->c, &p);
	if (j->pp_msg || j->held)
		nb_tcp_send_limit(&e->c, 0);
	e->done_ns = 0;
	e->all_acked_ns = 0;
	e->pp_count = 0;
	e->pp_sent_ns = 0;
}

/*
 * A SYN to our port from a new 4-tuple: a free end past the connections,
 * else (all taken) the half-open one that has waited longest, so SYNs
 * from addresses that never answer (spoofed, or a client gone) cannot
 * hold a listener.  NULL: every end is a connection.
 */
static struct nb_tcp_end *
take_end(struct nb_tcpjob *j)
{
	struct nb_tcp_end *old = NULL;
	uint32_t i;

	for (i = (uint32_t)j->accepted; i < j->n; i++) {
		struct nb_tcp_end *e = &j->ends[i];

		if (e->c.state == NB_TCP_LISTEN)
			return e;
		if (e->c.snd_una == 0 &&
		    (old == NULL || e->open_ns < old->open_ns))
			old = e;
	}
	if (old != NULL)
		j->reclaimed++;
	return old;
}

/*
 * Half-open end e (at accepted or past it) has completed its handshake:
 * it becomes connection number `accepted`, moved there first (the end
 * there goes to e's place); the reports read ends[0, accepted), so the
 * count goes up only once that end is in place.  Returns its new place.
 */
static struct nb_tcp_end *
promote(struct nb_tcpjob *j, struct nb_tcp_end *e)
{
	struct nb_tcp_end *to = &j->ends[j->accepted];

	if (e != to) {
		struct nb_tcp_end tmp = *to;

		*to = *e;
		*e = tmp;
	}
	__atomic_store_n(&j->accepted, j->accepted + 1, __ATOMIC_RELEASE);
	return to;
}

static int
half_open(const struct nb_tcpjob *j, const struct nb_tcp_end *e)
{
	return e >= j->ends + j->accepted;
}

int
nb_tcpw_handshakes_pending(const struct nb_tcpjob *j)
{
	uint64_t i = __atomic_load_n(&j->accepted, __ATOMIC_ACQUIRE);

	for (; i < j->n; i++)
		if (j->ends[i].c.state != NB_TCP_LISTEN &&
		    j->ends[i].c.state != NB_TCP_CLOSED)
			return 1;
	return 0;
}

void
nb_tcpw_end_done(struct nb_tcpjob *j, struct nb_tcp_end *e, uint64_t now)
{
	if (j->accept_any && half_open(j, e)) {
		if (e->c.snd_una == 0) {
			/* its SYN-ACKs unanswered (or reset): forgotten,
			 * the end free for the next SYN */
			nb_tcp_listen(&e->c, &j->params);
			j->half_open_dropped++;
			return;
		}
		e = promote(j, e); /* established, then closed at once */
	}
	e->done_ns = now;
	j->finished++;
}

/* f is to this side's address (in this side's family). */
static inline int
to_us(const struct nb_tcpjob *j, const struct nb_flow *f)
{
	if (j->family == 6)
		return f->family == 6 && memcmp(f->dst_ip6, j->ip6, 16) == 0;
	return f->family != 6 && f->dst_ip == j->ip;
}

/* accept_any: the end of this 4-tuple (a half-open one moved to the
 * connections once its handshake is done), or for a SYN to our port a
 * free one bound to it (its addressing from the SYN). */
struct nb_tcp_end *
nb_tcpw_demux_any(struct nb_tcpjob *j, const struct nb_flow *f,
		  const struct nb_tcp_seg *s, uint64_t now)
{
	struct nb_tcp_end *e;
	uint32_t i;

	for (i = 0; i < j->n; i++) {
		e = &j->ends[i];
		if ((i < j->accepted || e->c.state != NB_TCP_LISTEN) &&
		    nb_tcpw_same_tuple(e, f)) {
			if (i >= j->accepted && e->c.snd_una != 0)
				e = promote(j, e);
			return e;
		}
	}
	if (!(s->flags & NB_TCP_SYN) || (s->flags & NB_TCP_ACK) ||
	    f->dst_port != j->listen_port || !to_us(j, f))
		return NULL;
	e = take_end(j);
	if (e == NULL)
		return NULL;
	listen_for(j, e, f);
	e->open_ns = now;
	memcpy(e->f.dst_mac, f->src_mac, 6);
	memcpy(e->f.src_mac, j->mac, 6);
	e->f.vlan_id = f->vlan_id;
	e->f.family = f->family;
	e->f.src_ip = f->dst_ip;
	e->f.dst_ip = f->src_ip;
	memcpy(e->f.src_ip6, f->dst_ip6, 16);
	memcpy(e->f.dst_ip6, f->src_ip6, 16);
	e->f.src_port = j->listen_port;
	e->f.dst_port = f->src_port;
	nb_tcp_tmpl_init(&e->tmpl, &e->f);
	return e;
}

/* m into control's hand-off ring of RX queue q (the session peer's own
 * ring when it comes from the peer's MAC), marked as kind; counted, and
 * freed when the ring is full. */
static void
hand_over(struct nb_tcpjob *j, uint16_t q, struct rte_mbuf *m, uint32_t kind)
{
	struct rte_ring *r =
		j->ctl_rings_peer != NULL &&
				memcmp(rte_pktmbuf_mtod(m, const uint8_t *) + 6,
				       j->ctl_peer_mac, 6) == 0
			? j->ctl_rings_peer[q]
			: j->ctl_rings[q];

	m->hash.usr = kind;
	if (rte_ring_sp_enqueue(r, m) == 0) {
		j->ctl_handed++;
	} else {
		j->ctl_dropped++;
		rte_pktmbuf_free(m);
	}
}

/* Peer mode: a control session's frame goes to the control lcore (1:
 * the mbuf is the ring's now, or freed when the ring is full). */
int
nb_tcpw_to_control(struct nb_tcpjob *j, uint16_t q, struct rte_mbuf *m)
{
	struct nb_stamp st;
	enum nb_frame_kind kind =
		nb_frame_parse(rte_pktmbuf_mtod(m, const uint8_t *),
			       m->data_len, m->pkt_len, &st);

	if (kind < NB_FRAME_CONTROL)
		return 0;
	hand_over(j, q, m, kind);
	return 1;
}

/* An answer to frame d (of len bytes) for this side's address, if it
 * asks for one: ARP for an IPv4 test, neighbour discovery for IPv6.
 * Returns the answer's length in out, or 0. */
static int
answer_for(struct nb_tcpjob *j, const uint8_t *d, uint32_t len, uint8_t *out,
	   uint16_t room)
{
	uint16_t et = nb_get_be16(d + NB_ETH_OFF_TYPE);
	int n;

	if (et == NB_ETHERTYPE_VLAN)
		et = nb_get_be16(d + NB_VLAN_OFF_TYPE);
	if (j->family == 6) {
		if (et != NB_ETHERTYPE_IPV6)
			return 0;
		n = nb_ndp_answer(d, len, j->mac, j->ip6, out, room);
		j->nd_answered += n > 0;
		return n > 0 ? n : 0;
	}
	if (et != NB_ETHERTYPE_ARP || j->ip == 0)
		return 0;
	n = nb_arp_answer(d, len, j->mac, j->ip, out, room);
	j->arp_answered += n > 0;
	return n > 0 ? n : 0;
}

/* Not TCP for us: an ARP request or a neighbour solicitation for our
 * address is answered (a kernel peer must resolve us), everything else
 * counted. */
void
nb_tcpw_foreign(struct nb_tcpjob *j, const uint8_t *d, uint32_t len)
{
	struct rte_mbuf *m;
	int n;

	j->foreign++;
	if (j->ctl_rings != NULL || len < 42 ||
	    j->pend_head + j->nb_pend >= NB_BURST)
		return;
	m = rte_pktmbuf_alloc(j->pool);
	if (m == NULL) {
		j->alloc_fail++;
		return;
	}
	n = answer_for(j, d, len, rte_pktmbuf_mtod(m, uint8_t *),
		       rte_pktmbuf_tailroom(m));
	if (n == 0) {
		rte_pktmbuf_free(m);
		return;
	}
	m->data_len = (uint16_t)n;
	m->pkt_len = (uint32_t)n;
	nb_tcpw_pend_push(j, m);
}

/* A frame to send: built into a fresh mbuf and queued after pend[]. */
int
nb_tcpw_emit(struct nb_tcpjob *j, const struct nb_flow *f, struct nb_tcp_seg *s,
	     struct rte_mbuf *m)
{
	uint16_t room = rte_pktmbuf_tailroom(m);
	int len = nb_tcp_frame_build(rte_pktmbuf_mtod(m, uint8_t *), room, f, s,
				     NULL);

	if (unlikely(len < 0)) {
		rte_pktmbuf_free(m);
		return -1;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	nb_tcpw_pend_push(j, m);
	return 0;
}

uint32_t
nb_tcpw_emit_app(struct nb_tcpjob *j, const struct nb_tcp_end *e,
		 const struct nb_tcp_seg *s, struct rte_mbuf *m)
{
	uint16_t room = rte_pktmbuf_tailroom(m);
	int len = nb_tcp_frame_build_app(rte_pktmbuf_mtod(m, uint8_t *), room,
					 &e->f, s, e->c.app);

	if (unlikely(len < 0)) {
		rte_pktmbuf_free(m);
		return 0;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	nb_tcpw_pend_push(j, m);
	return m->pkt_len;
}

int
nb_tcpw_stray_to_control(struct nb_tcpjob *j, uint16_t q, struct rte_mbuf *m)
{
	if (m->nb_segs != 1)
		return 0;
	hand_over(j, q, m, NB_FRAME_FOREIGN);
	return 1;
}

/* Answer a stray segment with the RST RFC 793 asks for. */
void
nb_tcpw_send_rst(struct nb_tcpjob *j, const struct nb_flow *in,
		 const struct nb_tcp_seg *s)
{
	struct nb_tcp_seg r;
	struct nb_flow f;
	struct rte_mbuf *m;

	if (!nb_tcp_rst_for(s, &r) || j->pend_head + j->nb_pend >= NB_BURST)
		return;
	m = rte_pktmbuf_alloc(j->pool);
	if (m == NULL) {
		j->alloc_fail++;
		return;
	}
	nb_flow_reverse(&f, in);
	f.stream_id = 0;
	f.ttl = 64;
	nb_tcpw_emit(j, &f, &r, m);
}

/* Clients: connect every end, its ISS RFC 6528's. */
void
nb_tcpw_open_all(struct nb_tcpjob *j, uint64_t now)
{
	struct nb_tcp_params p = j->params;
	uint32_t i;

	for (i = 0; i < j->n; i++) {
		const struct nb_flow *f = &j->ends[i].f;

		p.iss = nb_tcp_isn_now(j->isn, nb_flow_ip32(f, 0), f->src_port,
				       nb_flow_ip32(f, 1), f->dst_port);
		if (p.send_bytes != UINT64_MAX)
			p.send_bytes = j->bytes_each + (i < j->bytes_rest) +
				       (j->apps ? j->prefix_len : 0);
		j->ends[i].open_ns = now;
		if (j->apps && i >= j->recv_from) {
			/* the cookie alone, no FIN after it */
			struct nb_tcp_params q = p;

			q.send_bytes = j->prefix_len;
			q.close_after_send = 0;
			nb_tcp_connect(&j->ends[i].c, &q, now);
		} else {
			nb_tcp_connect(&j->ends[i].c, &p, now);
		}
		if (j->apps) { /* the prefix, then the pattern */
			nb_tcp_app_init(&j->apps[i], j->prefix, j->prefix_len,
					NULL, 0, 1);
			nb_tcp_app_attach(&j->ends[i].c, &j->apps[i]);
			/* the log is the prefix already (a write would copy
			 * it onto itself) */
			j->apps[i].tx_len = j->prefix_len;
		}
		if (j->pp_msg) /* the first request once connected */
			nb_tcp_send_limit(&j->ends[i].c, 0);
	}
	j->opened = 1;
}

int
nb_tcpw_prefix_bad(struct nb_tcpjob *j, struct nb_tcp_end *e,
		   const struct nb_tcp_seg *s)
{
	int64_t off = e ? nb_tcp_rcv_stream_off(&e->c, s->seq) : -1;
	uint32_t n;

	if (s->len == 0 || off < 0 || (uint64_t)off >= j->prefix_len)
		return 0;
	n = (uint32_t)RTE_MIN((uint64_t)s->len, j->prefix_len - (uint64_t)off);
	if (memcmp(s->payload, j->prefix + off, n) == 0)
		return 0;
	/* another client's connection: not a stream of this session */
	j->bad_prefix++;
	nb_tcp_abort(&e->c);
	return 1;
}

static void
tx_stop(struct nb_tcpjob *j)
{
	uint32_t i;

	for (i = 0; i < j->n; i++) {
		struct nb_tcp_conn *c = &j->ends[i].c;

		if (!j->server || j->prefix_check)
			nb_tcp_close(c); /* the FIN after what was sent */
	}
}

void
nb_tcpw_turn_edges(struct nb_worker *w, const struct nb_run *run, int *stopped)
{
	/* tx_stop read once: every job of the worker closes in the same
	 * turn (read per job, it could turn 1 between a client's job and a
	 * listener's, and the client's would never close) */
	int stop = run->tx_stop && !*stopped;
	uint32_t i;
	uint16_t k;

	for (k = 0; k < w->nb_tcp; k++) {
		struct nb_tcpjob *j = w->tcp[k];

		if (unlikely(stop))
			tx_stop(j);
		if (unlikely(j->held) &&
		    __atomic_load_n(&j->go, __ATOMIC_ACQUIRE)) {
			/* ends [go_from, n) send, go_bytes in shares (0: no
			 * limit); those before it (a --bidir's receiving
			 * streams) send nothing */
			uint32_t m = j->n - j->go_from;

			for (i = j->go_from; i < j->n; i++) {
				uint32_t k = i - j->go_from;

				nb_tcp_send_limit(
					&j->ends[i].c,
					j->go_bytes == 0
						? UINT64_MAX
						: j->go_bytes / m +
							  (k <
							   j->go_bytes % m));
			}
			j->held = 0;
		}
	}
	if (stop)
		*stopped = 1;
}
