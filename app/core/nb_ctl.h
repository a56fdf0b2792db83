/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Peer-mode control protocol: message codec and results blob.  Pure: no
 * DPDK calls, no globals.  docs/protocol.md describes the same bytes; keep
 * the two in step.  The codec is nb_ctl.c, the message table and bodies
 * nb_ctl_msgs.c and nb_ctl_setup.c, the results blobs nb_ctl_results.c.
 *
 * A control message is the whole payload of one UDP datagram to or from
 * NB_CONTROL_UDP_PORT.  All integers are big endian.  Every message starts
 * with a 16-byte header:
 *
 *   0  magic    u32  NB_CTL_MAGIC ("NBCM")
 *   4  version  u8   NB_CTL_VERSION
 *   5  type     u8   enum nb_ctl_type, | NB_CTL_F_TAG when a tag follows
 *   6  length   u16  header + body (+ tag) bytes; equals the datagram
 *                    payload length
 *   8  session  u32  client-chosen nonzero id (HELLO proposes it)
 *  12  seq      u32  sender's message number, from 1 (ACK: the acked seq)
 *
 * followed by a body of fixed layout for the type (RESULTS: a fixed part
 * and chunk_len bytes) and, with NB_CTL_F_TAG, a 16-byte authentication
 * tag (nb_auth.h; the codec carries it, nb_auth computes and checks it).
 * Strings are fixed-size fields: the text, a NUL, then NUL padding to the end
 * of the field.
 *
 * The decoder accepts exactly the byte strings the encoder produces: any
 * message it accepts re-encodes to the same bytes.  Anything else (wrong
 * length, trailing bytes, a string without NUL or with non-NUL padding,
 * non-zero unused array slots, out-of-range fields) is rejected.
 */
#ifndef NB_CTL_H
#define NB_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "nb_hist.h"
#include "nb_cpu.h"
#include "nb_ctl_mesh.h"
#include "nb_impair.h"
#include "nb_numa.h"
#include "nb_offload.h"
#include "nb_pmd_stats.h"
#include "nb_tcp.h"

#define NB_CTL_MAGIC   0x4E42434Du /* "NBCM" */
#define NB_CTL_VERSION 12
#define NB_CTL_HDR_LEN 16
#define NB_CTL_F_TAG   0x80 /* in the type byte: a tag ends the message */
#define NB_CTL_TAG_LEN 16
#define NB_CTL_NONCE   16
#define NB_CTL_CHUNK   1024 /* max RESULTS chunk bytes */

/* String field sizes (including the mandatory NUL). */
#define NB_CTL_VERSION_STR 16
#define NB_CTL_DPDK_STR	   32
#define NB_CTL_HOST_STR	   64
#define NB_CTL_CPU_STR	   64
#define NB_CTL_OS_STR	   64
#define NB_CTL_DRIVER_STR  32
#define NB_CTL_BUSY_STR	   64
#define NB_CTL_REASON_STR  128

/* Body lengths on the wire. */
#define NB_CTL_BOOT_STR	 40
#define NB_CTL_CONF_LEN	 (368 + NB_CTL_OFFER_LEN)
#define NB_CTL_BUSY_LEN	 (4 + NB_CTL_BUSY_STR) /* 68 */
#define NB_CTL_PROOF_LEN (2 * NB_CTL_NONCE)    /* 32 */
#define NB_CTL_MACS_MAX	 7		       /* other source MACs of a port */
#define NB_CTL_MACS_LEN	 (2 + 6 * NB_CTL_MACS_MAX) /* 44 */
#define NB_CTL_PARAMS_LEN                                                      \
	(208 + NB_CTL_MACS_LEN + NB_CTL_MESH_LEN + NB_CTL_PROOF_LEN)
/* QUIT is padded with zeros to the size of the largest answer it can
 * earn (a tagged REJECT), so it can never be answered with more bytes
 * than it carried */
#define NB_CTL_QUIT_PAD (2 + NB_CTL_REASON_STR) /* 130 */
#define NB_CTL_QUIT_LEN (NB_CTL_PROOF_LEN + NB_CTL_QUIT_PAD)
#define NB_CTL_WHY_STR	160 /* an offload's reason */
#define NB_CTL_ACCEPT_LEN                                                      \
	(4 + NB_CTL_MACS_LEN + 16 + 4 * NB_CTL_WHY_STR)	 /* 704 */
