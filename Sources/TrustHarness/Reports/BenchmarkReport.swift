import Foundation
import TrustVectors

/// Benchmark figures as `trust-harness bench --format json` writes them:
/// `{"results": [{"backend", "scenario", "mode", "microsecondsPerEvaluation", "evaluationsPerSecond"}]}`.
/// Reports (HTML) can show them beside the conformance matrix.
public struct BenchmarkReport: Codable, Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable {
        public var backend: String
        public var scenario: String
        /// `cold` (DER seen for the first time) or `warm` (the same chain again).
        public var mode: String
        public var microsecondsPerEvaluation: Double
        public var evaluationsPerSecond: Double

        public init(backend: String, scenario: String, mode: String, microsecondsPerEvaluation: Double, evaluationsPerSecond: Double) {
            self.backend = backend
            self.scenario = scenario
            self.mode = mode
            self.microsecondsPerEvaluation = microsecondsPerEvaluation
            self.evaluationsPerSecond = evaluationsPerSecond
        }
    }

    public var results: [Entry]

    public init(results: [Entry]) {
        self.results = results
    }

    /// Reads a benchmark JSON file.
    /// - Throws: an error naming the file when it cannot be read or is not of this shape.
    public static func read(_ url: URL) throws -> BenchmarkReport {
        try FileProblem.decodeJSON(BenchmarkReport.self, from: url, shape: "benchmark JSON ({\"results\": [{\"backend\", \"scenario\", \"mode\", \"microsecondsPerEvaluation\", \"evaluationsPerSecond\"}]})")
    }
}

