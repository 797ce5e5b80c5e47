import TrustBackendKit

/// An mbedTLS back end's fidelity reference: its bare C loop (``MbedTLSBaselineLoop``) run once, cold,
/// as an application configures mbedTLS's TLS client: the anchors and the request's CRLs given as
/// `mbedtls_ssl_conf_ca_chain(conf, ca_chain, ca_crl)` gives them (`ca_crl` to
/// `mbedtls_x509_crt_verify_with_profile`), the host as the client's hostname, at the request's
/// time in whole seconds. Trusted when the loop says it verified; an IP host is passed as text, as
/// the back end passes it.
struct MbedTLSReference: FidelityReference {
    /// The loop, with the settings whose profile and usage check are asked for.
    var loop: MbedTLSBaselineLoop

    init(settings: MbedTLSBackend.Settings) {
        loop = MbedTLSBaselineLoop(settings: settings)
    }

    /// The loop's label: `mbedtls-c`, `mbedtls-suiteb-c`.
    var label: String { loop.label }

    /// CRLs, in mbedTLS's one mode (a certificate no CRL covers passes, ``MbedTLSBackend/features``).
    var features: Set<BackendFeature> { [.revocationLists, .softFailRevocation] }

    func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool? {
        let host: String? = switch request.host {
        case nil: nil
        case .dns(let name)?: name
        case .ipAddress(let bytes)?: IPAddressParser.format(bytes)
        }
        return loop.run(chain: request.chain, anchors: anchors, crls: request.revocationLists, host: host, unixTime: request.unixTime, cold: true, iterations: 1) != nil
    }
}