#define NB_CTL_REJECT_LEN	 (2 + NB_CTL_REASON_STR) /* 130 */
#define NB_CTL_START_LEN	 12
#define NB_CTL_KEEPALIVE_LEN	 24
#define NB_CTL_RESULTS_REQ_LEN	 4
#define NB_CTL_DONE_LEN		 4
#define NB_CTL_RESULTS_FIXED_LEN 14			 /* + chunk_len */
#define NB_CTL_ERROR_LEN	 (2 + NB_CTL_REASON_STR) /* 130 */
#define NB_CTL_IV_STREAMS	 12 /* stream slots of one INTERVAL */
#define NB_CTL_IV_STREAM_LEN	 64 /* 8 x u64 */
#define NB_CTL_INTERVAL_LEN                                                    \
	(28 + 12 * 8 + NB_CTL_IV_STREAMS * NB_CTL_IV_STREAM_LEN) /* 892 */

/* The largest message: RESULTS with a full chunk and a tag (1070 B). */
#define NB_CTL_MAX_LEN                                                         \
	(NB_CTL_HDR_LEN + NB_CTL_RESULTS_FIXED_LEN + NB_CTL_CHUNK +            \
	 NB_CTL_TAG_LEN)

/* Limits checked on encode and decode. */
#define NB_CTL_MAX_STREAMS	  1024
#define NB_CTL_MAX_SIZES	  16
#define NB_CTL_MAX_PATTERN	  64
#define NB_CTL_MAX_VLAN		  4094
#define NB_CTL_MAX_RX_QUEUES	  16
#define NB_CTL_MAX_START_DELAY_MS 60000
#define NB_CTL_MAX_DURATION_MS	  (30ull * 86400 * 1000) /* as --time */
#define NB_CTL_MAX_OMIT_MS	  (3600ull * 1000)	 /* as --omit */
#define NB_CTL_MAX_PACKETS	  (UINT64_C(1) << 62)
#define NB_CTL_MAX_PPS		  UINT64_C(10000000000) /* 10 Gpps */
#define NB_CTL_MAX_LATENCY_RATE	  10000000
#define NB_CTL_MIN_INTERVAL_MS	  100 /* as --interval */
#define NB_CTL_MAX_INTERVAL_MS	  3600000
/* PARAMS' peer_timeout_ms (since version 10), as --peer-timeout takes it */
#define NB_CTL_MIN_PEER_TIMEOUT_MS 100
#define NB_CTL_MAX_PEER_TIMEOUT_MS 600000
/* closed-loop TCP (PARAMS tcp = 1, since version 7), as --window and
 * --msg-size take them */
#define NB_CTL_TCP_MIN_WINDOW 2048
#define NB_CTL_TCP_MAX_WINDOW (1u << 30)
#define NB_CTL_TCP_MAX_MSG    (1u << 20)
#define NB_CTL_TCP_F_DELACK   1u /* receivers ACK every second segment */
#define NB_CTL_TCP_F_NO_SACK  2u /* senders do not offer SACK */
#define NB_CTL_TCP_CC_MAX     1	 /* 0 NewReno, 1 CUBIC */

/* HELLO/WELCOME flags */
#define NB_CTL_CONF_F_KEY 1u /* the sender has a pre-shared key */
enum nb_ctl_type {
	NB_CTL_HELLO = 1,   /* client -> responder: nb_ctl_conf */
	NB_CTL_WELCOME,	    /* responder -> client: nb_ctl_conf */
	NB_CTL_BUSY,	    /* responder -> client: nb_ctl_busy */
	NB_CTL_PARAMS,	    /* client -> responder: nb_ctl_params */
	NB_CTL_ACCEPT,	    /* responder -> client: nb_ctl_accept */
	NB_CTL_REJECT,	    /* responder -> client: nb_ctl_reject */
	NB_CTL_START,	    /* client -> responder: nb_ctl_start */
	NB_CTL_KEEPALIVE,   /* either: nb_ctl_keepalive */
	NB_CTL_STOP,	    /* client -> responder: empty */
	NB_CTL_RESULTS_REQ, /* client -> responder: nb_ctl_results_req */
	NB_CTL_RESULTS,	    /* responder -> client: nb_ctl_results */
	NB_CTL_DONE,	    /* client -> responder: nb_ctl_done */
	NB_CTL_QUIT,	    /* client -> responder: nb_ctl_proof */
	NB_CTL_ACK,	    /* either: empty, header seq = acked seq */
	NB_CTL_ERROR,	    /* either: nb_ctl_error */
	NB_CTL_INTERVAL,    /* responder -> client: nb_ctl_interval */
	NB_CTL_TYPE_MAX,    /* first unknown type (17) */
};

