internal import CMbedTLSBridge

/// An mbedTLS error code (negative: a high-level part such as `MBEDTLS_ERR_X509_INVALID_EXTENSIONS`
/// plus a low-level part such as `MBEDTLS_ERR_ASN1_UNEXPECTED_TAG`) with its name and text.
struct MbedTLSError: CustomStringConvertible {
    let code: Int32

    /// The symbolic name, both parts joined with "+" as mbedTLS adds them
    /// (`MBEDTLS_ERR_X509_INVALID_EXTENSIONS+MBEDTLS_ERR_ASN1_UNEXPECTED_TAG`), or the code in hex.
    var name: String {
        let parts = [cmbedtls_high_level_name(code), cmbedtls_low_level_name(code)].compactMap { $0.map { String(cString: $0) } }
        return parts.isEmpty ? "MBEDTLS_ERR_-0x" + String(-Int(code), radix: 16, uppercase: true) : parts.joined(separator: "+")
    }

    /// mbedTLS's own text (`mbedtls_strerror`).
    var text: String {
        var buffer = [CChar](repeating: 0, count: 256)
        cmbedtls_error_text(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var description: String { "\(name) (-0x\(String(-Int(code), radix: 16, uppercase: true))): \(text)" }
}
