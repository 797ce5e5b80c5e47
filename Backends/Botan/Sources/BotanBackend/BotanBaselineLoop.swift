import TrustBackendKit
internal import CBotanShim

/// Botan called as ``BotanBackend`` calls it with ``BotanBackend/Settings/tlsClient``, in C++
/// (`cbotan_loop`): every certificate parsed on every iteration when cold, once when warm, then
/// `x509_path_validate` with the same restrictions, usage, host and time.
struct BotanBaselineLoop: BaselineLoop {
    var label: String { "botan-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let settings = BotanBackend.Settings.tlsClient
        var parameters = cbotan_parameters()
        guard BotanBackend.representableTimes.contains(unixTime) else { return nil }
        parameters.seconds = unixTime
        parameters.minimum_strength = settings.minimumStrength
        parameters.usage = Int32(CBOTAN_USAGE_TLS_SERVER_AUTH)
        parameters.require_revocation = 0
        parameters.search_limit = settings.pathSearchLimit
        let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(chain) { chainPointers, chainLengths in
                withUnsafePointer(to: &parameters) { parametersPointer in
                    if let host {
                        return host.withCString { cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, $0, parametersPointer, cold ? 1 : 0, iterations) }
                    }
                    return cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, nil, parametersPointer, cold ? 1 : 0, iterations)
                }
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
