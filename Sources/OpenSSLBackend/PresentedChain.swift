internal import COpenSSL
import TrustBackendKit
import TrustCore

/// The certificates of one request, parsed: the leaf, and the others as OpenSSL's untrusted stack.
///
/// Holds every certificate (some may be shared with other evaluations through the evaluator's
/// cache) and owns the stack, which only points at them, and frees it in deinit. A verification
/// context points into both without taking references, so it must keep this object alive while it
/// exists.
final class PresentedChain {
    /// Leaf first, in the order presented. No two are the same object, even when the same DER is
    /// presented twice, so OpenSSL sees exactly the objects an uncached parse would give it.
    private let certificates: [OpenSSLCertificate]
    /// `STACK_OF(X509) *` of the certificates after the leaf, not owning them; `nil` when there are
    /// none, so a leaf-only chain allocates no stack.
    private let untrusted: OpaquePointer?

    private init(certificates: [OpenSSLCertificate], untrusted: OpaquePointer?) {
        self.certificates = certificates
        self.untrusted = untrusted
    }

    deinit {
        if let untrusted {
            COpenSSL_sk_X509_free(untrusted)
        }
    }

    /// Parses `ders` (leaf first) with `d2i_X509`, or takes the certificates `cache` already holds
    /// for the same bytes.
    ///
    /// - Throws: ``PresentedChainError`` for an empty chain, for the first certificate that is not
    ///   exactly one DER certificate (with its index and OpenSSL's reason), or when OpenSSL cannot
    ///   allocate the stack.
    static func parse(_ ders: [[UInt8]], cache: BoundedCache<DERBytes, OpenSSLCertificate>) throws(PresentedChainError) -> PresentedChain {
        guard !ders.isEmpty else { throw .empty }
        var certificates: [OpenSSLCertificate] = []
        certificates.reserveCapacity(ders.count)
        var seen = Set<ObjectIdentifier>()
        for (index, der) in ders.enumerated() {
            do throws(CertificateParseFailure) {
                var certificate = try cache.certificate(for: der, parse: OpenSSLCertificate.parse, isShareable: \.isShareable)
                if !seen.insert(ObjectIdentifier(certificate)).inserted {
                    // The same bytes again in this chain: a copy of its own, as without the cache.
                    certificate = try OpenSSLCertificate.parse(der: der)
                    seen.insert(ObjectIdentifier(certificate))
                }
                certificates.append(certificate)
            } catch {
                throw .unparseable(index: index, error)
            }
        }
        guard certificates.count > 1 else { return PresentedChain(certificates: certificates, untrusted: nil) }
        guard let stack = COpenSSL_sk_X509_new_null() else {
            throw .outOfMemory(OpenSSLErrorQueue.drain())
        }
        // From here on the chain owns the stack, so every early exit frees it.
        let chain = PresentedChain(certificates: certificates, untrusted: stack)
        for certificate in certificates.dropFirst() {
            guard certificate.withUnsafeX509({ COpenSSL_sk_X509_push(stack, $0) }) > 0 else {
                throw .outOfMemory(OpenSSLErrorQueue.drain())
            }
        }
        return chain
    }

    /// The DER of the presented certificate that is `x509` (compared by identity), if any.
    func der(of x509: OpaquePointer) -> [UInt8]? {
        certificates.first { $0.identity == x509 }?.der
    }

    /// Lends the leaf (`X509 *`) and the untrusted stack (`STACK_OF(X509) *`, or `nil`) for the
    /// duration of `body`; they must not be freed, and must not be used after this object is gone.
    func withUnsafePointers<Result>(_ body: (_ leaf: OpaquePointer, _ untrusted: OpaquePointer?) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(certificates[0].identity, untrusted) }
    }
}

/// Why a presented chain could not be handed to OpenSSL; always a rejection, never a crash.
enum PresentedChainError: Error {
    case empty
    case unparseable(index: Int, CertificateParseFailure)
    case outOfMemory([OpenSSLError])

    /// The fail-closed verdict for this error: ``FailureClass/malformed`` naming the certificate's
    /// index for bad input, ``FailureClass/other`` when OpenSSL could not allocate.
    var verdict: Verdict {
        switch self {
        case .empty:
            return .failClosed(
                .malformed, name: "EMPTY_CHAIN",
                message: "the presented chain is empty: there is no end-entity certificate to verify", origin: .harness
            )
        case .unparseable(let index, let failure):
            let role = index == 0 ? "the leaf" : "an intermediate or extra certificate"
            return .failClosed(
                .malformed, code: failure.code, name: failure.name,
                message: "presented certificate at index \(index) (\(role)): \(failure)",
                depth: index, origin: .library
            )
        case .outOfMemory(let errors):
            return .rejected([
                NativeDiagnostic(code: 0, name: "STACK_ALLOCATION_FAILED", message: "OpenSSL could not allocate the stack of presented certificates", failure: .other)
            ] + errors.map { $0.diagnostic(.other) })
        }
    }
}
