/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "nb_frame.h"
#include "nb_offload.h"
#include "nb_policy.h"

static const char *const csum_names[] = {
	[NB_CSUM_AUTO] = "auto",
	[NB_CSUM_HW] = "hw",
	[NB_CSUM_SW] = "sw",
};

int
nb_csum_mode_parse(const char *s, enum nb_csum_mode *m)
{
	size_t i;

	for (i = 0; i < sizeof(csum_names) / sizeof(csum_names[0]); i++)
		if (strcmp(s, csum_names[i]) == 0) {
			*m = (enum nb_csum_mode)i;
			return 0;
		}
	return -1;
}

const char *
nb_csum_mode_name(enum nb_csum_mode m)
{
	return (unsigned int)m < sizeof(csum_names) / sizeof(csum_names[0])
		       ? csum_names[m]
		       : "?";
}

int
nb_offload_tx_l4(const struct nb_dev_caps *c, enum nb_csum_mode mode,
		 uint8_t proto)
{
	uint32_t need = proto == NB_IPPROTO_TCP ? NB_CAP_TX_TCP_CKSUM
						: NB_CAP_TX_UDP_CKSUM;

	if (mode == NB_CSUM_SW || !(c->caps & need))
		return 0;
	return mode == NB_CSUM_HW || !(c->caps & NB_CAP_TX_CSUM_SLOW);
}

static void
decide_csum(const char *drv, const struct nb_dev_caps *c,
	    const struct nb_offload_req *r, struct nb_offload_plan *p)
{
	const char *l4 = r->proto == NB_IPPROTO_TCP ? "TCP" : "UDP";

	if (r->flows) {
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "software: --flows writes each frame's addresses and "
			 "ports, and fixes the %s checksum by what they change",
			 l4);
		return;
	}
	if (r->tunnel) {
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "software: the frames are tunnelled (--encap), and "
			 "the inner %s checksum is the tool's to fill",
			 l4);
		return;
	}
	if (r->tx_csum == NB_CSUM_SW) {
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "software, as --tx-checksum sw asks (%s %s %s "
			 "checksum offload)",
			 drv,
			 nb_offload_tx_l4(c, NB_CSUM_HW, r->proto) ? "offers"
								   : "has no",
			 l4);
		return;
	}
	if (nb_offload_tx_l4(c, r->tx_csum, r->proto)) {
		p->tx_l4_csum = 1;
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "%s offers %s checksum offload", drv, l4);
		return;
	}
	if (nb_offload_tx_l4(c, NB_CSUM_HW, r->proto))
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "software: %s's vector TX path takes no %s checksum "
			 "offload (--tx-checksum hw uses it, on the slower "
			 "path)",
			 drv, l4);
	else
		snprintf(p->csum_why, sizeof(p->csum_why),
			 "%s has no %s checksum offload: software", drv, l4);
}

static void
decide_rss(const char *drv, const struct nb_dev_caps *c,
	   const struct nb_offload_req *r, struct nb_offload_plan *p)
{
	if (r->nb_rxq <= 1) {
		snprintf(p->rss_why, sizeof(p->rss_why),
			 "one RX queue: nothing to spread");
		return;
	}
	if (!(c->caps & (NB_CAP_RSS_IP | NB_CAP_RSS_L4))) {
		snprintf(p->rss_why, sizeof(p->rss_why),
			 "%s has no RSS hash: the device decides which RX "
			 "queue a frame lands on (memif: the sender's queue "
			 "of the same number)",
			 drv);
		return;
	}
	p->rss = 1;
	p->rss_l4 = !!(c->caps & NB_CAP_RSS_L4);
	snprintf(p->rss_why, sizeof(p->rss_why), "%u RX queues spread by %s",
		 r->nb_rxq,
		 p->rss_l4 ? "addresses and ports"
			   : "addresses only (no port hash): streams between "
			     "one address pair share a queue");
}

static void
decide_ts(const char *drv, const struct nb_dev_caps *c,
	  struct nb_offload_plan *p)
{
	const char *what = (c->caps & NB_CAP_RX_TIMESTAMP)
				   ? ((c->caps & NB_CAP_TIMESYNC)
					      ? "RX timestamps and IEEE 1588"
					      : "RX timestamps")
				   : "IEEE 1588";

