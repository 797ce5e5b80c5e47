import Foundation
import TrustCore
import TrustVectors

/// The stable JSON form of a conformance run (documented in the README):
/// `{"backends": [{"name", "version"}], "results": [{"vector", "backend", "expected", "observed",
/// "outcome", "detail"}], "summary": [...]}`.
public struct JSONReport: Codable, Sendable {
    public struct Expected: Codable, Sendable {
        public var trusted: Bool
        public var failures: [FailureClass]
    }

    public struct Native: Codable, Sendable {
        public var code: Int
        public var name: String
        public var message: String
        public var depth: Int?
    }

    public struct Observed: Codable, Sendable {
        public var trusted: Bool
        public var failures: [FailureClass]
        /// The library's own diagnostics (empty when trusted or not evaluated).
        public var native: [Native]
        /// The verified path's length when trusted.
        public var pathLength: Int?
        /// Set when the back end could not evaluate at all.
        public var error: String?
    }

    public struct Entry: Codable, Sendable {
        public var vector: String
        public var backend: String
        public var expected: Expected
        public var observed: Observed
        public var outcome: Outcome
        public var detail: String
    }

    public var backends: [BackendInfo]
    public var results: [Entry]
    public var summary: [ConformanceSummary]

    public init(backends: [BackendInfo], results: [ConformanceResult]) {
        self.backends = backends
        self.results = results.map { result in
            let verdict = result.verdict
            return Entry(
                vector: result.vector.id,
                backend: result.backend,
                expected: Expected(trusted: result.vector.expected.trusted, failures: result.vector.expected.failures),
                observed: Observed(
                    trusted: verdict?.isTrusted ?? false,
                    failures: verdict?.failures ?? [],
                    native: verdict?.diagnostics.map { Native(code: $0.code, name: $0.name, message: $0.message, depth: $0.depth) } ?? [],
                    pathLength: verdict?.path?.count,
                    error: result.error
                ),
                outcome: result.outcome,
                detail: result.judgement.detail
            )
        }
        self.summary = ConformanceSummary.of(results, backends: backends.map(\.name))
    }

    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
