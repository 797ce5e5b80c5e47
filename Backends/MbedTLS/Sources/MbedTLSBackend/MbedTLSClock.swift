internal import CMbedTLSBridge

/// Whether each verification's own time reaches mbedTLS (see cmbedtls_clock.c).
///
/// mbedTLS 2.28 reads the time only through `time()`, and Debian's build offers no hook
/// (`MBEDTLS_PLATFORM_TIME_ALT` is off, so there is no `mbedtls_platform_set_time`). The bridge
/// defines `time()` in the executable, which ELF symbol interposition makes the definition
/// libmbedx509 calls, answering a thread-local pinned time during a verification and the real clock
/// otherwise. That the interposition took is checked here once, by asking mbedTLS's own
/// `mbedtls_x509_time_is_past` and `_is_future` under two pinned times; if it did not (this target
/// built into a shared object that does not come first in the lookup scope), nothing is evaluated.
enum MbedTLSClock {
    /// Checked once per process, on first use.
    static let reachesMbedTLS: Bool = cmbedtls_clock_reaches_mbedtls() == 1

    static let unavailableReason = "mbedTLS 2.28 reads the validation time only through time(), which this process's build does not route to the request's time (the bridge's time() is not the definition libmbedx509 binds: mbedtls_x509_time_is_past did not follow a pinned time); evaluating would check validity periods at the real time instead of the request's, so nothing is evaluated"
}
