import TrustBackendKit
internal import CMbedTLSBridge

/// mbedTLS called as the back end calls it with ``settings`` (by default
/// ``MbedTLSBackend/Settings/tlsClient``), in C (`cmbedtls_loop`): with this thread's clock pinned to
/// the request's time, parse the presented chain, `mbedtls_x509_crt_verify_with_profile` with the
/// settings' profile and the host, `mbedtls_ssl_check_cert_usage` for a TLS server (when the settings
/// check it), free; the anchors parsed once (as the back end keeps them). As a fidelity reference
/// (``MbedTLSReference``) it also takes the request's CRLs, each parsed once with
/// `mbedtls_x509_crl_parse_der` and given as `ca_crl`. With
/// ``MbedTLSBackend/Settings/suiteB`` it is `mbedtls-suiteb`'s fidelity reference: what mbedTLS's TLS
/// client configured with `MBEDTLS_SSL_PRESET_SUITEB` verifies (`mbedtls_ssl_config_defaults` sets
/// `mbedtls_x509_crt_profile_suiteb` as the certificate profile, library/ssl_tls.c).
struct MbedTLSBaselineLoop: BaselineLoop {
    /// The settings the loop asks mbedTLS with.
    var settings: MbedTLSBackend.Settings = .tlsClient

    /// The settings' name and `-c`: `mbedtls-c`, `mbedtls-suiteb-c`.
    var label: String { settings.name + "-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        run(chain: chain, anchors: anchors, crls: [], host: host, unixTime: unixTime, cold: cold, iterations: iterations)
    }

    /// ``run(chain:anchors:host:unixTime:cold:iterations:)`` with `crls` (DER) as `ca_crl`; nil also
    /// when a CRL does not parse.
    func run(chain: [[UInt8]], anchors: [[UInt8]], crls: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let profile = MbedTLSEvaluator.profile(settings.profile)
        let usage = settings.checksServerUsage ? Int32(CMBEDTLS_USAGE_TLS_SERVER) : Int32(CMBEDTLS_USAGE_ANY)
        let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(chain) { chainPointers, chainLengths in
                withCBufferArrays(crls) { crlPointers, crlLengths in
                    if let host {
                        return host.withCString { cmbedtls_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, $0, unixTime, profile, usage, cold ? 1 : 0, iterations) }
                    }
                    return cmbedtls_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, nil, unixTime, profile, usage, cold ? 1 : 0, iterations)
                }
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
