import Foundation
import Testing
@testable import TrustVectors

/// Every hard departure of a back end from BetterTLS's expectations in the committed record is
/// explained by a rule of its library (Vectors/bettertls/<suite>-explained.json), every rule holds
/// over all the cases it covers, and none is stale: when a library changes either way, this fails.
@Suite struct BetterTLSExplanationsTests {
    struct Record: Decodable {
        struct Backend: Decodable {
            var results: [String: String]
        }
        var backends: [String: Backend]
    }

    static func check(suite: String, parts: [[String: String]]) throws {
        let vectors = try #require(VectorSuite.locate())
        let folder = vectors.appendingPathComponent("bettertls")
        let record = try JSONDecoder().decode(Record.self, from: Data(contentsOf: folder.appendingPathComponent("\(suite)-observed.json")))
        let manifest = try BetterTLSNameConstraintsTests.manifest(.current)
        let expected = try #require(manifest.suiteManifests[suite]?.expectedResults)
        let explanations = try BetterTLSExplanations.read(folder.appendingPathComponent("\(suite)-explained.json"))
        #expect(explanations.suite == suite)
        var observed: [String: [String]] = [:]
        for (backend, entry) in record.backends {
            observed[backend] = parts.indices.map { entry.results["bettertls::\(suite)::tc\($0)"] ?? "missing" }
        }
        #expect(Set(explanations.explanations.map(\.backend)).isSubset(of: Set(observed.keys)), "an explanation names a back end the record does not hold")
        for explanation in explanations.explanations {
            #expect(["SUCCESS", "FAILURE"].contains(explanation.observed) && !explanation.reason.isEmpty && !explanation.source.isEmpty, "\(explanation.backend): \(explanation.reason)")
        }
        let problems = explanations.problems(observed: observed, parts: parts, departures: BetterTLSExplanations.departures(observed: observed, expected: expected))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyNameConstraintsDepartureIsExplained() throws {
        try Self.check(suite: "nameconstraints", parts: BetterTLSCaseFacts.nameConstraints().parts)
    }

    @Test func everyPathBuildingDepartureIsExplained() throws {
        try Self.check(suite: "pathbuilding", parts: BetterTLSCaseFacts.pathBuilding().parts)
    }

    @Test func aPatternCoversTheCasesWhosePartsItAdmits() {
        let explanation = BetterTLSExplanations.Explanation(backend: "x", observed: "FAILURE", where: [["clientHost": ["IP"], "extraSAN": ["none"]]], reason: "r", source: "s")
        let plain = BetterTLSNameConstraints.Case(clientHost: .ip, ipSAN: .valid)
        var smuggled = plain
        smuggled.extraSAN = .init(tag: 6, value: [1])
        #expect(explanation.covers(BetterTLSExplanations.parts(of: plain)))
        #expect(!explanation.covers(BetterTLSExplanations.parts(of: smuggled)))
        #expect(BetterTLSExplanations.parts(of: smuggled)["extraSAN.tag"] == "6")
        #expect(!explanation.covers(BetterTLSExplanations.parts(of: BetterTLSNameConstraints.Case(clientHost: .dns))))
    }

    /// The explanations of differences from the published results, read against the cases of the
    /// revision those results are of (a738c20, which has no smuggled SANs), name only known parts.
    @Test func thePublishedDifferencesNameKnownPartsAtTheirRevision() throws {
        let folder = try #require(VectorSuite.locate()).appendingPathComponent("bettertls")
        for (suite, parts) in [("nameconstraints", BetterTLSCaseFacts.nameConstraints(.december2021).parts), ("pathbuilding", BetterTLSCaseFacts.pathBuilding().parts)] {
            let explanations = try BetterTLSExplanations.read(folder.appendingPathComponent("published-\(suite)-differences.json"))
            #expect(explanations.problems(observed: [:], parts: parts, departures: [:]).isEmpty, "\(suite)")
        }
    }

    /// A key no case has is named, not read as `none` everywhere (where a misspelt key would cover
    /// every case).
    @Test func aKeyNoCaseHasIsAProblem() {
        let parts = [BetterTLSExplanations.parts(of: BetterTLSNameConstraints.Case(clientHost: .ip, ipSAN: .valid))]
        let misspelt = BetterTLSExplanations(suite: "nameconstraints", explanations: [
            .init(backend: "x", observed: "FAILURE", where: [["clientHots": ["none"]]], reason: "r", source: "s"),
        ])
        let problems = misspelt.problems(observed: ["x": ["FAILURE"]], parts: parts, departures: ["x": [0]])
        #expect(problems == ["x explanation 1: no case has clientHots"], "\(problems)")
    }
}
