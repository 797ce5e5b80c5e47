internal import COpenSSL
import TrustCore

/// The `X509_V_ERR_*` verification results of OpenSSL 3.0 (`openssl/x509_vfy.h`, codes 0 to 94):
/// each code's symbolic name and the ``FailureClass`` it is normalised to.
///
/// Decisions beyond the obvious names:
/// - "no path to an anchor" in all its forms (`UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)`,
///   `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, the two self-signed codes, `CERT_UNTRUSTED`, `CERT_REJECTED`)
///   is ``FailureClass/untrusted``;
/// - `KEYUSAGE_NO_CERTSIGN` (an issuer whose keyUsage lacks keyCertSign) is ``FailureClass/notCA``
///   next to `INVALID_CA`: both say the issuer may not act as a CA (RFC 5280 §6.1.4 (k), (n));
/// - a signature that does not verify, or that the issuer's key type cannot have made
///   (`CERT_SIGNATURE_FAILURE`, `UNABLE_TO_DECRYPT_CERT_SIGNATURE`, `SIGNATURE_ALGORITHM_MISMATCH`),
///   is ``FailureClass/badSignature``; an issuer key OpenSSL cannot decode
///   (`UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY`, `NO_ISSUER_PUBLIC_KEY`) is ``FailureClass/malformed``,
///   because no signature was ever checked;
/// - encodings that break the ASN.1 or RFC 5280 structure (bad time fields, undecodable extensions
///   or policies, differing signature algorithms, extensions in a v1/v2 certificate, an empty
///   subjectAltName) are ``FailureClass/malformed``;
/// - profile checks of strict mode that are well-formed but disallowed (missing key identifiers,
///   non-critical basicConstraints, ...), revocation, policy, name constraints, key strength, proxy,
///   DANE, Suite B and internal errors are ``FailureClass/other``, keeping their code.
enum X509VerifyErrorCode {
    struct Entry: Sendable {
        var name: String
        var failure: FailureClass
    }

    /// The symbolic name of `code`, e.g. `"X509_V_ERR_CERT_HAS_EXPIRED"`; for a code newer than
    /// OpenSSL 3.0, `"X509_V_ERR_UNKNOWN(<code>)"`.
    static func name(of code: Int32) -> String {
        table[code]?.name ?? "X509_V_ERR_UNKNOWN(\(code))"
    }

    /// The failure class of `code`; ``FailureClass/other`` for a code not in the table.
    static func failure(of code: Int32) -> FailureClass {
        table[code]?.failure ?? .other
    }

    /// The diagnostic for a verification that ended with `code` at `depth`, with OpenSSL's own
    /// text (`X509_verify_cert_error_string`).
    static func diagnostic(code: Int32, depth: Int?) -> NativeDiagnostic {
        NativeDiagnostic(
            code: Int(code),
            name: name(of: code),
            message: String(cString: X509_verify_cert_error_string(Int(code))),
            depth: depth,
            failure: failure(of: code)
        )
    }

