import TrustBackendKit

/// The fidelity reference of `botan` and `botan-legacy`: the bare C++ loop (``BotanBaselineLoop``)
/// run once, cold, as Botan's TLS client calls `x509_path_validate` with the settings' strength and
/// usage, and with the request's revocation inputs as an application hands them to Botan: its CRLs
/// in a `Certificate_Store_In_Memory` among the trusted stores, its OCSP responses as `ocsp_resp`,
/// and `Path_Validation_Restrictions(require_rev, strength, ocsp_all_intermediates)` for its mode
/// (``BotanBackend/Settings/Revocation``). Trusted when the loop says Botan validated the chain; an
/// IP host is passed as text, as the back end passes it; nil for a time Botan's clock cannot hold.
struct BotanReference: FidelityReference {
    /// The loop, with the settings whose strength, usage and revocation API are asked for.
    var loop: BotanBaselineLoop

    init(settings: BotanBackend.Settings) {
        loop = BotanBaselineLoop(settings: settings)
    }

    /// The loop's label: `botan-c`, `botan-legacy-c`.
    var label: String { loop.label }

    /// The revocation inputs and modes of the settings' API.
    var features: Set<BackendFeature> { loop.settings.revocationFeatures }

    func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool? {
        guard BotanBackend.representableTimes.contains(request.unixTime) else { return nil }
        let host: String? = switch request.host {
        case nil: nil
        case .dns(let name)?: name
        case .ipAddress(let bytes)?: IPAddressParser.format(bytes)
        }
        let restrictions = loop.settings.revocationRestrictions(for: request)
        return loop.run(chain: request.chain, anchors: anchors, crls: request.revocationLists, ocsp: request.ocspResponses,
                        requireRevocation: (restrictions.requireRevocation, restrictions.ofIntermediates),
                        host: host, unixTime: request.unixTime, cold: true, iterations: 1) != nil
    }
}
