import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import TrustHarness
@testable import TrustVectors

/// The writers render any document: what the layouts promise, on documents made here.
@Suite struct DocumentWriterTests {
    typealias Cell = ReportDocument.Table.Cell

    /// A table of vectors by back end, as the conformance matrix is, laid out as records in text.
    static func records(limit: Int? = nil, rows: Int = 3) -> ReportDocument {
        var table = ReportDocument.Table(
            headers: ["vector", "expected", "a", "b"],
            cells: (0..<rows).map { i in
                [Cell("v\(i)"), Cell("trusted"), Cell("✓ trusted", tone: .pass, detail: "fine"),
                 Cell("✗ rejected", tone: .deviation, detail: "recorded deviation: why\nNATIVE_NAME (1)", badge: "deviation")]
            },
            legend: [.pass: "pass", .deviation: "recorded deviation"],
            id: "m", filters: [.init("x", "only x"), .init("y", "hide y", hides: true)], rowTags: (0..<rows).map { $0 == 0 ? ["x"] : ["y"] })
        table.textLayout = .records
        table.textLimit = limit
        return ReportDocument(title: "T", provenance: nil, sections: [
            .init(id: "summary", title: "Summary", blocks: [.callout(.pass, "all well")], inText: .atEnd),
            .init(id: "matrix", title: "Matrix", blocks: [.table(table)]),
            .init(id: "page-only", title: "Page only", blocks: [.paragraph("not in text")], inText: .omitted),
        ])
    }

    @Test func recordsGiveEachRowAHeadingAndEachDepartureItsReasons() {
        let text = DocumentWriter.text(Self.records())
        #expect(text.contains("v0  expected trusted\n  a  PASS       ✓ trusted\n  b  DEVIATION  ✗ rejected (deviation)\n"), "\(text)")
        #expect(text.contains("-> recorded deviation: why\n") && text.contains("   NATIVE_NAME (1)\n"), "\(text)")
        #expect(!text.contains("fine"), "a pass's detail is left to the page")
        // The summary last, the page-only section not at all.
        #expect(text.range(of: "Summary")!.lowerBound > text.range(of: "Matrix")!.lowerBound)
        #expect(text.hasSuffix("all well\n") && !text.contains("not in text"), "\(text)")
    }

    @Test func aLimitSaysHowManyMoreAndWhere() {
        let text = DocumentWriter.text(Self.records(limit: 2, rows: 5))
        #expect(text.contains("v1  expected") && !text.contains("v2  expected"))
        #expect(text.contains("... and 3 more"), "\(text)")
    }

    /// Rows shorter than the headers (a builder's slip) and empty tables are written, not trapped on.
    @Test func shortRowsAndEmptyTablesAreWritten() {
        let table = ReportDocument.Table(headers: ["a", "b", "c"], cells: [[Cell("1")], [Cell("2"), Cell("x")]])
        let empty = ReportDocument.Table(headers: ["a", "b"], cells: [])
        let document = ReportDocument(title: "T", provenance: nil, sections: [.init(id: "s", title: "S", blocks: [.table(table), .table(empty)])])
        let text = DocumentWriter.text(document)
        #expect(text.contains("  a  b  c") && text.contains("  2  x"), "\(text)")
        let markdown = DocumentWriter.markdown(document)
        #expect(markdown.contains("| 1 |  |  |"), "\(markdown)")
        let page = DocumentWriter.html(document)
        #expect(page.contains("<tr><td>1</td></tr>") && page.contains("<tr><td>2</td><td>x</td></tr>"), "\(page)")
    }

    /// The page's switches: one per filter (only or hide), a count each, and each row's tags.
    @Test func thePageHasTheSwitchesAndTheRowsTheirTags() {
        let page = DocumentWriter.html(Self.records())
        #expect(page.contains("<input type=\"checkbox\" data-filter=\"x\" data-mode=\"only\"> only x <span class=\"count\">1</span>"), "\(page)")
        #expect(page.contains("data-mode=\"hide\"> hide y <span class=\"count\">2</span>"))
        #expect(page.contains("<tr data-tags=\"x\">"))
        #expect(page.contains("<p class=\"callout tone pass\">all well</p>"))
        #expect(page.contains("<span class=\"badge\">deviation</span>"))
    }

