internal import COpenSSL
import TrustBackendKit
import TrustCore

/// The CRLs of one request, parsed by OpenSSL into a `STACK_OF(X509_CRL)` this object owns (and
/// frees, with every CRL, in deinit). A verification context points at the stack without owning
/// it (`X509_STORE_CTX_set0_crls`), so it keeps this object alive.
final class RevocationLists {
    private let stack: OpaquePointer

    private init(stack: OpaquePointer) {
        self.stack = stack
    }

    deinit {
        COpenSSL_sk_X509_CRL_pop_free(stack)
    }

    /// Parses every CRL with `d2i_X509_CRL`, as an application hands OpenSSL a DER CRL: what it
    /// reads is OpenSSL's to decide (bytes after the CRL are left unread, as `d2i` leaves them;
    /// stricter DER is the `checks` layer's, as for certificates). A CRL `cache` holds for exactly
    /// these bytes is taken from it instead (a client holds its CRLs parsed; a large CA's CRL takes
    /// milliseconds to parse), and one parsed here is kept there.
    /// - Returns: the lists, or the rejection naming the first CRL OpenSSL cannot parse, with its reason.
    static func parse(_ ders: [[UInt8]], cache: BoundedCache<DERBytes, ParsedRevocationList>) -> Result<RevocationLists, VerdictError> {
        guard let stack = COpenSSL_sk_X509_CRL_new_null() else {
            return .failure(VerdictError(.failClosed(.other, name: "CRL_STACK_ALLOCATION_FAILED", message: "OpenSSL could not allocate the stack of CRLs", origin: .harness)))
        }
        let lists = RevocationLists(stack: stack)
        for (index, der) in ders.enumerated() {
            func refuse(_ problem: String) -> Result<RevocationLists, VerdictError> {
                .failure(VerdictError(.failClosed(.malformed, name: "CRL_NOT_PARSED", message: "revocation list \(index): \(problem)", origin: .library)))
            }
            let kept: ParsedRevocationList
            do throws(ParsedRevocationList.Failure) {
                kept = try cache.certificate(for: der, parse: ParsedRevocationList.parse)
            } catch {
                return refuse("d2i_X509_CRL cannot parse it (\(error.reasons.isEmpty ? "no reason given" : error.reasons))")
            }
            // The stack's own reference, freed with it.
            let crl = kept.ref
            X509_CRL_up_ref(crl)
            guard COpenSSL_sk_X509_CRL_push(stack, crl) > 0 else {
                X509_CRL_free(crl)
                return .failure(VerdictError(.failClosed(.other, name: "CRL_STACK_PUSH_FAILED", message: "OpenSSL could not add revocation list \(index) to the stack", origin: .harness)))
            }
        }
        return .success(lists)
    }

    /// Lends the stack for the duration of `body`.
    func withUnsafeStack<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(stack) }
    }
}

/// One CRL parsed by `d2i_X509_CRL`, owned and freed in deinit: what an evaluator's CRL cache keeps.
final class ParsedRevocationList: @unchecked Sendable {
    // @unchecked Sendable: never changed after init; X509_verify_cert only reads a CRL but for the
    // revoked entries' sort on first lookup, which OpenSSL 3.0 does under the CRL's own lock
    // (def_crl_lookup, crypto/x509/x_crl.c), as it does for the CRLs of a store shared by connections.
    let ref: OpaquePointer

    private init(ref: OpaquePointer) {
        self.ref = ref
    }

    deinit {
        X509_CRL_free(ref)
    }

    struct Failure: Error {
        var reasons: String
    }

    static func parse(_ der: [UInt8]) throws(Failure) -> ParsedRevocationList {
        guard let crl = decodeDER(der, { d2i_X509_CRL(nil, $0, $1) }).object else {
            throw Failure(reasons: OpenSSLErrorQueue.drain().map(\.description).joined(separator: "; "))
        }
        return ParsedRevocationList(ref: crl)
    }
}

/// A verdict carried as an error.
struct VerdictError: Error {
    var verdict: Verdict
    init(_ verdict: Verdict) { self.verdict = verdict }
}
