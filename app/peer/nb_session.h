/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A peer-mode session, either end: the control I/O on the test port, the
 * reliable link (nb_link) that retransmits each message until it is
 * acknowledged, and the state of the test both ends run.  The decisions
 * (which message is taken in which state) are the pure state machines of
 * nb_peer_sm; this is their DPDK-side shell.
 */
#ifndef NB_SESSION_H
#define NB_SESSION_H

#include <stdint.h>
#include <string.h>

#include "nb_app.h"
#include "nb_auth.h"
#include "nb_ctl.h"
#include "nb_ctlio.h"
#include "nb_link.h"
#include "nb_offset.h"
#include "nb_peer_iv.h"
#include "nb_peer_sm.h"
#include "nb_policy.h"
#include "nb_stats.h"

#define NB_MS		     1000000ULL
#define NB_PEER_KEEPALIVE_NS (250 * NB_MS)
/* after SIGINT/SIGTERM, how long a wait for the far end still goes on */
#define NB_PEER_QUIT_GRACE_NS  (1000 * NB_MS)
#define NB_PEER_START_DELAY_MS 200
/* A client's STOP this close before the responder's end is the test's end
 * (the responder started later, by START's trip), not an interruption. */
#define NB_PEER_END_SKEW_MS 250

struct nb_peer;
/* A decoded message for this end's state machine. */
typedef void (*nb_peer_msg_fn)(struct nb_peer *pr, const struct nb_udp_info *u,
			       struct nb_ctl_msg *m);

struct tcprun;
struct nb_mesh_end;
struct nb_peer {
	struct nb_app *app;
	/* the control I/O: io_own's, or (a client's second and later
	 * sessions, one per responder) the first session's */
	struct nb_ctlio *io;
	struct nb_ctlio io_own;
	struct nb_link link;
	nb_peer_msg_fn on_msg;
	int client;
	uint32_t session;
	uint8_t peer_mac[6];
	/* the peer's other source MACs for its data (a TLB or ALB bond's
	 * members): PARAMS' on the responder, ACCEPT's on the client */
	struct nb_ctl_macs peer_macs;
	/* client: how the responder set its side up (ACCEPT) */
	struct nb_offload_plan peer_offload;
	struct nb_numa_brief peer_numa;
	uint32_t peer_ip; /* over IPv6 (io.v6): peer_ip6's nb_ip6_key */
	uint8_t peer_ip6[16];
	uint64_t timeout_ns;
	uint64_t last_heard;
	struct nb_ctl_conf mine, theirs;
	/* authentication: the session's keys (on once derived); the
	 * client's nonce; the responder's cookie secret */
	struct nb_auth auth;
	uint8_t cn[NB_AUTH_NONCE];
	uint8_t secret[NB_AUTH_SECRET];
	/* responder: per-source limits on HELLOs and on would-be session
	 * openers, when the session opened, the sessions opened within a
	 * cookie's life (replays), what it refused by cause */
	struct nb_srclimit hello_lim, open_lim;
	struct nb_vouched vouched; /* key holders' sessions (nb_policy.h) */
	uint64_t opened_ns;
	struct nb_auth_seen seen;
	struct nb_refusals refusals;
	/* responder: sessions opened, ended, ended by the client's DONE */
	uint64_t sessions_opened, sessions_ended, sessions_done;
	uint16_t own_vlan; /* responder: its --vlan (0 untagged) */
	/* client: what it ignored, for the log */
	uint64_t foreign;   /* tagged wrongly, or from another address */
	uint64_t auth_fail; /* a WELCOME that failed its tag */
	char auth_error[NB_CTL_REASON_STR]; /* client: why WELCOME failed */
	struct nb_rsp rsp;		    /* responder */
	struct nb_cli cli;		    /* client */
	/* client: the last event from the responder, and its message */
	enum nb_cli_event event;
	struct nb_ctl_msg inbox;
	int arp_done;
	int stopping;	  /* client: STOP sent; Ctrl-C no longer aborts waits */
	uint64_t quit_by; /* after a signal: waits end then (0: no signal) */
	int in_suite;	  /* client: sessions are a suite's trials; failures go
			   * to its report, not to stdout */
	int sweep_later;  /* client: a --msg-size sweep past its first size
			   * (the test header was printed) */
	int more_sessions; /* client: another session follows on this port
			    * (a sweep's next size): DONE says not LEAVING */
	int quit;	   /* responder: leave the loop */
	/* responder: leave the port alone until its link goes down or this
	 * time passes (a leaving client on a memif link; 0: not held) */
	uint64_t hold_until;
	/* the test */
	struct nb_ctl_params params;
	int test_ready; /* jobs set up, workers launched */
	struct nb_ctltx
		*ctltx; /* one queue pair: the worker sending control's */
	uint8_t *blob;	/* its results, encoded (the client: the
			 * responder's, of a TCP test) */
	size_t blob_len;
	struct tcprun *tcp; /* a closed-loop TCP test (nb_tcprun.h) */
	/* a mesh across hosts (nb_mesh_peer.h): this end's share of the
	 * pairs, and (the client) the responder's */
	struct nb_mesh_end *mesh_end, *peer_end;
	/* client, --peer IP,IP,...: the sessions with the mesh's further
	 * responders (this one is the first's; they share its control I/O
	 * and its test, nb_client_group.c) */
	struct nb_peer *group[NB_MESH_MAX_PEERS - 1];
	uint16_t nb_group;
	uint16_t mesh_owner; /* client: this session's responder's number in
			      * the mesh (1: the first --peer's) */
	/* --iperf3: its TCP connections' first bytes (the cookie) */
	const uint8_t *tcp_prefix;
	uint32_t tcp_prefix_len;
	/* --iperf3 --bidir: the client's connections from this one on send
	 * the prefix alone and take data (0: none) */
	uint32_t tcp_recv_from;
	char tcp_why[320];    /* client: why it failed, as its runner saw */
	struct nb_offset off; /* client: responder clock - ours */
	char method[160];
	uint64_t ctl_tx0, ctl_rx0; /* control frames at the PMD stats reset */
	int nap_short;		   /* poll faster while a test is set up */
	/* interval lines (nb_peer_iv_io.c): this end's sampling; the
	 * responder's next part to send; the client's store of the
	 * responder's intervals and how many rows it wrote out */
	struct nb_sampler sampler;
	int sampling;
	uint32_t iv_sent, iv_first;
	struct nb_peer_ivs rivs;
	uint32_t iv_shown;
};

