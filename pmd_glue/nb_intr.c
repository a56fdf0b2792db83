/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL interrupt thread: moved beside the main lcore at start, and held
 * in a callback of ours while the ports close at exit.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_lcore.h>

#include "nb_port.h"

/*
 * An eventfd of ours that the EAL interrupt thread watches: signalled, the
 * thread runs intr_sync_cb, which counts the round and stays there while
 * hold is set.
 */
struct intr_sync {
	struct rte_intr_handle *ih;
	int fd;
	int handled;		 /* rounds the interrupt thread has seen */
	int hold;		 /* keep the thread in the callback */
	const rte_cpuset_t *pin; /* move the thread there (then pin_ret) */
	int pin_ret;
};

static void
intr_sync_cb(void *arg)
{
	struct intr_sync *is = arg;
	uint64_t v;

	if (read(is->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return;
	if (is->pin != NULL)
		is->pin_ret = -pthread_setaffinity_np(
			pthread_self(), sizeof(*is->pin), is->pin);
	__atomic_add_fetch(&is->handled, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&is->hold, __ATOMIC_ACQUIRE))
		rte_delay_us_sleep(50);
}

static int
intr_sync_open(struct intr_sync *is)
{
	memset(is, 0, sizeof(*is));
	is->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	is->ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (is->fd >= 0 && is->ih != NULL &&
	    rte_intr_fd_set(is->ih, is->fd) == 0 &&
	    rte_intr_type_set(is->ih, RTE_INTR_HANDLE_EXT) == 0 &&
	    rte_intr_callback_register(is->ih, intr_sync_cb, is) == 0)
		return 0;
	rte_intr_instance_free(is->ih);
	if (is->fd >= 0)
		close(is->fd);
	is->ih = NULL;
	return -1;
}

/*
 * Signal the thread and wait until it has run the callback (with hold set,
 * it is then held there).  1 s at most: a thread that never comes is not
 * waited for.
 */
static int
intr_sync_round(struct intr_sync *is)
{
	uint64_t one = 1, give_up = rte_get_timer_cycles() + rte_get_timer_hz();
	int seen = __atomic_load_n(&is->handled, __ATOMIC_ACQUIRE);

	if (is->ih == NULL ||
	    write(is->fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		return -1;
	while (__atomic_load_n(&is->handled, __ATOMIC_ACQUIRE) == seen)
		if (rte_get_timer_cycles() >= give_up)
			return -1;
		else
			rte_delay_us_sleep(50);
	return 0;
}

/*
 * Let the thread go, and return once it has handled what was pending: two
 * rounds, the second signalled after the thread saw the first (an fd that
 * is readable now is handled in the first round or an earlier one); then
 * take our source away (here, not at rte_eal_cleanup(), which would free
 * memory the thread still looks at).
 */
static void
intr_sync_close(struct intr_sync *is)
{
	if (is->ih == NULL)
		return;
	__atomic_store_n(&is->hold, 0, __ATOMIC_RELEASE);
	if (intr_sync_round(is) == 0)
		intr_sync_round(is);
	rte_intr_callback_unregister_sync(is->ih, intr_sync_cb, is);
	rte_intr_instance_free(is->ih);
	close(is->fd);
	is->ih = NULL;
}

int
nb_intr_thread_beside_main(void)
{
	rte_cpuset_t set = rte_lcore_cpuset(rte_get_main_lcore());
	struct intr_sync is;
	int ret;

	if (rte_thread_is_intr() || intr_sync_open(&is) != 0)
		return -ENOTSUP;
	is.pin = &set;
	ret = intr_sync_round(&is) == 0 ? is.pin_ret : -ETIMEDOUT;
	is.pin = NULL;
	intr_sync_close(&is);
	return ret;
}

/*
 * At exit: stop every port, then close them in the reverse order of their
 * set-up, while the EAL interrupt thread is held in a callback of ours.
 * memif handles a peer's disconnect on that thread (memif_intr_handler ->
 * memif_disconnect -> memif_free_regions) with no lock against
 * memif_dev_stop: when the other end of a pair stopped (our own other
 * port, or the peer process leaving) while this thread stopped this end,
 * both freed its regions ("EAL: Error: Invalid memory").  Held, the thread
 * runs no driver callback until the ports are closed, and the closes
 * unregister the drivers' callbacks, so none runs after.
 */
void
nb_ports_shutdown(struct nb_port *ports, uint16_t n)
{
	struct intr_sync is = {.ih = NULL};
	uint16_t i;

	if (n == 0)
		return;
	if (!rte_thread_is_intr() && intr_sync_open(&is) == 0) {
		is.hold = 1;
		if (intr_sync_round(&is) != 0)
			is.hold = 0;
	}
	for (i = 0; i < n; i++) {
		if (!ports[i].started)
			continue;
		rte_eth_dev_stop(ports[i].desc.port_id);
		ports[i].started = 0;
	}
	for (i = n; i > 0; i--)
		rte_eth_dev_close(ports[i - 1].desc.port_id);
	intr_sync_close(&is);
}

/*
 * Just before rte_eal_cleanup(): let the interrupt thread finish the
 * rebuilds of its list that are still pending, and leave none to come.
 * Each (un)registration of a source writes to the thread's pipe, and the
 * thread then rebuilds its epoll set from the list of sources, reading
 * each source's handle.  rte_eal_cleanup() frees handles of sources still
 * on that list (the alarms' timerfd) and unmaps hugepage memory, so a
 * rebuild that comes after it (the thread slow to get its CPU after our
 * last unregistration, in nb_ports_shutdown) read freed memory: a SEGV in
 * rte_intr_fd_get on the interrupt thread at exit, about once in ten ASan
 * runs with dpdk-dumpcap attached.  So: a source of ours, registered (the
 * thread rebuilds before it can see it) and signalled until the thread
 * has run its callback, then left registered, as unregistering would ask
 * for one more rebuild.  The thread goes on serving alarms and the
 * multi-process channel's asynchronous requests (a secondary leaving)
 * meanwhile, which holding it would not.
 */
void
nb_intr_quiesce(void)
{
	static struct intr_sync last = {.ih = NULL};

	if (last.ih != NULL || rte_thread_is_intr() ||
	    intr_sync_open(&last) != 0)
		return;
	if (intr_sync_round(&last) == 0)
		intr_sync_round(&last);
}
