/* SPDX-License-Identifier: BSD-3-Clause */
/* --capture's writer: see nb_capture.h and worker/nb_capture_tap.h. */
#include <errno.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "nb_capture_tap.h"
#include "nb_capture.h"
#include "nb_port.h"
#include "nb_tsc.h"

/* Copies in flight: the ring, plus what each worker's cache may hold. */
#define CAP_RING 4096
#define CAP_POOL 8191
/* A copy's data room; longer frames take chained segments. */
#define CAP_ROOM  2048
#define CAP_BURST 64

static struct {
	struct nb_capture_spec spec;
	pcap_t *pcap;
	pcap_dumper_t *dump;
	struct nb_capture cap;
	pthread_t thread;
	int running;
	volatile int stop;
	/* the writer's counters (it alone writes them) */
	/* done: frames dealt with (written, past count=, or lost) */
	volatile uint64_t written, done;
	/* frames given to libpcap since its last good flush; frames lost
	 * to a write error, and the error (sticky: a full disk) */
	uint64_t pending;
	volatile uint64_t unwritten;
	volatile int werr;
	/* wall clock at tsc0 */
	uint64_t tsc0, wall0_ns;
	uint8_t buf[NB_CAP_SNAPLEN_MAX];
} w;

int
nb_capture_open(const struct nb_capture_spec *spec, char *err, size_t errlen)
{
	w.spec = *spec;
	w.pcap = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, (int)spec->snaplen, PCAP_TSTAMP_PRECISION_NANO);
	if (w.pcap == NULL) {
		snprintf(err, errlen, "--capture: libpcap cannot start");
		return -ENOMEM;
	}
	w.dump = pcap_dump_open(w.pcap, spec->path);
	if (w.dump == NULL) {
		snprintf(err, errlen, "cannot open --capture %s: %s",
			 spec->path, pcap_geterr(w.pcap));
		pcap_close(w.pcap);
		w.pcap = NULL;
		return -EIO;
	}
	return 0;
}

/*
 * The file failed (ENOSPC, EIO): what libpcap holds since the last good
 * flush is lost with it, and so is every frame after (never waited for:
 * the workers' copies keep coming and are freed at once).
 */
static void
write_failed(void)
{
	if (w.werr == 0)
		w.werr = errno ? errno : EIO;
	w.unwritten += w.pending;
	w.pending = 0;
}

/* Flush libpcap's buffer; the frames in it are written once it works. */
static void
flush_file(void)
{
	FILE *f = pcap_dump_file(w.dump);

	if (w.werr != 0)
		return;
	errno = 0;
	if (pcap_dump_flush(w.dump) != 0 || ferror(f)) {
		write_failed();
		return;
	}
	w.written += w.pending;
	w.pending = 0;
}

/* One copy to the file (or only counted once count= is reached). */
static void
write_one(struct rte_mbuf *x)
{
	const struct nb_capture_meta *meta = rte_mbuf_to_priv(x);
	uint64_t hz = nb_tsc_hz(), ns;
	struct pcap_pkthdr h;
	const void *data;

	if (w.werr != 0) {
		w.unwritten++;
		return;
	}
	if (w.spec.count && w.written + w.pending >= w.spec.count) {
		w.cap.full = 1;
		return;
	}
	ns = w.wall0_ns + (uint64_t)((unsigned __int128)(meta->tsc - w.tsc0) *
				     1000000000u / hz);
	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(ns / 1000000000u);
	/* a nanosecond pcap keeps nanoseconds in tv_usec */
	h.ts.tv_usec = (suseconds_t)(ns % 1000000000u);
	h.caplen = x->pkt_len;
	h.len = meta->orig_len;
	data = rte_pktmbuf_read(x, 0, x->pkt_len, w.buf);
	errno = 0;
	if (data != NULL)
		pcap_dump((u_char *)w.dump, &h, data);
	w.pending++;
	/* libpcap's buffer went to the file and failed */
	if (ferror(pcap_dump_file(w.dump)))
		write_failed();
	if (w.spec.count && w.written + w.pending >= w.spec.count)
		w.cap.full = 1;
}