/* REJECT and ERROR codes (1 .. NB_CTL_CODE_MAX - 1; others rejected). */
enum nb_ctl_code {
	NB_CTL_CODE_VERSION = 1, /* protocol version mismatch */
	NB_CTL_CODE_MALFORMED,	 /* a message could not be decoded */
	NB_CTL_CODE_STATE,	 /* message not expected in this state */
	NB_CTL_CODE_SESSION,	 /* unknown session */
	NB_CTL_CODE_PARAMS,	 /* parameters not acceptable */
	NB_CTL_CODE_RESOURCES,	 /* not enough ports, queues, memory */
	NB_CTL_CODE_PORT,	 /* port or link failure */
	NB_CTL_CODE_TIMEOUT,	 /* the peer stopped answering */
	NB_CTL_CODE_INTERNAL,	 /* anything else */
	NB_CTL_CODE_POLICY,	 /* refused by the responder's policy */
	NB_CTL_CODE_AUTH,	 /* authentication required or failed */
	NB_CTL_CODE_MAX,
};

enum nb_ctl_direction {
	NB_CTL_DIR_FORWARD = 0, /* client sends, responder receives */
	NB_CTL_DIR_REVERSE = 1, /* responder sends, client receives */
	NB_CTL_DIR_BIDIR = 2,	/* both */
};

/* HELLO and WELCOME: who is talking (numa_node >= -1; -1 unknown). */
struct nb_ctl_conf {
	char tool_version[NB_CTL_VERSION_STR];
	char dpdk_version[NB_CTL_DPDK_STR];
	char host[NB_CTL_HOST_STR];
	char cpu[NB_CTL_CPU_STR];
	char os[NB_CTL_OS_STR];
	char driver[NB_CTL_DRIVER_STR];
	uint32_t link_speed_mbps;
	uint16_t nb_ports;
	uint16_t nb_rxq;
	uint16_t nb_txq;
	uint16_t nb_workers;
	int16_t numa_node;
	uint8_t mac[6];
	uint32_t ipv4; /* host byte order */
	/*
	 * The kernel's boot id (/proc/sys/kernel/random/boot_id): equal on
	 * both ends means one host, hence one clock for one-way latency.
	 */
	char boot_id[NB_CTL_BOOT_STR];
	/*
	 * The TSC frequency this side measured against CLOCK_MONOTONIC_RAW,
	 * and its error bound in parts per billion (0: not calibrated, then
	 * tsc_hz is DPDK's estimate).  Since protocol version 2.
	 */
	uint64_t tsc_hz;
	uint32_t tsc_bound_ppb;
	/*
	 * Since version 3.  HELLO: the client's fresh random nonce; WELCOME:
	 * the responder's cookie for this HELLO (also its nonce).  flags:
	 * NB_CTL_CONF_F_KEY; other bits must be 0.
	 */
	uint8_t nonce[NB_CTL_NONCE];
	uint32_t flags;
	/* the ports this end offers to a test of many ports (since version
	 * 11): a responder's --mesh-ports (control on the first), a
	 * client's --ports */
	struct nb_ctl_offer offer;
};

/*
 * PARAMS and QUIT open a session on the responder, which keeps no state
 * for a HELLO: they carry the client's nonce and the cookie from WELCOME
 * back (proof that the client receives at its address).
 */
struct nb_ctl_proof {
	uint8_t client_nonce[NB_CTL_NONCE];
	uint8_t cookie[NB_CTL_NONCE];
};

/*
 * BUSY: another session holds the responder.  asked_session is the
 * session of the HELLO it answers (never the session that holds it).
 */
struct nb_ctl_busy {
	uint32_t asked_session;
	char reason[NB_CTL_BUSY_STR];
};

/*
 * The other source MACs a side's data frames may carry besides its port's
 * MAC (since version 8): the members of a TLB or ALB bond, which put
 * their own MAC in what they send.  Checked: n <= NB_CTL_MACS_MAX, the
 * first n unicast and not zero, the unused slots zero on the wire.
 */
