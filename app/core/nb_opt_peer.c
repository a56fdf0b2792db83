/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The value parsers of the peer-test options and the responder's policy:
 * the peer's address, the key file (read and checked here, before EAL),
 * --allow lists and the caps.  The table (nb_opt_table.c) points here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nb_opt_values.h"
#include "nb_options.h"
#include "nb_stack.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

int
nb_opt_impair(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return nb_impair_parse(val, &cfg->impair, why, whylen);
}

int
nb_opt_max_streams(struct nb_config *cfg, const char *val, char *why,
		   size_t whylen)
{
	return nb_opt_count(&cfg->max_streams, NB_MAX_STREAMS, val, why,
			    whylen);
}

int
nb_opt_peer_timeout(struct nb_config *cfg, const char *val, char *why,
		    size_t whylen)
{
	if (nb_opt_seconds(&cfg->peer_timeout, 600, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->peer_timeout < 0.1) {
		WHY("at least 0.1 s");
		return -EINVAL;
	}
	return 0;
}

/* --peer IP,IP,...: the responders of a mesh across several hosts. */
static int
peer_list(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	char ip[32];
	uint32_t addr[NB_MESH_MAX_PEERS];
	unsigned int n = 0, k;

	while (*val != '\0') {
		size_t len = strcspn(val, ",");

		if (n == NB_MESH_MAX_PEERS) {
			WHY("at most 15 responders (a mesh has 16 ports, one "
			    "of them this host's)");
			return -EINVAL;
		}
		if (len == 0 || len >= sizeof(ip)) {
			WHY("expected responders' IPv4 addresses separated "
			    "by commas (198.18.0.2,198.18.0.3)");
			return -EINVAL;
		}
		memcpy(ip, val, len);
		ip[len] = '\0';
		if (nb_parse_ipv4(ip, &addr[n]) != 0) {
			snprintf(why, whylen,
				 "'%s' is not an IPv4 address: several "
				 "responders are named by IPv4 address",
				 ip);
			return -EINVAL;
		}
		for (k = 0; k < n; k++)
			if (addr[k] == addr[n]) {
				snprintf(why, whylen,
					 "%s is named twice: each responder "
					 "once",
					 ip);
				return -EINVAL;
			}
		n++;
		val += len + (val[len] == ',');
		if (val[-1] == ',' && *val == '\0') {
			WHY("an address is missing after the last comma");
			return -EINVAL;
		}
	}
	cfg->peer_ip = addr[0];
	cfg->peer_is_ip = 1;
	cfg->nb_more_peers = (uint16_t)(n - 1);
	memcpy(cfg->more_peers, addr + 1, (n - 1) * sizeof(addr[0]));
	cfg->have_peer = 1;
	return 0;
}

int
nb_opt_peer(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	cfg->nb_more_peers = 0;
	if (strchr(val, ',') != NULL)
		return peer_list(cfg, val, why, whylen);
	if (nb_parse_mac(val, cfg->peer_mac) == 0) {
		cfg->peer_is_ip = 0;
	} else if (nb_parse_ipv4(val, &cfg->peer_ip) == 0 ||
		   (strchr(val, ':') != NULL &&
		    nb_opt_ipv6_addr(&cfg->peer_ip6, val) == 0)) {
		cfg->peer_is_ip = 1;
	} else {
		WHY("expected the peer's MAC address (02:00:00:00:00:02), "
		    "IPv4 address (198.19.0.1) or IPv6 address (2001:db8::2)");
		return -EINVAL;
	}
	cfg->have_peer = 1;
	return 0;
}

/* --iperf3 HOST[:PORT]: an IPv4 address and an optional port. */
int
nb_opt_iperf3(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	char host[32];
	const char *colon = strchr(val, ':');
	size_t hl = colon != NULL ? (size_t)(colon - val) : strlen(val);
	uint32_t port = 5201;

	if (hl == 0 || hl >= sizeof(host)) {
		WHY("expected the iperf3 server's IPv4 address, optionally "
		    "with a port (10.0.0.2 or 10.0.0.2:5201)");
		return -EINVAL;
	}
	memcpy(host, val, hl);
	host[hl] = '\0';
	if (nb_parse_ipv4(host, &cfg->ip3_host) != 0) {
		WHY("expected the iperf3 server's IPv4 address, optionally "
		    "with a port (10.0.0.2 or 10.0.0.2:5201)");
		return -EINVAL;
	}
	if (colon != NULL && nb_parse_u32(colon + 1, 1, 65535, &port) != 0) {
		WHY("the port after ':' must be 1..65535");
		return -EINVAL;
	}
	cfg->ip3_port = (uint16_t)port;
	cfg->iperf3 = 1;
	return 0;
}

/* --iperf3-server PORT: the TCP (and UDP) port iperf3 clients reach. */
int
nb_opt_iperf3_server(struct nb_config *cfg, const char *val, char *why,
		     size_t whylen)
{
	uint32_t port;

	if (nb_parse_u32(val, 1, 65535, &port) != 0) {
		WHY("expected the port stock iperf3 clients connect to, "
		    "1..65535 (iperf3's is 5201)");
		return -EINVAL;
	}
	cfg->ip3_port = (uint16_t)port;
	cfg->ip3_server = 1;
	return 0;
}

int
nb_opt_port(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	uint32_t v;

	if (nb_parse_u32(val, 0, NB_MAX_PORTS - 1, &v) != 0) {
		WHY("expected a port id 0..%d", NB_MAX_PORTS - 1);
		return -EINVAL;
	}
	cfg->port = (uint16_t)v;
	cfg->have_port = 1;
	return 0;
}

/*
 * --auth-key FILE: read now, before EAL starts.  A regular file of
 * NB_MIN_PSK..NB_MAX_PSK bytes once one trailing newline (LF or CRLF) is
 * dropped, that neither group nor others may read or write (as ssh
 * wants of a private key).  The key is used as it is, with no KDF: it
 * must be random (what a responder makes, or 32 bytes of /dev/urandom in
 * base64), not a passphrase (docs/security.md says why).
 */
static int
read_key(struct nb_config *cfg, const char *path, char *why, size_t whylen)
{
	uint8_t buf[NB_MAX_PSK + 3];
	struct stat st = {0};
	ssize_t n;
	size_t len = 0;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		WHY("cannot read key file %s: %s", path, strerror(errno));
		return -EINVAL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		WHY("key file %s is not a regular file%s", path,
		    S_ISDIR(st.st_mode) ? " (a directory)" : "");
		close(fd);
		return -EINVAL;
	}
	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			WHY("cannot read key file %s: %s", path,
			    strerror(errno));
			close(fd);
			return -EINVAL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len > 0 && buf[len - 1] == '\n') {
		len--;
		if (len > 0 && buf[len - 1] == '\r')
			len--;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		WHY("key file %s is open to group or others (mode %03o): "
		    "chmod 600 %s",
		    path, (unsigned int)(st.st_mode & 0777), path);
		return -EINVAL;
	}
	if (len < NB_MIN_PSK) {
		WHY("key file %s holds %zu bytes; a key is at least %d random "
		    "bytes (e.g. `(umask 077; head -c 32 /dev/urandom | "
		    "base64 > %s)`)",
		    path, len, NB_MIN_PSK, path);
		return -EINVAL;
	}
	if (len > NB_MAX_PSK) {
		WHY("key file %s holds more than %d bytes; a key is %d..%d "
		    "bytes",
		    path, NB_MAX_PSK, NB_MIN_PSK, NB_MAX_PSK);
		return -EINVAL;
	}
	memcpy(cfg->psk, buf, len);
	cfg->psk_len = (uint32_t)len;
	return 0;
}

