/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control message codec: the header every message has, its length,
 * and the body through the message table (nb_ctl_msgs.c).  See nb_ctl.h.
 *
 * Encoding and decoding share one validator (nb_ctl_check) that works on
 * the decoded struct.  The decoder additionally insists on the canonical
 * byte form the encoder produces (NUL padding after strings, zero unused
 * array slots), so decode followed by encode gives back the same bytes.
 * Lengths are checked once, before any body byte is read or written, so
 * the field readers and writers (nb_ctl_wire.h) need no bounds checks of
 * their own.
 */
#include <errno.h>
#include <string.h>

#include "nb_config.h"
#include "nb_ctl.h"
#include "nb_ctl_msgs.h"
#include "nb_ctl_wire.h"
#include "nb_frame.h"

_Static_assert(NB_CTL_MAX_LEN <= 1472 - NB_VLAN_HLEN,
	       "control messages must fit a 1518 B frame with a VLAN tag");
_Static_assert(NB_CTL_CONF_LEN == NB_CTL_VERSION_STR + NB_CTL_DPDK_STR +
					  NB_CTL_HOST_STR + NB_CTL_CPU_STR +
					  NB_CTL_OS_STR + NB_CTL_DRIVER_STR +
					  4 + 5 * 2 + 6 + 4 + NB_CTL_BOOT_STR +
					  8 + 4 + NB_CTL_NONCE + 4 +
					  NB_CTL_OFFER_LEN,
	       "nb_ctl_conf wire layout");
_Static_assert(NB_CTL_PARAMS_LEN == 1 + 1 + 2 + 4 + 2 + 2 * NB_CTL_MAX_SIZES +
					    2 + NB_CTL_MAX_PATTERN + 6 * 8 + 4 +
					    4 + 6 + 6 + 2 + 2 + 4 + 4 + 4 + 4 +
					    8 + 4 + NB_CTL_MACS_LEN +
					    NB_CTL_MESH_LEN + NB_CTL_PROOF_LEN,
	       "nb_ctl_params wire layout");
_Static_assert(sizeof(((struct nb_offload_plan *)0)->csum_why) ==
			       NB_CTL_WHY_STR &&
		       sizeof(((struct nb_offload_plan *)0)->rate_why) ==
			       NB_CTL_WHY_STR,
	       "ACCEPT carries the offload reasons whole");
_Static_assert(NB_CTL_RESULTS_HDR_LEN == 4 + 4 + 6 * 8 + 8 * 8 + 8 + 7 * 8 +
						 NB_IMPAIR_SPEC_LEN + 3 * 8,
	       "results header wire layout");
_Static_assert(NB_CTL_STREAM_RES_LEN == 4 + 9 * 8 + 5 * 8 + 2,
	       "stream results wire layout");
_Static_assert(NB_HIST_BUCKETS <= UINT16_MAX,
	       "bucket indices and counts travel as u16");
_Static_assert(NB_CTL_MAX_SIZES == NB_MAX_SIZES &&
		       NB_CTL_MAX_PATTERN == NB_MAX_PATTERN &&
		       NB_CTL_MAX_STREAMS == NB_MAX_STREAMS &&
		       NB_CTL_MAX_RX_QUEUES == NB_MAX_QUEUES,
	       "protocol limits follow the tool's limits");

void
nb_ctl_msg_init(struct nb_ctl_msg *m, uint8_t type, uint32_t session)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->session = session;
}

static inline int
type_known(uint8_t type)
{
	return type < NB_CTL_TYPE_MAX && nb_ctl_kinds[type].name != NULL;
}

/* Body length for m's type, or -EINVAL. */
static int
body_len(const struct nb_ctl_msg *m)
{
	if (!type_known(m->type))
		return -EINVAL;
	if (m->type == NB_CTL_RESULTS && m->u.res.chunk_len > NB_CTL_CHUNK)
		return -EINVAL;
	return nb_ctl_kinds[m->type].body_len +
	       (m->type == NB_CTL_RESULTS ? m->u.res.chunk_len : 0) +
	       (m->tagged ? NB_CTL_TAG_LEN : 0);
}

/* Everything the struct can show; 0 or -EINVAL. */
static int
nb_ctl_check(const struct nb_ctl_msg *m)
{
	if (m->session == 0 || m->seq == 0 || !type_known(m->type))
		return -EINVAL;
	if (nb_ctl_kinds[m->type].check == NULL)
		return 0;
	return nb_ctl_kinds[m->type].check(m);
}

