import BuiltInBackends
import Foundation
import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

@Suite struct ReportTests {
    /// The JSON report has the documented, stable shape.
    @Test func jsonReportHasTheDocumentedShape() async throws {
        let suite = try Fixtures.suite()
        let backends = BuiltInBackends.registry.all()
        let results = await ConformanceRunner(backends: backends, suite: suite).run(Array(suite.vectors.prefix(3)).map(ConformanceRunner.Subject.chain))
        let json = try JSONReport(backends: backends.map(BackendInfo.init), results: results).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listed = try #require(object["backends"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == backends.map(\.name))
        #expect(listed.allSatisfy { ($0["version"] as? String)?.isEmpty == false })
        let entries = try #require(object["results"] as? [[String: Any]])
        #expect(entries.count == 3 * backends.count)
        for entry in entries {
            #expect(entry["vector"] is String && entry["backend"] is String)
            let expected = try #require(entry["expected"] as? [String: Any])
            #expect(expected["trusted"] is Bool && expected["failures"] is [String])
            let observed = try #require(entry["observed"] as? [String: Any])
            #expect(observed["trusted"] is Bool && observed["failures"] is [String] && observed["native"] is [Any])
            let outcome = try #require(entry["outcome"] as? String)
            #expect(Outcome(rawValue: outcome) != nil)
        }
    }