    /// JUnit renders a document's checks; a document without checks is an empty, valid report.
    @Test func junitRendersTheChecks() {
        var document = Self.records()
        #expect(DocumentWriter.junit(document).contains("<testsuites name=\"T\" tests=\"0\""))
        document.checks = .init(suite: "s", groups: [.init(name: "a", library: "1.0", checks: [
            .init(name: "v0", status: .passed, seconds: 0.5),
            .init(name: "v1", status: .failed, type: "acceptedShouldReject", message: "m <b>", body: "expected"),
            .init(name: "v2", status: .skipped, message: "recorded"),
        ])])
        let xml = DocumentWriter.junit(document)
        #expect(XMLParser(data: Data(xml.utf8)).parse(), "\(xml)")
        #expect(xml.contains("<testsuite name=\"a\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.500000\">"))
        #expect(xml.contains("<failure type=\"acceptedShouldReject\" message=\"m &lt;b&gt;\">expected</failure>"))
    }
}

/// Pages people read: a heat-map cell's text is readable on its colour (WCAG AA, 4.5:1), a rule's
/// quote is written once, and a profile's answer splits into the rules it cites.
@Suite struct ReadablePageTests {
    @Test func everyHeatColourCarriesTextAtAAContrast() {
        var backgrounds: [DocumentWriter.RGB] = []
        for direction in [ImpactCatalogue.Direction.accepts, .rejects, .other] {
            for severity in ImpactCatalogue.Severity.allCases {
                let impact = Impact(.init(id: "x", direction: direction, severity: severity, title: "", consequence: "", cwe: "CWE-1", cweName: "", related: nil, precedents: []), rule: "r", rank: 1)
                backgrounds.append(DocumentWriter.heatColour(impact))
            }
        }
        // The cells without an impact: every hue at every share laid on white.
        for hue: DocumentWriter.RGB in [(211, 47, 47), (25, 118, 210), (123, 31, 162)] {
            for step in 0...20 {
                let alpha = 0.18 + 0.82 * Double(step) / 20
                backgrounds.append((255 - alpha * (255 - hue.0), 255 - alpha * (255 - hue.1), 255 - alpha * (255 - hue.2)))
            }
        }
        for background in backgrounds {
            let shown = DocumentWriter.readable(background)
            let text: DocumentWriter.RGB = DocumentWriter.textColour(on: shown) == "#fff" ? (255, 255, 255) : DocumentWriter.ink
            #expect(DocumentWriter.contrast(shown, text) >= 4.5, "\(background) -> \(shown)")
        }
    }

    @Test func aProfilesAnswerSplitsIntoItsRulesAndQuotesStayWhole() {
        let answer = #"Web PKI: rejected; RFC 9525 §6.3; RFC 5280 §6.1 (Basic Path Validation): "(a) for all x; (b) certificate 1""#
        #expect(References.parts(answer) == ["Web PKI: rejected", "RFC 9525 §6.3", #"RFC 5280 §6.1 (Basic Path Validation): "(a) for all x; (b) certificate 1""#])
        #expect(References.label(#"RFC 5280 §6.1 (Basic Path Validation): "a long quote of the rule's own words""#) == "RFC 5280 §6.1 (Basic Path Validation)")
        #expect(References.short(#"RFC 5280 §6.1 (Basic Path Validation): "a long quote of the rule's own words""#) == "RFC 5280 §6.1")
        let references = References([[answer], ["RFC 9525 §6.3"]])
        #expect(references.all.count == 3 && references.anchor("RFC 9525 §6.3") == "ref-2")
    }
}
