import BuiltInBackends
import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

@Suite struct HTMLReportTests {
    static let hostile = "<script>alert(1)</script>"

    static let benchmarks = BenchmarkReport(results: [
        .init(backend: "openssl", scenario: "valid-chain/p256", mode: "cold", microsecondsPerEvaluation: 212.5, evaluationsPerSecond: 4705.9),
        .init(backend: "openssl", scenario: "valid-chain/p256", mode: "warm", microsecondsPerEvaluation: 48.25, evaluationsPerSecond: 20725),
        .init(backend: "gnutls", scenario: "valid-chain/p256", mode: "cold", microsecondsPerEvaluation: 301, evaluationsPerSecond: 3322.3),
        .init(backend: "gnutls", scenario: "valid-chain/p256", mode: "warm", microsecondsPerEvaluation: 75.5, evaluationsPerSecond: 13245),
    ])

    /// The whole suite on every default back end, evaluated once as `trust-harness run --repeat 0`
    /// evaluates it (``ConformanceRunner/run(_:repetitions:progress:)``, on every core), and shared:
    /// by every report test and by the per-vector conformance test. (That asking again, on one task
    /// or many, warm or cold, gives the same verdicts is the test kit's conformance suite, TestKitTests.)
    static func fullRun() async throws -> (backends: [BackendInfo], results: [ConformanceResult]) {
        (BuiltInBackends.registry.all().map(BackendInfo.init), try await shared.value)
    }

    private static let shared = Task { () throws -> [ConformanceResult] in
        await ConformanceRunner(backends: BuiltInBackends.registry.all(), suite: try Fixtures.suite()).run()
    }

    /// The conformance page as `run --format html` writes it: the run's document in the HTML writer.
    static func page(_ backends: [BackendInfo], _ results: [ConformanceResult], benchmarks: BenchmarkReport? = nil, title: String = "TrustHarness conformance", provenance: Provenance? = nil) -> String {
        DocumentWriter.html(ConformanceDocument.make(backends: backends, results: results, benchmarks: benchmarks, provenance: provenance, title: title))
    }

    @Test func pageShowsEveryVectorAndBackendVersion() async throws {
        let (backends, results) = try await Self.fullRun()
        let page = Self.page(backends, results)
        let doctype = page.hasPrefix("<!DOCTYPE html>")
        #expect(doctype)
        let ids = Set(results.map(\.id))
        #expect(ids.count >= 100)
        // Every vector is on the page: a row of the matrix, or named in the list of the vectors every
        // back end passes (one pass over the page, not a search of the whole page per vector).
        let named = Set(page.components(separatedBy: "<code>").dropFirst().map { $0.prefix { $0 != "<" } }.flatMap { Self.variants(String($0)) })
        #expect(ids.subtracting(named).isEmpty, "vectors not on the page: \(ids.subtracting(named).sorted().prefix(5))")
        #expect(missing(backends.map(\.version), in: page).isEmpty, "a back end's version is not shown")
        #expect(missing(backends.map { "<th>\($0.name)</th>" }, in: page).isEmpty, "a back end without a column")
        let passing = Dictionary(grouping: results, by: \.id).values.filter { $0.allSatisfy { $0.outcome == .pass } }.count
        // A row for each vector not every back end passes, but a case's key-type variants that every
        // back end answers alike share one (`case/rsa2048 · p256`): each such vector is named once.
        let labels = try rowLabels(in: page)
        let onRows = labels.flatMap { Self.variants($0) }
        #expect(onRows.count == ids.count - passing && Set(onRows).count == onRows.count)
        #expect(labels.count < onRows.count, "no key-type variants share a row")
        #expect(page.contains("passed on every back end, as the standards call for (\(passing)): not written as rows"))
        // Each verdict that is not a pass unfolds (what each vector tests is in the Vectors section),
        // but a request not put to a library that lacks a feature it needs, which says so in one line.
        let written = Set(labels.map { Self.variants($0)[0] })
        let shown = results.filter { written.contains($0.id) }
        func lacking(_ result: ConformanceResult) -> Bool { result.outcome == .skipped && (result.observed?.diagnostics.map(\.name) ?? []) == ["UNSUPPORTED_CONSTRAINT"] }
        let notAsked = shown.filter(lacking).count
        #expect(notAsked > 0)
        #expect(occurrences(of: "not asked (UNSUPPORTED_CONSTRAINT)", in: page) == notAsked)
        #expect(occurrences(of: "<details>", in: page) == shown.filter { $0.outcome != .pass }.count - notAsked)
        for tag in ["table", "tbody", "tr", "details", "summary", "section"] {
            #expect(occurrences(of: "<\(tag)>", in: page) + occurrences(of: "<\(tag) ", in: page) == occurrences(of: "</\(tag)>", in: page), "unbalanced <\(tag)>")
        }
    }

