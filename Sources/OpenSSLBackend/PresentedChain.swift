internal import COpenSSL
import TrustCore

/// The certificates of one request, parsed: the leaf, and the others as OpenSSL's untrusted stack.
///
/// Owns every `X509` and the stack and frees them in deinit. A verification context points into
/// both without taking references, so it must keep this object alive while it exists.
final class PresentedChain {
    /// `X509 *` of the presented leaf.
    private let leaf: OpaquePointer
    /// `STACK_OF(X509) *` owning the other presented certificates; `nil` when there are none, so a
    /// leaf-only chain allocates no stack.
    private let untrusted: OpaquePointer?

    private init(leaf: OpaquePointer, untrusted: OpaquePointer?) {
        self.leaf = leaf
        self.untrusted = untrusted
    }

    deinit {
        if let untrusted {
            COpenSSL_sk_X509_pop_free_all(untrusted)
        }
        X509_free(leaf)
    }

    /// Parses `ders` (leaf first) with `d2i_X509`.
    ///
    /// - Throws: ``PresentedChainError`` for an empty chain, for the first certificate that is not
    ///   exactly one DER certificate (with its index and OpenSSL's reason), or when OpenSSL cannot
    ///   allocate the stack.
    static func parse(_ ders: [[UInt8]]) throws(PresentedChainError) -> PresentedChain {
        guard let leafDER = ders.first else { throw .empty }
        let leaf: OpaquePointer
        do throws(CertificateParseFailure) {
            leaf = try parseOwnedX509(der: leafDER)
        } catch {
            throw .unparseable(index: 0, error)
        }
        guard ders.count > 1 else { return PresentedChain(leaf: leaf, untrusted: nil) }
        guard let stack = COpenSSL_sk_X509_new_null() else {
            X509_free(leaf)
            throw .outOfMemory(OpenSSLErrorQueue.drain())
        }
        // From here on the chain owns the leaf and the stack, so every early exit frees them.
        let chain = PresentedChain(leaf: leaf, untrusted: stack)
        for index in 1..<ders.count {
            let x509: OpaquePointer
            do throws(CertificateParseFailure) {
                x509 = try parseOwnedX509(der: ders[index])
            } catch {
                throw .unparseable(index: index, error)
            }
            guard COpenSSL_sk_X509_push(stack, x509) > 0 else {
                X509_free(x509)
                throw .outOfMemory(OpenSSLErrorQueue.drain())
            }
        }
        return chain
    }

    /// Lends the leaf (`X509 *`) and the untrusted stack (`STACK_OF(X509) *`, or `nil`) for the
    /// duration of `body`; they must not be freed, and must not be used after this object is gone.
    func withUnsafePointers<Result>(_ body: (_ leaf: OpaquePointer, _ untrusted: OpaquePointer?) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(leaf, untrusted) }
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
                message: "the presented chain is empty: there is no end-entity certificate to verify"
            )
        case .unparseable(let index, let failure):
            let role = index == 0 ? "the leaf" : "an intermediate or extra certificate"
            return .failClosed(
                .malformed, code: failure.code, name: failure.name,
                message: "presented certificate at index \(index) (\(role)): \(failure)",
                depth: index
            )
        case .outOfMemory(let errors):
            return .rejected([
                NativeDiagnostic(code: 0, name: "STACK_ALLOCATION_FAILED", message: "OpenSSL could not allocate the stack of presented certificates", failure: .other)
            ] + errors.map { $0.diagnostic(.other) })
        }
    }
}
