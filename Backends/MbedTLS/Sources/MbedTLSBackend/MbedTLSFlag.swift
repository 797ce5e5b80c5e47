import TrustBackendKit
internal import CMbedTLSBridge

/// mbedTLS's verification flags (`MBEDTLS_X509_BADCERT_*`, `MBEDTLS_X509_BADCRL_*`,
/// include/mbedtls/x509.h, 2.28) in the failure taxonomy.
///
/// The names are the macros' own; the messages are mbedTLS's texts (`mbedtls_x509_crt_verify_info`).
enum MbedTLSFlag {
    /// The diagnostics for `flags` set on the certificate at `depth` of mbedTLS's chain (0 the leaf;
    /// nil when mbedTLS reported no chain), one per flag; `which` says which certificate that is, and
    /// `untrustedNote` is added to `MBEDTLS_X509_BADCERT_NOT_TRUSTED`'s message.
    static func diagnostics(_ flags: UInt32, depth: Int?, which: String, untrustedNote: String = "") -> [NativeDiagnostic] {
        table.filter { flags & $0.bit != 0 }.map { entry in
            let message = text(entry.bit) + which + (entry.note.map { " (\($0))" } ?? "") + (entry.bit == notTrusted ? untrustedNote : "")
            return NativeDiagnostic(code: Int(entry.bit), name: entry.name, message: message, depth: depth, failure: entry.failure)
        }
    }

    /// `MBEDTLS_X509_BADCERT_NOT_TRUSTED`.
    static let notTrusted: UInt32 = 0x08

    /// Every flag mbedTLS 2.28 defines, in bit order.
    static let table: [(bit: UInt32, name: String, failure: FailureClass, note: String?)] = [
        (0x01, "MBEDTLS_X509_BADCERT_EXPIRED", .expired, nil),
        (0x02, "MBEDTLS_X509_BADCERT_REVOKED", .revoked, nil),
        (0x04, "MBEDTLS_X509_BADCERT_CN_MISMATCH", .hostnameMismatch, nil),
        // Set both when no issuer was found among the anchors and the presented certificates
        // (x509_crt_verify_chain: "No parent? We're done here"), an issuer failing the CA bit,
        // keyCertSign or pathLenConstraint being skipped as no parent at all (x509_crt_find_parent_in),
        // and when the issuer's signature did not verify ("signature was checked while searching
        // parent"): mbedTLS has no separate flag for a bad signature.
        (0x08, "MBEDTLS_X509_BADCERT_NOT_TRUSTED", .untrusted, "no issuer found that is a CA allowed to sign it, or its signature did not verify"),
        (0x10, "MBEDTLS_X509_BADCRL_NOT_TRUSTED", .other, nil),
        (0x20, "MBEDTLS_X509_BADCRL_EXPIRED", .other, nil),
        (0x40, "MBEDTLS_X509_BADCERT_MISSING", .other, nil),
        (0x80, "MBEDTLS_X509_BADCERT_SKIP_VERIFY", .other, nil),
        (0x100, "MBEDTLS_X509_BADCERT_OTHER", .other, nil),
        (0x200, "MBEDTLS_X509_BADCERT_FUTURE", .notYetValid, nil),
        (0x400, "MBEDTLS_X509_BADCRL_FUTURE", .other, nil),
        // Set only by the TLS client's usage check of the leaf (mbedtls_ssl_check_cert_usage).
        (0x800, "MBEDTLS_X509_BADCERT_KEY_USAGE", .purposeMismatch, "mbedtls_ssl_check_cert_usage: keyUsage lacks digitalSignature, which an ECDHE key exchange needs"),
        (0x1000, "MBEDTLS_X509_BADCERT_EXT_KEY_USAGE", .purposeMismatch, "mbedtls_ssl_check_cert_usage: extendedKeyUsage lacks serverAuth and anyExtendedKeyUsage"),
        (0x2000, "MBEDTLS_X509_BADCERT_NS_CERT_TYPE", .purposeMismatch, nil),
        // The certificate profile refused an algorithm or key (weak hash, RSA under 2048 bits, a
        // curve outside the profile): a policy of the library, not an RFC 5280 failure.
        (0x4000, "MBEDTLS_X509_BADCERT_BAD_MD", .other, "the certificate profile does not accept its signature's hash"),
        (0x8000, "MBEDTLS_X509_BADCERT_BAD_PK", .other, "the certificate profile does not accept its signature or key algorithm"),
        (0x10000, "MBEDTLS_X509_BADCERT_BAD_KEY", .other, "the certificate profile does not accept its issuer's key, or its own at the leaf (curve or RSA size)"),
        (0x20000, "MBEDTLS_X509_BADCRL_BAD_MD", .other, nil),
        (0x40000, "MBEDTLS_X509_BADCRL_BAD_PK", .other, nil),
        (0x80000, "MBEDTLS_X509_BADCRL_BAD_KEY", .other, nil),
    ]

    /// mbedTLS's own text for one flag, read once.
    static func text(_ bit: UInt32) -> String { texts[bit] ?? "mbedTLS verification flag 0x\(String(bit, radix: 16))" }

    private static let texts: [UInt32: String] = Dictionary(uniqueKeysWithValues: table.map { entry in
        var buffer = [CChar](repeating: 0, count: 256)
        cmbedtls_flag_text(entry.bit, &buffer, buffer.count)
        return (entry.bit, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    })
}
