import TrustBackendKit
internal import CBotanShim

/// Botan called as ``BotanBackend`` calls it with ``settings`` (by default
/// ``BotanBackend/Settings/tlsClient``), in C++ (`cbotan_loop`): every certificate parsed on every
/// iteration when cold, once when warm, then `x509_path_validate` with the same restrictions, usage,
/// host and time. With ``BotanBackend/Settings/legacy`` it is `botan-legacy`'s fidelity reference:
/// Botan's TLS client as an application whose `TLS::Policy` lowers `minimum_signature_strength()` to
/// 80 has it verify (`TLS::Callbacks::tls_verify_cert_chain`, src/lib/tls/tls_callbacks.cpp, passes
/// the policy's strength to `Path_Validation_Restrictions`).
struct BotanBaselineLoop: BaselineLoop {
    /// The settings the loop asks Botan with.
    var settings: BotanBackend.Settings = .tlsClient

    /// The settings' name and `-c`: `botan-c`, `botan-legacy-c`.
    var label: String { settings.name + "-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        var parameters = cbotan_parameters()
        guard BotanBackend.representableTimes.contains(unixTime) else { return nil }
        parameters.seconds = unixTime
        parameters.minimum_strength = settings.minimumStrength
        parameters.usage = settings.usage == .tlsServer ? Int32(CBOTAN_USAGE_TLS_SERVER_AUTH) : Int32(CBOTAN_USAGE_UNSPECIFIED)
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
