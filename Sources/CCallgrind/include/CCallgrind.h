#ifndef CCALLGRIND_H
#define CCALLGRIND_H

#include <stdint.h>

// Valgrind's client requests for callgrind, as functions: the requests are macros of inline assembly
// (valgrind/valgrind.h and valgrind/callgrind.h, copied from Valgrind 3.19 under their BSD-style
// licence, as Valgrind intends), which Swift cannot import. Outside Valgrind each is a few
// instructions that do nothing.

// Whether this process runs under any Valgrind tool (RUNNING_ON_VALGRIND): 0 when it does not.
unsigned ccallgrind_running_on_valgrind(void);
// Sets callgrind's cost counters of every thread to zero (CALLGRIND_ZERO_STATS).
void ccallgrind_zero_stats(void);
// Writes callgrind's counters since the last zeroing or dump to its next dump file, with `label`
// as the dump's reason (CALLGRIND_DUMP_STATS_AT); the file is complete when this returns.
void ccallgrind_dump_stats_at(const char *label);

#endif
