/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --iperf3-server's TCP streams: at the client's parameters a responder's
 * TCP test on the runtime (nb_peertest_setup, nb_tcprun's peer mode) whose
 * listener takes connections to our port from any client port
 * (accept_any), the data connections of iperf3's client, each checked
 * for the session's cookie by the worker (a connection that starts
 * otherwise is reset); the control connection's segments reach control
 * as strays.  It is armed at once (the handshakes need the worker's TX);
 * with -R its senders hold until TEST_RUNNING (nb_ip3s_go).  At TEST_END
 * every stream closes (the FIN after what was sent), as 3.12's server
 * closes its sockets (a 3.12 client reads whole blocks from then on and
 * needs the FIN to end a short one).  A client that sends is counted past its
 * cookie until its results say all of it is in.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_ip3srv_int.h"
#include "nb_peertest.h"
#include "nb_tcprun.h"

int
nb_ip3s_tcp_setup(struct nb_ip3s *x)
{
	struct nb_ctl_params p = x->cp;
	char err[200];

	x->pr.tcp_prefix = nb_ip3_server_cookie(&x->sv);
	x->pr.tcp_prefix_len = NB_IP3_COOKIE_LEN;
	x->pr.app->out.intervals = 0;
	x->pr.app->cfg.interval = 0;
	if (nb_peertest_setup(&x->pr, &p, err, sizeof(err)) != 0) {
		snprintf(x->why, sizeof(x->why), "cannot set up the test: %s",
			 err);
		return -EINVAL;
	}
	x->test_ready = 1;
	nb_peertest_arm(&x->pr, 0);
	return 0;
}

int
nb_ip3s_tcp_ready(const struct nb_ip3s *x)
{
	return x->test_ready && x->pr.tcp != NULL &&
	       nb_tcprun_peer_accepted(x->pr.tcp) >= nb_ip3s_nconn(x);
}

void
nb_ip3s_tcp_stream(const struct nb_ip3s *x, unsigned int i, uint64_t *bytes,
		   int64_t *retrans)
{
	uint64_t b, r;
	double secs;

	*retrans = -1;
	if (nb_ip3s_sends(x, i)) {
		nb_tcprun_peer_sender(x->pr.tcp, i, &b, &r, &secs);
		*bytes = b;
		*retrans = (int64_t)r;
		return;
	}
	b = nb_tcprun_peer_received(x->pr.tcp, i);
	*bytes = b > NB_IP3_COOKIE_LEN ? b - NB_IP3_COOKIE_LEN : 0;
}

int
nb_ip3s_tcp_settled(const struct nb_ip3s *x)
{
	unsigned int i, k;
	uint64_t b;
	int64_t r;

	for (i = 0; i < nb_ip3s_nconn(x); i++) {
		if (nb_ip3s_sends(x, i)) {
			if (nb_tcprun_peer_unacked(x->pr.tcp, i) != 0)
				return 0;
			continue;
		}
		nb_ip3s_tcp_stream(x, i, &b, &r);
		for (k = 0; k < x->peer.nstreams; k++)
			if (x->peer.s[k].id == nb_ip3_stream_id(i) &&
			    b < x->peer.s[k].bytes)
				return 0;
	}
	return 1;
}
