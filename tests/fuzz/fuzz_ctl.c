/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the control-message decoder (nb_ctl_decode).
 *
 * The input is one datagram payload.  nb_ctl.h promises that the decoder
 * accepts exactly the byte strings the encoder produces, so an accepted
 * message must re-encode to the same bytes (and to no fewer: a buffer one
 * byte short is refused untouched).  A decoded RESULTS chunk is also put
 * into a reassembly buffer.  Any other outcome than 0, -EPROTO or
 * -EPROTONOSUPPORT is a failure.
 */
#include <errno.h>

#include "nb_ctl.h"
#include "nb_frame.h"

#include "nb_fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t blob[4 * NB_CTL_CHUNK];
	uint8_t out[NB_CTL_MAX_LEN + 16], *buf = nb_fuzz_dup(data, size);
	struct nb_ctl_msg m;
	int r, n;

	/* Garbage in every field the decoder should set. */
	memset(&m, 0xa5, sizeof(m));
	r = nb_ctl_decode(buf, size, &m);
	if (r == -EPROTONOSUPPORT) {
		/* magic right, version wrong: the header fields are filled */
		NB_FUZZ_CHECK(size >= NB_CTL_HDR_LEN);
		NB_FUZZ_CHECK(nb_get_be32(buf) == NB_CTL_MAGIC);
		NB_FUZZ_CHECK(buf[4] != NB_CTL_VERSION);
		NB_FUZZ_CHECK(m.type == buf[5]);
		NB_FUZZ_CHECK(m.session == nb_get_be32(buf + 8));
		NB_FUZZ_CHECK(m.seq == nb_get_be32(buf + 12));
		goto out;
	}
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO);
	if (r != 0)
		goto out;

	NB_FUZZ_CHECK(m.session != 0 && m.seq != 0);
	NB_FUZZ_CHECK(m.type >= NB_CTL_HELLO && m.type < NB_CTL_TYPE_MAX);
	NB_FUZZ_CHECK(strcmp(nb_ctl_type_name(m.type), "UNKNOWN") != 0);
	NB_FUZZ_CHECK(nb_ctl_encoded_len(&m) == (int)size);
	NB_FUZZ_CHECK(buf[4] == NB_CTL_VERSION);
	NB_FUZZ_CHECK(m.tagged == ((buf[5] & NB_CTL_F_TAG) != 0));
	if (m.type == NB_CTL_QUIT) {
		/* version 9: the proof, then zeros only */
		size_t i;

		for (i = NB_CTL_HDR_LEN + NB_CTL_PROOF_LEN;
		     i < NB_CTL_HDR_LEN + NB_CTL_QUIT_LEN; i++)
			NB_FUZZ_CHECK(buf[i] == 0);
	}

	memset(out, 0x5a, sizeof(out));
	n = nb_ctl_encode(&m, out, sizeof(out));
	NB_FUZZ_CHECK(n == (int)size);
	if (memcmp(out, buf, size) != 0) {
		fprintf(stderr, "re-encoded %s differs from the input\n",
			nb_ctl_type_name(m.type));
		abort();
	}

	/* One byte short: -ENOSPC and the buffer untouched. */
	memset(out, 0x5a, sizeof(out));
	n = nb_ctl_encode(&m, out, size - 1);
	NB_FUZZ_CHECK(n == -ENOSPC);
	NB_FUZZ_CHECK(out[0] == 0x5a && out[size - 1] == 0x5a);

	if (m.type == NB_CTL_RESULTS) {
		r = nb_ctl_results_put(blob, sizeof(blob), &m.u.res);
		NB_FUZZ_CHECK(r == 0 || r == -ENOSPC);
		NB_FUZZ_CHECK((r == -ENOSPC) ==
			      (m.u.res.total_len > sizeof(blob)));
		if (r == 0)
			NB_FUZZ_CHECK(memcmp(blob + (size_t)m.u.res.part *
							     NB_CTL_CHUNK,
					     m.u.res.chunk,
					     m.u.res.chunk_len) == 0);
	}
	if (m.type == NB_CTL_REJECT)
		(void)nb_ctl_code_name(m.u.reject.code);
	if (m.type == NB_CTL_ERROR)
		(void)nb_ctl_code_name(m.u.error.code);
out:
	(void)nb_ctl_strerror(r);
	free(buf);
	return 0;
}
