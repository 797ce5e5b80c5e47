#ifndef CBASELINES_BASELINE_CLOCK_H
#define CBASELINES_BASELINE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic nanoseconds, for timing a loop (never the validation time). */
static inline uint64_t th_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

#endif /* CBASELINES_BASELINE_CLOCK_H */