int
nb_opt_auth_key(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	if (val[0] == '\0' || strlen(val) >= sizeof(cfg->auth_key)) {
		WHY("expected a file name of 1..%zu characters",
		    sizeof(cfg->auth_key) - 1);
		return -EINVAL;
	}
	if (read_key(cfg, val, why, whylen) != 0)
		return -EINVAL;
	strcpy(cfg->auth_key, val);
	return 0;
}

/* One --allow element: a unicast MAC, or IPv4[/LEN] with no host bits. */
static int
allow_one(struct nb_allow *a, const char *tok, char *why, size_t whylen)
{
	char ip[32];
	const char *slash = strchr(tok, '/');
	uint32_t len = 32, addr;
	size_t n = slash ? (size_t)(slash - tok) : strlen(tok);

	memset(a, 0, sizeof(*a));
	if (nb_parse_mac(tok, a->mac) == 0) {
		static const uint8_t zero[6];

		if (memcmp(a->mac, zero, 6) == 0 || (a->mac[0] & 1)) {
			WHY("%s is a %s MAC address; a client has a unicast "
			    "one",
			    tok,
			    (a->mac[0] & 1) ? "multicast or broadcast"
					    : "zero");
			return -EINVAL;
		}
		return 0;
	}
	if (n < sizeof(ip)) {
		memcpy(ip, tok, n);
		ip[n] = '\0';
	}
	if (n >= sizeof(ip) || nb_parse_ipv4(ip, &addr) != 0) {
		WHY("'%s' is neither a MAC address (02:00:00:00:00:01) nor "
		    "an IPv4 address or prefix (198.18.0.1, 198.18.0.0/15)",
		    tok);
		return -EINVAL;
	}
	if (slash != NULL && nb_parse_u32(slash + 1, 0, 32, &len) != 0) {
		WHY("'%s': a prefix length is 0..32", tok);
		return -EINVAL;
	}
	a->is_ip = 1;
	a->mask = len == 0 ? 0 : UINT32_MAX << (32 - len);
	a->ip = addr;
	if (addr & ~a->mask) {
		uint32_t net = addr & a->mask;

		WHY("'%s' has host bits set: did you mean %u.%u.%u.%u/%u?", tok,
		    net >> 24, (net >> 16) & 255, (net >> 8) & 255, net & 255,
		    len);
		return -EINVAL;
	}
	return 0;
}

