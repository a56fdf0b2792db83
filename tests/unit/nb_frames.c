/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nb-frames: the core's frame builder and parser on the command line, for
 * check_stacks.py to hold against scapy and tshark (an oracle the core
 * does not share).
 *
 *   nb-frames build SEQ TS [tool options]
 *       one line a stream: its frame of the first --size, stamped with
 *       seq SEQ + stream and time TS, in hex
 *   nb-frames parse HEX...
 *       one JSON object a frame: kind, stream, seq, ts, l3_off, l4_off,
 *       v6, inner
 *   nb-frames mcast igmp2|igmp3|mld join|leave GROUP [VLAN]
 *       the membership frame, in hex, from 02:00:00:00:00:01 (IGMP's
 *       source 198.18.0.1)
 *   nb-frames nd solicit TARGET | answer HEX | advert HEX TARGET |
 *                echo HEX
 *       as 02:00:00:00:00:01 with 2001:db8::1: a solicitation, or what
 *       the parsers say of a frame: the answer in hex, or the return
 *       value (and an advert's MAC)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_frame.h"
#include "nb_l2_v6.h"
#include "nb_mcast.h"
#include "nb_options.h"
#include "nb_stack.h"

/* enum nb_frame_kind's names, in its order */
static const char *const kinds[] = {
	"foreign", "data", "warmup", "probe", "fragment",
	"control", "arp",  "icmp",   "icmp6",
};

static int
build(int argc, char **argv)
{
	static struct nb_config cfg;
	uint8_t frame[NB_FRAME_MAX];
	uint64_t seq = strtoull(argv[2], NULL, 0);
	uint64_t ts = strtoull(argv[3], NULL, 0);
	char err[512];
	uint32_t s, i;

	nb_config_defaults(&cfg);
	argv[3] = argv[0];
	if (nb_options_parse(&cfg, argc - 3, argv + 3, err, sizeof(err)) != 0 ||
	    nb_config_check(&cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "nb-frames: %s\n", err);
		return 2;
	}
	for (s = 0; s < cfg.streams; s++) {
		struct nb_flow f;
		struct nb_tmpl t;
		int n;

		nb_stack_flow(&f, &cfg, cfg.src_mac, cfg.dst_mac, s);
		n = nb_frame_build(frame, sizeof(frame), &f, cfg.sizes.sizes[0],
				   NB_MAGIC_DATA, &t);
		if (n < 0) {
			fprintf(stderr, "nb-frames: cannot build\n");
			return 1;
		}
		/* as the generator does: the template's bytes, then the stamp
		 */
		memcpy(frame, t.hdr, t.copy_len);
		if (t.proto == NB_IPPROTO_TCP)
			nb_stamp_tcp(frame, &t, seq + s, ts);
		else
			nb_stamp_udp(frame, &t, seq + s, ts);
		if (t.csum2_off)
			nb_stamp_outer(frame, &t, seq + s, ts,
				       t.proto == NB_IPPROTO_UDP);
		for (i = 0; i < (uint32_t)n; i++)
			printf("%02x", frame[i]);
		printf("\n");
	}
	return 0;
}

static int
unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = strlen(h) / 2, i;

	if (n > cap)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(h + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (int)n;
}

static int
parse(int argc, char **argv)
{
	uint8_t frame[NB_FRAME_MAX];
	int i;

	for (i = 2; i < argc; i++) {
		struct nb_stamp st;
		enum nb_frame_kind k;
		int n = unhex(argv[i], frame, sizeof(frame));

		if (n < 0)
			return 2;
		memset(&st, 0, sizeof(st));
		k = nb_frame_parse(frame, (uint32_t)n, (uint32_t)n, &st);
		printf("{\"kind\": \"%s\", \"stream\": %u, \"seq\": %llu, "
		       "\"ts\": %llu, \"l3_off\": %u, \"l4_off\": %u, "
		       "\"v6\": %u, \"inner\": %u}\n",
		       kinds[k], st.stream_id, (unsigned long long)st.seq,
		       (unsigned long long)st.ts, st.l3_off, st.l4_off, st.v6,
		       st.inner);
	}
	return 0;
}

static int
mcast(int argc, char **argv)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	uint8_t frame[256];
	struct nb_ip g;
	uint16_t vlan = argc > 5 ? (uint16_t)atoi(argv[5]) : 0;
	int join = strcmp(argv[3], "join") == 0, n, i;

	if (nb_opt_ipv6_addr(&g, argv[4]) == 0)
		n = nb_mld_frame(frame, sizeof(frame), mac, vlan, g.a, join);
	else if (inet_pton(AF_INET, argv[4], g.a) == 1)
		n = nb_igmp_frame(frame, sizeof(frame), mac, vlan,
				  NB_DEFAULT_SRC_IP, nb_get_be32(g.a),
				  strcmp(argv[2], "igmp2") == 0 ? 2 : 3, join);
	else
		return 2;
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++)
		printf("%02x", frame[i]);
	printf("\n");
	return 0;
}

static void
hex_out(const uint8_t *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static int
nd(int argc, char **argv)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	uint8_t in[2048], out[2048], got[6];
	struct nb_ip me, t;
	int n = 0, r;

	nb_opt_ipv6_addr(&me, "2001:db8::1");
	if (strcmp(argv[2], "solicit") == 0) {
		if (nb_opt_ipv6_addr(&t, argv[3]) != 0)
			return 2;
		hex_out(out,
			nb_ndp_solicit(out, sizeof(out), mac, me.a, 0, t.a));
		return 0;
	}
	n = unhex(argv[3], in, sizeof(in));
	if (n < 0)
		return 2;
	if (strcmp(argv[2], "advert") == 0) {
		if (argc < 5 || nb_opt_ipv6_addr(&t, argv[4]) != 0)
			return 2;
		r = nb_ndp_advert_is(in, (uint32_t)n, t.a, got);
		printf("%d", r);
		if (r == 1)
			printf(" %02x:%02x:%02x:%02x:%02x:%02x", got[0], got[1],
			       got[2], got[3], got[4], got[5]);
		printf("\n");
		return 0;
	}
	r = strcmp(argv[2], "answer") == 0
		    ? nb_ndp_answer(in, (uint32_t)n, mac, me.a, out,
				    sizeof(out))
		    : nb_icmp6_echo_answer(in, (uint32_t)n, mac, me.a, out,
					   sizeof(out));
	if (r > 0)
		hex_out(out, r);
	else
		printf("%d\n", r);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "nd") == 0)
		return nd(argc, argv);
	if (argc >= 5 && strcmp(argv[1], "mcast") == 0)
		return mcast(argc, argv);
	if (argc >= 4 && strcmp(argv[1], "build") == 0)
		return build(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "parse") == 0)
		return parse(argc, argv);
	fprintf(stderr, "usage: nb-frames build SEQ TS [options] | parse "
			"HEX...\n");
	return 2;
}
