#include "CCallgrind.h"
#include "valgrind/callgrind.h"

unsigned ccallgrind_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }

void ccallgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }

void ccallgrind_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
