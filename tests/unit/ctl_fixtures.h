/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the control-protocol tests share: random messages of every type, the
 * documented body lengths, exact-length encode and decode, field-by-field
 * comparison and the round trip (encode, decode, compare, re-encode).
 */
#ifndef CTL_FIXTURES_H
#define CTL_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "nb_ctl.h"

#define N_RANDOM    100000
#define N_MUTATIONS 100000
#define H	    NB_CTL_HDR_LEN

/* Random fields and messages, valid for their type. */
uint32_t rng_nonzero32(uint64_t *state);
/* Body length of each type as docs/protocol.md gives it. */
size_t doc_body_len(uint8_t type);
void rand_str(uint64_t *r, char *dst, size_t n);
void rand_bytes(uint64_t *r, uint8_t *dst, size_t n);
void rand_conf(uint64_t *r, struct nb_ctl_conf *c);
void rand_proof(uint64_t *r, struct nb_ctl_proof *q);
void rand_offload(uint64_t *r, struct nb_offload_plan *o);
void rand_macs(uint64_t *r, struct nb_ctl_macs *a);
void rand_params(uint64_t *r, struct nb_ctl_params *p);
void rand_offer(uint64_t *r, struct nb_ctl_offer *o, unsigned int n);
void rand_mesh(uint64_t *r, struct nb_ctl_params *p);
void rand_interval(uint64_t *r, struct nb_ctl_interval *v);
uint32_t doc_parts(uint32_t total);
uint16_t doc_chunk_len(uint32_t total, uint32_t part);
void rand_msg(uint64_t *r, uint8_t type, struct nb_ctl_msg *m);
void rand_tagged(uint64_t *r, uint8_t type, struct nb_ctl_msg *m);
uint8_t rand_type(uint64_t *r);
/* Encode into, and decode from, a buffer of exactly the message's length. */
uint8_t *encode_exact(const struct nb_ctl_msg *m, size_t *len);
int decode_exact(const uint8_t *bytes, size_t len, struct nb_ctl_msg *m);
/* Field by field: the decoded message is the one encoded. */
void compare_conf(const struct nb_ctl_conf *a, const struct nb_ctl_conf *b);
void compare_macs(const struct nb_ctl_macs *a, const struct nb_ctl_macs *b);
void compare_offload(const struct nb_offload_plan *a,
		     const struct nb_offload_plan *b);
void compare_proof(const struct nb_ctl_proof *a, const struct nb_ctl_proof *b);
void compare_params(const struct nb_ctl_params *a,
		    const struct nb_ctl_params *b);
void compare_msg(const struct nb_ctl_msg *a, const struct nb_ctl_msg *b);
/* Encode, decode, compare, and encode again to the same bytes. */
void check_reencode(const struct nb_ctl_msg *m, const uint8_t *bytes,
		    size_t len);
void roundtrip(const struct nb_ctl_msg *m);
/* A 16-byte header with these fields. */
void put_hdr(uint8_t *p, uint8_t type, uint16_t len, uint32_t session,
	     uint32_t seq);

/* A byte patch of the PARAMS body (offset in the body, width 1/2/4/8). */
struct patch {
	const char *what;
	size_t off;
	size_t width;
	uint64_t value;
};

/* A valid PARAMS message with room in both arrays. */
void base_params(struct nb_ctl_msg *m);
void apply_patch(uint8_t *body, const struct patch *p);

#endif /* CTL_FIXTURES_H */
