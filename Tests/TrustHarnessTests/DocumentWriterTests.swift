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
            #expect(DocumentWriter.contrast(shown, DocumentWriter.textColour(on: shown)) >= 4.5, "\(background) -> \(shown)")
        }
        // A cell without departures: its dot on its pale green.
        #expect(DocumentWriter.contrast(DocumentWriter.clean.background, DocumentWriter.clean.text) >= 4.5)
    }

    /// Every heat-map cell with text carries its colours inline (scripts/report_check.py reads them
    /// from the page), and they are the palette's, at AA contrast.
    @Test func everyHeatCellWritesItsColoursInline() {
        let impact = Impact(.init(id: "x", direction: .accepts, severity: .low, title: "", consequence: "", cwe: "CWE-1", cweName: "", related: nil, precedents: []), rule: "r", rank: 1)
        let cells: [ReportDocument.HeatMap.Cell] = [
            .init(total: 3, accepts: ["a"], rejects: [], worst: impact), .init(total: 4, accepts: [], rejects: ["b", "c"]), .init(total: 2, accepts: [], rejects: []),
        ]
        for cell in cells {
            let html = DocumentWriter.heatCell(cell, anchor: "cell", title: "t").render()
            let style = html.components(separatedBy: "style=\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
            let colours = style.split(separator: ";").map { $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
            let parsed = Dictionary(uniqueKeysWithValues: colours.filter { $0.count == 2 }.map { ($0[0], Self.rgb($0[1])) })
            guard let background = parsed["background"] ?? nil, let text = parsed["color"] ?? nil else { Issue.record("no inline colours: \(html)"); continue }
            #expect(DocumentWriter.contrast(background, text) >= 4.5, "\(html)")
        }
    }

    /// `rgb(1, 2, 3)` as a colour.
    static func rgb(_ text: String) -> DocumentWriter.RGB? {
        guard text.hasPrefix("rgb("), text.hasSuffix(")") else { return nil }
        let values = text.dropFirst(4).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.count == 3 ? (values[0], values[1], values[2]) : nil
    }

    /// A library's long code breaks after its underscores and nowhere else, and only in a table too
    /// wide to give each code its width; short codes and other words stay whole.
    @Test func codesBreakOnlyAfterTheirUnderscores() {
        let text = "✗ rejected: other (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, NOT_A_CA)"
        let html = HTMLNode.element("td", [], HTMLNode.breakable(text)).render()
        #expect(html == "<td>✗ rejected: other (X509_<wbr>V_<wbr>ERR_<wbr>UNABLE_<wbr>TO_<wbr>GET_<wbr>ISSUER_<wbr>CERT_<wbr>LOCALLY, NOT_A_CA)</td>")
        #expect(html.replacingOccurrences(of: "<wbr>", with: "") == "<td>\(Markup.escape(text))</td>")
        func table(_ columns: Int) -> String {
            DocumentWriter.table(.init(headers: (0..<columns).map { "h\($0)" }, cells: [(0..<columns).map { _ in .init("GNUTLS_CERT_SIGNER_NOT_FOUND", tone: .deviation) }])).render()
        }
        #expect(!table(5).contains("<wbr>") && table(8).contains("GNUTLS_<wbr>CERT_<wbr>SIGNER_<wbr>NOT_<wbr>FOUND"))
    }

    @Test func aProfilesAnswerSplitsIntoItsRulesAndQuotesStayWhole() {
        let answer = #"Web PKI: rejected; RFC 9525 §6.3; RFC 5280 §6.1 (Basic Path Validation): "(a) for all x; (b) certificate 1""#
        #expect(References.parts(answer) == ["Web PKI: rejected", "RFC 9525 §6.3", #"RFC 5280 §6.1 (Basic Path Validation): "(a) for all x; (b) certificate 1""#])
        #expect(References.label(#"RFC 5280 §6.1 (Basic Path Validation): "a long quote of the rule's own words""#) == "RFC 5280 §6.1 (Basic Path Validation)")
        #expect(References.short(#"RFC 5280 §6.1 (Basic Path Validation): "a long quote of the rule's own words""#) == "RFC 5280 §6.1")
        let references = References([[answer], ["RFC 9525 §6.3"]])
        #expect(references.all.count == 3 && references.anchor("RFC 9525 §6.3") == "ref-2")
        // An explored vector's notes are rules of their own; another section of the rule, or a
        // note in parentheses, stays with it.
        let explored = #"RFC 5280 §6.1.3(b): "verify; the name" (outside; inside); §4.2.1.10: "Restrictions apply."; two independent changes: either alone"#
        #expect(References.parts(explored) == [#"RFC 5280 §6.1.3(b): "verify; the name" (outside; inside); §4.2.1.10: "Restrictions apply.""#, "two independent changes: either alone"])
    }

    /// A rule quoted again with more words (a section's title, a note) is one entry; a reason that
    /// quotes a rule names it and links to the entry.
    @Test func aRuleIsQuotedOnceAndCitedByName() {
        let titled = #"RFC 5280 §6.1.3(a)(2) (Basic Certificate Processing): "The certificate validity period includes the current time.""#
        let plain = #"RFC 5280 §6.1.3(a)(2): "The certificate validity period includes the current time.""#
        let noted = #"RFC 5280 §6.1.3(a)(2): "The certificate validity period includes the current time." (the time must be within it)"#
        let references = References([[titled], [plain, "RFC 9525 §6.3"], [noted]])
        #expect(references.all == ["RFC 9525 §6.3", noted])
        #expect([titled, plain, noted].allSatisfy { references.anchor($0) == "ref-4" })
        #expect(references.text(titled) == #""The certificate validity period includes the current time.""#)
        let cited = references.citing("recorded deviation: under rfc5280, \(titled) It rejects it.")
        #expect(cited.text == "recorded deviation: under rfc5280, RFC 5280 §6.1.3(a)(2) (Basic Certificate Processing) It rejects it.")
        #expect(cited.links.map(\.anchor) == ["ref-4"] && cited.links.map(\.text) == ["RFC 5280 §6.1.3(a)(2)"] && cited.links.allSatisfy { !$0.inText })
        // Two rules of one section with other words stay two.
        #expect(References([[titled], [#"RFC 5280 §6.1.3(a)(2): "another sentence of the section.""#]]).all.count == 2)
        #expect(references.citing("no quote here").links.isEmpty)
        #expect(references.links([plain, "RFC 9525 §6.3", noted]).map(\.anchor) == [references.anchor(noted), references.anchor("RFC 9525 §6.3")])
    }
}
