internal import CGnuTLS
import TrustCore

/// A `gnutls_certificate_status_t` bit set, normalised into one ``NativeDiagnostic`` per bit.
///
/// `GNUTLS_CERT_INVALID` accompanies every specific bit; it is folded into the others (GnuTLS's text
/// for each bit already begins "The certificate is NOT trusted.") and is reported on its own, as
/// ``FailureClass/other``, only when no specific bit says why.
struct GnuTLSStatus: Hashable {
    let rawValue: UInt32

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The diagnostics for each bit set, in bit order.
    /// - Parameter pathLengthViolated: asked only when `GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE` is set,
    ///   which GnuTLS uses for an exceeded pathLenConstraint but also for name constraints, an issuer
    ///   without keyCertSign and TLS feature constraints: it is classed as a path length failure only
    ///   when the verified path really exceeds a pathLenConstraint.
    func diagnostics(pathLengthViolated: () -> Bool) -> [NativeDiagnostic] {
        let invalid = GNUTLS_CERT_INVALID.rawValue
        let specific = rawValue & ~invalid
        guard specific != 0 else {
            return [Self.diagnostic(bit: invalid, failure: .other)]
        }
        var diagnostics: [NativeDiagnostic] = []
        var remaining = specific
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            remaining &= ~bit
            let failure: FailureClass
            if bit == GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE.rawValue {
                failure = pathLengthViolated() ? .pathLengthExceeded : .other
            } else {
                failure = Self.failureClass[bit] ?? .other
            }
            diagnostics.append(Self.diagnostic(bit: bit, failure: failure))
        }
        return diagnostics
    }

    private static func diagnostic(bit: UInt32, failure: FailureClass) -> NativeDiagnostic {
        NativeDiagnostic(
            code: Int(bit),
            name: names[bit] ?? "GNUTLS_CERT_(\(bit))",
            message: messages[bit] ?? message(for: bit),
            failure: failure
        )
    }

    /// The classes of the bits with one unambiguous meaning; all others are ``FailureClass/other``.
    private static let failureClass: [UInt32: FailureClass] = [
        GNUTLS_CERT_EXPIRED.rawValue: .expired,
        GNUTLS_CERT_NOT_ACTIVATED.rawValue: .notYetValid,
        GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue: .untrusted,
        GNUTLS_CERT_SIGNER_NOT_CA.rawValue: .notCA,
        GNUTLS_CERT_SIGNATURE_FAILURE.rawValue: .badSignature,
        GNUTLS_CERT_UNEXPECTED_OWNER.rawValue: .hostnameMismatch,
        GNUTLS_CERT_PURPOSE_MISMATCH.rawValue: .purposeMismatch,
        GNUTLS_CERT_REVOKED.rawValue: .revoked,
    ]

    private static let names: [UInt32: String] = [
        GNUTLS_CERT_INVALID.rawValue: "GNUTLS_CERT_INVALID",
        GNUTLS_CERT_REVOKED.rawValue: "GNUTLS_CERT_REVOKED",
        GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue: "GNUTLS_CERT_SIGNER_NOT_FOUND",
        GNUTLS_CERT_SIGNER_NOT_CA.rawValue: "GNUTLS_CERT_SIGNER_NOT_CA",
        GNUTLS_CERT_INSECURE_ALGORITHM.rawValue: "GNUTLS_CERT_INSECURE_ALGORITHM",
        GNUTLS_CERT_NOT_ACTIVATED.rawValue: "GNUTLS_CERT_NOT_ACTIVATED",
        GNUTLS_CERT_EXPIRED.rawValue: "GNUTLS_CERT_EXPIRED",
        GNUTLS_CERT_SIGNATURE_FAILURE.rawValue: "GNUTLS_CERT_SIGNATURE_FAILURE",
        GNUTLS_CERT_REVOCATION_DATA_SUPERSEDED.rawValue: "GNUTLS_CERT_REVOCATION_DATA_SUPERSEDED",
        GNUTLS_CERT_UNEXPECTED_OWNER.rawValue: "GNUTLS_CERT_UNEXPECTED_OWNER",
        GNUTLS_CERT_REVOCATION_DATA_ISSUED_IN_FUTURE.rawValue: "GNUTLS_CERT_REVOCATION_DATA_ISSUED_IN_FUTURE",
        GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE.rawValue: "GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE",
        GNUTLS_CERT_MISMATCH.rawValue: "GNUTLS_CERT_MISMATCH",
        GNUTLS_CERT_PURPOSE_MISMATCH.rawValue: "GNUTLS_CERT_PURPOSE_MISMATCH",
        GNUTLS_CERT_MISSING_OCSP_STATUS.rawValue: "GNUTLS_CERT_MISSING_OCSP_STATUS",
        GNUTLS_CERT_INVALID_OCSP_STATUS.rawValue: "GNUTLS_CERT_INVALID_OCSP_STATUS",
        GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS.rawValue: "GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS",
    ]

    /// GnuTLS's text for each known bit, made once so a rejection builds no C strings.
    private static let messages: [UInt32: String] = {
        var messages: [UInt32: String] = [:]
        for bit in names.keys {
            messages[bit] = message(for: bit)
        }
        return messages
    }()

    /// GnuTLS's own text for one status bit (`gnutls_certificate_verification_status_print`).
    private static func message(for bit: UInt32) -> String {
        var output = gnutls_datum_t(data: nil, size: 0)
        let result = gnutls_certificate_verification_status_print(bit, GNUTLS_CRT_X509, &output, 0)
        defer { CGnuTLS_free(output.data) }
        guard result >= 0, let data = output.data else {
            return "GnuTLS status bit \(bit) (no description: \(GnuTLSError(result).message))"
        }
        let text = String(decoding: UnsafeBufferPointer(start: data, count: Int(output.size)), as: UTF8.self)
        return text.trimmingTrailingWhitespaceAndNUL()
    }
}

extension String {
    fileprivate func trimmingTrailingWhitespaceAndNUL() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last == " " || last == "\n" || last == "\0" {
            scalars.removeLast()
        }
        return String(scalars)
    }
}
