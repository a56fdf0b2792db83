/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder's posture: the key it makes when none is given (secure by
 * default), the start-up line that says what it allows, the counters
 * telemetry's /nbench/responder reads, and the exit summary of what it
 * refused.  Admission itself is nb_responder.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>

#include "nb_auth.h"
#include "nb_log.h"
#include "nb_rsp_posture.h"
#include "nb_telemetry.h"

/*
 * The key file this process made, held open under an exclusive flock for
 * its life: another responder with the same file prefix (possible with
 * --in-memory or --no-shconf, which drop EAL's own lock) must neither
 * replace it nor remove it.
 */
static int key_fd = -1;

/* 1 if another live process holds the key file at path. */
static int
key_held_elsewhere(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int held;

	if (fd < 0)
		return 0;
	held = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/*
 * Secure by default: without --auth-key or --no-auth the responder makes
 * a key of its own, in a file only its owner can read, named after the
 * EAL file prefix (so two responders on a host have two keys).
 */
int
nb_rsp_make_key(struct nb_config *cfg)
{
	const char *rt = rte_eal_get_runtime_dir();
	const char *prefix =
		strrchr(rt, '/') != NULL ? strrchr(rt, '/') + 1 : rt;
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char dir[192], why[384], path[sizeof(cfg->key_made)];
	int ret;

	if (prefix[0] == '\0')
		prefix = "rte";
	if (geteuid() == 0 || xdg == NULL || xdg[0] != '/')
		snprintf(dir, sizeof(dir), "%s", NB_KEY_DIR);
	else
		snprintf(dir, sizeof(dir), "%s/dpdk-nbench", xdg);
	snprintf(path, sizeof(path), "%s/%s.key", dir, prefix);
	if (key_held_elsewhere(path)) {
		fprintf(stderr,
			"dpdk-nbench: another responder with file prefix %s "
			"holds its key %s: give this one another --file-prefix "
			"(or --auth-key FILE)\n",
			prefix, path);
		return -EBUSY;
	}
	ret = nb_auth_make_key(dir, prefix, cfg->psk, &cfg->psk_len,
			       cfg->key_made, sizeof(cfg->key_made), why,
			       sizeof(why));
	if (ret == 0) {
		key_fd = open(cfg->key_made, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (key_fd < 0 || flock(key_fd, LOCK_EX | LOCK_NB) != 0) {
			snprintf(why, sizeof(why),
				 "%s was taken by another process as it was "
				 "made",
				 cfg->key_made);
			ret = -EBUSY;
		}
	}
	if (ret != 0) {
		fprintf(stderr,
			"dpdk-nbench: cannot make the responder's key: %s; "
			"give --auth-key FILE, or --no-auth to serve clients "
			"without a key\n",
			why);
		if (key_fd >= 0)
			close(key_fd);
		key_fd = -1;
		cfg->key_made[0] = '\0';
		return ret;
	}
	return 0;
}

void
nb_rsp_drop_key(struct nb_config *cfg)
{
	struct stat mine, there;

	if (cfg->key_made[0] == '\0' || key_fd < 0)
		return;
	/* only the file we made: never one put in its place since */
	if (fstat(key_fd, &mine) == 0 && lstat(cfg->key_made, &there) == 0 &&
	    mine.st_dev == there.st_dev && mine.st_ino == there.st_ino)
		unlink(cfg->key_made);
	close(key_fd);
	key_fd = -1;
	cfg->key_made[0] = '\0';
}

void
nb_rsp_say_posture(const struct nb_config *cfg)
{
	char fp[NB_AUTH_FP_STR + 1];

	if (cfg->no_auth) {
		printf("--no-auth: any host on this segment can start tests "
		       "towards any address, up to %g %s for %g s "
		       "(--max-rate, --max-time)%s\n",
		       cfg->max_rate.kind == NB_RATE_PPS
			       ? cfg->max_rate.value
			       : cfg->max_rate.value / 1e6,
		       cfg->max_rate.kind == NB_RATE_PPS      ? "frames/s"
		       : cfg->max_rate.kind == NB_RATE_BPS_L2 ? "Mbit/s (L2)"
							      : "Mbit/s",
		       cfg->max_time,
		       cfg->allow_quit ? "; anyone may stop it (--allow-quit)"
				       : "");
		return;
	}
	nb_auth_fingerprint(cfg->psk, cfg->psk_len, fp, sizeof(fp));
	if (cfg->key_made[0] != '\0')
		printf("key %s (fingerprint %s), made for this run: clients "
		       "need a copy, --auth-key FILE\n",
		       cfg->key_made, fp);
	else
		printf("key %s (fingerprint %s): key holders only\n",
		       cfg->auth_key, fp);
}

void
nb_rsp_watch(struct nb_peer *pr)
{
	const struct nb_tel_rsp tel = {
		.io = pr->io,
		.refusals = &pr->refusals,
		.session = &pr->session,
		.opened = &pr->sessions_opened,
		.ended = &pr->sessions_ended,
		.done = &pr->sessions_done,
		.vouched = &pr->vouched.passed,
	};

	pr->app->state = "listening";
	nb_telemetry_responder(&tel);
}

/* At exit: what was refused, by cause (each was logged at most once a
 * second while it ran). */
void
nb_rsp_report_refusals(const struct nb_refusals *r)
{
	char line[1024];
	size_t at = 0;
	int c;

	nb_telemetry_responder(NULL); /* telemetry reads them no more */
	for (c = 0; c < NB_REF_MAX && at < sizeof(line); c++)
		if (r->count[c])
			at += (size_t)snprintf(
				line + at, sizeof(line) - at, "%s%s %" PRIu64,
				at ? ", " : "",
				nb_refusal_name((enum nb_refusal)c),
				r->count[c]);
	if (at)
		NB_LOG(NOTICE, "refused or ignored: %s", line);
}

uint64_t
nb_rsp_session_timeout(const struct nb_config *cfg, uint32_t asked_ms,
		       int *capped)
{
	uint64_t own = (uint64_t)(cfg->peer_timeout * 1e9);
	uint64_t cap = (uint64_t)NB_RSP_MAX_PEER_TIMEOUT_S * 1000000000u;
	uint64_t asked = (uint64_t)asked_ms * 1000000u;

	*capped = asked > cap;
	if (asked > cap)
		asked = cap;
	return asked > own ? asked : own;
}

int
nb_rsp_check_params(const struct nb_app *app, const struct nb_ctl_params *p,
		    char *why, size_t len)
{
	uint16_t i, vlan = p->vlan_id ? 4 : 0;

	for (i = 0; i < p->nb_sizes; i++) {
		if (p->sizes[i] > app->ports[0].desc.mtu + 18 + vlan &&
		    p->sizes[i] > 1518 + vlan) {
			snprintf(why, len,
				 "frame size %u exceeds the responder port's "
				 "MTU %u (start the responder with --size %u)",
				 p->sizes[i], app->ports[0].desc.mtu,
				 p->sizes[i]);
			return -EINVAL;
		}
	}
	if (p->streams > app->cfg.max_streams) {
		snprintf(why, len,
			 "%u streams asked for, this responder takes at most "
			 "%u (--max-streams)",
			 p->streams, app->cfg.max_streams);
		return -EINVAL;
	}
	/* the client's other source MACs: never this port's own, whose
	 * frames coming back would count as the client's */
	for (i = 0; i < p->client_macs.n; i++)
		if (memcmp(p->client_macs.mac[i], app->ports[0].desc.mac, 6) ==
		    0) {
			snprintf(why, len,
				 "the client names this responder's MAC "
				 "among its own");
			return -EINVAL;
		}
	return 0;
}
