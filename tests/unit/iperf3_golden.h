/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Golden control bytes of iperf3 3.12 (Debian 3.12-1+deb12u2) on loopback,
 * read with strace -e read,write -xx from the client (iperf3 -c 127.0.0.1
 * -p 5299 against iperf3 -s -1 -p 5299), the options above each run.  Turned
 * into C strings by a few lines of Python over the strace output; the bytes are
 * as captured, nothing edited.
 */
#ifndef IPERF3_GOLDEN_H
#define IPERF3_GOLDEN_H

#define G_UNUSED __attribute__((unused))

/* iperf3 -c ... -u -b 1M -t 1 */
static const char g_udp_params[] G_UNUSED =
	"{\"udp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"p"
	"arallel\":1,\"len\":32768,\"bandwidth\":1000000,\"pacing_timer\":1"
	"000,\"client_version\":\"3.12\"}";
static const char g_udp_client_results[] G_UNUSED =
	"{\"cpu_util_total\":3.4465158493256514,\"cpu_util_user\":1.0425541"
	"633649307,\"cpu_util_system\":2.4010819763943254,\"sender_has_retr"
	"ansmits\":0,\"streams\":[{\"id\":1,\"bytes\":131072,\"retransmits"
	"\":18446744073709551615,\"jitter\":0,\"errors\":0,\"packets\":4,\""
	"start_time\":0,\"end_time\":1.001807}]}";
static const char g_udp_server_results[] G_UNUSED =
	"{\"cpu_util_total\":0.10461638498031835,\"cpu_util_user\":0,\"cpu_"
	"util_system\":0.10312044048584289,\"sender_has_retransmits\":18446"
	"744073709551615,\"streams\":[{\"id\":1,\"bytes\":131072,\"retransm"
	"its\":18446744073709551615,\"jitter\":7.84208984375e-05,\"errors\""
	":0,\"packets\":4,\"start_time\":0,\"end_time\":1.002654}]}";
/* everything the server wrote on the control connection */
static const char g_udp_s2c[] G_UNUSED =
	"\011\n\001\002\015\000\000\001({\"cpu_util_total\":0.1046163849803"
	"1835,\"cpu_util_user\":0,\"cpu_util_system\":0.10312044048584289,"
	"\"sender_has_retransmits\":18446744073709551615,\"streams\":[{\"id"
	"\":1,\"bytes\":131072,\"retransmits\":18446744073709551615,\"jitte"
	"r\":7.84208984375e-05,\"errors\":0,\"packets\":4,\"start_time\":0,"
	"\"end_time\":1.002654}]}\016";
#define G_UDP_S2C_LEN 306
/* everything the client wrote */
static const char g_udp_c2s[] G_UNUSED =
	"xryu6kzr56b4bhwq2thawd6q632y4iivpzdn\000\000\000\000\216{\"udp\":t"
	"rue,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":"
	"1,\"len\":32768,\"bandwidth\":1000000,\"pacing_timer\":1000,\"clie"
	"nt_version\":\"3.12\"}\004\000\000\001\024{\"cpu_util_total\":3.44"
	"65158493256514,\"cpu_util_user\":1.0425541633649307,\"cpu_util_sys"
	"tem\":2.4010819763943254,\"sender_has_retransmits\":0,\"streams\":"
	"[{\"id\":1,\"bytes\":131072,\"retransmits\":18446744073709551615,"
	"\"jitter\":0,\"errors\":0,\"packets\":4,\"start_time\":0,\"end_tim"
	"e\":1.001807}]}\020";
#define G_UDP_C2S_LEN 465

/* iperf3 -c ... -n 1M */
static const char g_tcpn_params[] G_UNUSED =
	"{\"tcp\":true,\"omit\":0,\"time\":0,\"num\":1048576,\"blockcount\""
	":0,\"parallel\":1,\"len\":131072,\"pacing_timer\":1000,\"client_ve"
	"rsion\":\"3.12\"}";
static const char g_tcpn_client_results[] G_UNUSED =
	"{\"cpu_util_total\":30.84023464458247,\"cpu_util_user\":20.4365079"
	"36507937,\"cpu_util_system\":10.213940648723257,\"sender_has_retra"
	"nsmits\":1,\"congestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"by"
	"tes\":1048576,\"retransmits\":0,\"jitter\":0,\"errors\":0,\"packet"
	"s\":0,\"start_time\":0,\"end_time\":0.002318}]}";
static const char g_tcpn_server_results[] G_UNUSED =
	"{\"cpu_util_total\":24.373259052924791,\"cpu_util_user\":12.151810"
	"584958216,\"cpu_util_system\":12.151810584958216,\"sender_has_retr"
	"ansmits\":18446744073709551615,\"congestion_used\":\"bbr\",\"strea"
	"ms\":[{\"id\":1,\"bytes\":1048576,\"retransmits\":1844674407370955"
	"1615,\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"en"
	"d_time\":0.002649}]}";
