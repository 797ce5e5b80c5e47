internal import COpenSSL
import TrustCore
import TrustDER

/// One certificate parsed by OpenSSL, owned: its `X509` is freed when this object goes away.
///
/// Keeps the DER it was parsed from, so that a verified path is reported in the exact bytes given
/// without re-encoding.
final class OpenSSLCertificate: @unchecked Sendable {
    // @unchecked Sendable: never changed after init, and X509_verify_cert only reads an X509 apart
    // from its extension cache, which OpenSSL 3.0 fills under the X509's own lock (see
    // OpenSSLEvaluator), so evaluations on several threads may share one.

    /// The DER this certificate was parsed from, unchanged.
    let der: [UInt8]
    private let ref: OpaquePointer

    /// Takes ownership of `ref`, an `X509 *` nobody else will free, parsed from exactly `der`.
    init(takingOwnershipOf ref: OpaquePointer, der: [UInt8]) {
        self.ref = ref
        self.der = der
    }

    deinit {
        X509_free(ref)
    }

    /// Parses `der` as exactly one DER certificate.
    ///
    /// - Throws: ``CertificateParseFailure`` when `der` is empty, is not a certificate OpenSSL can
    ///   read (with its error stack), or has bytes after the certificate.
    static func parse(der: [UInt8]) throws(CertificateParseFailure) -> OpenSSLCertificate {
        OpenSSLCertificate(takingOwnershipOf: try parseOwnedX509(der: der), der: der)
    }

    /// Whether evaluations may share this certificate: false when its public key lacks domain
    /// parameters (a DSA key inheriting its issuer's), because `X509_verify_cert` copies them into
    /// such a key from whichever chain it is verified in (`X509_get_pubkey_parameters`), which would
    /// let one evaluation change another's key. A key OpenSSL could not decode has nothing to copy.
    var isShareable: Bool {
        // X509_get0_pubkey queues an error for an undecoded key; the mark keeps the queue as it was.
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        guard let key = X509_get0_pubkey(ref) else { return true }
        return EVP_PKEY_missing_parameters(key) == 0
    }

    /// The `X509 *` as an identity, to recognise this certificate in a chain OpenSSL returns (never
    /// dereferenced through this value).
    var identity: OpaquePointer { ref }

    /// Lends the `X509 *` for the duration of `body`; it must not be freed or kept.
    func withUnsafeX509<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(ref) }
    }
}

/// Parses `der` with `d2i_X509` and returns a new `X509 *` that the caller owns and must free.
///
/// Exactly one certificate must fill `der`: trailing bytes are an error, because a verifier that
/// ignores them would accept bytes it never looked at; and it must be DER, not merely BER that
/// `d2i_X509` also takes.
func parseOwnedX509(der: [UInt8]) throws(CertificateParseFailure) -> OpaquePointer {
    guard !der.isEmpty else { throw CertificateParseFailure(reason: .empty) }
    let parsed = decodeDER(der) { d2i_X509(nil, $0, $1) }
    guard let x509 = parsed.object else {
        throw CertificateParseFailure(reason: .notACertificate(OpenSSLErrorQueue.drain()))
    }
    guard parsed.consumed == der.count else {
        X509_free(x509)
        throw CertificateParseFailure(reason: .trailingBytes(certificateLength: parsed.consumed, totalLength: der.count))
    }
    return x509
}

/// Runs an OpenSSL `d2i_*` decoder over `der`: the object it made (the caller owns it), or nil, and
/// how many bytes it consumed, so that trailing bytes can be refused.
func decodeDER(_ der: [UInt8], _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?) -> (object: OpaquePointer?, consumed: Int) {
    der.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return (nil, 0) }
        var cursor: UnsafePointer<UInt8>? = base
        let object = decode(&cursor, buffer.count)
        return (object, cursor.map { base.distance(to: $0) } ?? 0)
    }
}

/// Why some bytes are not exactly one DER certificate.
struct CertificateParseFailure: Error, CustomStringConvertible {
    enum Reason {
        case empty
        case notACertificate([OpenSSLError])
        case trailingBytes(certificateLength: Int, totalLength: Int)
    }

    var reason: Reason

    /// The OpenSSL errors behind the failure; empty when OpenSSL reported none.
    var openSSLErrors: [OpenSSLError] {
        if case .notACertificate(let errors) = reason { return errors }
        return []
    }

    /// The first OpenSSL error code, for a diagnostic's `code`; 0 when OpenSSL reported none.
    var code: Int {
        openSSLErrors.first.map { Int(truncatingIfNeeded: $0.code) } ?? 0
    }

    /// A stable name for the kind of failure, for a diagnostic's `name`.
    var name: String {
        switch reason {
        case .empty: return "EMPTY_DER"
        case .notACertificate: return "DER_NOT_A_CERTIFICATE"
        case .trailingBytes: return "DER_TRAILING_BYTES"
        }
    }

    var description: String {
        switch reason {
        case .empty:
            return "no bytes: an empty DER certificate"
        case .notACertificate(let errors):
            let stack = errors.isEmpty ? "OpenSSL gave no reason" : errors.map(\.description).joined(separator: "; ")
            return "d2i_X509 cannot parse it as a DER X.509 certificate: \(stack)"
        case .trailingBytes(let certificateLength, let totalLength):
            return "\(totalLength - certificateLength) trailing bytes after the \(certificateLength)-byte DER certificate (\(totalLength) bytes in all)"
        }
    }
}