    /// Every code of the OpenSSL 3.0 header, in order.
    static let entries: [(code: Int32, name: String, failure: FailureClass)] = [
        (X509_V_OK, "X509_V_OK", .other),
        (X509_V_ERR_UNSPECIFIED, "X509_V_ERR_UNSPECIFIED", .other),
        (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT", .untrusted),
        (X509_V_ERR_UNABLE_TO_GET_CRL, "X509_V_ERR_UNABLE_TO_GET_CRL", .other),
        (X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE, "X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE", .badSignature),
        (X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE, "X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE", .other),
        (X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, "X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY", .malformed),
        (X509_V_ERR_CERT_SIGNATURE_FAILURE, "X509_V_ERR_CERT_SIGNATURE_FAILURE", .badSignature),
        (X509_V_ERR_CRL_SIGNATURE_FAILURE, "X509_V_ERR_CRL_SIGNATURE_FAILURE", .other),
        (X509_V_ERR_CERT_NOT_YET_VALID, "X509_V_ERR_CERT_NOT_YET_VALID", .notYetValid),
        (X509_V_ERR_CERT_HAS_EXPIRED, "X509_V_ERR_CERT_HAS_EXPIRED", .expired),
        (X509_V_ERR_CRL_NOT_YET_VALID, "X509_V_ERR_CRL_NOT_YET_VALID", .other),
        (X509_V_ERR_CRL_HAS_EXPIRED, "X509_V_ERR_CRL_HAS_EXPIRED", .other),
        (X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, "X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD", .malformed),
        (X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD, "X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD", .malformed),
        (X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD, "X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD", .other),
        (X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD, "X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD", .other),
        (X509_V_ERR_OUT_OF_MEM, "X509_V_ERR_OUT_OF_MEM", .other),
        (X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", .untrusted),
        (X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, "X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", .untrusted),
        (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", .untrusted),
        (X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, "X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE", .untrusted),
        (X509_V_ERR_CERT_CHAIN_TOO_LONG, "X509_V_ERR_CERT_CHAIN_TOO_LONG", .other),
        (X509_V_ERR_CERT_REVOKED, "X509_V_ERR_CERT_REVOKED", .revoked),
        (X509_V_ERR_NO_ISSUER_PUBLIC_KEY, "X509_V_ERR_NO_ISSUER_PUBLIC_KEY", .malformed),
        (X509_V_ERR_PATH_LENGTH_EXCEEDED, "X509_V_ERR_PATH_LENGTH_EXCEEDED", .pathLengthExceeded),
        (X509_V_ERR_INVALID_PURPOSE, "X509_V_ERR_INVALID_PURPOSE", .purposeMismatch),
        (X509_V_ERR_CERT_UNTRUSTED, "X509_V_ERR_CERT_UNTRUSTED", .untrusted),
        (X509_V_ERR_CERT_REJECTED, "X509_V_ERR_CERT_REJECTED", .untrusted),
        (X509_V_ERR_SUBJECT_ISSUER_MISMATCH, "X509_V_ERR_SUBJECT_ISSUER_MISMATCH", .other),
        (X509_V_ERR_AKID_SKID_MISMATCH, "X509_V_ERR_AKID_SKID_MISMATCH", .other),
        (X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH, "X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH", .other),
        (X509_V_ERR_KEYUSAGE_NO_CERTSIGN, "X509_V_ERR_KEYUSAGE_NO_CERTSIGN", .notCA),
        (X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER, "X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER", .other),
        (X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION, "X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION", .other),
        (X509_V_ERR_KEYUSAGE_NO_CRL_SIGN, "X509_V_ERR_KEYUSAGE_NO_CRL_SIGN", .other),
        (X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION, "X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION", .other),
        (X509_V_ERR_INVALID_NON_CA, "X509_V_ERR_INVALID_NON_CA", .other),
        (X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED, "X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED", .other),
        (X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, "X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE", .other),
        (X509_V_ERR_PROXY_CERTIFICATES_NOT_ALLOWED, "X509_V_ERR_PROXY_CERTIFICATES_NOT_ALLOWED", .other),
        (X509_V_ERR_INVALID_EXTENSION, "X509_V_ERR_INVALID_EXTENSION", .malformed),
        (X509_V_ERR_INVALID_POLICY_EXTENSION, "X509_V_ERR_INVALID_POLICY_EXTENSION", .malformed),
        (X509_V_ERR_NO_EXPLICIT_POLICY, "X509_V_ERR_NO_EXPLICIT_POLICY", .other),
        (X509_V_ERR_DIFFERENT_CRL_SCOPE, "X509_V_ERR_DIFFERENT_CRL_SCOPE", .other),
        (X509_V_ERR_UNSUPPORTED_EXTENSION_FEATURE, "X509_V_ERR_UNSUPPORTED_EXTENSION_FEATURE", .other),
        (X509_V_ERR_UNNESTED_RESOURCE, "X509_V_ERR_UNNESTED_RESOURCE", .other),
        (X509_V_ERR_PERMITTED_VIOLATION, "X509_V_ERR_PERMITTED_VIOLATION", .other),
        (X509_V_ERR_EXCLUDED_VIOLATION, "X509_V_ERR_EXCLUDED_VIOLATION", .other),
        (X509_V_ERR_SUBTREE_MINMAX, "X509_V_ERR_SUBTREE_MINMAX", .other),
        (X509_V_ERR_APPLICATION_VERIFICATION, "X509_V_ERR_APPLICATION_VERIFICATION", .other),
        (X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, "X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE", .other),
        (X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX, "X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX", .other),
        (X509_V_ERR_UNSUPPORTED_NAME_SYNTAX, "X509_V_ERR_UNSUPPORTED_NAME_SYNTAX", .other),
        (X509_V_ERR_CRL_PATH_VALIDATION_ERROR, "X509_V_ERR_CRL_PATH_VALIDATION_ERROR", .other),
        (X509_V_ERR_PATH_LOOP, "X509_V_ERR_PATH_LOOP", .other),
        (X509_V_ERR_SUITE_B_INVALID_VERSION, "X509_V_ERR_SUITE_B_INVALID_VERSION", .other),
        (X509_V_ERR_SUITE_B_INVALID_ALGORITHM, "X509_V_ERR_SUITE_B_INVALID_ALGORITHM", .other),
        (X509_V_ERR_SUITE_B_INVALID_CURVE, "X509_V_ERR_SUITE_B_INVALID_CURVE", .other),
        (X509_V_ERR_SUITE_B_INVALID_SIGNATURE_ALGORITHM, "X509_V_ERR_SUITE_B_INVALID_SIGNATURE_ALGORITHM", .other),
        (X509_V_ERR_SUITE_B_LOS_NOT_ALLOWED, "X509_V_ERR_SUITE_B_LOS_NOT_ALLOWED", .other),
        (X509_V_ERR_SUITE_B_CANNOT_SIGN_P_384_WITH_P_256, "X509_V_ERR_SUITE_B_CANNOT_SIGN_P_384_WITH_P_256", .other),
        (X509_V_ERR_HOSTNAME_MISMATCH, "X509_V_ERR_HOSTNAME_MISMATCH", .hostnameMismatch),
        (X509_V_ERR_EMAIL_MISMATCH, "X509_V_ERR_EMAIL_MISMATCH", .other),
        (X509_V_ERR_IP_ADDRESS_MISMATCH, "X509_V_ERR_IP_ADDRESS_MISMATCH", .hostnameMismatch),
        (X509_V_ERR_DANE_NO_MATCH, "X509_V_ERR_DANE_NO_MATCH", .other),
        (X509_V_ERR_EE_KEY_TOO_SMALL, "X509_V_ERR_EE_KEY_TOO_SMALL", .other),
        (X509_V_ERR_CA_KEY_TOO_SMALL, "X509_V_ERR_CA_KEY_TOO_SMALL", .other),
        (X509_V_ERR_CA_MD_TOO_WEAK, "X509_V_ERR_CA_MD_TOO_WEAK", .other),
        (X509_V_ERR_INVALID_CALL, "X509_V_ERR_INVALID_CALL", .other),
        (X509_V_ERR_STORE_LOOKUP, "X509_V_ERR_STORE_LOOKUP", .other),
        (X509_V_ERR_NO_VALID_SCTS, "X509_V_ERR_NO_VALID_SCTS", .other),
        (X509_V_ERR_PROXY_SUBJECT_NAME_VIOLATION, "X509_V_ERR_PROXY_SUBJECT_NAME_VIOLATION", .other),
        (X509_V_ERR_OCSP_VERIFY_NEEDED, "X509_V_ERR_OCSP_VERIFY_NEEDED", .other),
        (X509_V_ERR_OCSP_VERIFY_FAILED, "X509_V_ERR_OCSP_VERIFY_FAILED", .other),
        (X509_V_ERR_OCSP_CERT_UNKNOWN, "X509_V_ERR_OCSP_CERT_UNKNOWN", .other),
        (X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM, "X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM", .other),
        (X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH, "X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH", .badSignature),
        (X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY, "X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY", .malformed),
        (X509_V_ERR_INVALID_CA, "X509_V_ERR_INVALID_CA", .notCA),
        (X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA, "X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA", .other),
        (X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN, "X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN", .other),
        (X509_V_ERR_KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA, "X509_V_ERR_KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA", .other),
        (X509_V_ERR_ISSUER_NAME_EMPTY, "X509_V_ERR_ISSUER_NAME_EMPTY", .other),
        (X509_V_ERR_SUBJECT_NAME_EMPTY, "X509_V_ERR_SUBJECT_NAME_EMPTY", .other),
        (X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER, "X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER", .other),
        (X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER, "X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER", .other),
        (X509_V_ERR_EMPTY_SUBJECT_ALT_NAME, "X509_V_ERR_EMPTY_SUBJECT_ALT_NAME", .malformed),
        (X509_V_ERR_EMPTY_SUBJECT_SAN_NOT_CRITICAL, "X509_V_ERR_EMPTY_SUBJECT_SAN_NOT_CRITICAL", .other),
        (X509_V_ERR_CA_BCONS_NOT_CRITICAL, "X509_V_ERR_CA_BCONS_NOT_CRITICAL", .other),
        (X509_V_ERR_AUTHORITY_KEY_IDENTIFIER_CRITICAL, "X509_V_ERR_AUTHORITY_KEY_IDENTIFIER_CRITICAL", .other),
        (X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL, "X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL", .other),
        (X509_V_ERR_CA_CERT_MISSING_KEY_USAGE, "X509_V_ERR_CA_CERT_MISSING_KEY_USAGE", .other),
        (X509_V_ERR_EXTENSIONS_REQUIRE_VERSION_3, "X509_V_ERR_EXTENSIONS_REQUIRE_VERSION_3", .malformed),
        (X509_V_ERR_EC_KEY_EXPLICIT_PARAMS, "X509_V_ERR_EC_KEY_EXPLICIT_PARAMS", .other),
    ]

    private static let table: [Int32: Entry] = Dictionary(
        entries.map { ($0.code, Entry(name: $0.name, failure: $0.failure)) },
        uniquingKeysWith: { first, _ in first }
    )
}
