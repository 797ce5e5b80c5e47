import TrustBackendKit
internal import CWolfSSLBridge

/// A wolfSSL error code (wolfssl/wolfcrypt/error-crypt.h, wolfssl/error-ssl.h) with its name, its
/// text and its class in the failure taxonomy.
struct WolfSSLError: CustomStringConvertible {
    let code: Int32

    /// The enumerator's own name (`ASN_AFTER_DATE_E`, `DOMAIN_NAME_MISMATCH`, ...).
    var name: String {
        if let name = cwolfssl_error_name(code) { return String(cString: name) }
        switch code {
        case -1: return "WOLFSSL_FATAL_ERROR"
        case CWOLFSSL_PATH_UNRESOLVED: return "WOLFSSL_PATH_UNRESOLVED"
        case CWOLFSSL_HOST_UNAVAILABLE: return "WOLFSSL_HOST_CHECK_UNAVAILABLE"
        default: return "WOLFSSL_ERROR_\(code)"
        }
    }

    /// wolfSSL's own text (`wolfSSL_ERR_reason_error_string`).
    var text: String { cwolfssl_error_text(code).map { String(cString: $0) } ?? "wolfSSL error \(code)" }

    var description: String { "\(name) (\(code)): \(text)" }

    /// The class of the error found at `depth` of the presented chain (nil: an anchor or none).
    func failure(depth: Int?) -> FailureClass {
        switch cwolfssl_error_class(code) {
        case 1: return .expired
        case 2: return .notYetValid
        case 3: return .untrusted
        case 4: return .notCA
        case 5: return .pathLengthExceeded
        case 6: return .badSignature
        // Key usage of an issuer is not the request's purpose; at the leaf it is.
        case 7: return (depth ?? 0) > 0 ? .other : .purposeMismatch
        case 8: return .malformed
        case 9: return .hostnameMismatch
        case 11: return .revoked
        default: return .other
        }
    }
}
