/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A --vdev network device that EAL was given but did not create (its
 * probe failed: EAL logs the driver's line and carries on, and the tool
 * would only find a port missing): which one, and why when it can be
 * told: a memif server's socket file already in use by another process,
 * or left behind by one that has gone; an af_packet interface that does
 * not exist in this network namespace.
 */
#ifndef NB_VDEV_CHECK_H
#define NB_VDEV_CHECK_H

#include <stddef.h>

/* 0 when every net_ --vdev is a port; else -ENODEV and err says which
 * did not come up and why. */
int nb_vdev_check(char *err, size_t errlen);

#endif /* NB_VDEV_CHECK_H */
