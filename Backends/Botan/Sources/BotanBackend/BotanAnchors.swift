import TrustBackendKit
internal import CBotanShim

/// The trust anchors in one Botan store, parsed once: owns a `cbotan_anchors` (a
/// `Certificate_Store_In_Memory`) and frees it when released.
final class BotanAnchors: @unchecked Sendable {
    // @unchecked Sendable: the store is never changed after init and Botan's lookups only read it (see cbotan_shim.cpp).
    let handle: OpaquePointer
    /// The parsed anchors, kept alive as long as the store that refers to them.
    private let certificates: [BotanCertificate]
    /// The anchors' bytes as given, to report a verified path in them.
    let ders: [[UInt8]]

    /// Parses every anchor with Botan and puts them in one store.
    /// - Throws: ``TrustBackendError`` naming the first anchor that Botan cannot read.
    init(_ anchors: [[UInt8]], backend: String) throws(TrustBackendError) {
        var certificates: [BotanCertificate] = []
        certificates.reserveCapacity(anchors.count)
        for (index, anchor) in anchors.enumerated() {
            do {
                certificates.append(try BotanCertificate(der: anchor))
            } catch {
                throw TrustBackendError(backend: backend, message: "anchor \(index) cannot be read by Botan: \(error.reason)")
            }
        }
        var message = [CChar](repeating: 0, count: 512)
        var store: OpaquePointer?
        let handles: [OpaquePointer?] = certificates.map(\.handle)
        let status = cbotan_anchors_make(handles, handles.count, &store, &message, message.count)
        guard status == 0, let store else {
            throw TrustBackendError(backend: backend, message: "Botan could not make a certificate store of the anchors: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        self.handle = store
        self.certificates = certificates
        self.ders = anchors
    }

    deinit { cbotan_anchors_free(handle) }
}
