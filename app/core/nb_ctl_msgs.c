/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The message table (see nb_ctl_msgs.h): each type's name, body length,
 * check, writer and reader.  The short bodies are here, with INTERVAL's
 * and the RESULTS chunk's; the setup messages' are in nb_ctl_setup.c.
 */
#include <errno.h>
#include <string.h>

#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_ctl_wire.h"

static inline int
has_code(uint16_t code)
{
	return code >= 1 && code < NB_CTL_CODE_MAX;
}

/* BUSY: the session asked for, and why not now. */
static int
busy_check(const struct nb_ctl_msg *m)
{
	return m->u.busy.asked_session == 0 ||
			       !has_nul(m->u.busy.reason,
					sizeof(m->u.busy.reason))
		       ? -EINVAL
		       : 0;
}

static void
busy_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u32(p, m->u.busy.asked_session);
	wr_str(p, m->u.busy.reason, sizeof(m->u.busy.reason));
}

static int
busy_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.busy.asked_session = rd_u32(p);
	return rd_str(p, m->u.busy.reason, sizeof(m->u.busy.reason));
}

/* REJECT and ERROR: a code and a reason, the same layout. */
_Static_assert(sizeof(((struct nb_ctl_reject *)0)->reason) ==
			       NB_CTL_REASON_STR &&
		       sizeof(((struct nb_ctl_error *)0)->reason) ==
			       NB_CTL_REASON_STR,
	       "REJECT and ERROR carry one reason field");

static int
code_reason_check(uint16_t code, const char *reason)
{
	return has_code(code) && has_nul(reason, NB_CTL_REASON_STR) ? 0
								    : -EINVAL;
}

static void
code_reason_write(uint8_t **p, uint16_t code, const char *reason)
{
	wr_u16(p, code);
	wr_str(p, reason, NB_CTL_REASON_STR);
}

static int
code_reason_read(const uint8_t **p, uint16_t *code, char *reason)
{
	*code = rd_u16(p);
	return rd_str(p, reason, NB_CTL_REASON_STR);
}

static int
reject_check(const struct nb_ctl_msg *m)
{
	return code_reason_check(m->u.reject.code, m->u.reject.reason);
}

static void
reject_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	code_reason_write(p, m->u.reject.code, m->u.reject.reason);
}

static int
reject_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	return code_reason_read(p, &m->u.reject.code, m->u.reject.reason);
}

static int
error_check(const struct nb_ctl_msg *m)
{
	return code_reason_check(m->u.error.code, m->u.error.reason);
}

static void
error_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	code_reason_write(p, m->u.error.code, m->u.error.reason);
}

static int
error_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	return code_reason_read(p, &m->u.error.code, m->u.error.reason);
}

/* START: the delay before sending, and the receiver's clock offset. */
static int
start_check(const struct nb_ctl_msg *m)
{
	return m->u.start.delay_ms > NB_CTL_MAX_START_DELAY_MS ? -EINVAL : 0;
}

static void
start_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u32(p, m->u.start.delay_ms);
	wr_u64(p, (uint64_t)m->u.start.rx_offset_ns);
}

static int
start_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.start.delay_ms = rd_u32(p);
	m->u.start.rx_offset_ns = (int64_t)rd_u64(p);
	return 1;
}

/* KEEPALIVE: the sender's time, and the echo of the other end's. */
static int
keepalive_check(const struct nb_ctl_msg *m)
{
	return m->u.ka.echo_ns == 0 && m->u.ka.echo_delay_ns != 0 ? -EINVAL : 0;
}

static void
keepalive_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u64(p, m->u.ka.sender_ns);
	wr_u64(p, m->u.ka.echo_ns);
	wr_u64(p, m->u.ka.echo_delay_ns);
}

static int
keepalive_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.ka.sender_ns = rd_u64(p);
	m->u.ka.echo_ns = rd_u64(p);
	m->u.ka.echo_delay_ns = rd_u64(p);
	return 1;
}

/* RESULTS_REQ: the part asked for. */
static void
rreq_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u32(p, m->u.rreq.part);
}