/* The control lcore's clock in ns (the run's epoch). */
uint64_t nb_peer_now(const struct nb_peer *pr);
/* Sleep between polls: 50 us while a test is set up, else 500 us. */
void nb_peer_nap(const struct nb_peer *pr);

/*
 * Bring up the test port (--queues + 1 queues each way: the last TX queue
 * is the control lcore's own), the control I/O at address ip, the link,
 * and this end's description.  A client waits for the link; a responder
 * waits for clients, link or no link.  Returns an exit code (0 ok).
 */
int nb_peer_open(struct nb_peer *pr, struct nb_app *app, int client,
		 uint32_t ip, const uint8_t *ip6);
void nb_peer_close(struct nb_peer *pr);
/* Client: g, a further session on pr's control I/O (a mesh's next
 * responder); its address still to be set and resolved. */
void nb_peer_join_io(struct nb_peer *g, struct nb_peer *pr);

/* Client, --peer IP: ask by ARP (over IPv6 a neighbour solicitation;
 * every 200 ms) until answered (the MAC goes to pr->peer_mac) or
 * --peer-timeout; 0 or -ETIMEDOUT. */
int nb_peer_resolve(struct nb_peer *pr);

/* Send m once (no retransmission), to mac/ip (over IPv6 to ip6);
 * tagged and signed with a, or untagged with a NULL. */
int nb_peer_send_raw(struct nb_peer *pr, struct nb_ctl_msg *m,
		     const uint8_t mac[6], uint32_t ip, const uint8_t *ip6,
		     const struct nb_auth *a);

/* u is from the session peer's address (IPv4, or over IPv6 all 16
 * bytes of it). */
static inline int
nb_peer_addr_is(const struct nb_peer *pr, const struct nb_udp_info *u)
{
	return u->src_ip == pr->peer_ip &&
	       (!u->v6 || memcmp(u->src_ip6, pr->peer_ip6, 16) == 0);
}

/* u's source address becomes the session peer's. */
static inline void
nb_peer_addr_take(struct nb_peer *pr, const struct nb_udp_info *u)
{
	pr->peer_ip = u->src_ip;
	memcpy(pr->peer_ip6, u->src_ip6, 16);
}
/* Retransmit what is due; -ETIMEDOUT when the peer stopped answering. */
int nb_peer_service(struct nb_peer *pr);
/* Send reliably, tagged once the session has its keys; waits (polling)
 * while an earlier message is unacked. */
int nb_peer_send(struct nb_peer *pr, struct nb_ctl_msg *m);
/*
 * For a message of our session that goes through the link (its tag
 * already checked): ACKs clear our pending message; others are ACKed; 1
 * when it is new (process it).
 */
int nb_peer_accept(struct nb_peer *pr, const struct nb_udp_info *u,
		   const struct nb_ctl_msg *m);

/* "a.b.c.d" of a host-order IPv4 address (static buffer per call site). */
#define NB_IP4_FMT "%u.%u.%u.%u"
#define NB_IP4_ARGS(ip)                                                        \
	(ip) >> 24, ((ip) >> 16) & 255, ((ip) >> 8) & 255, (ip)&255
#define NB_MAC_FMT     "%02x:%02x:%02x:%02x:%02x:%02x"
#define NB_MAC_ARGS(m) (m)[0], (m)[1], (m)[2], (m)[3], (m)[4], (m)[5]

#endif /* NB_SESSION_H */
