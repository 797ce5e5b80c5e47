import Foundation

/// A BetterTLS manifest as its `get-manifest` writes it (Vectors/bettertls/manifests/<revision>.manifest):
/// per suite, the features by number and the expected result of every case in order. The facts the
/// suites written here (``BetterTLSNameConstraints``, ``BetterTLSPathBuilding``) are checked against,
/// and the cases a published result file (``BetterTLSPublished``) is read with.
public struct BetterTLSManifest: Sendable, Decodable {
    public struct Suite: Sendable, Decodable {
        /// Feature names by number (`"1": "NAME_CONSTRAINTS"`).
        public var features: [String: String]
        /// `PASS`, `FAIL`, `SOFT_PASS` or `SOFT_FAIL`, one per case in order.
        public var expectedResults: [String]
    }

    /// The revision it was made at (081fb7c's reads `081fb7c...-dirty`: it was made from a working copy).
    public var betterTlsRevision: String
    public var suiteManifests: [String: Suite]

    /// The committed manifest of `revision` (a revision's full hash), in the vectors folder `vectors`
    /// (default: the one ``VectorSuite/locate()`` finds).
    public static func committed(_ revision: String, vectors: URL? = nil) throws -> BetterTLSManifest {
        guard let folder = vectors ?? VectorSuite.locate() else {
            throw FileProblem(file: "bettertls/manifests/\(revision).manifest", problem: "cannot be read: no vectors folder")
        }
        let url = folder.appendingPathComponent("bettertls/manifests/\(revision).manifest")
        return try FileProblem.decodeJSON(BetterTLSManifest.self, from: url, shape: "a BetterTLS manifest ({\"betterTlsRevision\", \"suiteManifests\"})")
    }
}
