import Foundation
import Testing
import TrustBackendKit
import TrustHarness
import TrustVectors

/// A back end's results beside published ones: differences found case by case, cases either side
/// skipped left out, and each difference explained or named a problem.
@Suite struct BetterTLSComparisonTests {
    static let backend = BackendInfo(name: "lib", version: "lib 1.0")
    static let parts: [[String: String]] = (0..<4).map { ["index": String($0), "kind": $0 < 2 ? "a" : "b"] }

    static func results(_ verdicts: [SuiteResult.Actual]) -> [SuiteResult] {
        verdicts.enumerated().map { index, actual in
            SuiteResult(id: "bettertls::nameconstraints::tc\(index)", backend: "lib", expected: "SUCCESS", actual: actual, context: actual == .failure ? "why" : nil)
        }
    }

    static func compare(ours: [SuiteResult.Actual], theirs: [BetterTLSPublished.Result], explanations: [BetterTLSExplanations.Explanation]) -> BetterTLSComparison {
        let published = BetterTLSPublished(implementation: "lib", version: "1.0", date: "2021-12-23", revision: "r",
                                           suites: ["nameconstraints": .init(supportedFeatures: [], unsupportedFeatures: [], results: theirs)])
        return BetterTLSComparison.compare(
            suite: "nameconstraints", backend: backend, results: results(ours), publishedFile: "lib.json", published: published,
            facts: BetterTLSCaseFacts(expected: ["PASS", "PASS", "FAIL", "FAIL"], summaries: ["s0", "s1", "s2", "s3"], groups: [], parts: parts),
            explanations: BetterTLSExplanations(suite: "nameconstraints", explanations: explanations)
        )
    }

    @Test func differencesAreFoundAndSkipsLeftOut() {
        let comparison = Self.compare(ours: [.success, .failure, .skipped, .success], theirs: [.accepted, .accepted, .rejected, .skipped], explanations: [])
        #expect(comparison.compared == 2 && comparison.same == 1)
        #expect(comparison.skippedByThem == 1 && comparison.skippedByUs == 1)
        #expect(comparison.differences.map(\.index) == [1])
        #expect(comparison.differences.first?.ours == "REJECTED" && comparison.differences.first?.theirs == "ACCEPTED" && comparison.differences.first?.context == "why")
        #expect(comparison.problems.count == 1 && comparison.problems[0].contains("1 of 1 departures not explained"), "\(comparison.problems)")
    }

    @Test func anExplanationMustHoldAndCoverADifference() {
        let right = BetterTLSExplanations.Explanation(backend: "lib", observed: "FAILURE", where: [["index": ["1"]]], reason: "r", source: "s")
        #expect(Self.compare(ours: [.success, .failure, .success, .success], theirs: [.accepted, .accepted, .accepted, .accepted], explanations: [right]).problems.isEmpty)
        // A rule that does not hold over its cases (tc0 was accepted), and a stale one.
        let wrong = BetterTLSExplanations.Explanation(backend: "lib", observed: "FAILURE", where: [["kind": ["a"]]], reason: "r", source: "s")
        let stale = BetterTLSExplanations.Explanation(backend: "lib", observed: "SUCCESS", where: [["kind": ["b"]]], reason: "r", source: "s")
        let problems = Self.compare(ours: [.success, .failure, .success, .success], theirs: [.accepted, .accepted, .accepted, .accepted], explanations: [wrong, stale]).problems
        #expect(problems.contains { $0.contains("explanation 1: 1 of the 2 cases it covers were not FAILURE") }, "\(problems)")
        #expect(problems.contains { $0.contains("explanation 2 covers no departure") }, "\(problems)")
    }

    @Test func aPublishedFileOfAnotherSizeIsAProblem() {
        let comparison = Self.compare(ours: [.success, .success, .success, .success], theirs: [.accepted, .accepted], explanations: [])
        #expect(comparison.problems.contains { $0.contains("holds 2 nameconstraints results where revision r has 4 cases") }, "\(comparison.problems)")
    }
}