/*
 * A repeatable option whose value may also be a comma-separated list (the
 * form a config file uses; "a, b" is naturally written there): each
 * element, trimmed, to one(cfg, element).  what names the elements in
 * the message for a malformed list.
 */
static int
each_in_list(struct nb_config *cfg, const char *val, const char *what,
	     int (*one)(struct nb_config *, const char *, char *, size_t),
	     char *why, size_t whylen)
{
	char buf[1024], *tok, *save = NULL;
	size_t n = strlen(val);

	if (n == 0 || n >= sizeof(buf) || val[0] == ',' || val[n - 1] == ',' ||
	    strstr(val, ",,") != NULL) {
		WHY("expected %s, or a comma-separated list of them, without "
		    "empty elements",
		    what);
		return -EINVAL;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " \t");
		n = strlen(tok);
		while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
			tok[--n] = '\0';
		if (n == 0) {
			WHY("empty element in the list");
			return -EINVAL;
		}
		if (one(cfg, tok, why, whylen) != 0)
			return -EINVAL;
	}
	return 0;
}

static int
allow_entry(struct nb_config *cfg, const char *tok, char *why, size_t whylen)
{
	if (cfg->nb_allow >= NB_MAX_ALLOW) {
		WHY("more than %d --allow entries", NB_MAX_ALLOW);
		return -EINVAL;
	}
	if (allow_one(&cfg->allow[cfg->nb_allow], tok, why, whylen))
		return -EINVAL;
	cfg->nb_allow++;
	return 0;
}

/* --allow MAC|IP[/LEN], repeatable, or a list */
int
nb_opt_allow(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	return each_in_list(cfg, val, "a MAC address or IPv4[/LEN]",
			    allow_entry, why, whylen);
}