struct nb_ctl_macs {
	uint8_t n;
	uint8_t mac[NB_CTL_MACS_MAX][6];
};

/*
 * PARAMS: the test.  Checked on encode and decode:
 *   direction <= 2, proto 6 or 17, vlan_id <= 4094, streams 1..1024,
 *   nb_sizes 1..16 with sizes[i] in 64..9000 (unused slots 0),
 *   nb_pattern 1..64 with pattern[i] < nb_sizes (unused slots 0 on the
 *   wire; the encoder writes zeros whatever the struct holds),
 *   rate_den != 0, rate_num / rate_den <= NB_CTL_MAX_PPS,
 *   sport_base + streams - 1 <= 65535, dport != 0 and !=
 *   NB_CONTROL_UDP_PORT, packets <= NB_CTL_MAX_PACKETS, duration_ms <=
 *   NB_CTL_MAX_DURATION_MS (and nonzero unless packets is), omit_ms <=
 *   NB_CTL_MAX_OMIT_MS, latency_rate <= NB_CTL_MAX_LATENCY_RATE.
 * tcp 0 (open loop): tcp_flags, tcp_cc, tcp_window, tcp_msg and bytes
 *   are 0.  tcp 1 (closed-loop TCP, since version 7): proto 6, one size
 *   (the MSS's frame, >= 128) and a pattern of 1, rate_num 0, packets,
 *   omit_ms and latency_rate 0, no unknown tcp_flags bit, tcp_cc <=
 *   NB_CTL_TCP_CC_MAX, tcp_window NB_CTL_TCP_MIN..MAX_WINDOW, tcp_msg <=
 *   NB_CTL_TCP_MAX_MSG (nonzero, a ping-pong, only forward and without
 *   bytes), bytes <= NB_CTL_MAX_PACKETS, duration_ms nonzero unless bytes
 *   is.
 * Source port of stream i is sport_base + i.
 */
struct nb_ctl_params {
	uint8_t direction; /* enum nb_ctl_direction */
	uint8_t proto;	   /* NB_IPPROTO_TCP / NB_IPPROTO_UDP */
	uint16_t vlan_id;  /* 0: untagged */
	uint32_t streams;
	uint16_t nb_sizes;
	uint16_t sizes[NB_CTL_MAX_SIZES]; /* frame bytes incl. FCS */
	uint16_t nb_pattern;
	uint8_t pattern[NB_CTL_MAX_PATTERN]; /* indices into sizes[] */
	uint64_t rate_num;     /* packets/s = rate_num / rate_den, */
	uint64_t rate_den;     /* total; rate_num 0 = max */
	uint64_t packets;      /* 0 = unlimited */
	uint64_t duration_ms;  /* 0 = until packets */
	uint64_t omit_ms;      /* warm-up */
	uint64_t latency_rate; /* latency samples/s; 0 = none */
	uint32_t client_ip;    /* host byte order */
	uint32_t responder_ip;
	uint8_t client_mac[6];
	uint8_t responder_mac[6];
	uint16_t sport_base;
	uint16_t dport;
	/* --interval in ms: the responder sends its counters (INTERVAL) that
	 * often; 0 none, else NB_CTL_MIN/MAX_INTERVAL_MS.  Since version 5 */
	uint32_t interval_ms;
	/* closed-loop TCP (since version 7): each stream one connection
	 * from the client's port sport_base + i to the responder's dport */
	uint8_t tcp;	     /* 0 open loop, 1 closed-loop TCP */
	uint8_t tcp_flags;   /* NB_CTL_TCP_F_* */
	uint8_t tcp_cc;	     /* 0 NewReno, 1 CUBIC */
	uint32_t tcp_window; /* each receiver's window, bytes */
	uint32_t tcp_msg;    /* ping-pong request and answer bytes; 0 bulk */
	uint64_t bytes;	     /* payload per direction, all connections; 0
			      * by time */
	/* the client's --peer-timeout in ms (since version 10): how long the
	 * client waits for the responder, and asks the responder to wait
	 * for it.  NB_CTL_MIN/MAX_PEER_TIMEOUT_MS */
	uint32_t peer_timeout_ms;
	struct nb_ctl_macs client_macs; /* since version 8 */
	struct nb_ctl_mesh mesh;	/* since version 11 */
	struct nb_ctl_proof proof;	/* since version 3 */
};

