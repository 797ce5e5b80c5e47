internal import CGnuTLS
import TrustCore

/// The CRLs of one request, each imported with `gnutls_x509_crl_import` (DER) into a handle this
/// object owns and frees in `deinit`. A trust list they are added to points at the handles without
/// owning them (``GnuTLSTrustList`` is freed with `all = 0`, and no `GNUTLS_TL_NO_DUPLICATES` is
/// passed, so GnuTLS never frees or replaces one), so the list must not outlive this object.
final class GnuTLSRevocationLists {
    private let handles: [gnutls_x509_crl_t]

    private init(handles: [gnutls_x509_crl_t]) {
        self.handles = handles
    }

    deinit {
        for handle in handles { gnutls_x509_crl_deinit(handle) }
    }

    /// How many CRLs there are.
    var count: Int { handles.count }

    /// Imports every CRL as DER.
    /// - Throws: the rejection naming the first CRL GnuTLS cannot import, with its error.
    static func importing(_ ders: [[UInt8]]) throws(VerdictError) -> GnuTLSRevocationLists {
        var handles: [gnutls_x509_crl_t] = []
        handles.reserveCapacity(ders.count)
        // Freed here until they are owned by the object returned.
        var owned = true
        defer { if owned { for handle in handles { gnutls_x509_crl_deinit(handle) } } }
        for (index, der) in ders.enumerated() {
            var created: gnutls_x509_crl_t?
            let initResult = gnutls_x509_crl_init(&created)
            guard initResult == GNUTLS_E_SUCCESS, let created else {
                throw VerdictError(.rejected([GnuTLSError(initResult < 0 ? initResult : GNUTLS_E_MEMORY_ERROR).diagnostic(.other, message: "gnutls_x509_crl_init for revocation list \(index)")]))
            }
            handles.append(created)
            let imported = der.withUnsafeBufferPointer { bytes -> Int32 in
                var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
                return gnutls_x509_crl_import(created, &datum, GNUTLS_X509_FMT_DER)
            }
            guard imported == GNUTLS_E_SUCCESS else {
                let error = GnuTLSError(imported)
                throw VerdictError(.rejected([error.diagnostic(
                    error.isDecodingFailure ? .malformed : .other,
                    message: "revocation list \(index) (\(der.count) bytes): gnutls_x509_crl_import"
                )]))
            }
        }
        owned = false
        return GnuTLSRevocationLists(handles: handles)
    }

    /// Lends the handles for the duration of `body`; they must not escape or be freed.
    func withUnsafeHandles<Result>(_ body: (UnsafePointer<gnutls_x509_crl_t?>, UInt32) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) {
            let optionals: [gnutls_x509_crl_t?] = handles
            return try optionals.withUnsafeBufferPointer { try body($0.baseAddress!, UInt32($0.count)) }
        }
    }
}

/// A verdict carried as an error.
struct VerdictError: Error {
    var verdict: Verdict
    init(_ verdict: Verdict) { self.verdict = verdict }
}