static int
rreq_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.rreq.part = rd_u32(p);
	return 1;
}

uint32_t
nb_ctl_results_parts(uint32_t total_len)
{
	if (total_len == 0)
		return 1;
	return (uint32_t)(((uint64_t)total_len + NB_CTL_CHUNK - 1) /
			  NB_CTL_CHUNK);
}

/* The chunk length part `part` of a total_len blob must have. */
static uint32_t
results_chunk_len(uint32_t total_len, uint32_t part)
{
	uint64_t off = (uint64_t)part * NB_CTL_CHUNK;
	uint64_t left = total_len > off ? total_len - off : 0;

	return (uint32_t)(left < NB_CTL_CHUNK ? left : NB_CTL_CHUNK);
}

/* A chunk's place in its blob: the part, the count, the length. */
static int
chunk_check(const struct nb_ctl_results *r)
{
	if (r->nb_parts != nb_ctl_results_parts(r->total_len) ||
	    r->part >= r->nb_parts ||
	    r->chunk_len != results_chunk_len(r->total_len, r->part))
		return -EINVAL;
	return 0;
}

static int
results_check(const struct nb_ctl_msg *m)
{
	return chunk_check(&m->u.res);
}

int
nb_ctl_results_chunk(struct nb_ctl_msg *m, const uint8_t *blob,
		     size_t total_len, uint32_t part)
{
	uint32_t clen;

	if (m == NULL || (blob == NULL && total_len != 0) ||
	    total_len > UINT32_MAX ||
	    part >= nb_ctl_results_parts((uint32_t)total_len))
		return -EINVAL;
	clen = results_chunk_len((uint32_t)total_len, part);
	m->type = NB_CTL_RESULTS;
	memset(&m->u.res, 0, sizeof(m->u.res));
	m->u.res.part = part;
	m->u.res.nb_parts = nb_ctl_results_parts((uint32_t)total_len);
	m->u.res.total_len = (uint32_t)total_len;
	m->u.res.chunk_len = (uint16_t)clen;
	if (clen > 0)
		memcpy(m->u.res.chunk, blob + (size_t)part * NB_CTL_CHUNK,
		       clen);
	return 0;
}

int
nb_ctl_results_put(uint8_t *blob, size_t cap, const struct nb_ctl_results *r)
{
	if (r == NULL || (blob == NULL && cap != 0))
		return -EINVAL;
	if (chunk_check(r) != 0)
		return -EPROTO;
	if (r->total_len > cap)
		return -ENOSPC;
	if (r->chunk_len > 0)
		memcpy(blob + (size_t)r->part * NB_CTL_CHUNK, r->chunk,
		       r->chunk_len);
	return 0;
}

/* RESULTS: which part of how many, of a blob of total_len, and the chunk. */
static void
results_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u32(p, m->u.res.part);
	wr_u32(p, m->u.res.nb_parts);
	wr_u32(p, m->u.res.total_len);
	wr_u16(p, m->u.res.chunk_len);
	wr_bytes(p, m->u.res.chunk, m->u.res.chunk_len);
}

static int
results_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.res.part = rd_u32(p);
	m->u.res.nb_parts = rd_u32(p);
	m->u.res.total_len = rd_u32(p);
	m->u.res.chunk_len = rd_u16(p);
	rd_bytes(p, m->u.res.chunk, m->u.res.chunk_len);
	return 1;
}

/* QUIT: the proof, then zero padding (one canonical form). */
static void
quit_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	nb_ctl_wr_proof(p, &m->u.quit);
	memset(*p, 0, NB_CTL_QUIT_PAD);
	*p += NB_CTL_QUIT_PAD;
}

static int
quit_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	int i, ok = 1;

	nb_ctl_rd_proof(p, &m->u.quit);
	for (i = 0; i < NB_CTL_QUIT_PAD; i++)
		ok &= rd_u8(p) == 0;
	return ok;
}

/* DONE: flags. */
static int
done_check(const struct nb_ctl_msg *m)
{
	return m->u.done.flags & ~NB_CTL_DONE_F_LEAVING ? -EINVAL : 0;
}

