import Foundation
import TrustBackendKit
@_spi(FixedExpiryValidationTime) import X509

/// swift-certificates' `Verifier` with `RFC5280Policy` at the request's own time and a host check,
/// as an application using the library directly would set it up. `Verifier.validate` is `async`;
/// ``AsyncVerifierEvaluator`` implements the kit's ``AsyncTrustEvaluator`` and the harness gets it
/// wrapped in ``AsyncEvaluator``, which runs it on the calling thread (no semaphore around a `Task`,
/// which deadlocks under load, and no thread per call).
///
/// A fixed validation time needs swift-certificates' `@_spi(FixedExpiryValidationTime)`
/// initialiser of `RFC5280Policy`: without it the policy reads the clock, and the vectors, each
/// evaluated at its own time, would rot.
public struct AsyncVerifierBackend: TrustBackend {
    public let name: String
    public var libraryVersion: String { "swift-certificates (Verifier, async) via AsyncEvaluator" }

    public init(name: String = "async-verifier") {
        self.name = name
    }

    /// - Throws: ``TrustBackendError`` naming the anchor the library cannot parse. (The harness's
    ///   guard has already refused anchors that are no certificate at all.)
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        var roots: [(certificate: Certificate, der: [UInt8])] = []
        for (index, der) in anchors.enumerated() {
            do {
                roots.append((try Certificate(derEncoded: der), der))
            } catch {
                throw TrustBackendError(backend: name, message: "anchor \(index + 1): swift-certificates cannot parse it: \(error)")
            }
        }
        return AsyncEvaluator(AsyncVerifierEvaluator(roots: roots))
    }
}

/// One evaluation: parse, then `await` the verifier. Valid DER the library cannot parse (a negative
/// serial number, for example: explored/serial-negative-at-leaf) still arrives, so the parse fails
/// closed with the library's message instead of `try!`.
public struct AsyncVerifierEvaluator: AsyncTrustEvaluator {
    /// The anchors, parsed, with the bytes they were given in (the path is reported in them).
    let roots: [(certificate: Certificate, der: [UInt8])]

    public func evaluate(_ request: EvaluationRequest) async -> Verdict {
        var chain: [Certificate] = []
        for (index, der) in request.chain.enumerated() {
            do {
                chain.append(try Certificate(derEncoded: der))
            } catch {
                return .failClosed(.malformed, name: "UNPARSABLE_CERTIFICATE", message: "presented certificate \(index + 1): \(error)", origin: .library)
            }
        }
        let time = request.time
        let hostChecked = request.host != nil
        let (name, ip): (String?, String?)
        switch request.host {
        case .dns(let dns)?: (name, ip) = (dns, nil)
        case .ipAddress?: (name, ip) = (nil, request.host?.description)
        case nil: (name, ip) = (nil, nil)
        }
        var verifier = Verifier(rootCertificates: CertificateStore(roots.map(\.certificate))) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            if hostChecked {
                ServerIdentityPolicy(serverHostname: name, serverIP: ip)
            }
        }
        let result = await verifier.validate(leaf: chain[0], intermediates: CertificateStore(chain.dropFirst()))
        switch result {
        case .validCertificate(let path):
            // The path in the bytes the harness gave: presented certificates, then the anchor.
            return .trusted(path: path.map { certificate in
                chain.firstIndex(of: certificate).map { request.chain[$0] } ?? roots.first { $0.certificate == certificate }?.der ?? []
            })
        case .couldNotValidate(let failures):
            // One diagnostic per candidate path the verifier tried, each with the failure class its
            // policy's message names (swift-certificates reports reasons as text).
            let reasons = failures.map { String(describing: $0.policyFailureReason) }
            guard !reasons.isEmpty else { return .failClosed(.untrusted, name: "NO_PATH", message: "no path to a trust anchor", origin: .library) }
            return .rejected(reasons.map { NativeDiagnostic(code: 0, name: "COULD_NOT_VALIDATE", message: $0, failure: Self.failureClass(of: $0)) })
        }
    }

    /// The failure class a swift-certificates policy message names.
    static func failureClass(of message: String) -> FailureClass {
        if message.contains("ServerIdentityPolicy") { return .hostnameMismatch }
        // The words after the certificate's own description (which names every field) say why.
        let text = (message.range(of: "])", options: .backwards).map { String(message[$0.upperBound...]) } ?? message).lowercased()
        if text.contains("not yet valid") { return .notYetValid }
        if text.contains("expired") { return .expired }
        if text.contains("not marked as a ca") || text.contains("not a ca") { return .notCA }
        if text.contains("path length") || text.contains("pathlen") { return .pathLengthExceeded }
        if text.contains("signature") { return .badSignature }
        return .untrusted
    }
}