    /// Pages people read: every link of the page lands on an anchor of the page; each rule's quote
    /// is written once, under References (the vectors, the reasons and the cells name the rule and
    /// link to it), in the page and in Markdown; a departing cell unfolds the library's diagnostics
    /// without repeating the reason and impact its "why" links to.
    @Test func linksLandAndQuotesAreWrittenOnce() async throws {
        let (backends, results) = try await Self.fullRun()
        let document = ConformanceDocument.make(backends: backends, results: results, provenance: nil)
        let page = DocumentWriter.html(document)
        let targets = Set(page.components(separatedBy: " href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        let anchors = Set(page.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(targets.count > 100 && targets.subtracting(anchors).isEmpty, "links to no anchor: \(targets.subtracting(anchors).sorted().prefix(5))")
        let section = try #require(document.sections.first { $0.id == "references" })
        guard case .table(let references) = try #require(section.blocks.last) else { Issue.record("no references table"); return }
        #expect(Set(references.rows.map { $0[0].text + "\u{1F}" + $0[1].text }).count == references.rows.count, "a rule written twice")
        let quotes = references.rows.map(\.[1].text).filter { $0.contains("\"") && $0.count > 60 }
        #expect(quotes.count > 20)
        // Outside References (its rows may quote a rule the catalogue words otherwise), no quote.
        let elsewhere = page.components(separatedBy: "<section id=\"references\">")[0] + (page.components(separatedBy: "<section id=\"references\">").last?.components(separatedBy: "</section>").dropFirst().joined() ?? "")
        let markdown = DocumentWriter.markdown(document)
        let markdownElsewhere = markdown.components(separatedBy: "\n## References")[0] + (markdown.components(separatedBy: "\n## References").last?.components(separatedBy: "\n## ").dropFirst().joined() ?? "")
        for quote in quotes {
            #expect(occurrences(of: Markup.escape(quote), in: page) >= 1 && occurrences(of: Markup.escape(quote), in: elsewhere) == 0, "quoted outside References: \(quote.prefix(60))")
            #expect(occurrences(of: quote, in: markdownElsewhere) == 0, "quoted outside References in Markdown: \(quote.prefix(60))")
        }
        #expect(occurrences(of: "impact: ", in: page) == 0 && occurrences(of: "why-", in: page) > 100)
    }

    /// The page loads nothing from elsewhere: no remote src/href, no CSS import or remote url(), and
    /// a policy that forbids it anyway.
    @Test func pageIsSelfContained() async throws {
        let (backends, results) = try await Self.fullRun()
        let page = Self.page(backends, results, benchmarks: Self.benchmarks)
        #expect(try firstMatch(#"(?i)(src|href|action|xlink:href)\s*=\s*["']?\s*(https?:|//|data:text/html)"#, in: page) == nil)
        #expect(try firstMatch(#"(?i)url\(\s*["']?\s*(https?:|//)"#, in: page) == nil)
        #expect(try firstMatch("(?i)@import|<link|<iframe|<object|<embed|<img", in: page) == nil)
        #expect(missing(["Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"], in: page).isEmpty)
    }

    /// Texts from libraries, files and vectors are shown as text, never as markup.
    @Test func hostileTextsAreEscaped() async throws {
        let suite = try Fixtures.suite()
        let vector = try #require(suite.vectors.first)
        let policy = try #require(suite.policies.first)
        let runner = ConformanceRunner(backends: BuiltInBackends.registry.all(), suite: suite)
        let openssl = try #require(BuiltInBackends.registry.all().first)

        var chain = runner.evaluate(.chain(vector), backend: openssl)
        chain.id = "\"><img src=x onerror=alert(2)>/p256"
        chain.observed = Observation(.failClosed(.other, code: 666, name: "EVIL_<b>NAME</b>", message: Self.hostile, depth: 0, origin: .library))
        chain.judgement.detail = "detail \(Self.hostile)"
        // Departures: a passing cell has nothing to unfold on the page.
        chain.judgement.outcome = .fail
        var policyResult = runner.evaluate(.policy(policy), backend: openssl)
        policyResult.observed?.reason = "reason \(Self.hostile)"
        policyResult.judgement.outcome = .fail
        var failed = policyResult
        failed.id = "policy/'quoted'&<case>/x"
        failed.backend = "<i>evil-backend</i>"
        failed.observed = nil
        failed.error = "error \(Self.hostile)"
        failed.judgement.outcome = .error
        failed.judgement.failureKind = nil

        let page = Self.page(
            [BackendInfo(name: openssl.name, version: "1.0 <script>alert(3)</script>")],
            [chain, policyResult, failed],
            benchmarks: BenchmarkReport(results: [.init(backend: "openssl", scenario: Self.hostile, mode: "cold</text><script>", microsecondsPerEvaluation: 1, evaluationsPerSecond: 1e6)]),
            title: "Report </title><script>alert(4)</script>"
        )
        #expect(occurrences(of: "<script", in: page) == 1, "only the page's own script")
        #expect(found(["<img", "<b>NAME", "<i>evil", "<case>", "</text><script>"], in: page).isEmpty, "hostile markup got through")
        #expect(missing([
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            "<code>&quot;&gt;&lt;img src=x onerror=alert(2)&gt;/p256</code>",
            "policy/&#39;quoted&#39;&amp;&lt;case&gt;/x",
            "detail &lt;script&gt;",
            "reason &lt;script&gt;",
            "error &lt;script&gt;",
            "EVIL_&lt;b&gt;NAME&lt;/b&gt;",
            "&lt;i&gt;evil-backend&lt;/i&gt;",
            "1.0 &lt;script&gt;alert(3)&lt;/script&gt;",
            "cold&lt;/text&gt;&lt;script&gt;",
            "<title>Report &lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt;</title>",
        ], in: page).isEmpty)
    }

    @Test func benchmarkSectionOnlyWhenGiven() async throws {
        let (backends, results) = try await Self.fullRun()
        let without = Self.page(backends, results)
        #expect(found(["id=\"benchmarks\"", "<svg", "#benchmarks"], in: without).isEmpty)

        let with = Self.page(backends, results, benchmarks: Self.benchmarks)
        #expect(missing(["id=\"benchmarks\"", "href=\"#benchmarks\""], in: with).isEmpty)
        #expect(occurrences(of: "<svg", in: with) == 1)
        #expect(occurrences(of: "<rect", in: with) == Self.benchmarks.results.count)
        #expect(missing(["openssl · cold", "openssl · warm", "gnutls · cold", "gnutls · warm", "212 µs", "48.2 µs", "301 µs", "75.5 µs", "20,725/s", "<td class=\"num\">20,725</td>"], in: with).isEmpty)
        // Grouped by back end in the order of the back ends given, cold before warm.
        let order = ["openssl · cold", "openssl · warm", "gnutls · cold", "gnutls · warm"].compactMap { with.range(of: $0)?.lowerBound }
        #expect(order == order.sorted() && order.count == 4)
    }

    /// The summary counts are ConformanceSummary's, and the filter flags mark the rows the filters
    /// are about.
    @Test func summaryAndFilterFlagsFollowTheResults() async throws {
        let (backends, results) = try await Self.fullRun()
        let page = Self.page(backends, results)
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        // Each back end's row holds its summary's counts in order (a count a tone marks has a class).
        for s in summaries {
            let row = try #require(page.components(separatedBy: "<tr><td>\(s.backend)</td>").dropFirst().first?.components(separatedBy: "</tr>").first, "\(s.backend)'s row")
            let cells = row.matches(of: try Regex(">([^<]*)</td>")).map { String(row[$0.range].dropFirst().dropLast(5)) }
            #expect(Array(cells.prefix(11)) == ["\(s.total)", "\(s.passed)", ConformanceSummary.cell(s.acceptedShouldReject, recorded: s.deviationsAcceptingShouldReject),
                                               ConformanceSummary.cell(s.rejectedShouldTrust, recorded: s.deviationsRejectingShouldTrust), ConformanceSummary.cell(s.otherFailures, recorded: s.deviationsOther),
                                               "\(s.leftOpen)", "\(s.errors)", "\(s.limited)", "\(s.skipped)", "\(s.unstable)",
                                               s.unexpectedCell], "\(s.backend)")
        }
        let byID = Dictionary(grouping: results, by: \.id)
        // Rows of the matrix: the vectors every back end passes are listed under it instead.
        let disagreeing = byID.values.filter { Set($0.map { $0.observed?.outcome }).count > 1 && !$0.allSatisfy { $0.outcome == .pass } }.count
        let failing = byID.values.filter { $0.contains { $0.outcome == .fail || $0.outcome == .error } }.count
        let passing = byID.values.filter { $0.allSatisfy { $0.outcome == .pass } }.count
        // (each row counted once per vector it names: a case's variants answered alike share one)
        let labels = try rowLabels(in: page)
        func vectors(flag: String) throws -> Int {
            let pattern = try NSRegularExpression(pattern: "<tr data-tags=\"([^\"]* )?\(flag)( [^\"]*)?\"><td><code>([^<]*)</code>")
            return pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap { Range($0.range(at: 3), in: page) }.map { Self.variants(String(page[$0])).count }.reduce(0, +)
        }
        #expect(labels.count <= byID.count - passing)
        #expect(try vectors(flag: "disagreements") == disagreeing)
        #expect(try vectors(flag: "failing") == failing)
        // The vectors every back end passes are listed under the matrix, not written as rows.
        #expect(try rows(in: page, flag: "pass") == 0 && page.contains("(\(passing)): not written as rows"))
        #expect(disagreeing > 0, "the suite has recorded deviations, so the back ends disagree somewhere")
        #expect(missing(["only disagreements <span class=\"count\">\(try rows(in: page, flag: "disagreements"))</span>"], in: page).isEmpty)
    }

    /// A verdict that trusts what the standards reject is flagged in its cell and in the summary.
    @Test func acceptedShouldRejectIsHighlighted() async throws {
        let suite = try Fixtures.suite()
        let vector = try #require(suite.vectors.first { !$0.expected.trusted })
        let backend = try #require(BuiltInBackends.registry.all().first)
        var result = ConformanceRunner(backends: BuiltInBackends.registry.all(), suite: suite).evaluate(.chain(vector), backend: backend)
        result.observed = Observation(.trusted(path: [[1], [2]]))
        result.judgement.outcome = .fail
        result.judgement.failureKind = .acceptedShouldReject
        let page = Self.page([BackendInfo(backend)], [result])
        #expect(missing(["<td class=\"num tone accepts\">1</td>", "<td class=\"tone accepts\">", "<span class=\"badge\">should reject</span>", "1 unexpected result "], in: page).isEmpty)
    }

    /// The needles the page lacks (so that a failure names them instead of printing the page).
    func missing(_ needles: [String], in page: String) -> [String] {
        needles.filter { !page.contains($0) }
    }

    /// The needles the page contains.
    func found(_ needles: [String], in page: String) -> [String] {
        needles.filter { page.contains($0) }
    }

    /// How many times `needle` occurs in `text`, not overlapping, counted over the UTF-8 bytes with
    /// memchr and memcmp. (The page is megabytes: a byte loop in a debug build took a second of
    /// swift test per page, and Foundation's string search would bridge it each time.)
    func occurrences(of needle: String, in text: String) -> Int {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return 0 }
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            let start = UnsafeRawPointer(base)
            var count = 0, index = 0
            while bytes.count - index >= pattern.count {
                guard let hit = memchr(start + index, Int32(first), bytes.count - index) else { break }
                let at = start.distance(to: UnsafeRawPointer(hit))
                guard bytes.count - at >= pattern.count else { break }
                if memcmp(start + at, pattern, pattern.count) == 0 {
                    count += 1
                    index = at + pattern.count
                } else {
                    index = at + 1
                }
            }
            return count
        }
    }

    /// The first match of `pattern` in `page`, or nil. ICU's engine (NSRegularExpression) rather
    /// than Swift's Regex, whose matcher, on a page of megabytes in a debug build, was most of
    /// these tests' time; the patterns are the same in both syntaxes.
    func firstMatch(_ pattern: String, in page: String) throws -> String? {
        let match = try NSRegularExpression(pattern: pattern).firstMatch(in: page, range: NSRange(page.startIndex..., in: page))
        return match.flatMap { Range($0.range, in: page) }.map { String(page[$0]) }
    }

    /// The ids a matrix row names: `case/rsa2048 · p256` is two.
    static func variants(_ label: String) -> [String] {
        let parts = label.components(separatedBy: " · ")
        guard parts.count > 1, let slash = parts[0].lastIndex(of: "/") else { return [label] }
        let key = parts[0][..<slash]
        return [parts[0]] + parts.dropFirst().map { "\(key)/\($0)" }
    }

    /// The first cell of every matrix row.
    func rowLabels(in page: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: "<tr data-tags=\"[^\"]*\"><td><code>([^<]*)</code>")
        return pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap { Range($0.range(at: 1), in: page).map { String(page[$0]) } }
    }

    /// The matrix rows whose filter tags hold `flag`.
    func rows(in page: String, flag: String) throws -> Int {
        try NSRegularExpression(pattern: "<tr data-tags=\"([^\"]* )?\(flag)( [^\"]*)?\"")
            .numberOfMatches(in: page, range: NSRange(page.startIndex..., in: page))
    }
}
