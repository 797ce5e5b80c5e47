internal import CGnuTLS
import TrustBackendKit
import TrustCore

/// One CRL imported with `gnutls_x509_crl_import` (DER), owned and freed in deinit: what an
/// evaluator's CRL cache keeps.
final class GnuTLSRevocationList: @unchecked Sendable {
    // @unchecked Sendable: never changed after import; a trust list only reads a CRL (its issuer, its
    // serial numbers through an iterator of the caller's own, and, with GNUTLS_TL_VERIFY_CRL, its
    // signature), as GnuTLS's own credentials share one CRL between sessions.
    let handle: gnutls_x509_crl_t

    private init(handle: gnutls_x509_crl_t) {
        self.handle = handle
    }

    deinit {
        gnutls_x509_crl_deinit(handle)
    }

    /// Imports `der`. - Throws: the GnuTLS error of `gnutls_x509_crl_init` or `gnutls_x509_crl_import`.
    static func importing(_ der: [UInt8]) throws(GnuTLSError) -> GnuTLSRevocationList {
        var created: gnutls_x509_crl_t?
        let initResult = gnutls_x509_crl_init(&created)
        guard initResult == GNUTLS_E_SUCCESS, let created else { throw GnuTLSError(initResult < 0 ? initResult : GNUTLS_E_MEMORY_ERROR) }
        let list = GnuTLSRevocationList(handle: created)
        let imported = der.withUnsafeBufferPointer { bytes -> Int32 in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
            return gnutls_x509_crl_import(created, &datum, GNUTLS_X509_FMT_DER)
        }
        guard imported == GNUTLS_E_SUCCESS else { throw GnuTLSError(imported) }
        return list
    }
}

/// The CRLs of one request, each imported (or taken from the evaluator's cache, by its exact DER).
/// A trust list they are added to points at their handles without owning them (``GnuTLSTrustList``
/// is freed with `all = 0`, and no `GNUTLS_TL_NO_DUPLICATES` is passed, so GnuTLS never frees or
/// replaces one), so the list must not outlive this object.
final class GnuTLSRevocationLists {
    private let lists: [GnuTLSRevocationList]

    private init(lists: [GnuTLSRevocationList]) {
        self.lists = lists
    }

    /// How many CRLs there are.
    var count: Int { lists.count }

    /// Imports every CRL as DER, or takes it from `cache`.
    /// - Throws: the rejection naming the first CRL GnuTLS cannot import, with its error.
    static func importing(_ ders: [[UInt8]], cache: BoundedCache<DERBytes, GnuTLSRevocationList>) throws(VerdictError) -> GnuTLSRevocationLists {
        var lists: [GnuTLSRevocationList] = []
        lists.reserveCapacity(ders.count)
        for (index, der) in ders.enumerated() {
            do throws(GnuTLSError) {
                lists.append(try cache.certificate(for: der, parse: GnuTLSRevocationList.importing))
            } catch {
                throw VerdictError(.rejected([error.diagnostic(
                    error.isDecodingFailure ? .malformed : .other,
                    message: "revocation list \(index) (\(der.count) bytes): gnutls_x509_crl_import"
                )]))
            }
        }
        return GnuTLSRevocationLists(lists: lists)
    }

    /// Lends the handles for the duration of `body`; they must not escape or be freed.
    func withUnsafeHandles<Result>(_ body: (UnsafePointer<gnutls_x509_crl_t?>, UInt32) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) {
            let optionals: [gnutls_x509_crl_t?] = lists.map(\.handle)
            return try optionals.withUnsafeBufferPointer { try body($0.baseAddress!, UInt32($0.count)) }
        }
    }
}

/// A verdict carried as an error.
struct VerdictError: Error {
    var verdict: Verdict
    init(_ verdict: Verdict) { self.verdict = verdict }
}
