import TrustBackendKit
internal import CMbedTLSBridge

/// mbedTLS called as the back end calls it, in C (`cmbedtls_loop`): with this thread's clock pinned to
/// the request's time, parse the presented chain, `mbedtls_x509_crt_verify_with_profile` with the
/// default profile and the host, `mbedtls_ssl_check_cert_usage` for a TLS server, free; the anchors
/// parsed anew every iteration when cold, once when warm (as the back end keeps them).
struct MbedTLSBaselineLoop: BaselineLoop {
    var label: String { "mbedtls-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(chain) { chainPointers, chainLengths in
                if let host {
                    return host.withCString { cmbedtls_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, $0, unixTime, cold ? 1 : 0, iterations) }
                }
                return cmbedtls_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, nil, unixTime, cold ? 1 : 0, iterations)
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
