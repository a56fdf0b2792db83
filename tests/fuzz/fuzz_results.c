/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the results blobs (nb_ctl_results_read, and for an input
 * that starts with "NBRT" the TCP one, nb_ctl_tcpres_read).
 *
 * The input is one whole blob.  When it reads, it must write back to the
 * same bytes (the layout has one encoding per content: buckets strictly
 * increasing, no zero counts), and cut into RESULTS messages (encode,
 * decode, nb_ctl_results_put) it must reassemble to the same bytes.  A
 * smaller stream array must give -ENOSPC.  The TCP blob: the same
 * write-back and -ENOSPC rules.
 */
#include <errno.h>

#include "nb_ctl.h"

#include "nb_fuzz.h"

#define MAX_STREAMS 64

static struct nb_ctl_stream_res *streams;
static uint8_t *wbuf, *rbuf;
static size_t wcap;

static struct nb_tcp_endsnap *conns;
static struct nb_ctl_tcp_hdr th;

static void
tcp_blob(const uint8_t *buf, size_t size)
{
	uint32_t n = 0xdeadbeef, n2;
	uint8_t *w;
	int r;

	if (conns == NULL) {
		conns = calloc(MAX_STREAMS, sizeof(*conns));
		if (conns == NULL)
			abort();
	}
	r = nb_ctl_tcpres_read(buf, size, &th, conns, MAX_STREAMS, &n);
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO || r == -ENOSPC);
	if (r != 0) {
		NB_FUZZ_CHECK(n == 0xdeadbeef);
		return;
	}
	NB_FUZZ_CHECK(n <= MAX_STREAMS);
	NB_FUZZ_CHECK(nb_ctl_tcpres_size(&th, n) == size);
	w = malloc(size);
	if (w == NULL)
		abort();
	NB_FUZZ_CHECK(nb_ctl_tcpres_write(&th, conns, n, w, size) == (int)size);
	if (memcmp(w, buf, size) != 0) {
		fprintf(stderr,
			"TCP results blob of %u connections writes "
			"back differently\n",
			n);
		abort();
	}
	NB_FUZZ_CHECK(nb_ctl_tcpres_write(&th, conns, n, w, size - 1) ==
		      -ENOSPC);
	free(w);
	if (n > 0) {
		n2 = 0xdeadbeef;
		NB_FUZZ_CHECK(nb_ctl_tcpres_read(buf, size, &th, conns, n - 1,
						 &n2) == -ENOSPC);
		NB_FUZZ_CHECK(n2 == 0xdeadbeef);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t msg[NB_CTL_MAX_LEN];
	struct nb_ctl_results_hdr h;
	struct nb_ctl_msg m, d;
	uint8_t *buf;
	uint32_t n = 0xdeadbeef, n2, parts, i;
	int r, len;

	if (streams == NULL) {
		streams = calloc(MAX_STREAMS, sizeof(*streams));
		if (streams == NULL)
			abort();
	}
	buf = nb_fuzz_dup(data, size);
	if (size >= 4 && memcmp(buf, "NBRT", 4) == 0) {
		tcp_blob(buf, size);
		goto out;
	}
	r = nb_ctl_results_read(buf, size, &h, streams, MAX_STREAMS, &n);
	NB_FUZZ_CHECK(r == 0 || r == -EPROTO || r == -ENOSPC);
	if (r != 0) {
		NB_FUZZ_CHECK(n == 0xdeadbeef); /* untouched on failure */
		goto out;
	}
	NB_FUZZ_CHECK(n <= MAX_STREAMS);

	/* Write back: same size, same bytes. */
	NB_FUZZ_CHECK(nb_ctl_results_size(streams, n) == size);
	if (wcap < size) {
		free(wbuf);
		free(rbuf);
		wcap = size;
		wbuf = malloc(wcap);
		rbuf = malloc(wcap);
		if (wbuf == NULL || rbuf == NULL)
			abort();
	}
	len = nb_ctl_results_write(&h, streams, n, wbuf, size);
	NB_FUZZ_CHECK(len == (int)size);
	if (memcmp(wbuf, buf, size) != 0) {
		fprintf(stderr,
			"results blob of %u streams writes back "
			"differently\n",
			n);
		abort();
	}
	NB_FUZZ_CHECK(nb_ctl_results_write(&h, streams, n, wbuf, size - 1) ==
		      -ENOSPC);

	/* Fewer slots than streams: -ENOSPC. */
	if (n > 0) {
		n2 = 0xdeadbeef;
		NB_FUZZ_CHECK(nb_ctl_results_read(buf, size, &h, streams, n - 1,
						  &n2) == -ENOSPC);
		NB_FUZZ_CHECK(n2 == 0xdeadbeef);
	}

	/* Through RESULTS messages and back. */
	parts = nb_ctl_results_parts((uint32_t)size);
	NB_FUZZ_CHECK(parts >= 1);
	memset(rbuf, 0, size);
	for (i = 0; i < parts; i++) {
		nb_ctl_msg_init(&m, NB_CTL_RESULTS, 0x1234);
		m.seq = i + 1;
		NB_FUZZ_CHECK(nb_ctl_results_chunk(&m, buf, size, i) == 0);
		len = nb_ctl_encode(&m, msg, sizeof(msg));
		NB_FUZZ_CHECK(len > 0);
		NB_FUZZ_CHECK(nb_ctl_decode(msg, (size_t)len, &d) == 0);
		NB_FUZZ_CHECK(d.type == NB_CTL_RESULTS);
		NB_FUZZ_CHECK(nb_ctl_results_put(rbuf, size, &d.u.res) == 0);
		if (size > 0)
			NB_FUZZ_CHECK(nb_ctl_results_put(rbuf, size - 1,
							 &d.u.res) == -ENOSPC);
	}
	NB_FUZZ_CHECK(nb_ctl_results_chunk(&m, buf, size, parts) == -EINVAL);
	NB_FUZZ_CHECK(memcmp(rbuf, buf, size) == 0);
out:
	free(buf);
	return 0;
}
