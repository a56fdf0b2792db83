/* SPDX-License-Identifier: BSD-3-Clause */
/* A TCP connection on the control lcore (nb_ip3conn.h). */
#include <string.h>
#include <time.h>

#include "nb_ip3conn.h"
#include "nb_run.h"
#include "nb_seam.h"
#include "nb_tcp_wire.h"

void
nb_ip3_conn_flush(struct nb_peer *pr, struct nb_tcp_conn *c,
		  const struct nb_flow *f, struct nb_tcp_app *a)
{
	uint8_t buf[NB_FRAME_MAX];
	struct nb_tcp_seg s;
	uint64_t now = nb_peer_now(pr);
	int n;

	while (nb_tcp_output(c, now, &s)) {
		n = nb_tcp_frame_build_app(buf, sizeof(buf), f, &s, a);
		if (n > 0)
			nb_ctlio_send_frame(pr->io, buf, (uint16_t)n);
	}
}

void
nb_ip3_conn_nap(const struct nb_peer *pr, const struct nb_tcp_conn *c)
{
	uint64_t next = nb_tcp_next_event(c), now = nb_peer_now(pr);
	uint64_t us = 500;

	if (next != 0)
		us = next <= now ? 50 : (next - now) / 1000;
	nb_glue_nap_us((unsigned int)(us < 50 ? 50 : us > 500 ? 500 : us));
}

void
nb_ip3_cpu_share(const struct nb_cpu_usage *c0, struct nb_ip3_results *m)
{
	struct nb_cpu_usage c;
	double w;

	nb_run_cpu_now(&c);
	if (c0->wall_ns == 0 || c.wall_ns <= c0->wall_ns)
		return;
	w = (double)(c.wall_ns - c0->wall_ns);
	m->cpu_user = 100.0 * (double)(c.user_ns - c0->user_ns) / w;
	m->cpu_system = 100.0 * (double)(c.system_ns - c0->system_ns) / w;
	m->cpu_total = m->cpu_user + m->cpu_system;
}

double
nb_ip3_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void
nb_ip3_conn_params(const struct nb_config *cfg, struct nb_tcp_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mss = nb_tcp_mss_for(1518, cfg->vlan_id, 4);
	p->rcv_wnd = 65535;
	p->sack = 1;
	p->check = NB_TCP_CHECK_OFF;
	p->cc = NB_TCP_CC_NEWRENO;
	p->send_bytes = UINT64_MAX;
	p->close_after_send = 1;
}
