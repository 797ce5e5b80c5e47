internal import CNIOBoringSSL
import TrustBackendKit

/// The `X509_V_ERR_*` results of the BoringSSL swift-nio-ssl 2.37.6 embeds
/// (Sources/CNIOBoringSSL/include/CNIOBoringSSL_x509.h: 0 to 54 and 62 to 67; BoringSSL numbers
/// them as OpenSSL does but has dropped OpenSSL's later codes and added
/// `NAME_CONSTRAINTS_WITHOUT_SANS`): each code's symbolic name and the ``FailureClass`` it is
/// normalised to, as the built-in OpenSSL back end classes the same names.
///
/// - "no path to an anchor" in every form (the issuer codes, the two self-signed codes,
///   `CERT_UNTRUSTED`, `CERT_REJECTED`) is ``FailureClass/untrusted``;
/// - `KEYUSAGE_NO_CERTSIGN` is ``FailureClass/notCA`` beside `INVALID_CA` (RFC 5280 §6.1.4 (k), (n));
/// - a signature that does not verify is ``FailureClass/badSignature``; an issuer key BoringSSL
///   cannot decode, a bad time field or an undecodable extension is ``FailureClass/malformed``;
/// - name constraints, policy, CRL and internal errors are ``FailureClass/other`` with their code.
enum X509VerifyError {
    /// The diagnostic for a verification that ended with `code` at `depth`, with BoringSSL's own
    /// text (`X509_verify_cert_error_string`).
    static func diagnostic(code: Int32, depth: Int?) -> NativeDiagnostic {
        let entry = table[code]
        return NativeDiagnostic(
            code: Int(code),
            name: entry?.name ?? "X509_V_ERR_UNKNOWN(\(code))",
            message: String(cString: X509_verify_cert_error_string(Int(code))),
            depth: depth,
            failure: entry?.failure ?? .other
        )
    }

    /// Every code of the header, in order.
    static let entries: [(code: Int32, name: String, failure: FailureClass)] = [
        (0, "X509_V_OK", .other),
        (1, "X509_V_ERR_UNSPECIFIED", .other),
        (2, "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT", .untrusted),
        (3, "X509_V_ERR_UNABLE_TO_GET_CRL", .other),
        (4, "X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE", .badSignature),
        (5, "X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE", .other),
        (6, "X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY", .malformed),
        (7, "X509_V_ERR_CERT_SIGNATURE_FAILURE", .badSignature),
        (8, "X509_V_ERR_CRL_SIGNATURE_FAILURE", .other),
        (9, "X509_V_ERR_CERT_NOT_YET_VALID", .notYetValid),
        (10, "X509_V_ERR_CERT_HAS_EXPIRED", .expired),
        (11, "X509_V_ERR_CRL_NOT_YET_VALID", .other),
        (12, "X509_V_ERR_CRL_HAS_EXPIRED", .other),
        (13, "X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD", .malformed),
        (14, "X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD", .malformed),
        (15, "X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD", .other),
        (16, "X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD", .other),
        (17, "X509_V_ERR_OUT_OF_MEM", .other),
        (18, "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", .untrusted),
        (19, "X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", .untrusted),
        (20, "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", .untrusted),
        (21, "X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE", .untrusted),
        (22, "X509_V_ERR_CERT_CHAIN_TOO_LONG", .other),
        (23, "X509_V_ERR_CERT_REVOKED", .revoked),
        (24, "X509_V_ERR_INVALID_CA", .notCA),
        (25, "X509_V_ERR_PATH_LENGTH_EXCEEDED", .pathLengthExceeded),
        (26, "X509_V_ERR_INVALID_PURPOSE", .purposeMismatch),
        (27, "X509_V_ERR_CERT_UNTRUSTED", .untrusted),
        (28, "X509_V_ERR_CERT_REJECTED", .untrusted),
        (29, "X509_V_ERR_SUBJECT_ISSUER_MISMATCH", .other),
        (30, "X509_V_ERR_AKID_SKID_MISMATCH", .other),
        (31, "X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH", .other),
        (32, "X509_V_ERR_KEYUSAGE_NO_CERTSIGN", .notCA),
        (33, "X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER", .other),
        (34, "X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION", .other),
        (35, "X509_V_ERR_KEYUSAGE_NO_CRL_SIGN", .other),
        (36, "X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION", .other),
        (37, "X509_V_ERR_INVALID_NON_CA", .other),
        (38, "X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED", .other),
        (39, "X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE", .other),
        (40, "X509_V_ERR_PROXY_CERTIFICATES_NOT_ALLOWED", .other),
        (41, "X509_V_ERR_INVALID_EXTENSION", .malformed),
        (42, "X509_V_ERR_INVALID_POLICY_EXTENSION", .malformed),
        (43, "X509_V_ERR_NO_EXPLICIT_POLICY", .other),
        (44, "X509_V_ERR_DIFFERENT_CRL_SCOPE", .other),
        (45, "X509_V_ERR_UNSUPPORTED_EXTENSION_FEATURE", .other),
        (46, "X509_V_ERR_UNNESTED_RESOURCE", .other),
        (47, "X509_V_ERR_PERMITTED_VIOLATION", .other),
        (48, "X509_V_ERR_EXCLUDED_VIOLATION", .other),
        (49, "X509_V_ERR_SUBTREE_MINMAX", .other),
        (50, "X509_V_ERR_APPLICATION_VERIFICATION", .other),
        (51, "X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE", .other),
        (52, "X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX", .other),
        (53, "X509_V_ERR_UNSUPPORTED_NAME_SYNTAX", .other),
        (54, "X509_V_ERR_CRL_PATH_VALIDATION_ERROR", .other),
        (62, "X509_V_ERR_HOSTNAME_MISMATCH", .hostnameMismatch),
        (63, "X509_V_ERR_EMAIL_MISMATCH", .other),
        (64, "X509_V_ERR_IP_ADDRESS_MISMATCH", .hostnameMismatch),
        (65, "X509_V_ERR_INVALID_CALL", .other),
        (66, "X509_V_ERR_STORE_LOOKUP", .other),
        (67, "X509_V_ERR_NAME_CONSTRAINTS_WITHOUT_SANS", .other),
    ]

    private static let table: [Int32: (name: String, failure: FailureClass)] = Dictionary(
        entries.map { ($0.code, ($0.name, $0.failure)) },
        uniquingKeysWith: { first, _ in first }
    )
}
