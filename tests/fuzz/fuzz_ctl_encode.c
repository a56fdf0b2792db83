/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the control-message encoder (nb_ctl_encode) against the
 * decoder.
 *
 * The input is a message as the caller holds it: byte 0 the type (its
 * bit 0x80, as on the wire, asks for a tag: tagged, with the tag bytes
 * 0xa5), bytes 1-4 the session, 5-8 the seq (big endian), the rest the
 * raw bytes of the body union (struct nb_ctl_msg's u, zero-filled past
 * the input).  The
 * encoder must refuse it (-EINVAL) or produce bytes the decoder accepts
 * and that re-encode to themselves: a message one end may send is one the
 * other end takes.  The length is the header, the type's body and the
 * tag; a QUIT's padding (since version 9) is zeros.  The seeds are written by
 * nb-fuzz-seeds for the struct layout of the build; after a change to struct
 * nb_ctl_msg regenerate them (docs/fuzzing.md).
 */
#include <errno.h>

#include "nb_ctl.h"

#include "nb_fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_fuzz_in in = {data, size};
	uint8_t a[NB_CTL_MAX_LEN], b[NB_CTL_MAX_LEN];
	struct nb_ctl_msg m, d;
	uint8_t t;
	int n, k, i;

	memset(&m, 0, sizeof(m));
	t = nb_fuzz_u8(&in);
	m.type = t & (uint8_t)~NB_CTL_F_TAG;
	m.tagged = (t & NB_CTL_F_TAG) != 0;
	if (m.tagged)
		memset(m.tag, 0xa5, sizeof(m.tag));
	m.session = nb_fuzz_u32(&in);
	m.seq = nb_fuzz_u32(&in);
	memcpy(&m.u, in.p, in.n < sizeof(m.u) ? in.n : sizeof(m.u));

	n = nb_ctl_encode(&m, a, sizeof(a));
	NB_FUZZ_CHECK(n > 0 || n == -EINVAL);
	if (n < 0)
		return 0;
	NB_FUZZ_CHECK(n >= NB_CTL_HDR_LEN && n <= NB_CTL_MAX_LEN);
	NB_FUZZ_CHECK(nb_ctl_encoded_len(&m) == n);
	NB_FUZZ_CHECK(a[5] == t);
	if (m.tagged)
		for (i = n - NB_CTL_TAG_LEN; i < n; i++)
			NB_FUZZ_CHECK(a[i] == 0xa5);
	if (m.type == NB_CTL_QUIT) {
		NB_FUZZ_CHECK(n == NB_CTL_HDR_LEN + NB_CTL_QUIT_LEN +
					   (m.tagged ? NB_CTL_TAG_LEN : 0));
		for (i = NB_CTL_HDR_LEN + NB_CTL_PROOF_LEN;
		     i < NB_CTL_HDR_LEN + NB_CTL_QUIT_LEN; i++)
			NB_FUZZ_CHECK(a[i] == 0);
	}

	memset(&d, 0xa5, sizeof(d));
	k = nb_ctl_decode(a, (size_t)n, &d);
	if (k != 0) {
		fprintf(stderr, "the decoder rejects an encoded %s: %s\n",
			nb_ctl_type_name(m.type), nb_ctl_strerror(k));
		abort();
	}
	NB_FUZZ_CHECK(d.type == m.type && d.session == m.session &&
		      d.seq == m.seq && d.tagged == m.tagged);
	if (m.tagged)
		NB_FUZZ_CHECK(memcmp(d.tag, m.tag, NB_CTL_TAG_LEN) == 0);
	k = nb_ctl_encode(&d, b, sizeof(b));
	NB_FUZZ_CHECK(k == n && memcmp(a, b, (size_t)n) == 0);
	return 0;
}
