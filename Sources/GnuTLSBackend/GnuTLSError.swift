internal import CGnuTLS
import TrustCore

/// A negative `GNUTLS_E_*` code with GnuTLS's own name and text for it.
struct GnuTLSError: Error, Hashable {
    /// The negative GnuTLS error code.
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }

    /// The symbolic name (`GNUTLS_E_ASN1_DER_ERROR`), or the number when GnuTLS has none.
    var name: String {
        gnutls_strerror_name(code).map { String(cString: $0) } ?? "GNUTLS_E_(\(code))"
    }

    /// GnuTLS's description (`gnutls_strerror`).
    var message: String {
        gnutls_strerror(code).map { String(cString: $0) } ?? "unknown GnuTLS error \(code)"
    }

    /// Whether the code says the input could not be decoded, as opposed to a library failure.
    var isDecodingFailure: Bool {
        Self.decodingCodes.contains(code)
    }

    private static let decodingCodes: Set<Int32> = [
        GNUTLS_E_ASN1_DER_ERROR, GNUTLS_E_ASN1_DER_OVERFLOW, GNUTLS_E_ASN1_ELEMENT_NOT_FOUND,
        GNUTLS_E_ASN1_IDENTIFIER_NOT_FOUND, GNUTLS_E_ASN1_TAG_ERROR, GNUTLS_E_ASN1_TAG_IMPLICIT,
        GNUTLS_E_ASN1_TYPE_ANY_ERROR, GNUTLS_E_ASN1_SYNTAX_ERROR, GNUTLS_E_ASN1_VALUE_NOT_FOUND,
        GNUTLS_E_ASN1_VALUE_NOT_VALID, GNUTLS_E_ASN1_GENERIC_ERROR, GNUTLS_E_CERTIFICATE_ERROR,
        GNUTLS_E_X509_UNSUPPORTED_ATTRIBUTE,
        GNUTLS_E_X509_UNSUPPORTED_OID, GNUTLS_E_X509_UNKNOWN_SAN, GNUTLS_E_PARSING_ERROR,
        GNUTLS_E_UNKNOWN_PK_ALGORITHM, GNUTLS_E_X509_UNSUPPORTED_EXTENSION,
        GNUTLS_E_X509_DUPLICATE_EXTENSION, GNUTLS_E_CERTIFICATE_TIME_ERROR,
    ]

    /// This error as a diagnostic of class `failure`.
    func diagnostic(_ failure: FailureClass, message prefix: String, depth: Int? = nil) -> NativeDiagnostic {
        NativeDiagnostic(code: Int(code), name: name, message: "\(prefix): \(message)", depth: depth, failure: failure)
    }
}
