import TrustBackendKit
internal import CMbedTLSBridge

/// The trust anchors parsed once into one mbedTLS list: owns a `cmbedtls_anchors` (an
/// `mbedtls_x509_crt` chain) and frees it when released.
///
/// Anchors that are not strict DER certificates are refused. A certificate mbedTLS cannot read (an
/// Ed25519 one: mbedTLS 2.28 has no EdDSA) is left out of the list, as `mbedtls_x509_crt_parse`
/// leaves out the certificates of a CA bundle it cannot parse (library/x509_crt.c: "total_failed++;
/// continue;"), which is how mbedTLS applications load their anchors; leaving an anchor out can only
/// take trust away. Every rejection then names what was left out (``unreadableNote``). With no
/// anchor left the list is empty and nothing is trusted, as the TLS client without a CA chain.
final class MbedTLSAnchors: @unchecked Sendable {
    // @unchecked Sendable: the list is never changed after init; verification only reads it (see cmbedtls_verify).
    let handle: OpaquePointer
    /// The anchors mbedTLS could not read, for the diagnostics: "" when none.
    let unreadableNote: String

    /// Parses every anchor (strict DER first, as the built-in back ends require) into one list.
    /// - Throws: ``TrustBackendError`` naming the first anchor that is not a DER certificate, or when
    ///   mbedTLS runs out of memory.
    init(_ anchors: [[UInt8]], backend: String) throws(TrustBackendError) {
        for (index, anchor) in anchors.enumerated() {
        }
        var list: OpaquePointer?
        var errors = [Int32](repeating: 0, count: anchors.count)
        let status = withCBufferArrays(anchors) { pointers, lengths in
            errors.withUnsafeMutableBufferPointer { cmbedtls_anchors_make(pointers, lengths, anchors.count, &list, $0.baseAddress) }
        }
        guard status == 0, let list else {
            throw TrustBackendError(backend: backend, message: "mbedTLS could not parse the anchors: \(MbedTLSError(code: status))")
        }
        handle = list
        let unreadable = errors.enumerated().filter { $0.element != 0 }
        unreadableNote = unreadable.isEmpty ? "" : "; mbedTLS could not read "
            + unreadable.map { "anchor \($0.offset) (\(MbedTLSError(code: $0.element).name))" }.joined(separator: ", ")
            + (unreadable.count == anchors.count ? ", so it has no trust anchor at all" : ", left out of its trusted list as mbedtls_x509_crt_parse leaves them out of a bundle")
    }

    deinit { cmbedtls_anchors_free(handle) }
}
