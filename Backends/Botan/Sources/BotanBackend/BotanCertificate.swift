internal import CBotanShim

/// One certificate as Botan parsed it: owns a `cbotan_certificate` (a `Botan::X509_Certificate`)
/// and frees it when released.
final class BotanCertificate: @unchecked Sendable {
    // @unchecked Sendable: the Botan object is immutable once parsed and Botan only reads it (see cbotan_shim.cpp).
    let handle: OpaquePointer

    /// Parses `der` with Botan.
    /// - Throws: ``BotanParseError`` with Botan's reason.
    init(der: [UInt8]) throws(BotanParseError) {
        var message = [CChar](repeating: 0, count: 512)
        var parsed: OpaquePointer?
        let status = der.withUnsafeBufferPointer { cbotan_certificate_parse($0.baseAddress, $0.count, &parsed, &message, message.count) }
        guard status == 0, let parsed else {
            throw BotanParseError(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = parsed
    }

    deinit { cbotan_certificate_free(handle) }
}

/// Botan could not read a certificate; `reason` is the text of the exception it threw.
struct BotanParseError: Error, Sendable {
    var reason: String
}
