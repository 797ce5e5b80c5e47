import TrustBackendKit
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509
import TrustCore
import TrustDER

/// Evaluates requests with swift-certificates' `Verifier` against one `CertificateStore` of anchors.
/// Safe to use from many tasks at once: every evaluation builds its own `Verifier` (a value) over
/// the shared store and parsed certificates.
final class SwiftCertificatesEvaluator: TrustEvaluator, @unchecked Sendable {
    let settings: SwiftCertificatesBackend.Settings
    /// The anchors, parsed once.
    let roots: CertificateStore
    /// Each anchor's own DER, to report a verified path in the bytes the caller gave.
    let anchorDER: [Certificate: [UInt8]]
    /// Presented certificates parsed before, by their exact DER.
    let cache: BoundedCache<DERBytes, Certificate>
    /// The anchors' share of the work limits.
    let limits: WorkLimits.Anchors

    init(anchors: [[UInt8]], settings: SwiftCertificatesBackend.Settings, configuration: BackendConfiguration) throws {
        self.settings = settings
        var parsed: [Certificate] = []
        var anchorDER: [Certificate: [UInt8]] = [:]
        for (index, der) in anchors.enumerated() {
            switch Self.parse(der) {
            case .success(let certificate):
                parsed.append(certificate)
                anchorDER[certificate] = der
            case .failure(let problem):
                throw TrustBackendError(backend: settings.name, message: "anchor \(index) \(problem.message)", native: [problem.diagnostic(depth: nil)])
            }
        }
        roots = CertificateStore(parsed)
        limits = WorkLimits.Anchors(parsed)
        self.anchorDER = anchorDER
        cache = BoundedCache(configuration)
    }

    /// Why a certificate's bytes cannot be used.
    struct Unusable: Error {
        var name: String
        var message: String

        func diagnostic(depth: Int?) -> NativeDiagnostic {
            NativeDiagnostic(code: 0, name: name, message: message, depth: depth, failure: .malformed)
        }
    }

