internal import CGnuTLS

/// A `gnutls_x509_trust_list_t` holding the anchors, freed in `deinit`.
///
/// GnuTLS stores the anchors' handles without copying them. The list is freed with `all = 0`, so it
/// never frees those handles itself: they stay owned by the ``GnuTLSCertificate`` objects this class
/// keeps in ``anchors``, which outlive the list because `deinit` runs before stored properties are
/// released. The list is not modified after `init`.
final class GnuTLSTrustList {
    /// The anchors, in the order they were added.
    let anchors: [GnuTLSCertificate]
    private let list: gnutls_x509_trust_list_t

    /// Makes a trust list holding exactly `anchors`.
    /// - Throws: the GnuTLS error when the list cannot be made or not every anchor could be added.
    init(anchors: [GnuTLSCertificate]) throws(GnuTLSError) {
        var created: gnutls_x509_trust_list_t?
        let initResult = gnutls_x509_trust_list_init(&created, 0)
        guard initResult == GNUTLS_E_SUCCESS, let created else {
            throw GnuTLSError(initResult < 0 ? initResult : GNUTLS_E_MEMORY_ERROR)
        }
        if !anchors.isEmpty {
            // Flags 0: no GNUTLS_TL_NO_DUPLICATES, which would free handles we own.
            let added = GnuTLSCertificate.withUnsafeHandles(anchors) { handles, count in
                gnutls_x509_trust_list_add_cas(created, handles, count, 0)
            }
            guard added == Int32(anchors.count) else {
                gnutls_x509_trust_list_deinit(created, 0)
                throw GnuTLSError(added < 0 ? added : GNUTLS_E_MEMORY_ERROR)
            }
        }
        self.list = created
        self.anchors = anchors
    }

    deinit {
        gnutls_x509_trust_list_deinit(list, 0)
    }

    /// Lends the GnuTLS trust list for the duration of `body`; it must not escape or be modified.
    func withUnsafeList<Result>(_ body: (gnutls_x509_trust_list_t) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(list) }
    }
}
