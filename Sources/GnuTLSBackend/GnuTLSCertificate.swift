internal import CGnuTLS
import TrustCore

/// One X.509 certificate parsed by GnuTLS, owning its `gnutls_x509_crt_t` and freeing it in `deinit`.
///
/// The handle is lent only inside ``withUnsafeHandle(_:)`` and ``withUnsafeHandles(_:_:)``, which keep
/// the certificates alive for the duration of the C calls. Instances are never mutated after `init`;
/// GnuTLS's getters and verification functions only read a parsed certificate.
final class GnuTLSCertificate: @unchecked Sendable {
    // @unchecked Sendable: never changed after init, and GnuTLS allows read-only use of one handle
    // from several threads at once (see GnuTLSEvaluator), so evaluations may share it.

    /// The DER the certificate was parsed from, unchanged, hashed once (the cache's key).
    let derBytes: DERBytes
    private let handle: gnutls_x509_crt_t

    /// Parses `der` with `gnutls_x509_crt_import` (DER format), as a GnuTLS client imports a peer's
    /// certificate. GnuTLS's decoder takes some BER inside a certificate (a BER signature value, a
    /// non-minimal INTEGER) and verifies the signature over the bytes as sent; refusing that is the
    /// `checks` layer's, not this back end's.
    /// - Throws: ``ImportFailure``: GnuTLS's error when the handle cannot be made or the bytes are not
    ///   a certificate GnuTLS accepts (including empty input).
    init(der: [UInt8]) throws(ImportFailure) {
        guard let size = UInt32(exactly: der.count) else { throw .gnutls(GnuTLSError(GNUTLS_E_INVALID_REQUEST)) }
        var created: gnutls_x509_crt_t?
        let initResult = gnutls_x509_crt_init(&created)
        guard initResult == GNUTLS_E_SUCCESS, let created else {
            throw .gnutls(GnuTLSError(initResult < 0 ? initResult : GNUTLS_E_MEMORY_ERROR))
        }
        let importResult = der.withUnsafeBufferPointer { buffer -> Int32 in
            // GnuTLS copies the bytes and never writes through the datum.
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: buffer.baseAddress), size: size)
            return gnutls_x509_crt_import(created, &datum, GNUTLS_X509_FMT_DER)
        }
        guard importResult >= 0 else {
            gnutls_x509_crt_deinit(created)
            throw .gnutls(GnuTLSError(importResult))
        }
        self.handle = created
        self.derBytes = DERBytes(der)
    }

    /// Why some bytes did not become a ``GnuTLSCertificate``.
    enum ImportFailure: Error {
        /// `gnutls_x509_crt_init` or `gnutls_x509_crt_import` failed.
        case gnutls(GnuTLSError)

        /// This failure as a diagnostic of class `malformed` (`NOT_DER`, or GnuTLS's error name).
        func diagnostic(message prefix: String, depth: Int? = nil) -> NativeDiagnostic {
            switch self {
            case .gnutls(let error):
                return error.diagnostic(.malformed, message: "\(prefix) (gnutls_x509_crt_import)", depth: depth)
            }
        }

        /// One line for a person.
        var summary: String {
            switch self {
            case .gnutls(let error): return "gnutls_x509_crt_import: \(error.name) (\(error.code)), \(error.message)"
            }
        }
    }

    deinit {
        gnutls_x509_crt_deinit(handle)
    }

    /// The DER the certificate was parsed from, unchanged.
    var der: [UInt8] { derBytes.bytes }

    /// Lends the GnuTLS handle for the duration of `body`; it must not escape.
    func withUnsafeHandle<Result>(_ body: (gnutls_x509_crt_t) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(handle) }
    }

    /// Lends the handles of `certificates`, in order, as the C array GnuTLS's list functions take
    /// (`nil` for an empty list).
    static func withUnsafeHandles<Result>(
        _ certificates: [GnuTLSCertificate],
        _ body: (UnsafeMutablePointer<gnutls_x509_crt_t?>?, UInt32) throws -> Result
    ) rethrows -> Result {
        var handles: [gnutls_x509_crt_t?] = certificates.map { $0.handle }
        return try withExtendedLifetime(certificates) {
            try handles.withUnsafeMutableBufferPointer { buffer in
                try body(buffer.baseAddress, UInt32(buffer.count))
            }
        }
    }

    /// The handle's identity, for recognising this certificate when GnuTLS hands it back (never
    /// dereferenced through this value).
    var identity: OpaquePointer { handle }

    /// The basic constraints: whether the cA flag is set and the pathLenConstraint, `nil` when absent.
    /// A certificate without the extension, or whose extension GnuTLS cannot read, is not a CA.
    var basicConstraints: (isCA: Bool, pathLength: Int?) {
        var critical: UInt32 = 0
        var ca: UInt32 = 0
        var pathLength: Int32 = -1
        let result = gnutls_x509_crt_get_basic_constraints(handle, &critical, &ca, &pathLength)
        guard result >= 0 else { return (false, nil) }
        return (ca != 0, pathLength >= 0 ? Int(pathLength) : nil)
    }
}
