import Foundation
import Testing
import TrustVectors
@testable import TrustHarness

/// The decision page: rankings weighed by impact before counts, candidates compared on what every
/// one of them answered, kinds ranked apart, exclusions and missing evidence said.
@Suite struct DecisionTests {
    struct Result {
        var backend: String, vector: String, outcome: String, expected: Bool, observed: Bool
        var severity: String? = nil, direction: String = "accepts", impactClass: String = "another-name"
    }

    static func run(_ profile: String, backends: [String], _ results: [Result]) throws -> ComparisonReport.Input {
        let entries = results.map { r in
            let impact = r.severity.map { #"{"class": "\#(r.impactClass)", "severity": "\#($0)", "direction": "\#(r.direction)", "cwe": "CWE-297", "rule": "RFC 9525 §6.3", "rank": \#($0 == "critical" ? 1000 : $0 == "high" ? 2000 : 3000)}"# } ?? "null"
            return #"{"backend": "\#(r.backend)", "vector": "\#(r.vector)", "outcome": "\#(r.outcome)", "expected": {"trusted": \#(r.expected)}, "observed": {"trusted": \#(r.observed)}, "impact": \#(impact)}"#
        }
        let names = backends.map { #"{"name": "\#($0)", "version": "1"}"# }.joined(separator: ",")
        let data = Data(#"{"schemaVersion": 6, "provenance": {"tool": "t", "generatedAt": "2026-01-01T00:00:00Z", "command": ["trust-harness", "run"], "profile": "\#(profile)"}, "backends": [\#(names)], "summary": [], "results": [\#(entries.joined(separator: ","))]}"#.utf8)
        return try #require(ComparisonReport.input(data))
    }

    static func situations(_ situations: String) throws -> Situations {
        let json = #"{"version": 1, "about": "", "columns": [{"name": "client-a", "kind": "client", "needs": "x"}, {"name": "client-b", "kind": "client", "needs": "y"}], "situations": \#(situations), "unknowns": []}"#
        return try JSONDecoder().decode(Situations.self, from: Data(json.utf8))
    }

    @Test func oneCriticalAcceptWeighsMoreThanManyMediumOnes() throws {
        var results: [Result] = []
        for n in 0..<5 { results.append(.init(backend: "many-medium", vector: "v\(n)", outcome: "deviation", expected: false, observed: true, severity: "medium")) }
        results.append(.init(backend: "one-critical", vector: "v0", outcome: "deviation", expected: false, observed: true, severity: "critical"))
        for n in 1..<5 { results.append(.init(backend: "one-critical", vector: "v\(n)", outcome: "pass", expected: false, observed: false)) }
        let situations = try Self.situations(#"[{"id": "own", "title": "Own code", "who": "w", "profile": "rfc5280", "candidates": "library"}]"#)
        let decision = Decision(situations: situations, inputs: [("run.json", try Self.run("rfc5280", backends: ["one-critical", "many-medium"], results))], families: [:])
        let ranking = try #require(decision.answers.first?.rankings.first)
        #expect(ranking.candidates.map(\.name) == ["many-medium", "one-critical"])
        #expect(ranking.compared == 5)
        #expect(ranking.candidates[0].accepts[.medium] == 5 && ranking.candidates[1].accepts[.critical] == 1)
    }

    @Test func clientsAreComparedOnWhatEveryClientWasAskedAndRankedApartFromLibraries() throws {
        let results: [Result] = [
            // Only client-a is asked v1, where it accepts: asked less, client-b must not gain by it.
            .init(backend: "client-a", vector: "v1", outcome: "deviation", expected: false, observed: true, severity: "high"),
            .init(backend: "client-b", vector: "v1", outcome: "skipped", expected: false, observed: false),
            .init(backend: "client-a", vector: "v2", outcome: "pass", expected: false, observed: false),
            .init(backend: "client-b", vector: "v2", outcome: "deviation", expected: false, observed: true, severity: "high"),
            .init(backend: "lib", vector: "v1", outcome: "pass", expected: false, observed: false),
            .init(backend: "lib", vector: "v2", outcome: "pass", expected: false, observed: false),
        ]
        let situations = try Self.situations(#"[{"id": "ca", "title": "Private CA", "who": "w", "profile": "rfc5280", "candidates": "any", "excluded": [{"columns": ["client-c"], "says": "cannot", "source": "s"}]}]"#)
        let decision = Decision(situations: situations, inputs: [("run.json", try Self.run("rfc5280", backends: ["client-a", "client-b", "lib"], results))], families: [:])
        let answer = try #require(decision.answers.first)
        #expect(answer.rankings.map(\.kind) == [.client, .library])
        #expect(answer.rankings[0].compared == 1, "only v2 was asked of both clients")
        #expect(answer.rankings[0].candidates.map(\.name) == ["client-a", "client-b"])
        #expect(answer.rankings[1].candidates.map(\.name) == ["lib"])
        let markdown = DocumentWriter.markdown(decision.document(provenance: nil))
        #expect(markdown.contains("## Which to use") && markdown.contains("Private CA (with an HTTP client)") && markdown.contains("`client-a`"))
    }

    @Test func aSituationWithoutItsProfilesRunSaysSoAndExclusionsAreNotRanked() throws {
        let situations = try Self.situations(#"[{"id": "public", "title": "Public APIs", "who": "w", "profile": "webpki", "candidates": "client"}, {"id": "pin", "title": "Pinning", "who": "w", "profile": "rfc5280", "candidates": "any", "excluded": [{"columns": ["client-b"], "says": "offers no hook", "source": "s"}]}]"#)
        let results: [Result] = [.init(backend: "client-a", vector: "v", outcome: "pass", expected: true, observed: true), .init(backend: "client-b", vector: "v", outcome: "pass", expected: true, observed: true)]
        let decision = Decision(situations: situations, inputs: [("run.json", try Self.run("rfc5280", backends: ["client-a", "client-b"], results))], families: [:])
        #expect(decision.answers[0].missing == "no run under profile webpki was given" && decision.answers[0].rankings.isEmpty)
        // A run of libraries only answers no question to HTTP clients, and says so.
        let libraries = Decision(situations: try Self.situations(#"[{"id": "public", "title": "Public APIs", "who": "w", "profile": "rfc5280", "candidates": "client"}]"#),
                                 inputs: [("run.json", try Self.run("rfc5280", backends: ["lib"], [.init(backend: "lib", vector: "v", outcome: "pass", expected: true, observed: true)]))], families: [:])
        #expect(libraries.answers[0].missing == "the rfc5280 run has no HTTP client that can be used here")
        #expect(decision.answers[1].rankings.flatMap(\.candidates).map(\.name) == ["client-a"])
        let text = DocumentWriter.markdown(decision.document(provenance: nil))
        #expect(text.contains("not answered") && text.contains("Not a candidate: client-b offers no hook"))
    }

    @Test func revocationIsCountedFromThePKITSCasesEachLibraryIsNotAsked() throws {
        let situations = try JSONDecoder().decode(Situations.self, from: Data(#"{"version": 1, "about": "", "columns": [], "situations": [], "unknowns": [{"says": "Revocation", "source": "s", "counts": "pkits-crl-skips"}, {"says": "CT", "source": "t"}]}"#.utf8))
        let pkits = Data(#"{"suite": {"file": "Vectors/pkits/pkits.json", "cases": 2}, "backends": [{"name": "a", "version": "1"}, {"name": "b", "version": "1"}], "results": [{"id": "pkits::4.4.1", "backend": "a", "expected": "FAILURE", "actual": "FAILURE"}, {"id": "pkits::4.4.1", "backend": "b", "expected": "FAILURE", "actual": "SKIPPED", "context": "CRLs: b does not honour revocation lists"}, {"id": "pkits::4.8.1", "backend": "b", "expected": "FAILURE", "actual": "SKIPPED", "context": "certificate policy processing"}]}"#.utf8)
        let decision = Decision(situations: situations, inputs: [("pkits.json", try #require(ComparisonReport.input(pkits)))], families: [:])
        #expect(decision.unknowns == ["Revocation: given CRLs, a; not asked, b (1 PKITS cases) (s).", "CT (t)."])
    }

    @Test func theShippedSituationsLoadAndNameEveryKindTheyUse() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Vectors").standardized
        let situations = try Situations.load(from: folder)
        #expect(situations.situations.map(\.id) == ["public-apis", "private-ca", "pinning", "own-code", "revocation-crl", "revocation-ocsp"])
        #expect(situations.columns.contains { $0.kind == .client })
        #expect(situations.unknowns.contains { $0.counts == .pkitsCRLSkips })
        for limit in situations.situations.flatMap({ ($0.excluded ?? []) + ($0.limits ?? []) }) {
            #expect(limit.columns.allSatisfy { name in situations.columns.contains { $0.name == name } }, "\(limit.columns) names a column situations.json does not list")
            #expect(!limit.source.isEmpty)
        }
    }
}
