/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fake under pmd_glue's seam (nb_fake_port.h).  Each __wrap_NAME
 * replaces NAME at link time (-Wl,--wrap=NAME): it calls __real_NAME
 * unless fake_on is set (Pacemaker's switch), which every test here sets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "nb_fake_port.h"
#include "nb_options.h"
#include "nb_pool.h"
#include "nb_port.h"
#include "nb_session.h"
#include "nb_setup.h"

uint64_t fake_now_ns;
struct fake_frame fake_sent[FAKE_FRAMES];
unsigned int fake_nsent;
void (*fake_on_tx)(const struct fake_frame *f);
void (*fake_on_nap)(void);
uint8_t fake_mac[6] = {0x02, 0, 0, 0, 0, 0x01};
static int fake_on = 1;

/* Frames waiting to be received. */
static struct fake_frame rxq[FAKE_FRAMES];
static unsigned int rx_head, rx_n;

/* --- a mempool without EAL: a stack of mbufs behind driver ops --- */

#define MBUF_ROOM (RTE_PKTMBUF_HEADROOM + 2048)

static struct {
	struct rte_mempool mp;
	struct rte_pktmbuf_pool_private priv;
} pool __rte_cache_aligned;
static void *stack[FAKE_MBUFS];
static unsigned int stack_n;
static uint8_t mbuf_mem[FAKE_MBUFS][sizeof(struct rte_mbuf) +
				    MBUF_ROOM] __rte_cache_aligned;
static int ops_index = -1;

static int
ops_alloc(struct rte_mempool *mp)
{
	(void)mp;
	return 0;
}

static int
ops_enqueue(struct rte_mempool *mp, void *const *objs, unsigned int n)
{
	unsigned int i;

	(void)mp;
	if (stack_n + n > FAKE_MBUFS)
		return -ENOBUFS;
	for (i = 0; i < n; i++)
		stack[stack_n++] = objs[i];
	return 0;
}

static int
ops_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	unsigned int i;

	(void)mp;
	if (stack_n < n)
		return -ENOENT;
	for (i = 0; i < n; i++)
		objs[i] = stack[--stack_n];
	return 0;
}

static unsigned int
ops_count(const struct rte_mempool *mp)
{
	(void)mp;
	return stack_n;
}

static struct rte_mempool_ops fake_ops = {
	.name = "nb_fake_stack",
	.alloc = ops_alloc,
	.enqueue = ops_enqueue,
	.dequeue = ops_dequeue,
	.get_count = ops_count,
};

static void
pool_init(void)
{
	unsigned int i;

	if (ops_index < 0)
		ops_index = rte_mempool_register_ops(&fake_ops);
	memset(&pool, 0, sizeof(pool));
	snprintf(pool.mp.name, sizeof(pool.mp.name), "nb_fake");
	pool.mp.ops_index = ops_index;
	pool.mp.size = FAKE_MBUFS;
	pool.mp.elt_size = sizeof(mbuf_mem[0]);
	pool.priv.mbuf_data_room_size = MBUF_ROOM;
	stack_n = 0;
	for (i = 0; i < FAKE_MBUFS; i++) {
		struct rte_mbuf *m = (struct rte_mbuf *)mbuf_mem[i];

		memset(m, 0, sizeof(*m));
		m->buf_addr = (char *)m + sizeof(*m);
		m->buf_len = MBUF_ROOM;
		m->pool = &pool.mp;
		m->nb_segs = 1;
		m->port = RTE_MBUF_PORT_INVALID;
		rte_mbuf_refcnt_set(m, 1);
		stack[stack_n++] = m;
	}
}

unsigned int
fake_mbufs_out(void)
{
	return FAKE_MBUFS - stack_n;
}

void
fake_port_reset(void)
{
	pool_init();
	fake_now_ns = 1000000000ull;
	fake_nsent = 0;
	rx_head = rx_n = 0;
	fake_on_tx = NULL;
	fake_on_nap = NULL;
	nb_force_quit = 0;
}

/* --- frames --- */

void
fake_rx_put(const uint8_t *b, uint16_t len)
{
	struct fake_frame *f;

	if (rx_n == FAKE_FRAMES)
		abort();
	f = &rxq[(rx_head + rx_n++) % FAKE_FRAMES];
	memcpy(f->b, b, len);
	f->len = len;
	f->at_ns = fake_now_ns;
}

void
fake_rx_msg(const uint8_t src_mac[6], uint32_t src_ip, const uint8_t dst_mac[6],
	    uint32_t dst_ip, struct nb_ctl_msg *m, const struct nb_auth *a)
{
	uint8_t payload[NB_CTL_MAX_LEN], frame[1600];
	struct nb_udp_info h;
	int n, len;

	m->tagged = a != NULL;
	n = nb_ctl_encode(m, payload, sizeof(payload));
	if (n < 0)
		abort();
	if (a != NULL)
		nb_auth_sign(a, payload, (size_t)n);
	memset(&h, 0, sizeof(h));
	memcpy(h.src_mac, src_mac, 6);
	memcpy(h.dst_mac, dst_mac, 6);
	h.src_ip = src_ip;
	h.dst_ip = dst_ip;
	h.src_port = h.dst_port = NB_CONTROL_UDP_PORT;
	len = nb_udp_frame_build(frame, sizeof(frame), &h, payload, (size_t)n);
	if (len < 0)
		abort();
	fake_rx_put(frame, (uint16_t)len);
}