/* ACCEPT's offload flags (since version 8) */
#define NB_CTL_OFF_TX_CSUM 1u  /* the NIC fills the UDP/TCP checksum */
#define NB_CTL_OFF_RSS	   2u  /* RX spread by RSS ... */
#define NB_CTL_OFF_RSS_L4  4u  /* ... hashing the ports too (with RSS) */
#define NB_CTL_OFF_HW_TS   8u  /* the NIC has timestamps (not used) */
#define NB_CTL_OFF_HW_RATE 16u /* every paced TX queue limited by the NIC */

/*
 * ACCEPT: rx_queues 1..NB_CTL_MAX_RX_QUEUES.  Since version 8 also how
 * the responder's side is set up for this test: its other source MACs,
 * its port's offloads as it decided them (the reasons strings, checked
 * like all strings; flow_control <= NB_FC_UNSUPPORTED, no unknown flag,
 * RSS_L4 only with RSS) and its NUMA layout (port_node >= -1, cross <=
 * workers).
 */
struct nb_ctl_accept {
	uint32_t rx_queues;
	struct nb_ctl_macs responder_macs;
	struct nb_offload_plan offload;
	struct nb_numa_brief numa;
};

/* REJECT: code is enum nb_ctl_code. */
struct nb_ctl_reject {
	uint16_t code;
	char reason[NB_CTL_REASON_STR];
};

/* START: delay_ms 0..NB_CTL_MAX_START_DELAY_MS. */
struct nb_ctl_start {
	uint32_t delay_ms;
	/*
	 * Added to the receiver's clock when it timestamps arrivals: the
	 * client's estimate of (its clock - the responder's), 0 on one host.
	 */
	int64_t rx_offset_ns;
};

/*
 * KEEPALIVE: sender_ns is the sender's clock; echo_ns the last sender_ns
 * received from the other side (0 if none, then echo_delay_ns must be 0);
 * echo_delay_ns the time between receiving that and sending this one.
 */
struct nb_ctl_keepalive {
	uint64_t sender_ns;
	uint64_t echo_ns;
	uint64_t echo_delay_ns;
};

/* RESULTS_REQ: which part of the results blob (any value). */
struct nb_ctl_results_req {
	uint32_t part;
};

/*
 * RESULTS: part `part` of a results blob of total_len bytes cut into
 * NB_CTL_CHUNK-byte pieces.  Checked: nb_parts == nb_ctl_results_parts(
 * total_len), part < nb_parts, chunk_len == min(NB_CTL_CHUNK, total_len -
 * part * NB_CTL_CHUNK).
 */
struct nb_ctl_results {
	uint32_t part;
	uint32_t nb_parts;
	uint32_t total_len;
	uint16_t chunk_len;
	uint8_t chunk[NB_CTL_CHUNK];
};

/* One stream's counts over an interval (INTERVAL). */
struct nb_ctl_iv_stream {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	uint64_t lost, out_of_order, duplicates;
	uint64_t jitter_ps; /* the receiver's jitter at the interval's end */
};

/*
 * INTERVAL: what the responder counted over its interval `index` (from 0,
 * warm-up intervals included), streams first..first+count-1 of
 * nb_streams; an interval with more than NB_CTL_IV_STREAMS streams takes
 * several messages, in stream order, the last with NB_CTL_IV_F_LAST.  The
 * sums and times are in every part.  A warm-up interval (OMITTED) has
 * sums only: count 0, one part.  Checked: no unknown flag, count <=
 * NB_CTL_IV_STREAMS, first + count <= nb_streams <= NB_CTL_MAX_STREAMS,
 * LAST iff first + count == nb_streams, OMITTED only with count 0 and
 * first 0, start_ns <= end_ns; slots past count are all zero.
 */
#define NB_CTL_IV_F_OMITTED 1u
#define NB_CTL_IV_F_LAST    2u
struct nb_ctl_interval {
	uint32_t index;
	uint8_t flags;
	uint16_t first, count, nb_streams;
	uint64_t start_ns, end_ns; /* from the measured start (warm-up:
				    * from the senders' start) */
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes, lost;
	uint64_t out_of_order, duplicates, jitter_ps;
	uint64_t lat_count, lat_p50_ns, lat_p99_ns, lat_max_ns;
	struct nb_ctl_iv_stream s[NB_CTL_IV_STREAMS];
};

