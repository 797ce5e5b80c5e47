import TrustBackendKit
internal import CBotanShim

/// `botan-ffi`'s fidelity reference: Botan's own C interface called as a C application verifies a
/// server's chain with it (`cbotan_ffi_verify`, cbotan_ffi.cpp): `botan_x509_cert_load` for every
/// anchor and presented certificate, then `botan_x509_cert_verify` (src/lib/ffi/ffi_cert.cpp) with the
/// leaf, the other presented certificates as intermediates, the anchors as trusted certificates, the
/// settings' minimum strength (110, what Botan takes for 0), the host and the request's time.
/// Botan validates for `Usage_Type::UNSPECIFIED` there, the usage ``BotanBackend/Settings/ffi`` names.
/// A request's CRLs are loaded with `botan_x509_crl_load` and the call is then
/// `botan_x509_cert_verify_with_crl`, which takes them in its one mode, soft-fail.
struct BotanFFIReference: FidelityReference {
    /// The settings whose strength is asked for.
    var settings: BotanBackend.Settings = .ffi

    var label: String { settings.name + "-c" }

    /// CRLs, in the C interface's one mode (`Path_Validation_Restrictions(false, ...)`).
    var features: Set<BackendFeature> { [.revocationLists, .softFailRevocation] }

    /// Trusted when `botan_x509_cert_verify` returns 0; nil for a time the call cannot take: its
    /// `reference_time` is unsigned seconds with 0 meaning now, and Botan's clock holds nanoseconds
    /// in 64 bits (``BotanBackend/representableTimes``). An IP host is passed as text, as the back end
    /// passes it.
    func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool? {
        guard request.unixTime > 0, BotanBackend.representableTimes.contains(request.unixTime) else { return nil }
        let host: String? = request.host?.description
        let crls = request.revocationLists
        let result = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
            withCBufferArrays(request.chain) { chainPointers, chainLengths in
                withCBufferArrays(crls) { crlPointers, crlLengths in
                    if let host {
                        return host.withCString { cbotan_ffi_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, request.chain.count, crlPointers, crlLengths, crls.count, $0, settings.minimumStrength, UInt64(request.unixTime)) }
                    }
                    return cbotan_ffi_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, request.chain.count, crlPointers, crlLengths, crls.count, nil, settings.minimumStrength, UInt64(request.unixTime))
                }
            }
        }
        return result == 1
    }
}