static void
done_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	wr_u32(p, m->u.done.flags);
}

static int
done_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	m->u.done.flags = rd_u32(p);
	return 1;
}

/* The interval's u64 fields after its times, in wire order. */
#define IV_U64(f) offsetof(struct nb_ctl_interval, f)
static const uint16_t iv_u64[] = {
	IV_U64(tx_pkts),    IV_U64(tx_bytes),	IV_U64(rx_pkts),
	IV_U64(rx_bytes),   IV_U64(lost),	IV_U64(out_of_order),
	IV_U64(duplicates), IV_U64(jitter_ps),	IV_U64(lat_count),
	IV_U64(lat_p50_ns), IV_U64(lat_p99_ns), IV_U64(lat_max_ns)};
#define IVS_U64(f) offsetof(struct nb_ctl_iv_stream, f)
static const uint16_t ivs_u64[] = {IVS_U64(tx_pkts),	IVS_U64(tx_bytes),
				   IVS_U64(rx_pkts),	IVS_U64(rx_bytes),
				   IVS_U64(lost),	IVS_U64(out_of_order),
				   IVS_U64(duplicates), IVS_U64(jitter_ps)};
_Static_assert(28 + 8 * sizeof(iv_u64) / sizeof(iv_u64[0]) +
				       NB_CTL_IV_STREAMS * 8 * sizeof(ivs_u64) /
					       sizeof(ivs_u64[0]) ==
			       NB_CTL_INTERVAL_LEN &&
		       NB_CTL_IV_STREAM_LEN ==
			       8 * sizeof(ivs_u64) / sizeof(ivs_u64[0]),
	       "INTERVAL wire layout");

static int
interval_check(const struct nb_ctl_msg *m)
{
	const struct nb_ctl_interval *v = &m->u.iv;
	uint32_t end = (uint32_t)v->first + v->count;
	int last = (v->flags & NB_CTL_IV_F_LAST) != 0;

	if ((v->flags & ~(NB_CTL_IV_F_OMITTED | NB_CTL_IV_F_LAST)) != 0 ||
	    v->count > NB_CTL_IV_STREAMS || v->nb_streams < 1 ||
	    v->nb_streams > NB_CTL_MAX_STREAMS || end > v->nb_streams ||
	    last != (end == v->nb_streams ||
		     (v->flags & NB_CTL_IV_F_OMITTED)) ||
	    ((v->flags & NB_CTL_IV_F_OMITTED) &&
	     (v->count != 0 || v->first != 0 || !last)) ||
	    (!(v->flags & NB_CTL_IV_F_OMITTED) && v->count == 0) ||
	    v->start_ns > v->end_ns)
		return -EINVAL;
	return 0;
}

static void
interval_write(uint8_t **p, const struct nb_ctl_msg *m)
{
	const struct nb_ctl_interval *v = &m->u.iv;
	uint32_t i;

	wr_u32(p, v->index);
	wr_u8(p, v->flags);
	wr_u8(p, 0);
	wr_u16(p, v->first);
	wr_u16(p, v->count);
	wr_u16(p, v->nb_streams);
	wr_u64(p, v->start_ns);
	wr_u64(p, v->end_ns);
	wr_u64_fields(p, v, iv_u64, NB_ELEMS(iv_u64));
	for (i = 0; i < NB_CTL_IV_STREAMS; i++) {
		static const struct nb_ctl_iv_stream zero;

		wr_u64_fields(p, i < v->count ? &v->s[i] : &zero, ivs_u64,
			      NB_ELEMS(ivs_u64));
	}
}

static int
interval_read(const uint8_t **p, struct nb_ctl_msg *m)
{
	struct nb_ctl_interval *v = &m->u.iv;
	uint32_t i;
	int ok;

	v->index = rd_u32(p);
	v->flags = rd_u8(p);
	ok = rd_u8(p) == 0;
	v->first = rd_u16(p);
	v->count = rd_u16(p);
	v->nb_streams = rd_u16(p);
	v->start_ns = rd_u64(p);
	v->end_ns = rd_u64(p);
	rd_u64_fields(p, v, iv_u64, NB_ELEMS(iv_u64));
	for (i = 0; i < NB_CTL_IV_STREAMS; i++)
		if (rd_u64_fields(p, &v->s[i], ivs_u64, NB_ELEMS(ivs_u64)) &&
		    i >= v->count)
			ok = 0; /* a slot past count is not zero */
	return ok;
}

