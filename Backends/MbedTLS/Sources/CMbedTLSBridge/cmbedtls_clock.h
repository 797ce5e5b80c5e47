// The per-thread validation clock of cmbedtls_clock.c, for the bridge's own C files only.
#ifndef CMBEDTLS_CLOCK_H
#define CMBEDTLS_CLOCK_H

#include <time.h>

/// What a thread's clock read before `cmbedtls_clock_pin`, for `cmbedtls_clock_restore`.
typedef struct cmbedtls_clock_state {
    int pinned;
    time_t time;
} cmbedtls_clock_state;

/// Points libmbedx509's reference to time() at the bridge's clock (once); the number of slots
/// rewritten (0: not found, so no pin reaches mbedTLS).
int cmbedtls_clock_install(void);

/// Makes every `time()` call libmbedx509 makes on this thread return `unix_time` until `cmbedtls_clock_restore`;
/// returns what was in effect before (pins nest).
cmbedtls_clock_state cmbedtls_clock_pin(time_t unix_time);
void cmbedtls_clock_restore(cmbedtls_clock_state previous);

#endif