static int
allow_vlan_entry(struct nb_config *cfg, const char *tok, char *why,
		 size_t whylen)
{
	uint32_t v;

	if (nb_parse_u32(tok, 1, 4094, &v) != 0) {
		WHY("'%s' is not a VLAN id 1..4094", tok);
		return -EINVAL;
	}
	if (cfg->nb_allow_vlan >= NB_MAX_ALLOW_VLAN) {
		WHY("more than %d --allow-vlan ids", NB_MAX_ALLOW_VLAN);
		return -EINVAL;
	}
	cfg->allow_vlan[cfg->nb_allow_vlan++] = (uint16_t)v;
	return 0;
}

/* --allow-vlan ID, repeatable, or a list */
int
nb_opt_allow_vlan(struct nb_config *cfg, const char *val, char *why,
		  size_t whylen)
{
	return each_in_list(cfg, val, "a VLAN id 1..4094", allow_vlan_entry,
			    why, whylen);
}

int
nb_opt_max_rate(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	struct nb_rate_spec r;

	if (nb_opt_rate_value(val, &r, why, whylen) != 0)
		return -EINVAL;
	if (r.kind == NB_RATE_MAX || r.kind == NB_RATE_PERCENT) {
		WHY("a responder's cap must be absolute: bits/s (10G, 9.5Gl2) "
		    "or packets/s (14.88Mpps), not %s",
		    r.kind == NB_RATE_MAX ? "max" : "a percentage of the link");
		return -EINVAL;
	}
	cfg->max_rate = r;
	return 0;
}

int
nb_opt_max_time(struct nb_config *cfg, const char *val, char *why,
		size_t whylen)
{
	if (nb_opt_seconds(&cfg->max_time, NB_MAX_TIME, val, why, whylen) != 0)
		return -EINVAL;
	if (cfg->max_time < 1) {
		WHY("expected seconds, 1..%g", NB_MAX_TIME);
		return -EINVAL;
	}
	return 0;
}

/* "IPV4:PORT" (after "tcp:"): 0, or -EINVAL with the reason. */
static int
tcp_addr(const char *v, uint32_t *ip, uint16_t *port, const char *eg, char *why,
	 size_t whylen)
{
	const char *colon = strrchr(v, ':');
	char host[64], *end;
	struct in_addr a;
	unsigned long p;

	if (colon == NULL || (size_t)(colon - v) >= sizeof(host))
		goto bad;
	memcpy(host, v, (size_t)(colon - v));
	host[colon - v] = '\0';
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (inet_pton(AF_INET, host, &a) != 1 || *end != '\0' ||
	    colon[1] == '\0' || p == 0 || p > 65535 || errno)
		goto bad;
	*ip = ntohl(a.s_addr);
	*port = (uint16_t)p;
	return 0;
bad:
	snprintf(why, whylen,
		 "tcp: takes an IPv4 address and a port 1..65535, e.g. %s", eg);
	return -EINVAL;
}

/* --api unix:PATH or tcp:IPV4:PORT (--serve's socket) */
int
nb_opt_api(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strncmp(val, "unix:", 5) == 0) {
		const char *path = val + 5;

		if (path[0] != '/' || strlen(path) >= sizeof(cfg->api_path)) {
			snprintf(why, whylen,
				 "unix: takes an absolute path under %zu "
				 "bytes",
				 sizeof(cfg->api_path));
			return -EINVAL;
		}
		strcpy(cfg->api_path, path);
		cfg->api_port = 0;
		return 0;
	}
	if (strncmp(val, "tcp:", 4) == 0) {
		cfg->api_path[0] = '\0';
		return tcp_addr(val + 4, &cfg->api_ip, &cfg->api_port,
				"tcp:127.0.0.1:7301", why, whylen);
	}
	snprintf(why, whylen, "give unix:PATH or tcp:IPV4:PORT");
	return -EINVAL;
}

/* --metrics tcp:IPV4:PORT (the /metrics endpoint) */
int
nb_opt_metrics(struct nb_config *cfg, const char *val, char *why, size_t whylen)
{
	if (strncmp(val, "tcp:", 4) != 0) {
		snprintf(why, whylen, "give tcp:IPV4:PORT");
		return -EINVAL;
	}
	return tcp_addr(val + 4, &cfg->metrics_ip, &cfg->metrics_port,
			"tcp:127.0.0.1:9301", why, whylen);
}
