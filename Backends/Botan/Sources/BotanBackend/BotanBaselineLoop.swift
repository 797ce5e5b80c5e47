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
        run(chain: chain, anchors: anchors, crls: [], ocsp: [], requireRevocation: (false, false), host: host, unixTime: unixTime, cold: cold, iterations: iterations)
    }

    /// ``run(chain:anchors:host:unixTime:cold:iterations:)`` with CRLs and OCSP responses (DER),
    /// read once before the loop, and `Path_Validation_Restrictions`' `require_rev` and
    /// `ocsp_all_intermediates`; nil also when a CRL or response does not decode.
    func run(chain: [[UInt8]], anchors: [[UInt8]], crls: [[UInt8]], ocsp: [[UInt8]], requireRevocation: (leaf: Bool, intermediates: Bool),
             host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        var parameters = cbotan_parameters()
        guard BotanBackend.representableTimes.contains(unixTime) else { return nil }
        parameters.seconds = unixTime
        parameters.minimum_strength = settings.minimumStrength
        parameters.usage = settings.usage == .tlsServer ? Int32(CBOTAN_USAGE_TLS_SERVER_AUTH) : Int32(CBOTAN_USAGE_UNSPECIFIED)
        parameters.require_revocation = requireRevocation.leaf ? 1 : 0
        parameters.require_revocation_of_intermediates = requireRevocation.intermediates ? 1 : 0
        parameters.search_limit = settings.pathSearchLimit
        let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(chain) { chainPointers, chainLengths in
                withCBufferArrays(crls) { crlPointers, crlLengths in
                    withCBufferArrays(ocsp) { ocspPointers, ocspLengths in
                        withUnsafePointer(to: &parameters) { parametersPointer in
                            if let host {
                                return host.withCString { cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, ocspPointers, ocspLengths, ocsp.count, $0, parametersPointer, cold ? 1 : 0, iterations) }
                            }
                            return cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, ocspPointers, ocspLengths, ocsp.count, nil, parametersPointer, cold ? 1 : 0, iterations)
                        }
                    }
                }
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
