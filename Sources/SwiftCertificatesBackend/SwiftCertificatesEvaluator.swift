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

        guard let result = CallerThreadExecutor.run({ () async -> CertificateValidationResult in
            var verifier = Verifier(rootCertificates: roots) {
                RFC5280Policy(fixedExpiryValidationTime: time)
                if hostChecked {
                    ServerIdentityPolicy(serverHostname: serverHostname, serverIP: serverIP)
                }
                if serverAuthentication {
                    ServerAuthenticationPolicy()
                }
            }
            return await verifier.validate(leaf: leaf, intermediates: intermediates)
        }) else {
            return .failClosed(.other, name: "VERIFIER_DID_NOT_FINISH", message: "swift-certificates' Verifier did not finish within \(Int(CallerThreadExecutor.timeout)) s", origin: .limit)
        }

        switch result {
        case .validCertificate(let chain):
            var path: [[UInt8]] = []
            for certificate in chain {
                if let index = presented.firstIndex(of: certificate) {
                    path.append(presentedDER[index])
                } else if let der = anchorDER[certificate] {
                    path.append(der)
                } else {
                    return .failClosed(.other, name: "PATH_NOT_FROM_INPUT", message: "swift-certificates returned a path with a certificate that was neither presented nor an anchor")
                }
            }
            return .trusted(path: path)
        case .couldNotValidate(let failures):
            if failures.isEmpty {
                return .rejected(FailureReasons.noChain(leaf: leaf, presented: presented, roots: Array(anchorDER.keys), handled: handledExtensions(hostChecked: hostChecked)))
            }
            return .rejected(FailureReasons.diagnostics(for: failures, time: time))
        }
    }

    /// The critical extensions the policy set handles (the union the `Verifier` checks against):
    /// RFC5280Policy's, ServerIdentityPolicy's subjectAltName when a host is checked, and
    /// ServerAuthenticationPolicy's extendedKeyUsage when it is used.
    func handledExtensions(hostChecked: Bool) -> Set<ASN1ObjectIdentifier> {
        var handled: Set<ASN1ObjectIdentifier> = [.X509ExtensionID.basicConstraints, .X509ExtensionID.nameConstraints, .X509ExtensionID.keyUsage]
        if hostChecked { handled.insert(.X509ExtensionID.subjectAlternativeName) }
        if settings.requiresServerAuthentication { handled.insert(.X509ExtensionID.extendedKeyUsage) }
        return handled
    }
}
