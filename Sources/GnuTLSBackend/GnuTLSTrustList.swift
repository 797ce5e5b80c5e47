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
    /// The CRLs the list points at, kept alive as long as it.
    private let revocationLists: GnuTLSRevocationLists?
    private let list: gnutls_x509_trust_list_t

    /// Makes a trust list holding exactly `anchors` and, when given, `revocationLists` added with
    /// `gnutls_x509_trust_list_add_crls(list, crls, n, addFlags, verificationFlags)` after the
    /// anchors (as that function requires). With `GNUTLS_TL_VERIFY_CRL` GnuTLS verifies each CRL
    /// against the anchors at the calling thread's GnuTLS time and skips one that fails, or fails
    /// the call with `GNUTLS_TL_FAIL_ON_INVALID_CRL`; the list keeps the CRLs it accepted.
    /// - Throws: the GnuTLS error when the list cannot be made, not every anchor could be added, or
    ///   adding the CRLs failed.
    init(anchors: [GnuTLSCertificate], revocationLists: GnuTLSRevocationLists? = nil, addFlags: UInt32 = 0, verificationFlags: UInt32 = 0) throws(GnuTLSError) {
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
        if let revocationLists, revocationLists.count > 0 {
            // Never GNUTLS_TL_NO_DUPLICATES: GnuTLS would then free CRLs this object owns.
            let added = revocationLists.withUnsafeHandles { handles, count in
                gnutls_x509_trust_list_add_crls(created, handles, count, addFlags & ~(1 << 2) /* GNUTLS_TL_NO_DUPLICATES */, verificationFlags)
            }
            guard added >= 0 else {
                gnutls_x509_trust_list_deinit(created, 0)
                throw GnuTLSError(added)
            }
        }
        self.list = created
        self.anchors = anchors
        self.revocationLists = revocationLists
    }

    deinit {
        gnutls_x509_trust_list_deinit(list, 0)
    }

    /// Lends the GnuTLS trust list for the duration of `body`; it must not escape or be modified.
    func withUnsafeList<Result>(_ body: (gnutls_x509_trust_list_t) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(list) }
    }
}
