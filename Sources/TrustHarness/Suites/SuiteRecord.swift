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
        /// What the case expected when it was recorded, when the suite has changed it since.
        public var recordedExpectation: String?

        public init(backend: String, id: String, recorded: String?, observed: String, expected: String, recordedExpectation: String? = nil) {
            self.backend = backend
            self.id = id
            self.recorded = recorded
            self.observed = observed
            self.expected = expected
            self.recordedExpectation = recordedExpectation
        }

        public var description: String {
            if let recordedExpectation {
                return "\(backend) \(id): the suite changed the case (it expected \(recordedExpectation) when recorded, \(expected) now); recorded \(recorded ?? "nothing"), observed \(observed)"
            }
            let direction = observed == "SKIPPED" || recorded == "SKIPPED" || recorded == nil ? "changed"
                : (observed == "SUCCESS") == (expected == "SUCCESS") ? "now as the suite expects" : "now against the suite"
            return "\(backend) \(id): recorded \(recorded ?? "nothing"), observed \(observed) (\(direction); suite expects \(expected))"
        }
    }

    /// SHA-256 of the suite file the record was made from: which build of the suite, for people.
    /// Records are matched with a run by case id and expected result, not by this, so a suite
    /// compiled again (new keys, the same cases) is still compared with its record.
    public var suite: String
    public var backends: [String: Backend]
    /// What each recorded case expected when the record was made (`SUCCESS` or `FAILURE`), by case
    /// id; nil in a record made before this was kept (then only ids are matched).
    public var expected: [String: String]?

    public init(suite: String, backends: [BackendInfo], results: [SuiteResult]) {
        self.suite = suite
        self.expected = Dictionary(results.map { ($0.id, $0.expected) }, uniquingKeysWith: { first, _ in first })
        var recorded: [String: Backend] = [:]
        for backend in backends {
            let mine = results.filter { $0.backend == backend.name }
            recorded[backend.name] = Backend(library: backend.version, results: Dictionary(uniqueKeysWithValues: mine.map { ($0.id, $0.actual.rawValue) }))
        }
        self.backends = recorded
    }

    /// This record with the back ends of `newer` replaced or added, and the suite's build and
    /// expectations as `newer` saw them. So recording one back end, or a variant, keeps the others'
    /// results; a case whose expectation changed is reported for them by ``changes(_:)`` until they
    /// are recorded again.
    public func merging(_ newer: SuiteRecord) -> SuiteRecord {
        var merged = self
        merged.backends.merge(newer.backends) { $1 }
        merged.suite = newer.suite
        merged.expected = (expected ?? [:]).merging(newer.expected ?? [:]) { $1 }
        return merged
    }

    /// The ids of `results` the record holds no result for, on a back end it covers: cases new to
    /// the record (added to the suite, or never recorded), in order.
    public func unrecorded(_ results: [SuiteResult]) -> [String] {
        var ids: [String] = []
        var seen = Set<String>()
        for result in results where backends[result.backend].map({ $0.results[result.id] == nil }) == true {
            if seen.insert(result.id).inserted { ids.append(result.id) }
        }
        return ids
    }

    /// The cases of `results` whose expected result is not the one recorded: the suite changed them.
    public func changedExpectations(_ results: [SuiteResult]) -> [String: (recorded: String, now: String)] {
        guard let expected else { return [:] }
        var changed: [String: (recorded: String, now: String)] = [:]
        for result in results {
            if let recorded = expected[result.id], recorded != result.expected { changed[result.id] = (recorded, result.expected) }
        }
        return changed
    }

    /// Every difference between `results` and the record for the back ends the record covers, in
    /// the order of `results`; back ends it does not cover are not compared.
    /// Results are matched with the record by case id; a case whose expected result is not the
    /// recorded one is a change even when the back end answers as recorded (the suite changed the
    /// case, so the recorded answer no longer says what it said). A case the record does not hold
    /// for that back end is not compared (``unrecorded(_:)``): it is new to the record, not changed.
    public func changes(_ results: [SuiteResult]) -> [Change] {
        let changedExpectations = changedExpectations(results)
        return results.compactMap { result in
            guard let backend = backends[result.backend], let recorded = backend.results[result.id] else { return nil }
            guard recorded != result.actual.rawValue || changedExpectations[result.id] != nil else { return nil }
            var change = Change(backend: result.backend, id: result.id, recorded: recorded, observed: result.actual.rawValue, expected: result.expected)
            change.recordedExpectation = changedExpectations[result.id]?.recorded
            return change
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
