/* SPDX-License-Identifier: BSD-3-Clause */
/* --capture's specification: see nb_capture_spec.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nb_capture_spec.h"
#include "nb_units.h"

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static int
key_value(struct nb_capture_spec *c, const char *k, const char *v, char *why,
	  size_t whylen)
{
	if (strcmp(k, "every") == 0) {
		if (nb_parse_u32(v, 1, 1000000000, &c->every) != 0) {
			WHY("every=%s: expected N, 1..1e9 (every Nth frame a "
			    "receiver takes in is written)",
			    v);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(k, "count") == 0) {
		if (nb_parse_count(v, &c->count) != 0 || c->count == 0 ||
		    c->count > UINT64_C(1000000000000)) {
			WHY("count=%s: expected N, 1..1e12 (K/M/G allowed): "
			    "how many frames to write at most",
			    v);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(k, "snaplen") == 0) {
		if (nb_parse_u32(v, NB_CAP_SNAPLEN_MIN, NB_CAP_SNAPLEN_MAX,
				 &c->snaplen) != 0) {
			WHY("snaplen=%s: expected bytes, %u..%u (kept of each "
			    "frame)",
			    v, NB_CAP_SNAPLEN_MIN, NB_CAP_SNAPLEN_MAX);
			return -EINVAL;
		}
		return 0;
	}
	WHY("unknown key '%s': expected every=N, count=N or snaplen=B", k);
	return -EINVAL;
}

int
nb_capture_spec_parse(const char *s, struct nb_capture_spec *out, char *why,
		      size_t whylen)
{
	struct nb_capture_spec c;
	char buf[512], *tok, *save = NULL, *comma;
	size_t plen;

	if (strlen(s) >= sizeof(buf)) {
		WHY("too long");
		return -EINVAL;
	}
	memset(&c, 0, sizeof(c));
	c.every = 1;
	c.snaplen = NB_CAP_SNAPLEN_MAX;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	plen = comma != NULL ? (size_t)(comma - buf) : strlen(buf);
	if (plen == 0) {
		WHY("expected FILE[,every=N][,count=N][,snaplen=B], e.g. "
		    "rx.pcap or rx.pcap,every=100,snaplen=128");
		return -EINVAL;
	}
	if (plen >= sizeof(c.path)) {
		WHY("the file name is longer than %zu bytes",
		    sizeof(c.path) - 1);
		return -EINVAL;
	}
	memcpy(c.path, buf, plen);
	if (comma != NULL) {
		char *rest = comma + 1;

		if (*rest == '\0' || *rest == ',' ||
		    rest[strlen(rest) - 1] == ',' ||
		    strstr(rest, ",,") != NULL) {
			WHY("expected KEY=VALUE after the file name, e.g. "
			    "%s,every=100",
			    c.path);
			return -EINVAL;
		}
		for (tok = strtok_r(rest, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');

			if (eq == NULL || eq == tok || eq[1] == '\0') {
				WHY("'%s': expected KEY=VALUE (file names "
				    "cannot hold a comma)",
				    tok);
				return -EINVAL;
			}
			*eq = '\0';
			if (key_value(&c, tok, eq + 1, why, whylen) != 0)
				return -EINVAL;
		}
	}
	c.active = 1;
	*out = c;
	return 0;
}

static const char *
ordinal(uint32_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1   ? "st"
	       : n % 10 == 2 ? "nd"
	       : n % 10 == 3 ? "rd"
			     : "th";
}

void
nb_capture_spec_text(const struct nb_capture_spec *c, char *buf, size_t len)
{
	char every[48], snap[48], count[48];

	if (c->every <= 1)
		snprintf(every, sizeof(every), "every frame");
	else
		snprintf(every, sizeof(every), "every %u%s frame", c->every,
			 ordinal(c->every));
	if (c->snaplen >= NB_CAP_SNAPLEN_MAX)
		snprintf(snap, sizeof(snap), "whole frames");
	else
		snprintf(snap, sizeof(snap), "first %u bytes", c->snaplen);
	count[0] = '\0';
	if (c->count)
		snprintf(count, sizeof(count), ", at most %llu frames",
			 (unsigned long long)c->count);
	snprintf(buf, len, "%s (%s, %s%s)", c->path, every, snap, count);
}
