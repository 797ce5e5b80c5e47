import TrustBackendKit
internal import CWolfSSLBridge

/// wolfSSL called as the back end calls it, in C (`cwolfssl_loop`): per iteration a new certificate
/// manager, the anchors loaded, the chain verified top down with its verified CAs loaded, the leaf
/// verified and the host checked, then freed. wolfSSL keeps nothing between verifications that a
/// later request may use (see ``WolfSSLBackend``), so cold and warm loops are the same loop.
struct WolfSSLBaselineLoop: BaselineLoop {
    var label: String { "wolfssl-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        guard !chain.isEmpty else { return nil }
        let text = host.map { WolfSSLHost(HostIdentity($0)) }
        let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(chain) { chainPointers, chainLengths in
                if let text {
                    return text.text.withCString { cwolfssl_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, $0, text.isAddress ? 1 : 0, unixTime, iterations) }
                }
                return cwolfssl_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, nil, 0, unixTime, iterations)
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