/* everything the server wrote on the control connection */
static const char g_tcpn_s2c[] G_UNUSED =
	"\011\n\001\002\015\000\000\001@{\"cpu_util_total\":24.373259052924"
	"791,\"cpu_util_user\":12.151810584958216,\"cpu_util_system\":12.15"
	"1810584958216,\"sender_has_retransmits\":18446744073709551615,\"co"
	"ngestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":1048576,"
	"\"retransmits\":18446744073709551615,\"jitter\":0,\"errors\":0,\"p"
	"ackets\":0,\"start_time\":0,\"end_time\":0.002649}]}\016";
#define G_TCPN_S2C_LEN 330
/* everything the client wrote */
static const char g_tcpn_c2s[] G_UNUSED =
	"elovib2fcq3f5wx4rs6vzihh37vfypc2nnrf\000\000\000\000\201{\"tcp\":t"
	"rue,\"omit\":0,\"time\":0,\"num\":1048576,\"blockcount\":0,\"paral"
	"lel\":1,\"len\":131072,\"pacing_timer\":1000,\"client_version\":\""
	"3.12\"}\004\000\000\001\031{\"cpu_util_total\":30.84023464458247,"
	"\"cpu_util_user\":20.436507936507937,\"cpu_util_system\":10.213940"
	"648723257,\"sender_has_retransmits\":1,\"congestion_used\":\"bbr\""
	",\"streams\":[{\"id\":1,\"bytes\":1048576,\"retransmits\":0,\"jitt"
	"er\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":0."
	"002318}]}\020";
#define G_TCPN_C2S_LEN 457

/* iperf3 -c ... -R -n 1M -P 2 */
static const char g_rev_params[] G_UNUSED =
	"{\"tcp\":true,\"omit\":0,\"time\":0,\"num\":1048576,\"blockcount\""
	":0,\"parallel\":2,\"reverse\":true,\"len\":131072,\"pacing_timer\""
	":1000,\"client_version\":\"3.12\"}";
static const char g_rev_client_results[] G_UNUSED =
	"{\"cpu_util_total\":38.7497731809109,\"cpu_util_user\":38.69533659"
	"9528218,\"cpu_util_system\":0,\"sender_has_retransmits\":184467440"
	"73709551615,\"congestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"b"
	"ytes\":1048576,\"retransmits\":18446744073709551615,\"jitter\":0,"
	"\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":0.003596}"
	",{\"id\":3,\"bytes\":0,\"retransmits\":18446744073709551615,\"jitt"
	"er\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":0."
	"003672}]}";
static const char g_rev_server_results[] G_UNUSED =
	"{\"cpu_util_total\":32.881433823529413,\"cpu_util_user\":0,\"cpu_u"
	"til_system\":32.835477941176471,\"sender_has_retransmits\":1,\"con"
	"gestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":1048576,\""
	"retransmits\":0,\"jitter\":0,\"errors\":0,\"packets\":0,\"start_ti"
	"me\":0,\"end_time\":0.004253},{\"id\":3,\"bytes\":0,\"retransmits"
	"\":0,\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"en"
	"d_time\":0.004286}]}";
/* everything the server wrote on the control connection */
static const char g_rev_s2c[] G_UNUSED =
	"\011\n\001\002\015\000\000\001q{\"cpu_util_total\":32.881433823529"
	"413,\"cpu_util_user\":0,\"cpu_util_system\":32.835477941176471,\"s"
	"ender_has_retransmits\":1,\"congestion_used\":\"bbr\",\"streams\":"
	"[{\"id\":1,\"bytes\":1048576,\"retransmits\":0,\"jitter\":0,\"erro"
	"rs\":0,\"packets\":0,\"start_time\":0,\"end_time\":0.004253},{\"id"
	"\":3,\"bytes\":0,\"retransmits\":0,\"jitter\":0,\"errors\":0,\"pac"
	"kets\":0,\"start_time\":0,\"end_time\":0.004286}]}\016";
#define G_REV_S2C_LEN 379
/* everything the client wrote */
static const char g_rev_c2s[] G_UNUSED =
	"7nb3gldx3lc7hbupawc2yotggoqu54dgxp6q\000\000\000\000\220{\"tcp\":t"
	"rue,\"omit\":0,\"time\":0,\"num\":1048576,\"blockcount\":0,\"paral"
	"lel\":2,\"reverse\":true,\"len\":131072,\"pacing_timer\":1000,\"cl"
	"ient_version\":\"3.12\"}\004\000\000\001\250{\"cpu_util_total\":38"
	".7497731809109,\"cpu_util_user\":38.695336599528218,\"cpu_util_sys"
	"tem\":0,\"sender_has_retransmits\":18446744073709551615,\"congesti"
	"on_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":1048576,\"retra"
	"nsmits\":18446744073709551615,\"jitter\":0,\"errors\":0,\"packets"
	"\":0,\"start_time\":0,\"end_time\":0.003596},{\"id\":3,\"bytes\":0"
	",\"retransmits\":18446744073709551615,\"jitter\":0,\"errors\":0,\""
	"packets\":0,\"start_time\":0,\"end_time\":0.003672}]}\020";
#define G_REV_C2S_LEN 615

/* iperf3 -c ... -u -b 1M -t 1 -l 200 --get-server-output --udp-counters-64bit
 * -O 1 -w 100K */
