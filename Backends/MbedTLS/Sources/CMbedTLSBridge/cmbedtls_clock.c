// The validation time of each mbedTLS verification, per thread.
//
// mbedTLS 2.28 reads the time in exactly one place for X.509: x509_get_current_time (library/x509.c)
// calls mbedtls_time(NULL), which, without MBEDTLS_PLATFORM_TIME_ALT or _MACRO, is the C library's
// time() (include/mbedtls/platform_time.h). Debian's build leaves both off (config.h lines 228 and
// 3820 are commented out), so libmbedx509.so.1 imports `time` from glibc (`nm -D`: U time@GLIBC_2.2.5)
// and there is no mbedtls_platform_set_time to hook.
//
// So this file defines `time` itself. Linked into the executable, its definition is the one the
// dynamic linker binds libmbedx509's reference to (ELF symbol interposition: the executable comes
// first in the global lookup scope, and a versioned reference binds an unversioned definition). It
// answers from a thread-local variable while the calling thread is inside a verification that pinned
// it (cmbedtls_verify, cmbedtls_loop) and from the real clock otherwise, so every other caller of
// time() in the process, on every thread, keeps the real time, and verifications on other threads at
// other times each read their own. mbedTLS's verification is synchronous on its caller's thread, so
// the pin covers every clock read of that verification and nothing else.
//
// Whether the binding took (a library build of this target loaded where the executable's symbols do
// not come first would not interpose) is checked, not assumed: cmbedtls_clock_reaches_mbedtls asks
// mbedTLS's own mbedtls_x509_time_is_past/_is_future under two pinned times, and the back end refuses
// to evaluate when they do not follow the pin.
#include "cmbedtls_clock.h"
#include "cmbedtls_bridge.h"

#include <mbedtls/x509.h>

static _Thread_local int pinned;
static _Thread_local time_t pinned_time;

time_t time(time_t *out) {
    time_t now;
    if (pinned) {
        now = pinned_time;
    } else {
        // glibc's time() on Linux reads the vDSO's coarse real-time clock; this is the same clock.
        struct timespec ts;
        if (clock_gettime(CLOCK_REALTIME_COARSE, &ts) == 0 || clock_gettime(CLOCK_REALTIME, &ts) == 0) {
            now = ts.tv_sec;
        } else {
            now = (time_t)-1;
        }
    }
    if (out) *out = now;
    return now;
}

cmbedtls_clock_state cmbedtls_clock_pin(time_t unix_time) {
    cmbedtls_clock_state previous = { pinned, pinned_time };
    pinned_time = unix_time;
    pinned = 1;
    return previous;
}

void cmbedtls_clock_restore(cmbedtls_clock_state previous) {
    pinned_time = previous.time;
    pinned = previous.pinned;
}

int cmbedtls_clock_reaches_mbedtls(void) {
    const mbedtls_x509_time y2000 = { 2000, 1, 1, 0, 0, 0 };
    cmbedtls_clock_state previous = cmbedtls_clock_pin(0);                    // 1970-01-01
    int past_in_1970 = mbedtls_x509_time_is_past(&y2000);
    int future_in_1970 = mbedtls_x509_time_is_future(&y2000);
    cmbedtls_clock_pin((time_t)4102444800);                                   // 2100-01-01
    int past_in_2100 = mbedtls_x509_time_is_past(&y2000);
    int future_in_2100 = mbedtls_x509_time_is_future(&y2000);
    cmbedtls_clock_restore(previous);
    return past_in_1970 == 0 && future_in_1970 == 1 && past_in_2100 == 1 && future_in_2100 == 0;
}