/*
 * DONE: flags.  LEAVING: the client closes its port after this session
 * (it exits), so a responder on a link whose driver unmaps the rings when
 * the far end leaves (memif) leaves the port alone until the link goes
 * down.  Checked: no unknown flag.
 */
#define NB_CTL_DONE_F_LEAVING 1u
struct nb_ctl_done {
	uint32_t flags;
};

/* ERROR: code is enum nb_ctl_code. */
struct nb_ctl_error {
	uint16_t code;
	char reason[NB_CTL_REASON_STR];
};

/* A decoded message.  STOP and ACK have no body. */
struct nb_ctl_msg {
	uint8_t type;	  /* enum nb_ctl_type (without NB_CTL_F_TAG) */
	uint8_t tagged;	  /* 1: the message ends with tag[] */
	uint32_t session; /* nonzero */
	uint32_t seq;	  /* nonzero */
	/* as decoded; encoded as given (nb_auth_sign overwrites it) */
	uint8_t tag[NB_CTL_TAG_LEN];
	union {
		struct nb_ctl_conf conf; /* HELLO, WELCOME */
		struct nb_ctl_busy busy;
		struct nb_ctl_params params;
		struct nb_ctl_accept accept;
		struct nb_ctl_reject reject;
		struct nb_ctl_start start;
		struct nb_ctl_keepalive ka;
		struct nb_ctl_results_req rreq;
		struct nb_ctl_results res;
		struct nb_ctl_error error;
		struct nb_ctl_proof quit;
		struct nb_ctl_interval iv;
		struct nb_ctl_done done;
	} u;
};

/* Zero *m and set its type and session (seq is set by nb_link_send). */
void nb_ctl_msg_init(struct nb_ctl_msg *m, uint8_t type, uint32_t session);

/* Encoded length of m: header + body, or -EINVAL for an unknown type. */
int nb_ctl_encoded_len(const struct nb_ctl_msg *m);

/*
 * Encode m into buf.  Returns the bytes written (the datagram payload
 * length), -EINVAL if m is not a valid message (unknown type, session or
 * seq 0, a string without NUL, a field out of range) or -ENOSPC if buflen
 * is too small.  buf is not touched on failure.
 */
int nb_ctl_encode(const struct nb_ctl_msg *m, uint8_t *buf, size_t buflen);

/*
 * Decode the len-byte datagram payload at buf into *m.  len must come
 * from the UDP length field (minus 8), not from the frame length: short
 * frames carry Ethernet padding, which would count as trailing bytes.
 * Returns 0, or:
 *   -EPROTO           not a valid message (short, bad magic, length field
 *                     != len, unknown type, session or seq 0, wrong body
 *                     length, bad string, field out of range);
 *   -EPROTONOSUPPORT  magic right but version != NB_CTL_VERSION: m->type,
 *                     m->session and m->seq are filled from the header (the
 *                     type byte as it came, tag bit included) so
 *                     the caller can answer ERROR NB_CTL_CODE_VERSION.
 * Never reads past buf + len.  *m is otherwise unspecified on failure.
 */
int nb_ctl_decode(const uint8_t *buf, size_t len, struct nb_ctl_msg *m);

/*
 * The type byte of a datagram's header without NB_CTL_F_TAG, nothing
 * else checked (a fault injector's look, before decoding); -1 for a
 * datagram too short to have one.
 */
int nb_ctl_peek_type(const uint8_t *buf, size_t len);

/* "HELLO", ..., "ERROR"; "UNKNOWN" for anything else. */
const char *nb_ctl_type_name(uint8_t type);

/* "version mismatch", ...; "unknown" for anything else. */
const char *nb_ctl_code_name(uint16_t code);

/* Text for the negative codes returned here and by nb_link. */
const char *nb_ctl_strerror(int err);