#define KIND(t, len, chk, wr, rd) [NB_CTL_##t] = {#t, len, chk, wr, rd}

/* STOP and ACK have no body; RESULTS_REQ, STOP, QUIT and ACK nothing to
 * check (a QUIT's proof is nb_auth's to judge). */
const struct nb_ctl_kind nb_ctl_kinds[NB_CTL_TYPE_MAX] = {
	KIND(HELLO, NB_CTL_CONF_LEN, nb_ctl_conf_check, nb_ctl_conf_write,
	     nb_ctl_conf_read),
	KIND(WELCOME, NB_CTL_CONF_LEN, nb_ctl_conf_check, nb_ctl_conf_write,
	     nb_ctl_conf_read),
	KIND(BUSY, NB_CTL_BUSY_LEN, busy_check, busy_write, busy_read),
	KIND(PARAMS, NB_CTL_PARAMS_LEN, nb_ctl_params_check,
	     nb_ctl_params_write, nb_ctl_params_read),
	KIND(ACCEPT, NB_CTL_ACCEPT_LEN, nb_ctl_accept_check,
	     nb_ctl_accept_write, nb_ctl_accept_read),
	KIND(REJECT, NB_CTL_REJECT_LEN, reject_check, reject_write,
	     reject_read),
	KIND(START, NB_CTL_START_LEN, start_check, start_write, start_read),
	KIND(KEEPALIVE, NB_CTL_KEEPALIVE_LEN, keepalive_check, keepalive_write,
	     keepalive_read),
	KIND(STOP, 0, NULL, NULL, NULL),
	KIND(RESULTS_REQ, NB_CTL_RESULTS_REQ_LEN, NULL, rreq_write, rreq_read),
	KIND(RESULTS, NB_CTL_RESULTS_FIXED_LEN, results_check, results_write,
	     results_read),
	KIND(DONE, NB_CTL_DONE_LEN, done_check, done_write, done_read),
	KIND(QUIT, NB_CTL_QUIT_LEN, NULL, quit_write, quit_read),
	KIND(ACK, 0, NULL, NULL, NULL),
	KIND(ERROR, NB_CTL_ERROR_LEN, error_check, error_write, error_read),
	KIND(INTERVAL, NB_CTL_INTERVAL_LEN, interval_check, interval_write,
	     interval_read),
};

/* names[i], or unknown when i is out of range or has no name. */
static const char *
name_of(const char *const *names, unsigned int nb, unsigned int i,
	const char *unknown)
{
	return i < nb && names[i] != NULL ? names[i] : unknown;
}

const char *
nb_ctl_type_name(uint8_t type)
{
	return type < NB_CTL_TYPE_MAX && nb_ctl_kinds[type].name != NULL
		       ? nb_ctl_kinds[type].name
		       : "UNKNOWN";
}

const char *
nb_ctl_code_name(uint16_t code)
{
	static const char *const names[NB_CTL_CODE_MAX] = {
		[NB_CTL_CODE_VERSION] = "version mismatch",
		[NB_CTL_CODE_MALFORMED] = "malformed message",
		[NB_CTL_CODE_STATE] = "unexpected message",
		[NB_CTL_CODE_SESSION] = "unknown session",
		[NB_CTL_CODE_PARAMS] = "parameters not acceptable",
		[NB_CTL_CODE_RESOURCES] = "not enough resources",
		[NB_CTL_CODE_PORT] = "port failure",
		[NB_CTL_CODE_TIMEOUT] = "peer timed out",
		[NB_CTL_CODE_INTERNAL] = "internal error",
		[NB_CTL_CODE_POLICY] = "refused by policy",
		[NB_CTL_CODE_AUTH] = "authentication failed",
	};

	return name_of(names, NB_CTL_CODE_MAX, code, "unknown");
}