static const char g_json_params[] G_UNUSED =
	"{\"udp\":true,\"omit\":1,\"time\":1,\"num\":0,\"blockcount\":0,\"p"
	"arallel\":1,\"window\":102400,\"len\":200,\"bandwidth\":1000000,\""
	"pacing_timer\":1000,\"get_server_output\":1,\"udp_counters_64bit\""
	":1,\"client_version\":\"3.12\"}";
static const char g_json_client_results[] G_UNUSED =
	"{\"cpu_util_total\":5.7186584742699758,\"cpu_util_user\":0,\"cpu_u"
	"til_system\":5.7174121664568718,\"sender_has_retransmits\":0,\"str"
	"eams\":[{\"id\":1,\"bytes\":125000,\"retransmits\":184467440737095"
	"51615,\"jitter\":0,\"errors\":0,\"packets\":1250,\"start_time\":0,"
	"\"end_time\":1.000043}]}";
static const char g_json_server_results[] G_UNUSED =
	"{\"cpu_util_total\":3.5800442295438364,\"cpu_util_user\":0,\"cpu_u"
	"til_system\":3.578894761172958,\"sender_has_retransmits\":18446744"
	"073709551615,\"server_output_text\":\"Accepted connection from 127"
	".0.0.1, port 39478\\n[  5] local 127.0.0.1 port 5299 connected to "
	"127.0.0.1 port 57497\\n[ ID] Interval           Transfer     Bitra"
	"te         Jitter    Lost/Total Datagrams\\n[  5]   0.00-1.00   se"
	"c   122 KBytes  1000 Kbits/sec  0.050 ms  0/625 (0%)  (omitted)\\n"
	"[  5]   0.00-1.00   sec   122 KBytes  1000 Kbits/sec  0.049 ms  0/"
	"625 (0%)  \\n- - - - - - - - - - - - - - - - - - - - - - - - -\\n["
	" ID] Interval           Transfer     Bitrate         Jitter    Los"
	"t/Total Datagrams\\n[  5]   0.00-1.00   sec   122 KBytes  1000 Kbi"
	"ts/sec  0.049 ms  0/625 (0%)  receiver\\n\",\"streams\":[{\"id\":1"
	",\"bytes\":125000,\"retransmits\":18446744073709551615,\"jitter\":"
	"4.89595077235054e-05,\"errors\":0,\"packets\":1250,\"start_time\":"
	"0,\"end_time\":1.000482}]}";
/* everything the server wrote on the control connection */
static const char g_json_s2c[] G_UNUSED =
	"\011\n\001\002\015\000\000\003\220{\"cpu_util_total\":3.5800442295"
	"438364,\"cpu_util_user\":0,\"cpu_util_system\":3.578894761172958,"
	"\"sender_has_retransmits\":18446744073709551615,\"server_output_te"
	"xt\":\"Accepted connection from 127.0.0.1, port 39478\\n[  5] loca"
	"l 127.0.0.1 port 5299 connected to 127.0.0.1 port 57497\\n[ ID] In"
	"terval           Transfer     Bitrate         Jitter    Lost/Total"
	" Datagrams\\n[  5]   0.00-1.00   sec   122 KBytes  1000 Kbits/sec "
	" 0.050 ms  0/625 (0%)  (omitted)\\n[  5]   0.00-1.00   sec   122 K"
	"Bytes  1000 Kbits/sec  0.049 ms  0/625 (0%)  \\n- - - - - - - - - "
	"- - - - - - - - - - - - - - - -\\n[ ID] Interval           Transfe"
	"r     Bitrate         Jitter    Lost/Total Datagrams\\n[  5]   0.0"
	"0-1.00   sec   122 KBytes  1000 Kbits/sec  0.049 ms  0/625 (0%)  r"
	"eceiver\\n\",\"streams\":[{\"id\":1,\"bytes\":125000,\"retransmits"
	"\":18446744073709551615,\"jitter\":4.89595077235054e-05,\"errors\""
	":0,\"packets\":1250,\"start_time\":0,\"end_time\":1.000482}]}\016";
#define G_JSON_S2C_LEN 922
/* everything the client wrote */
static const char g_json_c2s[] G_UNUSED =
	"j3p4zuunrm3uo4ml3vaqs53mz75fvvn34x7h\000\000\000\000\311{\"udp\":t"
	"rue,\"omit\":1,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":"
	"1,\"window\":102400,\"len\":200,\"bandwidth\":1000000,\"pacing_tim"
	"er\":1000,\"get_server_output\":1,\"udp_counters_64bit\":1,\"clien"
	"t_version\":\"3.12\"}\004\000\000\001\006{\"cpu_util_total\":5.718"
	"6584742699758,\"cpu_util_user\":0,\"cpu_util_system\":5.7174121664"
	"568718,\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes"
	"\":125000,\"retransmits\":18446744073709551615,\"jitter\":0,\"erro"
	"rs\":0,\"packets\":1250,\"start_time\":0,\"end_time\":1.000043}]}"
	"\020";
#define G_JSON_C2S_LEN 510

#endif /* IPERF3_GOLDEN_H */