/*
 * Results blob: what the responder's receivers and senders counted, sent
 * as RESULTS chunks after the test.  Layout (big endian):
 *
 *   header (272 B)
 *     0  magic u32 NB_CTL_RESULTS_MAGIC ("NBRS")    4  nb_streams u32
 *     8  tx_seconds_ns u64     16 rx_seconds_ns u64   24 rx_foreign u64
 *    32  rx_warm u64           40 rx_bad_stream u64   48 tx_dropped u64
 *    56  pmd: ipackets, opackets, ibytes, obytes, imissed, ierrors,
 *        oerrors, rx_nombuf (8 x u64)
 *   120  impair_flags u32 (bit 0: the responder's --impair was on;
 *        the other bits 0)                     124 reserved u32 (0)
 *   128  impair: seen, dropped, policed, overflow, duplicated,
 *        reordered, delayed (7 x u64)
 *   184  impair_spec: 64 bytes, the spec as text, NUL-padded (empty
 *        when off)
 *   248  cpu: wall_ns, user_ns, system_ns (3 x u64): the responder's
 *        CPU time over the test (user and system each at most 4096 x
 *        wall; all 0 when not measured)
 *   per stream (118 B + 10 B per non-empty bucket)
 *     0  id u32
 *     4  tx_pkts, tx_bytes, rx_pkts, rx_unique, rx_bytes, out_of_order,
 *        duplicates, late, jitter_ps (9 x u64)
 *    76  hist count, sum, min, max, overflow (5 x u64)
 *   116  nb_buckets u16
 *   118  nb_buckets x (index u16, count u64), index strictly increasing,
 *        count nonzero
 *
 * A histogram must be consistent: sum of bucket counts == count, every
 * index < NB_HIST_BUCKETS, overflow <= the last bucket's count, and an
 * empty one has sum == overflow == 0 (min and max as they are).  A
 * non-empty one has min <= max.
 */
#define NB_CTL_RESULTS_MAGIC   0x4E425253u /* "NBRS" */
#define NB_CTL_RESULTS_HDR_LEN 272
#define NB_CTL_STREAM_RES_LEN  118
#define NB_CTL_BUCKET_LEN      10

struct nb_ctl_results_hdr {
	uint64_t tx_seconds_ns; /* measured phase, senders */
	uint64_t rx_seconds_ns; /* measured start to last data frame */
	uint64_t rx_foreign;
	uint64_t rx_warm;
	uint64_t rx_bad_stream;
	uint64_t tx_dropped;
	struct nb_pmd_stats pmd;	/* the test port's own counters */
	struct nb_impair_report impair; /* the responder's --impair */
	struct nb_cpu_usage cpu;	/* its CPU time over the test */
};

struct nb_ctl_stream_res {
	uint32_t id;
	uint64_t tx_pkts, tx_bytes;
	uint64_t rx_pkts, rx_unique, rx_bytes;
	uint64_t out_of_order, duplicates, late;
	uint64_t jitter_ps;  /* jitter in picoseconds */
	struct nb_hist hist; /* latency, ns */
};

/* Bytes nb_ctl_results_write() needs for these streams. */
size_t nb_ctl_results_size(const struct nb_ctl_stream_res *streams, uint32_t n);

/*
 * Serialize.  Returns the bytes written, -ENOSPC if len is too small,
 * -EINVAL if a histogram is inconsistent (see above), -EOVERFLOW if the
 * blob would exceed INT_MAX or UINT32_MAX bytes.
 */
int nb_ctl_results_write(const struct nb_ctl_results_hdr *h,
			 const struct nb_ctl_stream_res *streams, uint32_t n,
			 uint8_t *buf, size_t len);

/*
 * Parse a whole blob of len bytes.  Returns 0 with *n streams filled,
 * -EPROTO on bad magic, any truncation, trailing bytes, a bucket index out
 * of range, not strictly increasing (duplicate) or with a zero count, or an
 * inconsistent histogram; -ENOSPC if the blob holds more than max streams.
 * On failure *h and streams[] may be partly written and *n is untouched.
 */
int nb_ctl_results_read(const uint8_t *buf, size_t len,
			struct nb_ctl_results_hdr *h,
			struct nb_ctl_stream_res *streams, uint32_t max,
			uint32_t *n);

