/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The client's control messages as they arrive (its sessions' callback,
 * nb_peer.on_msg): which are the responder's and authentic, and the
 * event each is for the client's state machine (nb_cli, app/core).
 */
#include <string.h>

#include "nb_client_int.h"
#include "nb_log.h"
#include "nb_peer_iv_io.h"

/*
 * Is m authentic?  A WELCOME (before we have the key) brings the
 * responder's nonce: the key follows from it, and the WELCOME must check
 * under that key, which proves the responder holds our --auth-key (or,
 * without a key, that it answered our HELLO).
 */
static int
authentic(struct nb_peer *pr, const struct nb_udp_info *u,
	  const struct nb_ctl_msg *m)
{
	const struct nb_config *cfg = &pr->app->cfg;
	struct nb_auth a;

	if (!m->tagged)
		return 0;
	if (pr->auth.on)
		return nb_auth_verify(&pr->auth, u->payload, u->payload_len);
	if (m->type != NB_CTL_WELCOME || m->session != pr->session)
		return 0;
	nb_auth_derive(&a, cfg->psk, cfg->psk_len, pr->cn, m->u.conf.nonce,
		       pr->session);
	if (nb_auth_verify(&a, u->payload, u->payload_len)) {
		pr->auth = a;
		return 1;
	}
	pr->auth_fail++;
	/* a responder answers WELCOME only to a HELLO whose tag it could
	 * check with its key (or, --no-auth, with none): a WELCOME that
	 * fails is not that responder's */
	snprintf(pr->auth_error, sizeof(pr->auth_error), "%s",
		 "its WELCOME failed authentication: forged, or not from the "
		 "responder our HELLO reached");
	return 0;
}

void
nb_client_on_msg(struct nb_peer *pr, const struct nb_udp_info *u,
		 struct nb_ctl_msg *m)
{
	enum nb_cli_event ev;
	/* before WELCOME the responder is known by MAC or by IPv4 (either
	 * may be a guess); after it, by both */
	int from_peer = pr->cli.state == NB_CLI_HELLO
				? memcmp(u->src_mac, pr->peer_mac, 6) == 0 ||
					  nb_peer_addr_is(pr, u)
				: memcmp(u->src_mac, pr->peer_mac, 6) == 0 &&
					  nb_peer_addr_is(pr, u);
	int ok = from_peer && authentic(pr, u, m);

	switch (nb_cli_route(&pr->cli, m, from_peer, ok)) {
	case NB_CLI_DROP:
		if (from_peer && m->tagged && !ok)
			pr->foreign++;
		return;
	case NB_CLI_CLOCK:
		/* the responder's echo (unacknowledged): a clock sample */
		if (m->u.ka.echo_ns != 0)
			nb_offset_sample(&pr->off, m->u.ka.echo_ns,
					 m->u.ka.sender_ns -
						 m->u.ka.echo_delay_ns,
					 m->u.ka.sender_ns, nb_peer_now(pr));
		return;
	case NB_CLI_DIRECT:
		break;
	case NB_CLI_LINK:
		if (!nb_peer_accept(pr, u, m))
			return;
		if (m->type == NB_CTL_WELCOME &&
		    (memcmp(u->src_mac, pr->peer_mac, 6) != 0 ||
		     !nb_peer_addr_is(pr, u))) {
			/* The frames reached it anyway (flooding, a virtual
			 * link): say so, and use its real address. */
			NB_LOG(WARNING,
			       "warning: the responder answers from " NB_MAC_FMT
			       " %s, not the address asked for; using it",
			       NB_MAC_ARGS(u->src_mac), nb_udp_src_text(u).s);
			memcpy(pr->peer_mac, u->src_mac, 6);
			nb_peer_addr_take(pr, u);
		}
		break;
	}
	ev = nb_cli_on_msg(&pr->cli, m);
	if (ev == NB_CLI_E_INTERVAL) {
		nb_peer_iv_io_put(pr, &m->u.iv);
		return;
	}
	if (ev != NB_CLI_E_NONE) {
		pr->event = ev;
		pr->inbox = *m;
	}
}