int
fake_decode(const struct fake_frame *f, struct nb_udp_info *u,
	    struct nb_ctl_msg *m)
{
	if (nb_udp_frame_parse(f->b, f->len, u) != 0 ||
	    u->dst_port != NB_CONTROL_UDP_PORT)
		return -EINVAL;
	return nb_ctl_decode(u->payload, u->payload_len, m);
}

unsigned int
fake_count_sent(uint8_t type)
{
	struct nb_udp_info u;
	struct nb_ctl_msg m;
	unsigned int i, n = 0;

	for (i = 0; i < fake_nsent; i++)
		if (fake_decode(&fake_sent[i], &u, &m) == 0 && m.type == type)
			n++;
	return n;
}

int
fake_app(struct nb_app *app, int argc, char **argv, FILE *out)
{
	char err[320];

	memset(app, 0, sizeof(*app));
	nb_config_defaults(&app->cfg);
	if (nb_options_parse(&app->cfg, argc, argv, err, sizeof(err)) != 0 ||
	    nb_config_check(&app->cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "fake_app: %s\n", err);
		return -1;
	}
	nb_output_init(&app->out, &app->cfg, out, 0);
	return 0;
}

/* --- the seam: pmd_glue (nb_port.h, nb_pool.h, nb_seam.h) --- */

uint16_t __real_nb_port_tx(uint16_t port, uint16_t q, struct rte_mbuf **m,
			   uint16_t n);
uint16_t
__wrap_nb_port_tx(uint16_t port, uint16_t q, struct rte_mbuf **m, uint16_t n)
{
	uint16_t i;

	if (!fake_on)
		return __real_nb_port_tx(port, q, m, n);
	for (i = 0; i < n; i++) {
		struct fake_frame *f = &fake_sent[fake_nsent % FAKE_FRAMES];

		f->len = (uint16_t)rte_pktmbuf_data_len(m[i]);
		memcpy(f->b, rte_pktmbuf_mtod(m[i], void *), f->len);
		f->at_ns = fake_now_ns;
		fake_nsent++;
		rte_pktmbuf_free(m[i]);
		if (fake_on_tx != NULL)
			fake_on_tx(f);
	}
	return n;
}

uint16_t __real_nb_port_rx(uint16_t port, uint16_t q, struct rte_mbuf **m,
			   uint16_t n);
uint16_t
__wrap_nb_port_rx(uint16_t port, uint16_t q, struct rte_mbuf **m, uint16_t n)
{
	uint16_t k = 0;

	if (!fake_on)
		return __real_nb_port_rx(port, q, m, n);
	while (k < n && rx_n > 0) {
		struct fake_frame *f = &rxq[rx_head];
		struct rte_mbuf *b = rte_pktmbuf_alloc(&pool.mp);

		if (b == NULL)
			break;
		memcpy(rte_pktmbuf_append(b, f->len), f->b, f->len);
		m[k++] = b;
		rx_head = (rx_head + 1) % FAKE_FRAMES;
		rx_n--;
	}
	return k;
}

int __real_nb_port_valid(uint16_t port);
int
__wrap_nb_port_valid(uint16_t port)
{
	return fake_on ? port == 0 : __real_nb_port_valid(port);
}

int __real_nb_port_max_queues(uint16_t port, uint16_t *rxq, uint16_t *txq);
int
__wrap_nb_port_max_queues(uint16_t port, uint16_t *mrx, uint16_t *mtx)
{
	if (!fake_on)
		return __real_nb_port_max_queues(port, mrx, mtx);
	*mrx = *mtx = 16;
	return 0;
}

int __real_nb_port_socket(uint16_t port);
int
__wrap_nb_port_socket(uint16_t port)
{
	return fake_on ? 0 : __real_nb_port_socket(port);
}

int __real_nb_port_lacp(uint16_t port);
int
__wrap_nb_port_lacp(uint16_t port)
{
	return fake_on ? 0 : __real_nb_port_lacp(port);
}

uint16_t __real_nb_port_ctl_tx_port(uint16_t port);
uint16_t
__wrap_nb_port_ctl_tx_port(uint16_t port)
{
	return fake_on ? port : __real_nb_port_ctl_tx_port(port);
}

int __real_nb_port_link_up(uint16_t port);
int
__wrap_nb_port_link_up(uint16_t port)
{
	return fake_on ? 1 : __real_nb_port_link_up(port);
}

uint16_t __real_nb_port_other_src_macs(uint16_t port, uint8_t (*macs)[6],
				       uint16_t max);
uint16_t
__wrap_nb_port_other_src_macs(uint16_t port, uint8_t (*macs)[6], uint16_t max)
{
	return fake_on ? 0 : __real_nb_port_other_src_macs(port, macs, max);
}

