import TrustBackendKit
import TrustCore

/// Paths an evaluator has already built, by the presented certificates they were built from, so that
/// a chain presented again skips path building: the GnuTLS name and key-identifier comparisons it
/// makes (`gnutls_x509_crt_check_issuer`, `gnutls_x509_trust_list_get_issuer`) cost about a tenth of
/// a warm evaluation, as much as GnuTLS's own verification adds beyond its signature checks.
///
/// A path is reused only for the very same certificate objects, which the evaluator's certificate
/// cache hands out for the very same DER, and only when building it made no choice by the request's
/// time (``PathBuilder/Path/dependsOnTime``): path building is otherwise a function of the presented
/// certificates and the evaluator's fixed anchors, so reusing it gives exactly the path a new build
/// would. Entries refer to the certificates weakly, so they keep no certificate alive, and an entry
/// whose certificates are gone (an address reused by another object included) is never matched.
/// Chains of more than ``maximumChainLength`` certificates are not kept, which bounds each entry.
final class PathCache: Sendable {
    /// Far above real chains, which have two to four certificates.
    static let maximumChainLength = 8

    private let table: BoundedCache<[ObjectIdentifier], Entry>

    /// A cache of as many paths as `configuration` allows certificates (none when caching is off).
    init(_ configuration: BackendConfiguration) {
        table = BoundedCache(capacity: configuration.certificateCacheCapacity)
    }

    /// The path kept for exactly these certificate objects, if any.
    func path(for presented: [GnuTLSCertificate]) -> PathBuilder.Path? {
        guard let key = Self.key(presented), let entry = table.value(for: key),
              entry.certificates.count == presented.count,
              zip(entry.certificates, presented).allSatisfy({ $0.certificate === $1 })
        else { return nil }
        return PathBuilder.Path(
            certificates: entry.positions.map { presented[$0] },
            anchor: entry.anchor,
            positions: entry.positions,
            dependsOnTime: false,
            verifiedAsSorted: entry.verifiedAsSorted,
            isOnlyCandidate: entry.isOnlyCandidate
        )
    }

    /// Keeps `path`, built from `presented`, unless it depends on the time or the chain is too long.
    func keep(_ path: PathBuilder.Path, for presented: [GnuTLSCertificate]) {
        guard !path.dependsOnTime, let key = Self.key(presented) else { return }
        let entry = Entry(
            certificates: presented.map(WeakCertificate.init), positions: path.positions, anchor: path.anchor,
            verifiedAsSorted: path.verifiedAsSorted, isOnlyCandidate: path.isOnlyCandidate
        )
        table.insert(entry, for: key)
    }

    private static func key(_ presented: [GnuTLSCertificate]) -> [ObjectIdentifier]? {
        presented.count <= maximumChainLength ? presented.map(ObjectIdentifier.init) : nil
    }

    private struct Entry: Sendable {
        let certificates: [WeakCertificate]
        let positions: [Int]
        let anchor: Int?
        let verifiedAsSorted: Bool
        let isOnlyCandidate: Bool
    }

    private struct WeakCertificate: Sendable {
        weak var certificate: GnuTLSCertificate?
    }
}
