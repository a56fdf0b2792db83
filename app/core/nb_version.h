/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NB_VERSION_H
#define NB_VERSION_H

#define NB_VERSION "0.1.0"

#endif /* NB_VERSION_H */
