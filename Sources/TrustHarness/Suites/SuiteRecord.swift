import Foundation
import TrustVectors

/// The observed result of every case on every back end for one suite, committed as data
/// (`Vectors/limbo/observed.json`), so that any change in behaviour, better or worse, is noticed:
/// `swift test` and `trust-harness limbo` compare a run with it until it is deliberately updated
/// (`trust-harness limbo --record`).
public struct SuiteRecord: Sendable, Hashable, Codable {
    public struct Backend: Sendable, Hashable, Codable {
        /// The library version the record was made with (for people; not compared).
        public var library: String
        /// Case id -> `SUCCESS`, `FAILURE` or `SKIPPED`.
        public var results: [String: String]
    }

    /// One difference between a run and the record.
    public struct Change: Sendable, Hashable, Codable, CustomStringConvertible {
        public var backend: String
        public var id: String
        /// nil: the record has no result for this case.
        public var recorded: String?
        public var observed: String
        /// What the suite expects, to tell an improvement from a regression.
        public var expected: String

        public var description: String {
            let direction = observed == "SKIPPED" || recorded == "SKIPPED" || recorded == nil ? "changed"
                : (observed == "SUCCESS") == (expected == "SUCCESS") ? "now as the suite expects" : "now against the suite"
            return "\(backend) \(id): recorded \(recorded ?? "nothing"), observed \(observed) (\(direction); suite expects \(expected))"
        }
    }

    /// SHA-256 of the suite file the record belongs to.
    public var suite: String
    public var backends: [String: Backend]

    public init(suite: String, backends: [BackendInfo], results: [SuiteResult]) {
        self.suite = suite
        var recorded: [String: Backend] = [:]
        for backend in backends {
            let mine = results.filter { $0.backend == backend.name }
            recorded[backend.name] = Backend(library: backend.version, results: Dictionary(uniqueKeysWithValues: mine.map { ($0.id, $0.actual.rawValue) }))
        }
        self.backends = recorded
    }

    /// This record with the back ends of `newer` replaced or added, for the same suite; `newer`
    /// alone when it was made from another suite (the old results then mean nothing). So recording
    /// one back end, or a variant, keeps the others' results.
    public func merging(_ newer: SuiteRecord) -> SuiteRecord {
        guard newer.suite == suite else { return newer }
        var merged = self
        merged.backends.merge(newer.backends) { $1 }
        return merged
    }

    /// Every difference between `results` and the record for the back ends the record covers, in
    /// the order of `results`; back ends it does not cover are not compared.
    public func changes(_ results: [SuiteResult]) -> [Change] {
        results.compactMap { result in
            guard let backend = backends[result.backend] else { return nil }
            let recorded = backend.results[result.id]
            guard recorded != result.actual.rawValue else { return nil }
            return Change(backend: result.backend, id: result.id, recorded: recorded, observed: result.actual.rawValue, expected: result.expected)
        }
    }

    /// The default place: `observed.json` beside the vendored suite.
    public static func locate(from filePath: String = VectorSuite.sourceFile) -> URL? {
        LimboSuite.locateVendored(from: filePath).map { $0.deletingLastPathComponent().appendingPathComponent("observed.json") }
    }

    /// - Throws: ``FileProblem`` when the file cannot be read or is not a record.
    public static func read(_ url: URL) throws -> SuiteRecord {
        try FileProblem.decodeJSON(SuiteRecord.self, from: url, shape: "a limbo record")
    }

    /// Sorted keys and one case per line, so a changed result is a one-line diff.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