int __real_nb_port_rx_budget(uint16_t port, struct nb_pool_budget *b);
int
__wrap_nb_port_rx_budget(uint16_t port, struct nb_pool_budget *b)
{
	if (!fake_on)
		return __real_nb_port_rx_budget(port, b);
	memset(b, 0, sizeof(*b));
	b->pool = 8192;
	b->rxd = 512;
	b->nb_rxq = 2;
	b->lcores = 3;
	b->cache = 256;
	b->burst = 32;
	return 0;
}

struct rte_mempool *__real_nb_pool_get(const char *name, unsigned int n,
				       int socket);
struct rte_mempool *
__wrap_nb_pool_get(const char *name, unsigned int n, int socket)
{
	return fake_on ? &pool.mp : __real_nb_pool_get(name, n, socket);
}

struct rte_ring *__real_nb_ring_create(const char *name, unsigned int cap,
				       int socket);
struct rte_ring *
__wrap_nb_ring_create(const char *name, unsigned int cap, int socket)
{
	struct rte_ring *r;
	ssize_t size;

	if (!fake_on)
		return __real_nb_ring_create(name, cap, socket);
	size = rte_ring_get_memsize(rte_align32pow2(cap + 1));
	r = aligned_alloc(RTE_CACHE_LINE_SIZE,
			  RTE_ALIGN_CEIL((size_t)size, RTE_CACHE_LINE_SIZE));
	if (r == NULL || rte_ring_init(r, name, cap,
				       RING_F_SP_ENQ | RING_F_SC_DEQ |
					       RING_F_EXACT_SZ) != 0) {
		free(r);
		return NULL;
	}
	return r;
}

void __real_nb_ring_free(struct rte_ring *r);
void
__wrap_nb_ring_free(struct rte_ring *r)
{
	if (!fake_on)
		__real_nb_ring_free(r);
	else
		free(r);
}

uint64_t __real_nb_glue_tsc(void);
uint64_t
__wrap_nb_glue_tsc(void)
{
	return fake_on ? fake_now_ns : __real_nb_glue_tsc();
}

uint64_t __real_nb_glue_tsc_hz(void);
uint64_t
__wrap_nb_glue_tsc_hz(void)
{
	return fake_on ? 1000000000ull : __real_nb_glue_tsc_hz();
}

void __real_nb_glue_nap_us(unsigned int us);
void
__wrap_nb_glue_nap_us(unsigned int us)
{
	if (!fake_on) {
		__real_nb_glue_nap_us(us);
		return;
	}
	fake_now_ns += (uint64_t)us * 1000;
	if (fake_on_nap != NULL)
		fake_on_nap();
}

/* --- above the seam: the data path a session sets up (not tested here) */

uint64_t __real_nb_tsc_hz(void);
uint64_t
__wrap_nb_tsc_hz(void)
{
	return fake_on ? 1000000000ull : __real_nb_tsc_hz();
}

/* The port as nb_setup_ports leaves it: up, 10G, MTU 1500. */
int __real_nb_setup_ports(struct nb_app *app, const uint16_t *ids, uint16_t n,
			  const struct nb_setup_req *req);
int
__wrap_nb_setup_ports(struct nb_app *app, const uint16_t *ids, uint16_t n,
		      const struct nb_setup_req *req)
{
	struct nb_port_desc *d = &app->ports[0].desc;

	if (!fake_on)
		return __real_nb_setup_ports(app, ids, n, req);
	memset(d, 0, sizeof(*d));
	d->port_id = ids[0];
	snprintf(d->driver, sizeof(d->driver), "net_fake");
	snprintf(d->name, sizeof(d->name), "fake0");
	memcpy(d->mac, fake_mac, 6);
	d->link_up = 1;
	d->link_speed = 10000;
	d->full_duplex = 1;
	d->mtu = 1500;
	d->nb_rxq = d->nb_txq = req->nb_queues;
	app->nb_ports = 1;
	app->port_ids[0] = ids[0];
	return 0;
}

int __real_nb_peertest_setup(struct nb_peer *pr, const struct nb_ctl_params *p,
			     char *why, size_t len);
int
__wrap_nb_peertest_setup(struct nb_peer *pr, const struct nb_ctl_params *p,
			 char *why, size_t len)
{
	if (!fake_on)
		return __real_nb_peertest_setup(pr, p, why, len);
	pr->test_ready = 1;
	return 0;
}

void __real_nb_peertest_stop(struct nb_peer *pr);
void
__wrap_nb_peertest_stop(struct nb_peer *pr)
{
	if (!fake_on)
		__real_nb_peertest_stop(pr);
}

void __real_nb_peertest_free(struct nb_peer *pr);
void
__wrap_nb_peertest_free(struct nb_peer *pr)
{
	if (!fake_on) {
		__real_nb_peertest_free(pr);
		return;
	}
	pr->test_ready = 0;
}

void __real_nb_run_end_senders(struct nb_app *app, int force);
void
__wrap_nb_run_end_senders(struct nb_app *app, int force)
{
	if (!fake_on)
		__real_nb_run_end_senders(app, force);
}
