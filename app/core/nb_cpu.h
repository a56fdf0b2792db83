/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU time a process used over a test, as iperf3's end.cpu_utilization_percent
 * reports it: user and system time over wall time, in percent of one CPU (a
 * process with two busy lcores shows about 200).  Measured with getrusage()
 * by app/run; carried in the results blob for the remote end.
 */
#ifndef NB_CPU_H
#define NB_CPU_H

#include <stdint.h>

struct nb_cpu_usage {
	uint64_t wall_ns;   /* 0: not measured */
	uint64_t user_ns;   /* CPU time in user mode, all threads */
	uint64_t system_ns; /* ... in the kernel */
};

/* 100 x part / wall; 0 when nothing was measured. */
static inline double
nb_cpu_percent(const struct nb_cpu_usage *u, uint64_t part)
{
	return u->wall_ns ? 100.0 * (double)part / (double)u->wall_ns : 0.0;
}

#endif /* NB_CPU_H */
