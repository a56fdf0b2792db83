/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP worker's parts shared by its two files: nb_tcp_engine.c (the
 * loop, the RX and TX steps, the segments' mbufs) and nb_tcp_edges.c
 * (what a turn meets now and then: a SYN that binds an end, a control
 * frame, ARP, a stray segment's RST, a frame of another shape, the
 * clients' connect).
 */
#ifndef NB_TCP_ENGINE_INT_H
#define NB_TCP_ENGINE_INT_H

#include <rte_mbuf.h>

#include "nb_tcp_engine.h"

static inline int
nb_tcpw_same_tuple(const struct nb_tcp_end *e, const struct nb_flow *f)
{
	return f->src_port == e->f.dst_port && f->dst_port == e->f.src_port &&
	       nb_flow_ips_reversed(&e->f, f);
}

/* A frame to send after the others pending. */
static __rte_always_inline void
nb_tcpw_pend_push(struct nb_tcpjob *j, struct rte_mbuf *m)
{
	j->pend[j->pend_head + j->nb_pend] = m;
	j->pend_len[j->pend_head + j->nb_pend] = m->pkt_len;
	j->nb_pend++;
}

/* accept_any: the end of this 4-tuple, or for a SYN to our port a free
 * one bound to it (its addressing from the SYN); NULL: none. */
struct nb_tcp_end *nb_tcpw_demux_any(struct nb_tcpjob *j,
				     const struct nb_flow *f,
				     const struct nb_tcp_seg *s, uint64_t now);
/* Peer mode: a control session's frame to the control lcore (1: the
 * mbuf is the ring's now, or freed when the ring is full). */
int nb_tcpw_to_control(struct nb_tcpjob *j, uint16_t q, struct rte_mbuf *m);
/* --iperf3's streams: a TCP segment of no end (the control
 * connection's) to the control lcore, as a frame of no kind of ours (1:
 * the mbuf is the ring's now, or freed when the ring is full). */
int nb_tcpw_stray_to_control(struct nb_tcpjob *j, uint16_t q,
			     struct rte_mbuf *m);
/* s of end e, whose payload holds some of its prefix (apps), built with
 * nb_tcp_frame_build_app into m and queued; its bytes, 0 when it did
 * not fit (m freed). */
uint32_t nb_tcpw_emit_app(struct nb_tcpjob *j, const struct nb_tcp_end *e,
			  const struct nb_tcp_seg *s, struct rte_mbuf *m);
/* Not TCP for us: counted; an ARP request or a neighbour solicitation
 * for our address answered. */
void nb_tcpw_foreign(struct nb_tcpjob *j, const uint8_t *d, uint32_t len);
/* s of flow f built into m (of the job's pool) and queued after pend[];
 * -1: it did not fit (m freed). */
int nb_tcpw_emit(struct nb_tcpjob *j, const struct nb_flow *f,
		 struct nb_tcp_seg *s, struct rte_mbuf *m);
/* The RST RFC 793 asks for in answer to stray segment s of flow in. */
void nb_tcpw_send_rst(struct nb_tcpjob *j, const struct nb_flow *in,
		      const struct nb_tcp_seg *s);
/* Clients: connect every end (its ISS RFC 6528's). */
void nb_tcpw_open_all(struct nb_tcpjob *j, uint64_t now);
/* --iperf3-server: does segment s of end e (NULL: none, 0) hold bytes
 * of the stream's first prefix_len that are not the job's prefix (the
 * cookie)?  Then the end is reset and 1 returned (the caller drops s). */
int nb_tcpw_prefix_bad(struct nb_tcpjob *j, struct nb_tcp_end *e,
		       const struct nb_tcp_seg *s);
/* Once a turn of worker w: at run->tx_stop (once, *stopped set) clients
 * close (FIN once their data is out) and so do --iperf3-server's ends
 * (iperf3's TEST_END: the FIN after what was sent); a held job whose go
 * came sends. */
void nb_tcpw_turn_edges(struct nb_worker *w, const struct nb_run *run,
			int *stopped);
/* End e has finished (nb_tcp_finished): counted, or for a listener's
 * half-open end freed (accept_any).  Once per end: done_ns set. */
void nb_tcpw_end_done(struct nb_tcpjob *j, struct nb_tcp_end *e, uint64_t now);

#endif /* NB_TCP_ENGINE_INT_H */
