/* SPDX-License-Identifier: BSD-3-Clause */
#include "nb_log.h"

RTE_LOG_REGISTER(nb_logtype, nbench, INFO);