    @Test func textReportListsEveryVectorAndTheSummary() async throws {
        let suite = try Fixtures.suite()
        let backends = BuiltInBackends.registry.all()
        let vectors = Array(suite.vectors.prefix(4))
        let results = await ConformanceRunner(backends: backends, suite: suite).run(vectors.map(ConformanceRunner.Subject.chain))
        let text = DocumentWriter.text(ConformanceDocument.make(backends: backends.map(BackendInfo.init), results: results, provenance: nil))
        for vector in vectors { #expect(text.contains(vector.id)) }
        #expect(text.contains("Summary"))
        for backend in backends { #expect(text.contains(backend.libraryVersion)) }
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements of a JUnit document with Foundation's XML parser, so the test fails on XML a CI
/// system could not read.
final class JUnitCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var skippedMessages: [String] = []

    /// Parses `xml`, counting its elements; false when it is not well-formed.
    func parse(_ xml: String) -> Bool {
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        return parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        counts[name, default: 0] += 1
        if name == "skipped" { skippedMessages.append(attributes["message"] ?? "") }
    }
}

@Suite struct JUnitAndMarkdownTests {
    @Test func junitIsWellFormedWithOneCasePerVectorAndBackEnd() async throws {
        let backends = BuiltInBackends.registry.all()
        let results = try await HTMLReportTests.fullRun().results
        let xml = DocumentWriter.junit(ConformanceDocument.make(backends: backends.map(BackendInfo.init), results: results, provenance: nil))
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = JUnitCounter()
        parser.delegate = counter
        #expect(parser.parse(), "JUnit XML does not parse: \(String(describing: parser.parserError))")
        #expect(counter.counts["testsuite"] == backends.count)
        #expect(counter.counts["testcase"] == results.count)
        let deviations = results.filter { $0.outcome == .deviation }.count
        let open = results.filter { $0.outcome == .open }.count
        // Skipped: recorded deviations, open answers, and requests not put to a library that lacks a
        // feature they need (UNSUPPORTED_CONSTRAINT).
        let notAsked = results.filter { $0.outcome == .skipped }.count
        #expect(deviations > 0 && counter.counts["skipped"] == deviations + open + notAsked)
        #expect(counter.skippedMessages.allSatisfy { $0.hasPrefix("recorded deviation") || $0.contains("the standards leave this open") || $0.contains("UNSUPPORTED_CONSTRAINT") })
        // The direction is in the message: a recorded acceptance reads as one.
        #expect(counter.skippedMessages.contains { $0.hasPrefix("recorded deviation (acceptedShouldReject):") })
        #expect(counter.counts["failure", default: 0] == results.filter { $0.outcome == .fail }.count)
        // The schema Jenkins' xunit plugin validates: no skipped attribute on <testsuites>; times.
        let root = try #require(xml.split(separator: "\n").first { $0.hasPrefix("<testsuites") })
        #expect(!root.contains("skipped="))
        #expect(root.contains(" time=\""))
        #expect(xml.components(separatedBy: "<testcase ").dropFirst().allSatisfy { $0.contains(" time=\"") })
    }

    @Test func markupEscapingHandlesHostileText() {
        #expect(DocumentWriter.xml("<a href=\"x\">'&'\u{1}</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;\u{FFFD}&lt;/a&gt;")
    }

    @Test func markdownHasARowPerVector() async throws {
        let suite = try Fixtures.suite()
        let runner = ConformanceRunner(backends: BuiltInBackends.registry.all(), suite: suite)
        let subjects = Array(runner.allSubjects.suffix(5))
        let results = await runner.run(subjects)
        let markdown = DocumentWriter.markdown(ConformanceDocument.make(backends: runner.backends.map(BackendInfo.init), results: results, provenance: nil))
        for subject in subjects { #expect(markdown.contains("| `\(subject.id)` |")) }
    }
}

/// The summary's directions count recorded deviations too: a recorded acceptance of what the
/// standards reject is still one, in every report format.
@Suite struct SummaryDirectionTests {
    @Test func recordedDeviationsCountInTheirDirection() async throws {
        let (backends, results) = try await HTMLReportTests.fullRun()
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        let gnutls = try #require(summaries.first { $0.backend == "gnutls" })
        let accepted = results.filter { $0.backend == "gnutls" && $0.outcome == .deviation && $0.judgement.failureKind == .acceptedShouldReject }
        #expect(!accepted.isEmpty, "gnutls records CN fallback and partial wildcards as deviations")
        #expect(gnutls.acceptedShouldReject == accepted.count)
        #expect(gnutls.deviationsAcceptingShouldReject == accepted.count)
        #expect(gnutls.deviations == gnutls.deviationsAcceptingShouldReject + gnutls.deviationsRejectingShouldTrust + gnutls.deviationsOther)
        #expect(gnutls.unexpected == 0)
        for s in summaries {
            #expect(s.passed + s.acceptedShouldReject + s.rejectedShouldTrust + s.otherFailures + s.leftOpen + s.errors + s.limited + s.skipped + s.unstable == s.total, "\(s.backend)")
        }
        let cell = "\(gnutls.acceptedShouldReject) (\(accepted.count) recorded)"
        #expect(DocumentWriter.text(ConformanceDocument.make(backends: backends, results: results, provenance: nil)).contains(cell))
        #expect(DocumentWriter.markdown(ConformanceDocument.make(backends: backends, results: results, provenance: nil)).contains(cell))
        #expect(HTMLReportTests.page(backends, results).contains(">\(cell)</td>"))
        let json = try JSONReport(backends: backends, results: results).encoded()
        #expect(json.contains("\"deviationsAcceptingShouldReject\" : \(accepted.count)") || json.contains("\"deviationsAcceptingShouldReject\":\(accepted.count)"))
    }
}

/// Every report says what made it; JSON writes every documented key, absent values as null.
@Suite struct ProvenanceTests {
    @Test func everyReportCarriesItsProvenance() async throws {
        let (backends, results) = try await HTMLReportTests.fullRun()
        let provenance = Provenance(tool: "trust-harness 9.9.9", generatedAt: Date(timeIntervalSince1970: 0), command: ["trust-harness", "run", "--id", "a b"])
        #expect(provenance.line == "trust-harness 9.9.9, 1970-01-01T00:00:00Z: trust-harness run --id 'a b'")
        #expect(DocumentWriter.text(ConformanceDocument.make(backends: backends, results: results, provenance: provenance)).contains(provenance.line))
        #expect(DocumentWriter.markdown(ConformanceDocument.make(backends: backends, results: results, provenance: provenance)).contains("trust-harness 9.9.9"))
        #expect(HTMLReportTests.page(backends, results, provenance: provenance).contains("1970-01-01T00:00:00Z"))
        #expect(DocumentWriter.junit(ConformanceDocument.make(backends: backends, results: results, provenance: provenance)).contains("<property name=\"tool\" value=\"trust-harness 9.9.9\"/>"))
        let json = try JSONReport(backends: backends, results: results, provenance: provenance).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 6)
        #expect((object["provenance"] as? [String: Any])?["command"] as? [String] == provenance.command)
        let entries = try #require(object["results"] as? [[String: Any]])
        for entry in entries {
            // Every result has its impact key: an object for a departure, null otherwise.
            #expect(entry.keys.contains("impact"))
            if let outcome = entry["outcome"] as? String, outcome == "deviation" || outcome == "fail" {
                #expect((entry["impact"] as? [String: Any])?["cwe"] is String, "\(entry["vector"] ?? "")")
            }
            let observed = try #require(entry["observed"] as? [String: Any])
            #expect(Set(observed.keys) == ["trusted", "failures", "native", "pathLength", "step", "reason", "error"])
        }
        #expect(entries.contains { ($0["observed"] as? [String: Any])?["pathLength"] is NSNull })
    }
}

@Suite struct JSONTextTests {
    struct Sample: Encodable {
        var empty: [Int] = []
        var nested: [String: [String]] = [:]
        var text = "a [ \n ] and { } \"quoted [\n]\""
        var full = [1]
    }

    @Test func emptyArraysAndObjectsTakeOneLineAndStringsAreUntouched() throws {
        let json = try JSONText.encode(Sample())
        #expect(json.contains("\"empty\" : []"))
        #expect(json.contains("\"nested\" : {}"))
        #expect(!json.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.allSatisfy(\.isWhitespace) })
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["text"] as? String == Sample().text)
        #expect(decoded?["full"] as? [Int] == [1])
    }
}

/// HTML and Markdown show what each vector tests, its host, time and references, and Markdown why
/// each deviation is accepted.
@Suite struct VectorContextTests {
    @Test func reportsShowEachVectorsContextAndTheDeviationReasons() async throws {
        let (backends, results) = try await HTMLReportTests.fullRun()
        let result = try #require(results.first { $0.id == "expired-leaf/p256" })
        let context = try #require(result.context)
        #expect(!context.description.isEmpty && !context.references.isEmpty && context.host == "www.example.test")
        #expect(results.allSatisfy { $0.context != nil })
        let html = HTMLReportTests.page(backends, results)
        #expect(html.contains(Markup.escape(context.description)))
        // Each rule's quote once, under References, and linked from the vectors that cite it.
        let rule = try #require(References.parts(context.references[0]).first)
        let quote = References.text(rule, label: References.label(rule))
        #expect(quote.contains("\"") && occurrences(of: Markup.escape(quote), in: html) == 1, "\(quote)")
        #expect(html.contains(">\(Markup.escape(References.short(rule)))</a>"))
        let markdown = DocumentWriter.markdown(ConformanceDocument.make(backends: backends, results: results, provenance: nil))
        // The key-type variants of a case share a row.
        #expect(markdown.contains("| `expired-leaf` | rsa2048, p256 | \(context.description) |"), "\(markdown)")
        let deviation = try #require(results.first { $0.outcome == .deviation })
        let line = markdown.split(separator: "\n").first { $0.contains(deviation.id) && $0.contains("| \(deviation.backend) | 🟨 deviation |") }
        #expect(line != nil, "\(markdown)")
    }
}

private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}
