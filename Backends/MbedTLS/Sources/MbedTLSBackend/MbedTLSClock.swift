internal import CMbedTLSBridge

/// Whether each verification's own time reaches mbedTLS (see cmbedtls_clock.c).
///
/// mbedTLS 2.28 reads the time only through `time()`, and Debian's build offers no hook
/// (`MBEDTLS_PLATFORM_TIME_ALT` is off, so there is no `mbedtls_platform_set_time`). The bridge
/// points libmbedx509's own global-offset-table slot for `time` at a clock that answers a
/// thread-local pinned time during a verification and the real clock otherwise; no symbol named
/// `time` is defined, so no other library or code in the process reaches that clock. That the slot
/// was found and the pin reaches mbedTLS is checked here once, by asking mbedTLS's own
/// `mbedtls_x509_time_is_past` and `_is_future` under two pinned times; if it did not, nothing is
/// evaluated.
enum MbedTLSClock {
    /// Checked once per process, on first use.
    static let reachesMbedTLS: Bool = cmbedtls_clock_reaches_mbedtls() == 1

    static let unavailableReason = "mbedTLS 2.28 reads the validation time only through time(), which this process's build does not route to the request's time (libmbedx509's relocation of time() was not found or not rewritten: mbedtls_x509_time_is_past did not follow a pinned time); evaluating would check validity periods at the real time instead of the request's, so nothing is evaluated"
}