/*
 * The results blob of a closed-loop TCP test (PARAMS tcp = 1, since
 * version 7): the responder's connection ends, carried by RESULTS as the
 * other blob is.  Layout (big endian):
 *
 *   header (234 B + 10 B per non-empty bucket)
 *     0  magic u32 NB_CTL_TCPRES_MAGIC ("NBRT")    4  nb_conns u32
 *     8  pmd: ipackets, opackets, ibytes, obytes, imissed, ierrors,
 *        oerrors, rx_nombuf (8 x u64)
 *    72  cpu: wall_ns, user_ns, system_ns (3 x u64), as above
 *    96  rx_pkts, rx_bytes, tx_pkts, tx_bytes, foreign, bad_csum, stray,
 *        alloc_fail, ctl_dropped (9 x u64): the TCP worker's frames
 *   168  cap_unit, cap_rate, cap_held (3 x u64): the responder's
 *        --max-rate on its TCP sender, cap_rate units per second of
 *        cap_unit (0 none, then cap_rate 0; 1 frames, 2 L2 bytes, 3 L1
 *        bytes), and the times it held a segment back
 *   192  one-way delay of the data received (ns): hist count, sum, min,
 *        max, overflow (5 x u64)
 *   232  nb_buckets u16, then nb_buckets x (index u16, count u64) as in
 *        the other blob
 *   per connection (164 B), connection i from the client's port
 *   sport_base + i
 *     0  state u8 (enum nb_tcp_state)   1  error u8 (enum nb_tcp_error)
 *     2  check u8 (NB_TCP_CHECK_*)      3  reserved u8 (0)
 *     4  acked, rcvd, retrans, fast_retrans, rto, recoveries, cwnd,
 *        max_cwnd, srtt_ns, rttvar_ns, min_rtt_ns, max_rtt_ns,
 *        rtt_samples, bad_bytes, dup_bytes, ooo_segs, segs_out, segs_in,
 *        done_ns, all_acked_ns (20 x u64; struct nb_tcp_endsnap)
 *
 * Checked: state <= NB_TCP_LAST_ACK, error <= NB_TCP_ERR_ABORTED, check
 * <= NB_TCP_CHECK_AUTO, reserved 0, cap_unit <= 3 (and cap_rate 0 with
 * 0), the CPU times and the histogram as in the other blob, the exact
 * length.
 */
#define NB_CTL_TCPRES_MAGIC    0x4E425254u /* "NBRT" */
#define NB_CTL_TCPRES_HDR_LEN  234
#define NB_CTL_TCPRES_CONN_LEN 164

struct nb_ctl_tcp_hdr {
	struct nb_pmd_stats pmd;
	struct nb_cpu_usage cpu;
	uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes;
	uint64_t foreign, bad_csum, stray, alloc_fail, ctl_dropped;
	uint64_t cap_unit, cap_rate, cap_held; /* NB_CTL_CAP_* */
	struct nb_hist owd;
};
#define NB_CTL_CAP_NONE	  0
#define NB_CTL_CAP_FRAMES 1
#define NB_CTL_CAP_L2	  2
#define NB_CTL_CAP_L1	  3

/* Bytes nb_ctl_tcpres_write() needs. */
size_t nb_ctl_tcpres_size(const struct nb_ctl_tcp_hdr *h, uint32_t n);

/* Serialize: the bytes written, -ENOSPC, -EINVAL (an inconsistent
 * histogram, a field out of range) or -EOVERFLOW. */
int nb_ctl_tcpres_write(const struct nb_ctl_tcp_hdr *h,
			const struct nb_tcp_endsnap *conns, uint32_t n,
			uint8_t *buf, size_t len);

/* Parse a whole blob: 0 with *n connections, -EPROTO (anything not as
 * above) or -ENOSPC (more than max connections). */
int nb_ctl_tcpres_read(const uint8_t *buf, size_t len, struct nb_ctl_tcp_hdr *h,
		       struct nb_tcp_endsnap *conns, uint32_t max, uint32_t *n);

/* Number of RESULTS parts for a blob of total_len bytes (at least 1). */
uint32_t nb_ctl_results_parts(uint32_t total_len);

/*
 * Set m's body to part `part` of the blob (type RESULTS; session and seq
 * untouched).  Returns 0, or -EINVAL if part is out of range or total_len
 * exceeds UINT32_MAX.
 */
int nb_ctl_results_chunk(struct nb_ctl_msg *m, const uint8_t *blob,
			 size_t total_len, uint32_t part);

/*
 * Copy a decoded RESULTS chunk into its place in a reassembly buffer of
 * cap bytes.  Returns 0, -ENOSPC if r->total_len > cap, -EPROTO if r is
 * not a consistent chunk.
 */
int nb_ctl_results_put(uint8_t *blob, size_t cap,
		       const struct nb_ctl_results *r);

#endif /* NB_CTL_H */
