import Foundation
@_spi(FixedExpiryValidationTime) import X509
import TrustBackendKit
import TrustCore

/// swift-certificates called the plain way, as its documentation shows a TLS client doing it: a
/// `Verifier` over the anchors with `RFC5280Policy` at the request's fixed time (the library's own
/// route to a fixed time, `@_spi(FixedExpiryValidationTime)`) and `ServerIdentityPolicy` for the
/// host, `await`ed in an async context; trusted when it returns `.validCertificate`. No work limits,
/// no timeout, no policy of ours: the fidelity reference of the `swift-certificates` column.
struct SwiftCertificatesReference: FidelityReference {
    var label: String { "swift-certificates-verifier" }
    /// OCSP through the library's own policy, in either mode.
    var features: Set<BackendFeature> { [.ocspResponses, .hardFailRevocation, .softFailRevocation] }

    func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool? {
        let chain = request.chain, host = request.host
        // As an application converts what the TLS stack hands it: every certificate, or nothing.
        guard let presented = try? chain.map({ try Certificate(derEncoded: $0) }), let leaf = presented.first,
              let trusted = try? anchors.map({ try Certificate(derEncoded: $0) }) else { return false }
        let intermediates = CertificateStore(presented.dropFirst())
        let roots = CertificateStore(trusted)
        let time = request.time
        let (name, address): (String?, String?)
        switch host {
        case .dns(let text)?: (name, address) = (text, nil)
        case .ipAddress?: (name, address) = (nil, host?.description)
        case nil: (name, address) = (nil, nil)
        }
        // OCSP as the library's documentation shows it: its policy with a requester that answers
        // what was fetched (here, the request's one response), failing hard or soft as asked.
        guard request.ocspResponses.count <= 1 else { return nil }
        let checksOCSP = !request.ocspResponses.isEmpty || request.revocationMode != nil
        let hard = request.revocationMode == .hardFail
        let fetched = Fetched(response: request.ocspResponses.first, terminal: hard)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            if host != nil {
                ServerIdentityPolicy(serverHostname: name, serverIP: address)
            }
            if checksOCSP {
                OCSPVerifierPolicy(failureMode: hard ? .hard : .soft, requester: fetched, fixedExpiryValidationTime: time)
            }
        }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: intermediates) { return true }
        return false
    }
}

/// What an application's fetch returned: a response, or an error (terminal when it wants no status
/// to fail the chain).
private struct Fetched: OCSPRequester {
    let response: [UInt8]?
    let terminal: Bool

    struct Nothing: Error {}

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        guard let response else { return terminal ? .terminalError(Nothing()) : .nonTerminalError(Nothing()) }
        return .response(response)
    }
}