	p->hw_ts_avail = !!(c->caps & (NB_CAP_RX_TIMESTAMP | NB_CAP_TIMESYNC));
	if (p->hw_ts_avail)
		snprintf(p->ts_why, sizeof(p->ts_why),
			 "%s has %s; the tool stamps with the TSC", drv, what);
	else
		snprintf(p->ts_why, sizeof(p->ts_why),
			 "%s has no hardware timestamps", drv);
}

int
nb_offload_decide(const char *driver, const struct nb_dev_caps *c,
		  const struct nb_offload_req *r, struct nb_offload_plan *p,
		  char *err, size_t errlen)
{
	const char *drv = driver != NULL && driver[0] ? driver : "the device";

	memset(p, 0, sizeof(*p));
	decide_csum(drv, c, r, p);
	if (r->tx_csum == NB_CSUM_HW && !p->tx_l4_csum && !r->tunnel &&
	    !r->flows) {
		snprintf(err, errlen,
			 "--tx-checksum hw: %s has no %s checksum offload "
			 "(--tx-checksum auto falls back to software)",
			 drv, r->proto == NB_IPPROTO_TCP ? "TCP" : "UDP");
		return -1;
	}
	decide_rss(drv, c, r, p);
	decide_ts(drv, c, p);
	return 0;
}

void
nb_offload_rate(struct nb_offload_plan *p, const char *driver, int asked,
		unsigned int tried, unsigned int limited, int first_err)
{
	const char *drv = driver != NULL && driver[0] ? driver : "the device";

	p->hw_rate = asked && tried > 0 && limited == tried;
	if (!asked)
		snprintf(p->rate_why, sizeof(p->rate_why), "software pacer");
	else if (tried == 0)
		snprintf(p->rate_why, sizeof(p->rate_why),
			 "no paced TX queue on this port: nothing to limit");
	else if (p->hw_rate)
		snprintf(p->rate_why, sizeof(p->rate_why),
			 "%s limits %u TX queue%s (--hw-rate)", drv, tried,
			 tried == 1 ? "" : "s");
	else if (first_err == -ENOTSUP)
		snprintf(p->rate_why, sizeof(p->rate_why),
			 "software pacer: %s has no queue rate limit", drv);
	else
		snprintf(p->rate_why, sizeof(p->rate_why),
			 "software pacer on %u of %u queues: %s refused the "
			 "limit (%s)",
			 tried - limited, tried, drv, strerror(-first_err));
}

int
nb_offload_text(const struct nb_offload_plan *p, char *buf, size_t len)
{
	return snprintf(buf, len,
			"tx checksum %s, rss %s, latency clock tsc%s, flow "
			"control %s%s",
			p->tx_l4_csum ? "hw" : "sw",
			p->rss ? (p->rss_l4 ? "l3+l4" : "l3") : "off",
			p->hw_ts_avail ? " (hw timestamps not used)" : "",
			nb_fc_name(p->flow_control),
			p->hw_rate ? ", pacing hw" : "");
}

void
nb_offload_printable(struct nb_offload_plan *p)
{
	char *why[] = {p->csum_why, p->rss_why, p->ts_why, p->rate_why};
	char e[4 * sizeof(p->csum_why)];
	unsigned int i;

	for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		nb_escape(why[i], sizeof(p->csum_why), e, sizeof(e));
		e[sizeof(p->csum_why) - 1] = '\0'; /* cut to the field */
		memcpy(why[i], e, sizeof(p->csum_why));
	}
}

json_t *
nb_offload_json(const struct nb_offload_plan *p)
{
	return json_pack(
		"{s:b, s:s, s:s, s:s, s:s, s:b, s:o, s:s, s:s, s:b, s:s}",
		"tx_rate_limit_hw", p->hw_rate, "tx_rate_limit_why",
		p->rate_why[0] ? p->rate_why : "software pacer", "flow_control",
		nb_fc_name(p->flow_control), "tx_checksum",
		p->tx_l4_csum ? "hw" : "sw", "tx_checksum_why", p->csum_why,
		"rss", p->rss, "rss_hash",
		p->rss ? json_string(p->rss_l4 ? "l3+l4" : "l3") : json_null(),
		"rss_why", p->rss_why, "latency_clock", "tsc",
		"hw_timestamps_available", p->hw_ts_avail, "timestamps_why",
		p->ts_why);
}
