internal import CGnuTLS
import TrustCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the path from the leaf to the first anchor, since GnuTLS does not report the path it
/// verified: the back end decides the path and GnuTLS verifies exactly it.
///
/// From the leaf, at each certificate: if it is an anchor, the path ends at it. An anchor is a
/// certificate with identical DER; past the leaf also one with the same subject and public key, as
/// GnuTLS itself accepts (a CA re-issued with other dates or as self-signed). Otherwise, if the trust
/// list holds an issuer for it, the path ends at that anchor. Otherwise the next certificate is an
/// unused presented one that issues it by name and key identifier; among several, the one whose
/// signature verifies is preferred, then one valid at the request's time, then the first presented.
/// Each presented certificate is used at most once and the path holds at most
/// ``maximumLength`` of them, so a hostile chain cannot make this loop or grow without bound.
struct PathBuilder {
    /// The certification path the back end asks GnuTLS to verify.
    struct Path {
        /// The presented certificates of the path before its anchor, leaf first: exactly the list
        /// given to GnuTLS. Empty when the leaf itself is an anchor.
        var certificates: [GnuTLSCertificate]
        /// The index of the anchor that ends the path, or `nil` when no path to an anchor was found
        /// (then ``certificates`` is the chain of issuers found from the leaf).
        var anchor: Int?
        /// Where each of ``certificates`` is in the presented chain.
        var positions: [Int]
        /// Whether the request's time chose between candidate issuers; when not, the same presented
        /// certificates give the same path at any time.
        var dependsOnTime: Bool
    }

    /// Far above any real chain (GnuTLS itself has no limit on a sorted list), but bounding the
    /// quadratic issuer search for chains of thousands of certificates.
    static let maximumLength = 32

    /// The most signature verifications one build spends ranking candidate issuers. Real chains rank
    /// rarely and among two or three; a hostile chain of many certificates with one subject would
    /// otherwise cost up to ``maximumLength`` x its length verifications (about a second for 100
    /// ECDSA certificates, x509-limbo's pathological-chain cases). Past the budget, candidates are
    /// ranked by validity alone, then order: the path GnuTLS is asked to verify may then be a worse
    /// one, which can only turn a "trusted" into a rejection, never the reverse.
    static let signatureBudget = 16

    let trustList: GnuTLSTrustList
    let anchorIndexByDER: [DERBytes: Int]
    let anchorIndicesBySubject: [ArraySlice<UInt8>: [Int]]
    let anchorIndexByIdentity: [OpaquePointer: Int]

    /// Builds the path for `presented` (leaf first, not empty). Time-dependent choices use the
    /// evaluation's time, so this must run inside ``EvaluationScope/run(at:_:)``.
    func build(from presented: [GnuTLSCertificate], at time: time_t) -> Path {
        var path = Path(certificates: [], anchor: nil, positions: [], dependsOnTime: false)
        var used = [Bool](repeating: false, count: presented.count)
        used[0] = true
        var position = 0
        var budget = Self.signatureBudget
        while true {
            let current = presented[position]
            if let anchor = anchorIndex(matching: current, isLeaf: path.certificates.isEmpty) {
                path.anchor = anchor
                return path
            }
            path.certificates.append(current)
            path.positions.append(position)
            if let anchor = trustList.issuerIndex(of: current, anchorIndexByIdentity: anchorIndexByIdentity) {
                path.anchor = anchor
                return path
            }
            guard path.certificates.count < Self.maximumLength,
                  let next = issuerIndex(of: current, among: presented, excluding: used, at: time, budget: &budget)
            else {
                return path
            }
            path.dependsOnTime = path.dependsOnTime || next.ranked
            used[next.index] = true
            position = next.index
        }
    }

    /// The anchor `certificate` is, if any. The leaf must be byte-identical to an anchor, as in GnuTLS
    /// (which compares the end certificate with `gnutls_x509_crt_equals` but CAs by name and key).
    private func anchorIndex(matching certificate: GnuTLSCertificate, isLeaf: Bool) -> Int? {
        if let index = anchorIndexByDER[certificate.derBytes] {
            return index
        }
        guard !isLeaf, let subject = certificate.subject, let key = certificate.subjectPublicKeyInfo,
              let candidates = anchorIndicesBySubject[subject]
        else { return nil }
        return candidates.first { trustList.anchors[$0].subjectPublicKeyInfo == key }
    }

    /// The best unused presented issuer of `certificate`, as an index into `presented`, and whether
    /// candidates were ranked (which costs a signature verification each and consults the time),
    /// which happens only when there is more than one.
    private func issuerIndex(
        of certificate: GnuTLSCertificate,
        among presented: [GnuTLSCertificate],
        excluding used: [Bool],
        at time: time_t,
        budget: inout Int
    ) -> (index: Int, ranked: Bool)? {
        func isCandidate(_ index: Int) -> Bool {
            let candidate = presented[index]
            // A second copy of the certificate itself is no step forward.
            return !used[index] && candidate.derBytes != certificate.derBytes && certificate.isIssued(by: candidate)
        }
        guard let first = presented.indices.first(where: isCandidate) else { return nil }
        guard let second = presented.indices[(first + 1)...].first(where: isCandidate) else { return (first, false) }
        var best = (index: first, score: score(of: presented[first], issuing: certificate, at: time, budget: &budget))
        for index in presented.indices[second...] where index == second || isCandidate(index) {
            let value = score(of: presented[index], issuing: certificate, at: time, budget: &budget)
            if value > best.score {
                best = (index, value)
            }
        }
        return (best.index, true)
    }

    private func score(of issuer: GnuTLSCertificate, issuing certificate: GnuTLSCertificate, at time: time_t, budget: inout Int) -> Int {
        var verifies = false
        if budget > 0 {
            budget -= 1
            verifies = Self.signatureVerifies(of: certificate, by: issuer)
        }
        return (verifies ? 2 : 0) + (issuer.isValid(at: time) ? 1 : 0)
    }

    /// Whether `issuer`'s key verifies `certificate`'s signature, ignoring times and CA status
    /// (`gnutls_x509_crt_verify` with only `issuer` trusted).
    private static func signatureVerifies(of certificate: GnuTLSCertificate, by issuer: GnuTLSCertificate) -> Bool {
        let flags = GNUTLS_VERIFY_DISABLE_TIME_CHECKS.rawValue
            | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS.rawValue
            | GNUTLS_VERIFY_DISABLE_CA_SIGN.rawValue
            | GNUTLS_VERIFY_DO_NOT_ALLOW_SAME.rawValue
        var status: UInt32 = 0
        let result = certificate.withUnsafeHandle { handle in
            GnuTLSCertificate.withUnsafeHandles([issuer]) { issuers, count in
                gnutls_x509_crt_verify(handle, issuers, count, flags, &status)
            }
        }
        let unusable = GNUTLS_CERT_SIGNATURE_FAILURE.rawValue | GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue
        return result >= 0 && status & unusable == 0
    }
}