    /// swift-certificates' parser, on the bytes as presented.
    static func parse(_ der: [UInt8]) -> Result<Certificate, Unusable> {
        do {
            return .success(try Certificate(derEncoded: der))
        } catch {
            return .failure(Unusable(name: "CERTIFICATE_UNPARSEABLE", message: "cannot be read by swift-certificates: \(error)"))
        }
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard (SwiftCertificatesBackend.makeEvaluator's) has refused requests no library can
        // be asked and features this back end does not honour; the bytes are the library's to read.
        // Each distinct certificate once: a certificate presented again is the same certificate, so
        // a chain of repeats costs one parse (and the Verifier sees one candidate, not a thousand).
        var presented: [Certificate] = []
        var presentedDER: [[UInt8]] = []
        var seen = Set<DERBytes>()
        for (depth, der) in request.chain.enumerated() {
            // One hash of the bytes serves both the repeat check and the cache.
            let key = DERBytes(der)
            guard seen.insert(key).inserted else { continue }
            do throws(Unusable) {
                if let kept = cache.value(for: key) {
                    presented.append(kept)
                } else {
                    let parsed = try Self.parse(der).get()
                    cache.insert(parsed, for: key)
                    presented.append(parsed)
                }
                presentedDER.append(der)
            } catch {
                return .rejected([NativeDiagnostic(code: 0, name: error.name, message: "certificate \(depth) \(error.message)", depth: depth, failure: .malformed)])
            }
        }
        if let refused = WorkLimits.refusal(presented, anchors: limits) { return refused }
        let leaf = presented[0]
        let intermediates = CertificateStore(presented.dropFirst())
        let time = request.time
        let settings = settings
        let roots = roots
        let (serverHostname, serverIP): (String?, String?)
        switch request.host {
        case .dns(let name)?: (serverHostname, serverIP) = (name, nil)
        case .ipAddress?: (serverHostname, serverIP) = (nil, request.host?.description)
        case nil: (serverHostname, serverIP) = (nil, nil)
        }
        let hostChecked = request.host != nil
        // Any purpose: RFC 5280 path validation alone, no TLS server policy (EKU, leaf keyUsage).
        let serverAuthentication = settings.requiresServerAuthentication && request.purpose == .serverAuthentication
        // OCSP through the library's own policy, when the request gives responses or a mode.
        let ocsp: OCSPVerifierPolicy<GivenOCSPResponse>?
        if !request.ocspResponses.isEmpty || request.revocationMode != nil {
            guard request.ocspResponses.count <= 1 else {
                return .failClosed(
                    .other, name: "SEVERAL_OCSP_RESPONSES",
                    message: "the request gives \(request.ocspResponses.count) OCSP responses; OCSPVerifierPolicy fetches one per certificate from the responder that certificate names, and this back end does not route several responses to their queries; not asked",
                    origin: .harness
                )
            }
            let hard = request.revocationMode == .hardFail
            ocsp = OCSPVerifierPolicy(
                failureMode: hard ? .hard : .soft,
                requester: GivenOCSPResponse(bytes: request.ocspResponses.first, missingIsTerminal: hard),
                fixedExpiryValidationTime: time
            )
        } else {
            ocsp = nil
        }

        // With `diagnose`, the Verifier's own account of its search (its diagnostic callback) is
        // kept: asked only again after a rejection that gave no reason, so the trusted path pays
        // nothing for it, and the same request gives the same search.
        func validate(diagnose: Bool) -> (CertificateValidationResult, [String]) {
            CallerThreadExecutor.run { () async -> (CertificateValidationResult, [String]) in
                var verifier = Verifier(rootCertificates: roots) {
                    RFC5280Policy(fixedExpiryValidationTime: time)
                    if hostChecked {
                        ServerIdentityPolicy(serverHostname: serverHostname, serverIP: serverIP)
                    }
                    if serverAuthentication {
                        ServerAuthenticationPolicy()
                    }
                    if let ocsp {
                        ocsp
                    }
                }
                guard diagnose else { return (await verifier.validate(leaf: leaf, intermediates: intermediates), []) }
                let said = SearchDiagnostics()
                let result = await verifier.validate(leaf: leaf, intermediates: intermediates) { said.texts.append(String(describing: $0)) }
                return (result, said.texts)
            }
        }
        let result = validate(diagnose: false).0

        switch result {
        case .validCertificate(let chain):
            var path: [[UInt8]] = []
            for certificate in chain {
                if let index = presented.firstIndex(of: certificate) {
                    path.append(presentedDER[index])
                } else if let der = anchorDER[certificate] {
                    path.append(der)
                } else {
                    return .failClosed(.other, name: "PATH_NOT_FROM_INPUT", message: "swift-certificates returned a path with a certificate that was neither presented nor an anchor", origin: .harness)
                }
            }
            return .trusted(path: path)
        case .couldNotValidate(let failures):
            if failures.isEmpty {
                // No candidate chain reached an anchor, and the result says nothing more: the
                // Verifier's diagnostics of the same search say why, in its own words.
                return .rejected(FailureReasons.noChain(validate(diagnose: true).1))
            }
            return .rejected(FailureReasons.diagnostics(for: failures, time: time))
        }
    }

    /// The texts of the Verifier's diagnostic callback, collected on the one thread that runs the
    /// validation (the callback is synchronous, called from within `validate`).
    private final class SearchDiagnostics: @unchecked Sendable {
        // @unchecked Sendable: written and read only by the task CallerThreadExecutor runs on the calling thread.
        var texts: [String] = []
    }
}

/// The request's OCSP response as what a client's fetch returned (`OCSPRequester`): the response for
/// every query, or, when the request has none, the failure the caller's mode makes of a fetch that
/// found nothing (`terminalError` for hard-fail, `nonTerminalError` otherwise; see
/// ``SwiftCertificatesBackend/features``).
struct GivenOCSPResponse: OCSPRequester {
    let bytes: [UInt8]?
    let missingIsTerminal: Bool

    struct NoResponse: Error, CustomStringConvertible {
        var description: String { "no OCSP response was given for this certificate" }
    }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        if let bytes { return .response(bytes) }
        return missingIsTerminal ? .terminalError(NoResponse()) : .nonTerminalError(NoResponse())
    }
}
