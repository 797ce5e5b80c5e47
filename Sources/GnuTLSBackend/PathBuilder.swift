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
///
/// That greedy path is the first candidate. When GnuTLS rejects it, the evaluator asks for the
/// others (``paths(from:at:limit:)``, a bounded depth-first search over the same choices) and has
/// GnuTLS verify each in turn, as raw GnuTLS, sorting the presented chain itself, would have reached
/// an anchor through the presented intermediates that an anchor of the same name shadows here.
/// Every candidate is verified by GnuTLS in full, so trying more of them can only find a path GnuTLS
/// accepts, never accept one it rejects.
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
        /// Whether GnuTLS is to verify the path letting its own sort run (without
        /// `GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN`), which for a path its sort leaves as it is
        /// (``gnutlsSortKeepsOrder(of:)``) means asking the trust list only for the last certificate's
        /// issuer. Set for a candidate an anchor would otherwise cut short; the first path never needs it.
        var verifiedAsSorted = false
        /// Whether the search found no other candidate path ending at an anchor, so that when GnuTLS
        /// rejects this one there is nothing else to try (kept by ``PathCache``, so a chain rejected
        /// again skips the search).
        var isOnlyCandidate = false
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

    /// Builds the path for `presented` (leaf first, not empty): the first of ``paths(from:at:limit:)``,
    /// the one a greedy builder takes. Time-dependent choices use the evaluation's time, so this must
    /// run inside ``EvaluationScope/run(at:_:)``.
    func build(from presented: [GnuTLSCertificate], at time: time_t) -> Path {
        paths(from: presented, at: time, limit: 1)[0]
    }

    /// The most candidate paths one evaluation has GnuTLS verify after the first one fails: enough for
    /// an anchor that shadows a presented CA, a cross-signed alternative and a stale re-issue at once.
    static let maximumCandidates = 8

    /// The most certificates a search appends to paths in all, across every candidate: bounds the
    /// backtracking over a hostile chain of many certificates with one subject, whose paths are
    /// exponentially many.
    static let maximumSteps = 256

    /// The candidate paths for `presented`, at most `limit`, in order of preference, each distinct.
    ///
    /// A depth-first search from the leaf. At each certificate the choices, in this order, are: it is
    /// itself an anchor (the path ends at it); the trust list holds an issuer for it (the path ends
    /// there); one of its unused presented issuers continues the path (best ranked first). The first
    /// path is the one a greedy builder takes; later ones are what it overlooked, such as a presented
    /// intermediate whose same-name copy among the anchors is expired or not a CA (the trust list
    /// answers for that copy first). A branch that reaches no anchor yields its chain of issuers with
    /// `anchor` nil, so the first path is always there to report why nothing was trusted.
    func paths(from presented: [GnuTLSCertificate], at time: time_t, limit: Int) -> [Path] {
        var search = Search(builder: self, presented: presented, time: time, limit: max(1, limit))
        search.extend(from: 0)
        return search.found
    }

    /// The state of one depth-first search.
    private struct Search {
        let builder: PathBuilder
        let presented: [GnuTLSCertificate]
        let time: time_t
        let limit: Int
        var found: [Path] = []
        var path = Path(certificates: [], anchor: nil, positions: [], dependsOnTime: false)
        var used: [Bool]
        var budget = PathBuilder.signatureBudget
        var steps = PathBuilder.maximumSteps

        init(builder: PathBuilder, presented: [GnuTLSCertificate], time: time_t, limit: Int) {
            self.builder = builder
            self.presented = presented
            self.time = time
            self.limit = limit
            used = [Bool](repeating: false, count: presented.count)
            used[0] = true
        }

        var isDone: Bool { found.count >= limit || steps <= 0 }

        mutating func emit(anchor: Int?) {
            var candidate = path
            candidate.anchor = anchor
            let isNew = !found.contains { $0.anchor == anchor && $0.positions == candidate.positions }
            // A dead end is worth reporting only when it is the first thing found.
            if isNew && (anchor != nil || found.isEmpty) {
                found.append(candidate)
            }
        }

        mutating func extend(from position: Int) {
            let current = presented[position]
            if let anchor = builder.anchorIndex(matching: current, isLeaf: path.certificates.isEmpty) {
                emit(anchor: anchor)
                if isDone { return }
            }
            guard path.certificates.count < PathBuilder.maximumLength else {
                emit(anchor: nil)
                return
            }
            steps -= 1
            path.certificates.append(current)
            path.positions.append(position)
            defer {
                path.certificates.removeLast()
                path.positions.removeLast()
            }
            if let anchor = builder.trustList.issuerIndex(of: current, anchorIndexByIdentity: builder.anchorIndexByIdentity) {
                emit(anchor: anchor)
                if isDone { return }
            }
            let candidates = builder.issuers(of: current, among: presented, excluding: used, at: time, budget: &budget)
            if candidates.ranked { path.dependsOnTime = true }
            if candidates.indices.isEmpty {
                emit(anchor: nil)
                return
            }
            for next in candidates.indices {
                used[next] = true
                extend(from: next)
                used[next] = false
                if isDone { return }
            }
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

    /// Whether GnuTLS's own sort of a presented list (`_gnutls_sort_clist` in lib/x509/common.c)
    /// leaves `path` as it is: no certificate before the last is self-issued (the sort stops at one),
    /// and the first certificate of the list after the first that issues each one, by GnuTLS's
    /// issuer check, is the next.
    static func gnutlsSortKeepsOrder(of path: [GnuTLSCertificate]) -> Bool {
        guard path.count > 1 else { return true }
        for index in path.indices.dropLast() {
            if path[index].isIssued(by: path[index]) { return false }
            let issuer = path.indices.dropFirst().first { $0 != index && path[index].isIssued(by: path[$0]) }
            if issuer != index + 1 { return false }
        }
        return true
    }

    /// The unused presented issuers of `certificate`, as indices into `presented`, best first, and
    /// whether they were ranked (which costs a signature verification each and consults the time),
    /// which happens only when there is more than one. Ties keep the presented order.
    private func issuers(
        of certificate: GnuTLSCertificate,
        among presented: [GnuTLSCertificate],
        excluding used: [Bool],
        at time: time_t,
        budget: inout Int
    ) -> (indices: [Int], ranked: Bool) {
        func isCandidate(_ index: Int) -> Bool {
            let candidate = presented[index]
            // A second copy of the certificate itself is no step forward.
            return !used[index] && candidate.derBytes != certificate.derBytes && certificate.isIssued(by: candidate)
        }
        let candidates = presented.indices.filter(isCandidate)
        guard candidates.count > 1 else { return (candidates, false) }
        var scored: [(index: Int, score: Int)] = []
        scored.reserveCapacity(candidates.count)
        for index in candidates {
            scored.append((index, score(of: presented[index], issuing: certificate, at: time, budget: &budget)))
        }
        // Stable: among equal scores the presented order decides, as before.
        let ranked = scored.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }
        return (ranked.map(\.element.index), true)
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
