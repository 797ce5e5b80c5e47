import Foundation
import Testing
@testable import TrustHarness

/// The comparison page's document from reports, and the writers that render any document: counts
/// in the heat map's cells, families from references, and hostile text escaped in HTML.
@Suite struct ComparisonReportTests {
    static func runReport(_ results: [(backend: String, vector: String, outcome: String, expected: Bool, observed: Bool)]) -> Data {
        let entries = results.map { r in
            #"{"backend": "\#(r.backend)", "vector": "\#(r.vector)", "outcome": "\#(r.outcome)", "expected": {"trusted": \#(r.expected)}, "observed": {"trusted": \#(r.observed)}}"#
        }
        return Data(#"{"schemaVersion": 4, "provenance": {"tool": "t", "generatedAt": "2026-01-01T00:00:00Z", "command": ["trust-harness", "run"], "profile": "rfc5280"}, "backends": [{"name": "a", "version": "1"}, {"name": "b", "version": "2"}], "summary": [], "results": [\#(entries.joined(separator: ","))]}"#.utf8)
    }

    static let run = runReport([
        ("a", "explored/keyUsage-empty-at-leaf", "deviation", false, true),
        ("b", "explored/keyUsage-empty-at-leaf", "pass", false, false),
        ("a", "expired-leaf/p256", "pass", false, false),
        ("b", "expired-leaf/p256", "deviation", false, false),
        ("a", "explored/keyUsage-<script>alert(1)</script>", "fail", true, false),
        ("b", "explored/keyUsage-<script>alert(1)</script>", "open", true, false),
    ])

    static func document() throws -> ReportDocument {
        let input = try #require(ComparisonReport.input(run))
        let families = ["expired-leaf/p256": ComparisonReport.family(vector: "expired-leaf/p256", references: ["RFC 5280 §4.1.2.5", "RFC 5280 §6.1"])]
        return ComparisonReport.document([("run.json", input)], families: families.merging(["explored/keyUsage-empty-at-leaf": "keyUsage", "explored/keyUsage-<script>alert(1)</script>": "keyUsage"]) { $1 }, provenance: nil)
    }

    @Test func familiesComeFromTheExploredNameOrTheReference() {
        #expect(ComparisonReport.family(vector: "explored/keyUsage-empty-at-leaf+serial-negative-at-leaf", references: []) == "keyUsage")
        #expect(ComparisonReport.family(vector: "expired-leaf/p256", references: ["RFC 5280 §4.1.2.5"]) == "validity")
        #expect(ComparisonReport.family(vector: "pathlen/p256", references: ["RFC 5280 §4.2.1.9", "RFC 5280 §6.1.4(m)"]) == "basicConstraints")
        #expect(ComparisonReport.family(vector: "wrong-host/p256", references: ["RFC 9525 §6.3"]) == "hostName")
        #expect(ComparisonReport.family(vector: "policy/x", references: []) == "SecurityPolicy")
    }

    @Test func eachCellCountsItsDeparturesByDirection() throws {
        let document = try Self.document()
        guard case .heatMap(let map) = try #require(document.sections.first).blocks[1] else { Issue.record("no heat map"); return }
        #expect(map.columns == ["keyUsage", "validity"])
        let a = try #require(map.rows.first { $0.name == "a" }), b = try #require(map.rows.first { $0.name == "b" })
        #expect(a.cells[0].total == 2 && a.cells[0].accepts == ["explored/keyUsage-empty-at-leaf"] && a.cells[0].rejects.count == 1)
        // A left-open result is neither answered nor a departure.
        #expect(b.cells[0].total == 1 && b.cells[0].departures == 0)
        #expect(b.cells[1].rejects == ["expired-leaf/p256"] && a.cells[1].departures == 0)
    }

    @Test func everyWriterRendersTheDocumentAndHTMLEscapesIt() throws {
        let document = try Self.document()
        let html = DocumentWriter.html(document)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<table class=\"heat\">"))
        #expect(!html.contains("<script>alert(1)") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("Content-Security-Policy") && html.contains("default-src "), "self-contained: nothing fetched")
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http"))
        #expect(DocumentWriter.text(document).contains("keyUsage"))
        #expect(DocumentWriter.markdown(document).contains("| back end | keyUsage | validity |"))
        let json = try JSONSerialization.jsonObject(with: Data(try DocumentWriter.json(document).utf8)) as? [String: Any]
        #expect(json?["schemaVersion"] as? Int == ReportDocument.schemaVersion && json?["document"] != nil)
    }

    @Test func exploreClassesBecomeAHeatMapWithTheSharedAccepts() throws {
        let json = #"{"seed": 1, "profile": "webpki", "backends": ["a", "b"], "mutants": 3, "findings": [{"kind": "shared-accept", "steps": [{"mutation": "keyUsage/empty", "role": "leaf"}], "summary": "s", "occurrences": 2, "answers": [{"backend": "a", "trusted": true}, {"backend": "b", "trusted": true}], "standard": {"trusted": false}}, {"kind": "verdict", "steps": [{"mutation": "keyUsage/x", "role": "root"}], "summary": "t", "occurrences": 1, "answers": [{"backend": "a", "trusted": false}, {"backend": "b", "trusted": true}], "standard": null}]}"#
        let input = try #require(ComparisonReport.input(Data(json.utf8)))
        let document = ComparisonReport.document([("explore.json", input)], families: [:], provenance: nil)
        #expect(document.summary.contains("profile webpki"))
        guard case .heatMap(let map) = try #require(document.sections.first).blocks[1] else { Issue.record("no heat map"); return }
        // The open class counts for nobody; the shared accept for both.
        #expect(map.columns == ["keyUsage"] && map.rows.allSatisfy { $0.cells[0].total == 1 && $0.cells[0].accepts.count == 1 })
        // What is behind each cell is a folded section at the end of the page.
        let behind = try #require(document.sections.last)
        #expect(behind.folded == true && behind.id == document.sections[0].id + "-cells")
        guard case .details(let details) = behind.blocks[0] else { Issue.record("no details"); return }
        #expect(details.first?.items.count == 1)
    }

    /// A counted bench (`bench --instructions`) and a timed one each become their own section, in
    /// their own unit, with the ratio to the library's loop; neither is taken for the other.
    @Test func countedAndTimedBenchesAreEachShownInTheirUnit() throws {
        let key = { (subject: BenchmarkResult.Subject, mode: BenchmarkResult.Mode?) in BenchmarkResult.Key(subject: subject, scenario: "valid-chain/p256", mode: mode) }
        let figures: [BenchmarkResult.Key: Double] = [key(.backend("a"), .warm): 1_100_000, key(.backend("a"), .cold): 3_000_000, key(.rawLoop("a"), .warm): 1_000_000, key(.rawLoop("a"), .cold): 2_900_000]
        func result(_ measure: BenchmarkResult.Measure) -> BenchmarkResult {
            BenchmarkResult(measure: measure, backends: [BackendInfo(name: "a", version: "1")], scenarios: ["valid-chain/p256"], seconds: measure == .time ? 0.1 : 0, rounds: 1,
                            floorOf: [:], parallel: [], notMeasured: [], medians: figures, iterations: measure == .time ? 0 : 8)
        }
        let counted = result(.instructions), timed = result(.time)
        #expect(counted.instructions(backend: "a", scenario: "valid-chain/p256", mode: .warm) == 1_100_000)
        #expect(counted.microseconds(backend: "a", scenario: "valid-chain/p256", mode: .warm) == nil, "counted figures are never taken for times")
        #expect(timed.instructions(backend: "a", scenario: "valid-chain/p256", mode: .warm) == nil)
        let text = DocumentWriter.text(counted.document(provenance: nil))
        #expect(text.contains("Instructions per evaluation, counted by Valgrind's callgrind") && text.contains("1,100,000") && text.contains("1.10x"), "\(text)")
        let countedJSON = try JSONText.encode(counted.json), timedJSON = try JSONText.encode(timed.json)
        #expect(countedJSON.contains("\"measure\" : \"instructions\"") && countedJSON.contains("\"instructionsPerEvaluation\" : 1100000") && !countedJSON.contains("microsecondsPerEvaluation"))
        let inputs = try [("counted.json", countedJSON), ("bench.json", timedJSON)].map { name, json in (name: name, input: try #require(ComparisonReport.input(Data(json.utf8)))) }
        let document = ComparisonReport.document(inputs, families: [:], provenance: nil)
        let titles = document.sections.map(\.title)
        #expect(titles.contains("Instructions against each library's own loop, counted (counted.json)") && titles.contains("Speed against each library's own loop, timed (bench.json)"), "\(titles)")
        let page = DocumentWriter.text(document)
        #expect(page.contains("1,100,000 instructions") && page.contains("1.10x its loop"), "\(page)")
    }

    @Test func aFileOfAnotherShapeIsNoInput() {
        #expect(ComparisonReport.input(Data("{}".utf8)) == nil)
        #expect(ComparisonReport.input(Data("[1, 2]".utf8)) == nil)
        #expect(ComparisonReport.input(Data("not json".utf8)) == nil)
    }
}
