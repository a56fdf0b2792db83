/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 2889 5.9's errored frames: see nb_rfc2889_err.h. */
#include <string.h>

#include "nb_frame.h"
#include "nb_rfc2889_err.h"

#define ERR_ETHERTYPE 0x88b5
#define ERR_MARK      "nbench-err"
#define ERR_MARK_LEN  (sizeof(ERR_MARK) - 1)
#define ERR_HDR	      (14 + ERR_MARK_LEN + 1 + 4)

static const struct {
	const char *name;
	uint32_t wire; /* with the 4-byte FCS */
} kinds[NB_ERR_KINDS] = {
	[NB_ERR_UNDERSIZE] = {"undersize", 60},
	[NB_ERR_OVERSIZE] = {"oversize", 1519},
};

const char *
nb_err_name(int kind)
{
	return kind >= 0 && kind < NB_ERR_KINDS ? kinds[kind].name : "?";
}

uint32_t
nb_err_wire_len(int kind)
{
	return kind >= 0 && kind < NB_ERR_KINDS ? kinds[kind].wire : 0;
}

int
nb_err_frame(uint8_t *buf, size_t cap, int kind, const uint8_t src[6],
	     const uint8_t dst[6], uint32_t seq)
{
	size_t len = nb_err_wire_len(kind) - 4;

	if (kind < 0 || kind >= NB_ERR_KINDS || cap < len)
		return -1;
	memset(buf, 0, len);
	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	nb_put_be16(buf + 12, ERR_ETHERTYPE);
	memcpy(buf + 14, ERR_MARK, ERR_MARK_LEN);
	buf[14 + ERR_MARK_LEN] = (uint8_t)kind;
	nb_put_be32(buf + 15 + ERR_MARK_LEN, seq);
	return (int)len;
}

int
nb_err_match(const uint8_t *buf, size_t len)
{
	uint8_t kind;

	if (len < ERR_HDR || nb_get_be16(buf + 12) != ERR_ETHERTYPE ||
	    memcmp(buf + 14, ERR_MARK, ERR_MARK_LEN) != 0)
		return -1;
	kind = buf[14 + ERR_MARK_LEN];
	return kind < NB_ERR_KINDS ? kind : -1;
}