int
nb_ctl_encoded_len(const struct nb_ctl_msg *m)
{
	int b;

	if (m == NULL)
		return -EINVAL;
	b = body_len(m);
	if (b < 0)
		return b;
	return NB_CTL_HDR_LEN + b;
}

int
nb_ctl_encode(const struct nb_ctl_msg *m, uint8_t *buf, size_t buflen)
{
	uint8_t *p = buf;
	int len;

	if (m == NULL || buf == NULL)
		return -EINVAL;
	len = nb_ctl_encoded_len(m);
	if (len < 0)
		return len;
	if (nb_ctl_check(m) != 0)
		return -EINVAL;
	if (buflen < (size_t)len)
		return -ENOSPC;

	wr_u32(&p, NB_CTL_MAGIC);
	wr_u8(&p, NB_CTL_VERSION);
	wr_u8(&p, (uint8_t)(m->type | (m->tagged ? NB_CTL_F_TAG : 0)));
	wr_u16(&p, (uint16_t)len);
	wr_u32(&p, m->session);
	wr_u32(&p, m->seq);
	if (nb_ctl_kinds[m->type].write != NULL)
		nb_ctl_kinds[m->type].write(&p, m);
	if (m->tagged)
		wr_bytes(&p, m->tag, NB_CTL_TAG_LEN);
	return len;
}

/* the type byte's place in the header (see nb_ctl.h) */
#define TYPE_AT 5

int
nb_ctl_peek_type(const uint8_t *buf, size_t len)
{
	if (buf == NULL || len <= TYPE_AT)
		return -1;
	return buf[TYPE_AT] & (uint8_t)~NB_CTL_F_TAG;
}

/* The header into m; 0, or -EPROTO / -EPROTONOSUPPORT. */
static int
decode_header(const uint8_t **p, size_t len, struct nb_ctl_msg *m)
{
	uint8_t version;
	uint16_t wire_len;

	if (len < NB_CTL_HDR_LEN || rd_u32(p) != NB_CTL_MAGIC)
		return -EPROTO;
	memset(m, 0, sizeof(*m));
	version = rd_u8(p);
	m->type = rd_u8(p);
	wire_len = rd_u16(p);
	m->session = rd_u32(p);
	m->seq = rd_u32(p);
	/* another version's type byte is handed back as it came */
	if (version != NB_CTL_VERSION)
		return -EPROTONOSUPPORT;
	m->tagged = (m->type & NB_CTL_F_TAG) != 0;
	m->type &= (uint8_t)~NB_CTL_F_TAG;
	return wire_len != len ? -EPROTO : 0;
}

int
nb_ctl_decode(const uint8_t *buf, size_t len, struct nb_ctl_msg *m)
{
	const uint8_t *p = buf;
	int expect, ret, ok = 1;

	if (m == NULL || (buf == NULL && len != 0))
		return -EINVAL;
	ret = decode_header(&p, len, m);
	if (ret != 0)
		return ret;
	/* RESULTS: the chunk length is in the body; read it first. */
	if (m->type == NB_CTL_RESULTS) {
		if (len < NB_CTL_HDR_LEN + NB_CTL_RESULTS_FIXED_LEN)
			return -EPROTO;
		m->u.res.chunk_len = nb_get_be16(buf + NB_CTL_HDR_LEN + 12);
	}
	expect = nb_ctl_encoded_len(m);
	if (expect < 0 || (size_t)expect != len)
		return -EPROTO;
	if (nb_ctl_kinds[m->type].read != NULL)
		ok = nb_ctl_kinds[m->type].read(&p, m);
	if (m->tagged)
		rd_bytes(&p, m->tag, NB_CTL_TAG_LEN);
	if (!ok || nb_ctl_check(m) != 0)
		return -EPROTO;
	return 0;
}

const char *
nb_ctl_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -EPROTO:
		return "malformed control message";
	case -EPROTONOSUPPORT:
		return "control protocol version mismatch";
	case -EINVAL:
		return "invalid control message";
	case -ENOSPC:
		return "buffer too small";
	case -EBUSY:
		return "a message is already awaiting acknowledgement";
	case -ETIMEDOUT:
		return "peer unreachable";
	case -EOVERFLOW:
		return "results too large";
	default:
		return "unknown control error";
	}
}
