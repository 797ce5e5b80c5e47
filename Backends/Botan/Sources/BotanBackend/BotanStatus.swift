import TrustBackendKit
internal import CBotanShim

/// Botan's `Certificate_Status_Code` (src/lib/x509/pkix_enums.h, Botan 2.19) in the failure taxonomy.
///
/// The names are the enumerators' own; the messages are Botan's texts (`Botan::to_string`).
enum BotanStatus {
    /// The diagnostic for `code`, found at `depth` of the path Botan reports (0 the leaf; nil when
    /// path building failed before any path).
    static func diagnostic(_ code: Int32, depth: Int?) -> NativeDiagnostic {
        let entry = table[Int(code)] ?? ("BOTAN_STATUS_\(code)", .other)
        let text = cbotan_status_text(code).map { String(cString: $0) } ?? "Botan status \(code)"
        var failure = entry.failure
        // Botan sets INVALID_USAGE only on the leaf (PKIX::check_chain: key usage and extended key
        // usage for the requested Usage_Type, or keyCertSign without cA); kept general should it not.
        if code == 4001, let depth, depth > 0 { failure = .other }
        return NativeDiagnostic(code: Int(code), name: entry.name, message: text, depth: depth, failure: failure)
    }

    /// Every error status Botan 2.19 defines (warnings and revocation information, below
    /// `FIRST_ERROR_STATUS` = 1000, are not failures and never reported).
    static let table: [Int: (name: String, failure: FailureClass)] = [
        1000: ("SIGNATURE_METHOD_TOO_WEAK", .other),   // an issuer key below the minimum strength
        1001: ("UNTRUSTED_HASH", .other),              // e.g. SHA-1 above strength 80
        1002: ("NO_REVOCATION_DATA", .other),          // no CRL covers a certificate when CRLs are required
        1003: ("NO_MATCHING_CRLDP", .other),
        2000: ("CERT_NOT_YET_VALID", .notYetValid),
        2001: ("CERT_HAS_EXPIRED", .expired),
        2002: ("OCSP_NOT_YET_VALID", .other),
        2003: ("OCSP_HAS_EXPIRED", .other),
        2004: ("CRL_NOT_YET_VALID", .other),
        2005: ("CRL_HAS_EXPIRED", .other),
        2006: ("OCSP_IS_TOO_OLD", .other),
        3000: ("CERT_ISSUER_NOT_FOUND", .untrusted),
        3001: ("CANNOT_ESTABLISH_TRUST", .untrusted),  // a self-signed certificate that is no anchor
        3002: ("CERT_CHAIN_LOOP", .untrusted),
        3003: ("CHAIN_LACKS_TRUST_ROOT", .untrusted),
        3004: ("CHAIN_NAME_MISMATCH", .untrusted),
        4000: ("POLICY_ERROR", .other),
        4001: ("INVALID_USAGE", .purposeMismatch),
        4002: ("CERT_CHAIN_TOO_LONG", .pathLengthExceeded),
        4003: ("CA_CERT_NOT_FOR_CERT_ISSUER", .notCA),  // no cA bit, or a keyUsage without keyCertSign
        4004: ("NAME_CONSTRAINT_ERROR", .other),
        4005: ("CA_CERT_NOT_FOR_CRL_ISSUER", .other),
        4006: ("OCSP_CERT_NOT_LISTED", .other),
        4007: ("OCSP_BAD_STATUS", .other),
        4008: ("CERT_NAME_NOMATCH", .hostnameMismatch),
        4009: ("UNKNOWN_CRITICAL_EXTENSION", .other),
        4010: ("DUPLICATE_CERT_EXTENSION", .malformed),
        4501: ("OCSP_SIGNATURE_ERROR", .other),
        4502: ("OCSP_ISSUER_NOT_FOUND", .other),
        4503: ("OCSP_RESPONSE_MISSING_KEYUSAGE", .other),
        4504: ("OCSP_RESPONSE_INVALID", .other),
        4505: ("EXT_IN_V1_V2_CERT", .malformed),
        4506: ("DUPLICATE_CERT_POLICY", .malformed),
        4507: ("V2_IDENTIFIERS_IN_V1_CERT", .malformed),
        5000: ("CERT_IS_REVOKED", .revoked),
        5001: ("CRL_BAD_SIGNATURE", .other),
        5002: ("SIGNATURE_ERROR", .badSignature),
        5003: ("CERT_PUBKEY_INVALID", .malformed),     // the issuer's key cannot be decoded
        5004: ("SIGNATURE_ALGO_UNKNOWN", .other),
        5005: ("SIGNATURE_ALGO_BAD_PARAMS", .badSignature),
    ]
}
