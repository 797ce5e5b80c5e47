import TrustBackendKit
internal import CMbedTLSBridge

/// The trust anchors parsed once into one mbedTLS list: owns a `cmbedtls_anchors` (an
/// `mbedtls_x509_crt` chain) and frees it when released.
///
/// An anchor mbedTLS does not read as a certificate at all (`mbedtls_x509_crt_parse_der` fails with
/// `X509_BAD_INPUT_DATA` or `X509_INVALID_FORMAT`: no bytes, or not the outer structure of a
/// certificate) is refused. A certificate mbedTLS reads but cannot use (an Ed25519 one: mbedTLS 2.28
/// has no EdDSA; an extension it does not support) is left out of the list, as `mbedtls_x509_crt_parse`
/// leaves out the certificates of a CA bundle it cannot parse (library/x509_crt.c: "total_failed++;
/// continue;"), which is how mbedTLS applications load their anchors; leaving an anchor out can only
/// take trust away. Every rejection then names what was left out (``unreadableNote``). With no
/// anchor left the list is empty and nothing is trusted, as the TLS client without a CA chain.
final class MbedTLSAnchors: @unchecked Sendable {
    // @unchecked Sendable: the list is never changed after init; verification only reads it (see cmbedtls_verify).
    let handle: OpaquePointer
    /// The anchors mbedTLS could not read, for the diagnostics: "" when none.
    let unreadableNote: String

    /// Parses every anchor with `mbedtls_x509_crt_parse_der` into one list.
    /// - Throws: ``TrustBackendError`` naming the first anchor mbedTLS does not read as a certificate
    ///   at all, or when mbedTLS runs out of memory.
    init(_ anchors: [[UInt8]], backend: String) throws(TrustBackendError) {
        var list: OpaquePointer?
        var errors = [Int32](repeating: 0, count: anchors.count)
        let status = withCBufferArrays(anchors) { pointers, lengths in
            errors.withUnsafeMutableBufferPointer { cmbedtls_anchors_make(pointers, lengths, anchors.count, &list, $0.baseAddress) }
        }
        guard status == 0, let list else {
            throw TrustBackendError(backend: backend, message: "mbedTLS could not parse the anchors: \(MbedTLSError(code: status))")
        }
        if let (index, code) = errors.enumerated().first(where: { $0.element != 0 && Self.isNoCertificate($0.element) }) {
            cmbedtls_anchors_free(list)
            throw TrustBackendError(backend: backend, message: "anchor \(index) (of \(anchors.count)) is not a certificate mbedTLS can read: mbedtls_x509_crt_parse_der failed with \(MbedTLSError(code: code))")
        }
        handle = list
        let unreadable = errors.enumerated().filter { $0.element != 0 }
        unreadableNote = unreadable.isEmpty ? "" : "; mbedTLS could not read "
            + unreadable.map { "anchor \($0.offset) (\(MbedTLSError(code: $0.element).name))" }.joined(separator: ", ")
            + (unreadable.count == anchors.count ? ", so it has no trust anchor at all" : ", left out of its trusted list as mbedtls_x509_crt_parse leaves them out of a bundle")
    }

    deinit { cmbedtls_anchors_free(handle) }

    /// Whether mbedTLS found no certificate at all in the bytes: no input (`X509_BAD_INPUT_DATA`) or
    /// not the outer structure of one (`X509_INVALID_FORMAT`), as opposed to a certificate whose
    /// contents it cannot use, which an mbedTLS application's CA bundle leaves out.
    static func isNoCertificate(_ code: Int32) -> Bool {
        let name = MbedTLSError(code: code).name
        return name.contains("X509_BAD_INPUT_DATA") || name.contains("X509_INVALID_FORMAT")
    }
}
