import Foundation
import TrustCore
import TrustVectors

/// One chain ``BenchmarkRunner`` measures: the chain, its anchors, the host and the validation time,
/// under a name the reports show. The hot path is a trusted evaluation, so a scenario is meant to be
/// one the back ends trust; a back end that does not is reported as not measured on it.
public struct BenchmarkScenario: Sendable, Hashable {
    /// The name reports show for it (a vector's id, `your-chain`).
    public var name: String
    /// DER, leaf first.
    public var chain: [[UInt8]]
    /// DER.
    public var anchors: [[UInt8]]
    /// The DNS name or IP address to check, as given to the raw loops; nil checks no name.
    public var host: String?
    /// The validation time.
    public var time: Date
    /// The leaf's private key (PKCS#8 DER), for back ends judged by a real handshake; nil for a
    /// chain of the caller's own.
    public var leafPrivateKey: [UInt8]?
    /// CRLs (DER) checked with the chain, and OCSP responses (DER), as the request carries them;
    /// empty for the ordinary scenarios. A back end that takes none is not measured on the scenario.
    public var revocationLists: [[UInt8]] = []
    public var ocspResponses: [[UInt8]] = []

    /// A scenario of `chain` (DER, leaf first) against `anchors` (DER) for `host` at `time`.
    public init(name: String, chain: [[UInt8]], anchors: [[UInt8]], host: String?, time: Date) {
        self.name = name
        self.chain = chain
        self.anchors = anchors
        self.host = host
        self.time = time
    }

    /// The scenario of a vector: its id, chain, anchors, host, validation time and revocation data.
    public init(_ vector: LoadedVector) {
        self.init(name: vector.id, chain: vector.chain, anchors: vector.anchors, host: vector.entry.host, time: vector.time)
        leafPrivateKey = vector.leafPrivateKey
        revocationLists = vector.revocationLists
        ocspResponses = vector.ocspResponses
    }

    /// How many serial numbers the revocation scenario's CRL of the intermediate lists.
    public static let largeListEntries = 10_000

    /// `bench --revocation`'s scenarios, each on the P-256 chain leaf > intermediate > root, the leaf
    /// not revoked: `revocation-crl-10000`, the root's CRL and a CRL of the intermediate listing
    /// ``largeListEntries`` other serial numbers (signed here with the vectors' key, a large CA's
    /// CRL), measured on the back ends and C loops that take CRLs; and `revocation-ocsp-good`, the
    /// vector of that name (one OCSP response for the leaf, as a server staples it), on those that
    /// take OCSP responses.
    /// - Throws: ``BenchmarkError`` of kind ``BenchmarkError/Kind/missingVector`` when the suite lacks
    ///   a vector, or when the CRL cannot be signed.
    public static func revocation(in suite: VectorSuite) throws(BenchmarkError) -> [BenchmarkScenario] {
        func vector(_ id: String) throws(BenchmarkError) -> LoadedVector {
            guard let vector = suite.vectors.first(where: { $0.id == id }) else {
                throw BenchmarkError(kind: .missingVector, message: "vector \(id) is missing from \(suite.directory.path)")
            }
            return vector
        }
        var large = BenchmarkScenario(try vector("revocation-crl-none-revoked/p256"))
        large.name = "revocation-crl-\(largeListEntries)/p256"
        do {
            large.revocationLists = [large.revocationLists[0], try RevocationMinter.largeIntermediateList(in: suite.directory, keyType: "p256", entries: largeListEntries)]
        } catch {
            throw BenchmarkError(kind: .missingVector, message: "the \(largeListEntries)-entry CRL of the P-256 intermediate cannot be signed from \(suite.directory.path): \(error)")
        }
        return [large, BenchmarkScenario(try vector("revocation-ocsp-good/p256"))]
    }

    /// The scenario a signature floor measures: the chain's signatures alone, so without the
    /// revocation data (still a floor: checking a CRL or a response only adds work).
    var floor: BenchmarkScenario {
        var bare = self
        bare.revocationLists = []
        bare.ocspResponses = []
        return bare
    }

    /// What the back ends are asked.
    public var request: EvaluationRequest {
        var request = EvaluationRequest(chain: chain, host: host.map(HostIdentity.init), time: time)
        request.leafPrivateKey = leafPrivateKey
        request.revocationLists = revocationLists
        request.ocspResponses = ocspResponses
        return request
    }

    /// The vectors `trust-harness bench` measures when given no chain: one valid chain per key type.
    public static let vectorIDs = ["valid-chain/rsa2048", "valid-chain/p256", "valid-chain/ed25519"]

    /// The scenarios of ``vectorIDs`` in `suite`, in that order.
    /// - Throws: ``BenchmarkError`` of kind ``BenchmarkError/Kind/missingVector`` naming the first
    ///   vector the suite does not have and the suite's folder.
    public static func vectors(in suite: VectorSuite) throws(BenchmarkError) -> [BenchmarkScenario] {
        try vectorIDs.map { id throws(BenchmarkError) in
            guard let vector = suite.vectors.first(where: { $0.id == id }) else {
                throw BenchmarkError(kind: .missingVector, message: "vector \(id) is missing from \(suite.directory.path)")
            }
            return BenchmarkScenario(vector)
        }
    }
}
