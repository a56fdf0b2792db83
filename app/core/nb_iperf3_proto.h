/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iperf3's own control protocol (as iperf3 3.12 speaks it), as a pure
 * core: bytes in, bytes out, no I/O, no clock, no global state.  The
 * cookie, the state bytes, the length-prefixed JSON messages, the
 * parameters and results documents, the client's state machine, and the
 * UDP connect datagrams and payload header.  Byte by byte in
 * docs/protocol.md, "iperf3's protocol".  The DPDK wiring (the tool's TCP
 * carrying these bytes) is not part of this file.
 *
 * Names are nb_ip3_* (nb_iperf3.h already holds the iperf3-shaped keys of
 * the tool's own report).
 */
#ifndef NB_IPERF3_PROTO_H
#define NB_IPERF3_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define NB_IP3_PORT	   5201
#define NB_IP3_COOKIE_LEN  37 /* 36 characters and a NUL, on the wire */
#define NB_IP3_COOKIE_RAND 36 /* random bytes the caller supplies */
/* The largest JSON message the parser accepts (its length prefix). */
#define NB_IP3_JSON_MAX	   (1024 * 1024)
#define NB_IP3_MAX_STREAMS 128 /* iperf3's MAX_STREAMS */
#define NB_IP3_MSG_LEN	   160 /* error messages, NUL included */
/* The client's own output buffer: a state byte or the parameters. */
#define NB_IP3_OUT_MAX 1024

/* The state byte (a signed char on the wire). */
enum nb_ip3_state {
	NB_IP3_TEST_START = 1,
	NB_IP3_TEST_RUNNING = 2,
	NB_IP3_TEST_END = 4,
	NB_IP3_PARAM_EXCHANGE = 9,
	NB_IP3_CREATE_STREAMS = 10,
	NB_IP3_SERVER_TERMINATE = 11,
	NB_IP3_CLIENT_TERMINATE = 12,
	NB_IP3_EXCHANGE_RESULTS = 13,
	NB_IP3_DISPLAY_RESULTS = 14,
	NB_IP3_IPERF_START = 15,
	NB_IP3_IPERF_DONE = 16,
	NB_IP3_ACCESS_DENIED = -1,
	NB_IP3_SERVER_ERROR = -2,
};

/* iperf3's i_errno values that the messages below name. */
#define NB_IP3_IEACCESSDENIED 121
#define NB_IP3_IEAUTHTEST     142

/* iperf3's stream ids: 1, then 3, 4, 5... (iperf_add_stream in 3.12) */
static inline int32_t
nb_ip3_stream_id(unsigned int i)
{
	return i == 0 ? 1 : (int32_t)i + 2;
}

/* A name for a state byte ("TEST_START"), "UNKNOWN" for others. */
const char *nb_ip3_state_name(int state);

/* iperf3's wording for an i_errno value, NULL if not in the table. */
const char *nb_ip3_ierrno_str(int32_t ie);

/* --- cookie -------------------------------------------------------- */

/* 36 characters of "a..z2..7" from 36 random bytes, then a NUL. */
void nb_ip3_cookie_make(const uint8_t rnd[NB_IP3_COOKIE_RAND],
			char cookie[NB_IP3_COOKIE_LEN]);

/* 0 if the n bytes are a cookie (36 of the alphabet and a NUL), else -1. */
int nb_ip3_cookie_check(const uint8_t *b, size_t n);

/* --- JSON framing -------------------------------------------------- */

/*
 * A 4-byte big-endian length and o's compact text into out.  Returns the
 * bytes written, -ENOSPC if out is too small, -EINVAL if o is not an object
 * or its text is longer than NB_IP3_JSON_MAX.
 */
int nb_ip3_json_frame(const json_t *o, uint8_t *out, size_t cap);

/*
 * Parses JSON text of n bytes at s (modified in place: iperf3 3.12 prints
 * negative integers as their unsigned 64-bit value, 18446744073709551615
 * for -1; such 20-digit numbers are rewritten to the signed value first).
 * Returns a new object, or NULL with a message in msg.
 */
json_t *nb_ip3_json_parse(char *s, size_t n, char *msg, size_t msglen);

/* --- the control byte stream --------------------------------------- */

enum nb_ip3_ev_type {
	NB_IP3_EV_NONE = 0,	/* all input used, no event complete */
	NB_IP3_EV_STATE,	/* ev->state */
	NB_IP3_EV_JSON,		/* ev->json: the caller owns it */
	NB_IP3_EV_SERVER_ERROR, /* ev->ierrno, ev->err, ev->msg */
	NB_IP3_EV_ERROR, /* malformed input: ev->msg; the stream is dead */
};

struct nb_ip3_ev {
	enum nb_ip3_ev_type type;
	int state;
	json_t *json;
	int32_t ierrno;
	int32_t err;   /* the server's errno, -1 if it did not send one */
	int has_errno; /* 0: the server closed after i_errno alone */
	char msg[NB_IP3_MSG_LEN];
};

/* What the next bytes are: the reader knows, the stream does not say. */
enum nb_ip3_expect {
	NB_IP3_EXPECT_STATE = 0,
	NB_IP3_EXPECT_JSON,
};

struct nb_ip3_rx {
	uint8_t *buf; /* the caller's, cap bytes: the JSON text */
	size_t cap;   /* the length limit: min(cap - 1, NB_IP3_JSON_MAX) */
	int phase;
	uint8_t hdr[8];
	size_t hlen;
	uint32_t jlen;
	size_t got;
	int dead;
};

/* buf of cap bytes holds one JSON text (its NUL included). */
void nb_ip3_rx_init(struct nb_ip3_rx *rx, uint8_t *buf, size_t cap);

/* Only between messages; -EBUSY mid-message. */
int nb_ip3_rx_expect(struct nb_ip3_rx *rx, enum nb_ip3_expect e);

/*
 * Consumes bytes up to and including the first complete event, returns
 * how many.  ev->type NB_IP3_EV_NONE when all n were used without one.
 * After NB_IP3_EV_JSON the parser expects a state again.
 */
size_t nb_ip3_rx_feed(struct nb_ip3_rx *rx, const uint8_t *p, size_t n,
		      struct nb_ip3_ev *ev);

/*
 * The peer closed: NB_IP3_EV_NONE if between messages, a SERVER_ERROR event
 * if it had sent -2 and i_errno but no errno (iperf3 3.12 does that on an
 * authentication failure), else NB_IP3_EV_ERROR naming what was cut.
 */
void nb_ip3_rx_eof(struct nb_ip3_rx *rx, struct nb_ip3_ev *ev);

/* --- parameters ---------------------------------------------------- */

struct nb_ip3_params {
	int udp;	       /* 0 TCP, 1 UDP */
	int omit;	       /* seconds */
	int time;	       /* seconds; 0 with bytes or blocks */
	uint64_t bytes;	       /* "num" */
	uint64_t blocks;       /* "blockcount" */
	int parallel;	       /* 1..128 */
	int reverse;	       /* the server sends */
	int bidir;	       /* both send */
	uint32_t window;       /* socket buffer, 0 default */
	uint32_t len;	       /* block (TCP) or datagram payload (UDP) size */
	uint32_t mss;	       /* 0 default */
	uint64_t bandwidth;    /* bit/s, 0 unlimited */
	int udp64;	       /* 64-bit UDP packet counters */
	int pacing_timer;      /* microseconds; iperf3's default 1000 */
	int get_server_output; /* ask for the server's report */
	char client_version[32];
};

/* iperf3 3.12 client's defaults for a TCP test of 10 s. */
void nb_ip3_params_default(struct nb_ip3_params *p);

/* The object iperf3 3.12's client sends for these settings; NULL on ENOMEM. */
json_t *nb_ip3_params_json(const struct nb_ip3_params *p);

/* A client's parameters into p: 0, or -EINVAL with a message per field. */
int nb_ip3_params_parse(const json_t *o, struct nb_ip3_params *p, char *msg,
			size_t msglen);

/* --- results ------------------------------------------------------- */

struct nb_ip3_stream_res {
	int32_t id;
	uint64_t bytes;
	int64_t retransmits; /* -1: not known */
	double jitter;	     /* seconds */
	int64_t errors;	     /* lost datagrams */
	int64_t packets;
	double start_time; /* seconds */
	double end_time;
};

struct nb_ip3_results {
	double cpu_total, cpu_user, cpu_system; /* percent */
	int sender_has_retransmits;		/* 1, 0, or -1 (receiver) */
	char congestion_used[32];		/* "" when absent */
	unsigned int nstreams;
	struct nb_ip3_stream_res s[NB_IP3_MAX_STREAMS];
};

json_t *nb_ip3_results_json(const struct nb_ip3_results *r);
/* r's object framed (nb_ip3_json_frame) into out: the bytes, or -ENOMEM,
 * -ENOSPC, -EINVAL. */
int nb_ip3_results_frame(const struct nb_ip3_results *r, uint8_t *out,
			 size_t cap);

int nb_ip3_results_parse(const json_t *o, struct nb_ip3_results *r, char *msg,
			 size_t msglen);

/* The server's report in a results object ("server_output_text"), or NULL. */
const char *nb_ip3_results_server_text(const json_t *o);

/* --- the client ---------------------------------------------------- */

enum nb_ip3_act {
	NB_IP3_ACT_NONE = 0,	   /* all input used: read more */
	NB_IP3_ACT_WRITE,	   /* write st->out on the control connection */
	NB_IP3_ACT_CREATE_STREAMS, /* open st->nstreams data streams */
	NB_IP3_ACT_START,	   /* TEST_START: get ready to send */
	NB_IP3_ACT_RUNNING,	   /* TEST_RUNNING: send (or receive) now */
	NB_IP3_ACT_SEND_RESULTS,   /* call nb_ip3_client_results() */
	NB_IP3_ACT_PEER_RESULTS,   /* st->peer holds the server's results */
	NB_IP3_ACT_DONE,	   /* write st->out (IPERF_DONE), then close */
	NB_IP3_ACT_ERROR,	   /* st->msg; write st->out if out_len */
	/* the server's side only */
	NB_IP3_ACT_PARAMS,   /* st->params: listen, then _create_streams() */
	NB_IP3_ACT_TEST_END, /* the client's TEST_END: stop, then _exchange() */
};

enum nb_ip3_cphase {
	NB_IP3_C_HELLO = 0, /* the cookie not yet written */
	NB_IP3_C_WAIT_PARAM,
	NB_IP3_C_WAIT_CREATE,
	NB_IP3_C_WAIT_START,
	NB_IP3_C_WAIT_RUNNING,
	NB_IP3_C_RUNNING,
	NB_IP3_C_WAIT_EXCHANGE, /* TEST_END written */
	NB_IP3_C_SENDING_RESULTS,
	NB_IP3_C_WAIT_RESULTS,
	NB_IP3_C_WAIT_DISPLAY,
	NB_IP3_C_DONE,
	NB_IP3_C_FAILED,
};

struct nb_ip3_step {
	enum nb_ip3_act act;
	const uint8_t *out; /* the client's buffer, valid to the next call */
	size_t out_len;
	unsigned int nstreams;
	int32_t ierrno; /* with a server error, else 0 */
	const struct nb_ip3_results *peer;
	const struct nb_ip3_params *params; /* server: the client's */
	char msg[NB_IP3_MSG_LEN];
};

struct nb_ip3_client {
	struct nb_ip3_params p;
	char cookie[NB_IP3_COOKIE_LEN];
	enum nb_ip3_cphase phase;
	struct nb_ip3_rx rx;
	uint8_t out[NB_IP3_OUT_MAX];
	struct nb_ip3_results peer;
	/* p.get_server_output: the server's own report from its results
	 * (server_output_json, or server_output_text), a reference the
	 * client holds until nb_ip3_client_release(); NULL otherwise */
	json_t *server_output;
};

/*
 * p and a checked cookie; rxbuf (rxcap bytes) holds the server's results
 * text.  -EINVAL if the cookie is not one or p's parameters would not parse.
 */
int nb_ip3_client_init(struct nb_ip3_client *c, const struct nb_ip3_params *p,
		       const char cookie[NB_IP3_COOKIE_LEN], uint8_t *rxbuf,
		       size_t rxcap);

/* The first bytes on the control connection: the cookie (WRITE). */
void nb_ip3_client_hello(struct nb_ip3_client *c, struct nb_ip3_step *st);

/* Bytes from the server; returns how many were used (see nb_ip3_rx_feed). */
size_t nb_ip3_client_input(struct nb_ip3_client *c, const uint8_t *p, size_t n,
			   struct nb_ip3_step *st);

/* The caller's test is over (time, bytes or blocks): TEST_END (WRITE). */
void nb_ip3_client_test_end(struct nb_ip3_client *c, struct nb_ip3_step *st);

/*
 * After NB_IP3_ACT_SEND_RESULTS: our results framed into out; returns the
 * bytes to write, or a negative errno (-ENOSPC, -EPROTO out of turn).
 */
int nb_ip3_client_results(struct nb_ip3_client *c,
			  const struct nb_ip3_results *mine, uint8_t *out,
			  size_t cap);

/* The caller gives up (signal, timeout): CLIENT_TERMINATE (WRITE). */
void nb_ip3_client_abort(struct nb_ip3_client *c, struct nb_ip3_step *st);

/* The server closed the control connection. */
void nb_ip3_client_eof(struct nb_ip3_client *c, struct nb_ip3_step *st);

/* What the client holds (server_output) let go. */
void nb_ip3_client_release(struct nb_ip3_client *c);

/* --- the server (a helper: the order of 3.12's server) --------------- */

enum nb_ip3_sphase {
	NB_IP3_S_COOKIE = 0, /* reading the client's cookie */
	NB_IP3_S_WAIT_PARAMS,
	NB_IP3_S_LISTENING, /* params given to the caller */
	NB_IP3_S_STREAMS,   /* CREATE_STREAMS written */
	NB_IP3_S_RUNNING,   /* TEST_START, TEST_RUNNING written */
	NB_IP3_S_TEST_END,  /* TEST_END read */
	NB_IP3_S_WAIT_RESULTS,
	NB_IP3_S_RESULTS, /* the client's results given to the caller */
	NB_IP3_S_WAIT_DONE,
	NB_IP3_S_DONE,
	NB_IP3_S_FAILED,
};

struct nb_ip3_server {
	enum nb_ip3_sphase phase;
	uint8_t cookie[NB_IP3_COOKIE_LEN];
	size_t clen;
	struct nb_ip3_rx rx;
	struct nb_ip3_params p;
	struct nb_ip3_results peer;
	uint8_t out[16];
};

/* What a busy server writes to a second client before closing it. */
#define NB_IP3_BUSY_BYTE 0xff

void nb_ip3_server_init(struct nb_ip3_server *s, uint8_t *rxbuf, size_t rxcap);

/*
 * Bytes from the client: its cookie (then WRITE PARAM_EXCHANGE), its
 * parameters (PARAMS, or ERROR with SERVER_ERROR bytes to write), TEST_END
 * (TEST_END), its results (PEER_RESULTS), IPERF_DONE (DONE).
 */
size_t nb_ip3_server_input(struct nb_ip3_server *s, const uint8_t *p, size_t n,
			   struct nb_ip3_step *st);

/* The cookie the client's data streams must start with. */
const uint8_t *nb_ip3_server_cookie(const struct nb_ip3_server *s);

/* After PARAMS, listening: CREATE_STREAMS (WRITE). */
void nb_ip3_server_create_streams(struct nb_ip3_server *s,
				  struct nb_ip3_step *st);

/* All streams connected: TEST_START and TEST_RUNNING (WRITE, 2 bytes). */
void nb_ip3_server_start(struct nb_ip3_server *s, struct nb_ip3_step *st);

/* After TEST_END: EXCHANGE_RESULTS (WRITE); the client's results follow. */
void nb_ip3_server_exchange(struct nb_ip3_server *s, struct nb_ip3_step *st);

/*
 * After PEER_RESULTS: our results framed, then DISPLAY_RESULTS, into out;
 * returns the bytes to write or a negative errno.
 */
int nb_ip3_server_results(struct nb_ip3_server *s,
			  const struct nb_ip3_results *mine, uint8_t *out,
			  size_t cap);

/* A failure to report: SERVER_ERROR, i_errno and errno (WRITE, 9 bytes). */
void nb_ip3_server_error(struct nb_ip3_server *s, int32_t ie, int32_t err,
			 struct nb_ip3_step *st);

/* --- UDP ----------------------------------------------------------- */

#define NB_IP3_UDP_CONNECT_LEN 4
#define NB_IP3_UDP_HDR32       12 /* sec, usec, 32-bit count */
#define NB_IP3_UDP_HDR64       16 /* sec, usec, 64-bit count */

/* The client's first datagram on a UDP stream: 39 38 37 36 ("9876"). */
void nb_ip3_udp_connect_msg(uint8_t out[NB_IP3_UDP_CONNECT_LEN]);

/* The server's reply: 36 37 38 39 ("6789"). */
void nb_ip3_udp_connect_reply(uint8_t out[NB_IP3_UDP_CONNECT_LEN]);

/* 1 a current reply, 2 the legacy one (987654321), 0 anything else. */
int nb_ip3_udp_is_reply(const uint8_t *p, size_t n);

/* 1 a current connect message, 2 the legacy one (123456789), 0 else. */
int nb_ip3_udp_is_connect(const uint8_t *p, size_t n);

/* The header into p; returns its length or -ENOSPC. */
int nb_ip3_udp_hdr_put(uint8_t *p, size_t n, int c64, uint32_t sec,
		       uint32_t usec, uint64_t count);

/* The header from p; returns its length or -EINVAL if n is too short. */
int nb_ip3_udp_hdr_get(const uint8_t *p, size_t n, int c64, uint32_t *sec,
		       uint32_t *usec, uint64_t *count);

/*
 * A UDP stream's receive side as iperf3 3.12 counts it (iperf_udp_recv):
 * packet_count is the highest count seen, cnt_error the gaps below it less
 * the datagrams that filled one late (so a duplicate can hide a loss, as
 * in iperf3), the jitter RFC 3550's estimate over transit times (arrival
 * minus the sender's stamp; a clock offset between the hosts cancels).
 * iperf3's results send bytes, packet_count as "packets", cnt_error as
 * "errors" and the jitter in seconds.  datagrams counts every one taken,
 * which iperf3 does not keep: the exact count, beside its estimate.
 */
struct nb_ip3_udp_rx {
	uint64_t bytes;	       /* UDP payload bytes taken */
	uint64_t datagrams;    /* datagrams taken */
	uint64_t packet_count; /* the highest count seen */
	int64_t cnt_error;     /* lost, as iperf3 counts it */
	uint64_t outoforder;   /* datagrams at or below packet_count */
	int64_t prev_transit_ns;
	double jitter_ns;
};

/*
 * One data datagram (its UDP payload of n bytes) that arrived at
 * arrival_ns (wall clock, ns) into s.  0, or -EINVAL (nothing counted)
 * when n is shorter than the header.
 */
int nb_ip3_udp_rx_take(struct nb_ip3_udp_rx *s, const uint8_t *payload,
		       size_t n, int c64, uint64_t arrival_ns);

/*
 * A UDP test's datagram size and bit rate for the tool's frames: *len the
 * UDP payload of a frame of frame_bytes (FCS included; IPv4; 802.1Q when
 * tagged), *bandwidth that payload's bits at pps_num / pps_den frames/s,
 * rounded (0: unlimited, as iperf3's -b 0).  -EINVAL when such a frame
 * has no room for iperf3's 64-bit header.
 */
int nb_ip3_udp_shape(uint32_t frame_bytes, int tagged, uint64_t pps_num,
		     uint64_t pps_den, uint32_t *len, uint64_t *bandwidth);

#endif /* NB_IPERF3_PROTO_H */