static unsigned int
drain(void)
{
	struct rte_mbuf *m[CAP_BURST];
	unsigned int n, i, total = 0;

	do {
		n = rte_ring_sc_dequeue_burst(w.cap.ring, (void **)m, CAP_BURST,
					      NULL);
		for (i = 0; i < n; i++)
			write_one(m[i]);
		if (n)
			rte_pktmbuf_free_bulk(m, n);
		total += n;
	} while (n == CAP_BURST);
	/* done after the flush: nb_capture_sync reads written after it */
	if (total) {
		flush_file();
		w.done += total;
	}
	return total;
}

static void *
writer_main(void *arg)
{
	const struct timespec nap = {0, 1000000};

	(void)arg;
	while (!w.stop) {
		if (drain() == 0)
			nanosleep(&nap, NULL);
	}
	drain();
	flush_file();
	return NULL;
}

struct nb_capture *
nb_capture_start(char *err, size_t errlen)
{
	struct timespec ts;
	rte_cpuset_t cs;
	int ret;

	if (w.dump == NULL)
		return NULL;
	w.cap.every = w.spec.every;
	w.cap.snaplen = w.spec.snaplen;
	w.cap.pool = nb_copy_pool_create("nb_capture", CAP_POOL,
					 sizeof(struct nb_capture_meta),
					 CAP_ROOM, (int)rte_socket_id());
	w.cap.ring = rte_ring_create("nb_capture", CAP_RING,
				     (int)rte_socket_id(), RING_F_SC_DEQ);
	if (w.cap.pool == NULL || w.cap.ring == NULL) {
		snprintf(err, errlen,
			 "--capture: no hugepage memory for its pool and "
			 "ring: %s (see hugepages.md)",
			 rte_strerror(rte_errno));
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	w.tsc0 = rte_rdtsc();
	w.wall0_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	ret = rte_ctrl_thread_create(&w.thread, "nb-capture", NULL, writer_main,
				     NULL);
	if (ret != 0) {
		snprintf(err, errlen, "--capture: no writer thread: %s",
			 strerror(ret < 0 ? -ret : ret));
		return NULL;
	}
	w.running = 1;
	/*
	 * Beside the control lcore, which sleeps too, rather than on EAL's
	 * control-thread CPUs (those no lcore of this process uses): on a
	 * small host they may be another process's busy worker, and a
	 * thread waking there 1000 times a second was seen to stall a peer
	 * test's control exchange (the client's worker shared the CPU).
	 */
	cs = rte_lcore_cpuset(rte_get_main_lcore());
	pthread_setaffinity_np(w.thread, sizeof(cs), &cs);
	return &w.cap;
}

static void
counts(const struct nb_jobs *js, struct nb_capture_counts *c)
{
	unsigned int i;

	c->taken = js->cap_taken;
	c->dropped = js->cap_dropped;
	for (i = 0; i < js->nb_rx; i++) {
		c->taken += js->rx[i]->cap.taken;
		c->dropped += js->rx[i]->cap.dropped;
	}
	c->written = w.written;
	c->unwritten = w.unwritten;
	c->write_errno = w.werr;
}

int
nb_capture_write_error(uint64_t *unwritten)
{
	*unwritten = w.unwritten;
	return w.werr;
}

void
nb_capture_sync(const struct nb_jobs *js, struct nb_capture_counts *c)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 5;
	const struct timespec nap = {0, 1000000};

	counts(js, c);
	while (w.running && w.done < c->taken && rte_get_tsc_cycles() < end)
		nanosleep(&nap, NULL);
	c->written = w.written;
	c->unwritten = w.unwritten;
	c->write_errno = w.werr;
}

void
nb_capture_close(const struct nb_jobs *js, struct nb_capture_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (w.dump == NULL)
		return;
	if (w.running) {
		w.stop = 1;
		pthread_join(w.thread, NULL);
		w.running = 0;
	}
	if (w.cap.ring != NULL)
		drain();
	flush_file();
	counts(js, c);
	pcap_dump_close(w.dump);
	pcap_close(w.pcap);
	w.dump = NULL;
	w.pcap = NULL;
	rte_ring_free(w.cap.ring);
	rte_mempool_free(w.cap.pool);
	w.cap.ring = NULL;
	w.cap.pool = NULL;
}
