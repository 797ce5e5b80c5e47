import Foundation
import TrustCore
import TrustVectors

/// A conformance run as a document of the one model, which every format renders (Markdown for pull
/// requests, HTML as one self-contained page): the summary per back end with its outcomes as a bar,
/// one row per vector with each back end's verdict toned by its outcome (the judgement, the policy's
/// reason and the library's own diagnostics one click away), what each vector tests, why each
/// recorded deviation is accepted and each failure fails, and optionally benchmark figures.
///
/// On the page the matrix has switches (only disagreements, only fail/error, hide passing) and a
/// search over the ids; the address presets them: `#only=disagreements`, `#only=disagreements,failing`,
/// `#hide=pass`, `#q=wildcard` (words that must all occur in the id), `#expand`, joined with `&`.
public enum ConformanceDocument {
    /// `results` are grouped by vector id in order of first appearance, whatever their order; a back
    /// end that has results but is missing from `backends` gets a column with an unknown version, and
    /// a back end without a result for a vector shows "not run" there. The benchmark section appears
    /// only when `benchmarks` is given.
    /// - Parameter suite: the checks' name (JUnit's `<testsuites name>`: `TrustHarness` for run,
    ///   `TrustHarness compare` for compare's selection), so two reports in one CI job are told apart.
    public static func make(backends given: [BackendInfo], results: [ConformanceResult], benchmarks: BenchmarkReport? = nil,
                            provenance: Provenance?, title: String = "TrustHarness conformance", suite: String = "TrustHarness",
                            whenEmpty: String = "No vector was evaluated.") -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let backends = columns(given, results)
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        let rows = ResultRows.group(results)
        let policies = rows.filter { $0.expected.step != nil }.count

        let unexpected = summaries.map(\.unexpected).reduce(0, +)
        let skipped = summaries.map(\.skipped).reduce(0, +)
        let skipped0 = skipped == 0 ? "" : " \(skipped) skipped."
        let unexplained = summaries.map(\.deviationsUnexplained).reduce(0, +)
        let skippedNote = skipped0 + (unexplained == 0 ? "" : " \(unexplained) recorded deviation\(unexplained == 1 ? " is" : "s are") unexplained: \(unexplained == 1 ? "its reason is a draft" : "their reasons are drafts") (\"draft\": true) naming no cause.")
        let status: ReportDocument.Block = unexpected == 0
            ? .callout(.pass, "Every result evaluated passes or matches its recorded deviation.\(skippedNote)")
            : .callout(.rejects, "\(unexpected) unexpected result\(unexpected == 1 ? "" : "s") (failures, errors and unstable verdicts).\(skippedNote)")
        let summary = zip(backends, summaries).map { backend, s -> [Cell] in
            func directed(_ count: Int, recorded: Int, _ hot: ReportDocument.Tone) -> Cell {
                Cell(ConformanceSummary.cell(count, recorded: recorded), tone: count == 0 ? nil : count > recorded ? hot : .deviation)
            }
            return [Cell(backend.name), Cell("\(s.total)"), Cell("\(s.passed)"),
                    directed(s.acceptedShouldReject, recorded: s.deviationsAcceptingShouldReject, .accepts),
                    directed(s.rejectedShouldTrust, recorded: s.deviationsRejectingShouldTrust, .rejects),
                    directed(s.otherFailures, recorded: s.deviationsOther, .rejects), Cell("\(s.leftOpen)", tone: s.leftOpen > 0 ? .open : nil),
                    Cell("\(s.errors)", tone: s.errors > 0 ? .error : nil), Cell("\(s.limited)", tone: s.limited > 0 ? .error : nil), Cell("\(s.skipped)"), Cell("\(s.unstable)", tone: s.unstable > 0 ? .unstable : nil),
                    Cell(s.unexpectedCell, tone: s.unexpected > 0 ? .rejects : s.deviationsUnexplained > 0 ? .deviation : nil), Cell(s.severityLine, tone: s.worstSeverity.map { $0 <= .high ? .accepts : .deviation }), Cell("", segments: distribution(s))]
        }
        var summaryTable = ReportDocument.Table(
            headers: ["back end", "vectors", "passed", "accepted, should reject", "rejected, should trust", "other failures", "left open", "errors", "limited", "skipped", "unstable", "unexpected", "departures by severity", "distribution"],
            cells: summary, numeric: Set(1...11),
            legend: [.deviation: "only recorded deviations", .accepts: "trusted where the standards reject, not all recorded", .rejects: "other departures, not all recorded", .error: "errors, or stopped by a limit before the library answered", .unstable: "unstable"])
        summaryTable.staticNotes = false

        let references = References(rows.compactMap { $0.results.first?.context?.references })
        let cases = Self.cases(rows)
        let caseAnchors = Self.caseAnchors(cases)
        // Why each recorded deviation is accepted and each failure fails: one row per back end and
        // reason, the vectors it explains together (a reason is usually the same for every key type).
        var explainedGroups: [(result: ConformanceResult, ids: [String])] = []
        var groupOf: [String: Int] = [:]
        for result in ConformanceResult.byImpact(results.filter { $0.outcome == .deviation || $0.outcome == .fail || $0.outcome == .error }) {
            let key = Self.reasonKey(result)
            if let index = groupOf[key] {
                explainedGroups[index].ids.append(result.id)
            } else {
                groupOf[key] = explainedGroups.count
                explainedGroups.append((result, [result.id]))
            }
        }
        let reasonAnchors = groupOf.mapValues { "why-\($0 + 1)" }
        let matrix = rows.map { row -> [Cell] in
            // What the vector tests is written once, in the Vectors section, one link away.
            return [Cell(row.id, code: true, badge: row.disagree ? "≠" : nil, links: caseAnchors[row.id].map { [.init("about", anchor: $0, inText: false)] }), Cell(expectation(row.expected))] + backends.map { backend in
                guard let result = row.results.first(where: { $0.backend == backend.name }) else { return Cell("not run", tone: .skipped) }
                // A pass needs no unfolding on the page (its verdict names the library's codes; the
                // JSON report has every diagnostic): the page stays light enough to open at once.
                // Nor does a request not put to a library that lacks a feature it needs (a revocation
                // input or mode): the cell names UNSUPPORTED_CONSTRAINT, and the guide's revocation
                // table and the JSON report say which feature.
                let lacking = result.outcome == .skipped && (result.observed?.diagnostics.map(\.name) ?? []) == ["UNSUPPORTED_CONSTRAINT"]
                var cell = lacking ? Cell("not asked (UNSUPPORTED_CONSTRAINT)", tone: .skipped)
                    : Cell(verdict(result), tone: tone(result), detail: result.outcome == .pass ? nil : details(result), badge: tag(result))
                // A departure's reason is written once, with the vectors it explains, under
                // "Deviations and failures": the page's cell links there and unfolds the rest. A
                // rule's quote (why a vector is left open) is written once, under References.
                let anchor = reasonAnchors[Self.reasonKey(result)]
                if let detail = anchor == nil ? cell.detail : details(result, page: true) {
                    let cited = references.citing(detail)
                    let links = (anchor.map { [.init("why", anchor: $0, inText: false)] } ?? []) + cited.links
                    if !links.isEmpty { (cell.links, cell.pageDetail) = (links, cited.text) }
                }
                return cell
            }
        }
        var matrixTable = ReportDocument.Table(
            headers: ["vector", "expected"] + backends.map(\.name), cells: matrix,
            legend: [.pass: "pass", .deviation: "recorded deviation", .accepts: "fail: trusted, should reject", .rejects: "fail", .error: "error", .skipped: "skipped", .unstable: "unstable", .open: "left open by the standards"],
            id: "vectors-matrix",
            filters: [.init("disagreements", "only disagreements"), .init("failing", "only fail/error"), .init("pass", "hide passing", hides: true)],
            rowTags: rows.map { row in
                let present = row.results
                return (row.disagree ? ["disagreements"] : []) + (present.contains { $0.outcome == .fail || $0.outcome == .error } ? ["failing"] : [])
                    + (!present.isEmpty && present.allSatisfy { $0.outcome == .pass } ? ["pass"] : [])
            })
        // The reasons are the "Deviations and failures" section's; what each vector tests, "Vectors".
        matrixTable.staticNotes = false
        matrixTable.searchable = true
        matrixTable.textLayout = .records
        matrixTable.rowGroups = rows.map { caseName($0.id) }
        // The vectors every back end passes are listed by id under the matrix on a page, not written
        // as rows (every verdict of theirs is in the JSON, text and Markdown reports).
        matrixTable.pageFold = .init("pass", "passed on every back end, as the standards call for")
        // A case's key-type variants every back end answers word for word alike are one row on a page.
        matrixTable.pageMergesEqualVariants = true

        var sections: [ReportDocument.Section] = [
            .init(id: "summary", title: "Summary", blocks: [
                status,
                .paragraph("Each direction counts every departure from the standards (accepted, should reject: trusted where the profile's standards call for rejection; rejected, should trust: rejected where they call for trust; other failures: rejected for a reason they do not give, another path, or a changed record); \"recorded\" says how many of them are recorded deviations. Left open: vectors the standards leave to the relying party, neither pass nor fail. Unexpected: departures not recorded, errors, and unstable verdicts (different verdicts when the request was asked again); \"unexplained\" beside it counts recorded deviations whose reason is still a draft that names no cause."),
                .table(summaryTable),
            ], inText: .atEnd),
            .init(id: "matrix", title: "Matrix", blocks: [
                .paragraph("Trusted or rejected per vector and back end; where a back end departs, the judgement, the policy's reason and the library's own diagnostics (on the page, unfold a cell; its \"why\" for the reason and impact, a vector's \"about\" for what it tests)."),
                rows.isEmpty ? .paragraph(whenEmpty) : .table(matrixTable),
            ]),
        ]
        // What each vector tests, one row per case (its key-type variants together), each rule by
        // name and linked to its quote.
        // The host and time most vectors share are said once; a row shows its own where it differs.
        func common(_ values: [String]) -> String? { Dictionary(values.map { ($0, 1) }, uniquingKeysWith: +).max { ($0.value, $1.key) < ($1.value, $0.key) }?.key }
        let commonHost = common(cases.map { $0.context.host ?? "no host check" }), commonTime = common(cases.map(\.context.time))
        let described = cases.map { item -> [Cell] in
            let variants = item.ids.map { $0.hasPrefix(item.key + "/") ? String($0.dropFirst(item.key.count + 1)) : $0 }
            let host = item.context.host ?? "no host check"
            return [Cell(item.ids.count == 1 ? item.ids[0] : item.key, code: true), Cell(item.ids.count == 1 ? "" : variants.joined(separator: ", ")),
                    Cell(item.context.description), Cell(host == commonHost ? "" : host), Cell(item.context.time == commonTime ? "" : item.context.time),
                    Cell("", links: references.links(item.context.references))]
        }
        if !described.isEmpty {
            var table = ReportDocument.Table(headers: ["vector", "variants", "what it tests", "host", "at", "references"], cells: described)
            table.rowIDs = cases.indices.map { "case-\($0 + 1)" }
            sections.append(.init(id: "vectors", title: "Vectors (\(rows.count), \(cases.count) cases)", blocks: [
                .paragraph("What each vector tests, its key-type variants on one row; each reference links to the rule's text, quoted once under References. Host \(commonHost ?? "-") and time \(commonTime ?? "-") unless a row gives its own."),
                .table(table),
            ], inText: .omitted, folded: true))
            var quoted = ReportDocument.Table(headers: ["rule", "what it says"], cells: references.all.map { rule in
                // A rule that quotes another (RFC 5280 §4.2.1.6 citing RFC 1034 §3.5) names it.
                let cited = references.citing(references.text(rule), except: references.anchor(rule))
                return [Cell(References.label(rule)), Cell(cited.text, links: cited.links.isEmpty ? nil : cited.links)]
            })
            quoted.rowIDs = references.all.map(references.anchor)
            sections.append(.init(id: "references", title: "References (\(references.all.count))", blocks: [
                .paragraph("Every reference the vectors cite, with the text of the standard it rests on, once."), .table(quoted),
            ], inText: .omitted, folded: true))
        }
        // A reason that quotes a rule names it instead and links to its quote, under References.
        func why(_ text: String) -> Cell {
            let cited = references.citing(text)
            return Cell(cited.text, links: cited.links.isEmpty ? nil : cited.links)
        }
        let explained = explainedGroups.map { group -> [Cell] in
            let result = group.result
            return [Cell(result.impact.map { "\($0.label), by \($0.rule)" } ?? (result.outcome == .error ? "" : "unclassified"), tone: result.impact.map(ImpactTable.tone)),
                    Cell(group.ids.joined(separator: ", "), code: true), Cell(result.backend), Cell(result.outcome.rawValue, tone: tone(result)),
                    Cell(result.judgement.failureKind?.rawValue ?? ""), why(result.judgement.detail)]
        }
        if let impacts = impactSection(results, backends: backends.map(\.name)) { sections.insert(impacts, at: 1) }
        if !explained.isEmpty {
            let count = explainedGroups.map(\.ids.count).reduce(0, +)
            sections.append(.init(id: "departures", title: "Deviations and failures (\(count), \(explained.count) reasons)", blocks: [
                .paragraph("Why each recorded deviation is accepted and each failure fails, the most serious impact first (docs/impact.md); the vectors one reason explains share a row."),
                .table({
                    var table = ReportDocument.Table(headers: ["impact", "vectors", "back end", "outcome", "direction", "why"], cells: explained)
                    table.rowIDs = explained.indices.map { "why-\($0 + 1)" }
                    return table
                }()),
            ], inText: .omitted, folded: true))
        }
        if let benchmarks { sections.append(benchmarkSection(benchmarks, order: backends.map(\.name))) }
        return ReportDocument(title: title, provenance: provenance,
                              summary: "\(rows.count) vectors (\(rows.count - policies) chain, \(policies) policy) on \(backends.count) back end\(backends.count == 1 ? "" : "s"): "
                                + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
                              sections: sections, checks: checks(backends: given, results: results, suite: suite))
    }

    /// The results as checks: a pass passes; a recorded deviation, a skipped or left-open vector is
    /// skipped with its reason; a failure fails with its direction; an error is an error.
    static func checks(backends: [BackendInfo], results: [ConformanceResult], suite: String) -> ReportDocument.Checks {
        typealias Check = ReportDocument.Check
        return .init(suite: suite, backends: backends) { backend in
            results.filter { $0.backend == backend }.map { result in
                let observed = observed(result)
                switch result.outcome {
                case .pass: return Check(name: result.id, status: .passed, seconds: result.seconds)
                case .deviation, .skipped, .open: return Check(name: result.id, status: .skipped, message: result.judgement.detail, seconds: result.seconds)
                case .fail:
                    return Check(name: result.id, status: .failed, type: result.judgement.failureKind?.rawValue ?? "fail", message: result.judgement.detail,
                                 body: "expected \(expectation(result.expected))\nobserved \(observed)", seconds: result.seconds)
                case .error, .limit: return Check(name: result.id, status: .error, message: result.judgement.detail, body: observed, seconds: result.seconds)
                case .unstable:
                    return Check(name: result.id, status: .failed, type: "unstable", message: result.judgement.detail,
                                 body: result.variants.map { "\($0.count) x \($0.verdict)" }.joined(separator: "\n"), seconds: result.seconds)
                }
            }
        }
    }

    /// What the standards expect, in words: `rejected [expired]`, `trusted at publicKeyPinMatched`.
    public static func expectation(_ expected: ExpectedOutcome) -> String {
        if expected.open != nil { return "left open" }
        if let step = expected.step { return "\(expected.trusted ? "trusted" : "rejected") at \(step.rawValue)" }
        return expected.trusted ? "trusted" : "rejected [\(expected.failures.map(\.rawValue).joined(separator: ", "))]"
    }

    /// What a back end answered, in words, with its native reasons.
    public static func observed(_ result: ConformanceResult) -> String {
        guard let observed = result.observed else { return "error: \(result.error ?? "not evaluated")" }
        if let step = observed.step {
            return "\(observed.trusted ? "trusted" : "rejected") at \(step.rawValue)"
                + (observed.failures.isEmpty ? "" : " [\(observed.failures.map(\.rawValue).joined(separator: ", "))]")
        }
        if observed.trusted { return "trusted (path of \(observed.pathLength ?? 0))" }
        let reasons = observed.diagnostics.map(\.description).joined(separator: "; ")
        return "rejected [\(observed.failures.map(\.rawValue).joined(separator: ", "))] \(reasons)"
    }

    /// Departures weighed: per impact class (most serious first) how many each back end has, and the
    /// accepts of the two highest severities listed; nil when nothing departs.
    static func impactSection(_ results: [ConformanceResult], backends: [String]) -> ReportDocument.Section? {
        typealias Cell = ReportDocument.Table.Cell
        let departing = ConformanceResult.byImpact(results.filter { ($0.outcome == .deviation || $0.outcome == .fail) && $0.observed != nil })
        guard !departing.isEmpty else { return nil }
        let serious = departing.filter { $0.impact.map { $0.direction == .accepts && $0.severity <= .high } ?? false }
        var blocks: [ReportDocument.Block] = [
            .paragraph(ImpactTable.explanation + " Counts include recorded deviations."),
            .table(ImpactTable.make(departing.map { ($0.backend, $0.impact) }, backends: backends)),
        ]
        if !serious.isEmpty {
            let limit = 40
            let listed = serious.prefix(limit).map { result -> [Cell] in
                [Cell(result.impact!.label, tone: ImpactTable.tone(result.impact!)), Cell(result.backend), Cell(result.id, code: true), Cell(result.impact!.rule)]
            }
            blocks.append(.paragraph("Accepted against the standards, critical and high impact (\(serious.count)\(serious.count > limit ? ", the first \(limit) listed; every one in the JSON report and `trust-harness findings`" : "")):"))
            blocks.append(.table(.init(headers: ["impact", "back end", "vector", "rule"], cells: Array(listed))))
        }
        return .init(id: "impact", title: "Impact", blocks: blocks)
    }

    /// The given back ends, then any back end the results name that was not given.
    static func columns(_ backends: [BackendInfo], _ results: [ConformanceResult]) -> [BackendInfo] {
        var columns = backends
        var seen = Set(columns.map(\.name))
        for result in results where seen.insert(result.backend).inserted {
            columns.append(BackendInfo(name: result.backend, version: "version unknown"))
        }
        return columns
    }

    /// The vectors by case: consecutive rows of one case (the part of the id before its last `/`)
    /// that test the same thing, with the same host, time and references, share an entry.
    static func cases(_ rows: [ResultRows]) -> [(key: String, ids: [String], context: VectorContext)] {
        var cases: [(key: String, ids: [String], context: VectorContext)] = []
        for row in rows {
            guard let context = row.results.first?.context else { continue }
            let key = caseName(row.id)
            if let last = cases.last, last.key == key, last.context.description == context.description, last.context.host == context.host,
               last.context.time == context.time, last.context.references == context.references {
                cases[cases.count - 1].ids.append(row.id)
            } else {
                cases.append((key, [row.id], context))
            }
        }
        return cases
    }

    /// Each vector's anchor in the Vectors section (`case-N`, its case's row).
    static func caseAnchors(_ cases: [(key: String, ids: [String], context: VectorContext)]) -> [String: String] {
        var anchors: [String: String] = [:]
        for (index, item) in cases.enumerated() { for id in item.ids { anchors[id] = "case-\(index + 1)" } }
        return anchors
    }

    /// The part of an id before its last `/`: the case the key-type variants share.
    static func caseName(_ id: String) -> String {
        guard let slash = id.lastIndex(of: "/") else { return id }
        return String(id[..<slash])
    }

    /// The back end's outcomes in proportion, pass to skipped.
    static func distribution(_ s: ConformanceSummary) -> [ReportDocument.Table.Segment] {
        let failures = s.acceptedShouldReject + s.rejectedShouldTrust + s.otherFailures - s.deviations
        return [.init(.pass, s.passed), .init(.deviation, s.deviations), .init(.rejects, failures), .init(.error, s.errors + s.limited),
                .init(.unstable, s.unstable), .init(.open, s.leftOpen), .init(.skipped, s.skipped)]
    }

    /// How an outcome stands; a failure is toned by its direction.
    static func tone(_ result: ConformanceResult) -> ReportDocument.Tone {
        switch result.outcome {
        case .pass: return .pass
        case .deviation: return .deviation
        case .fail: return result.observed?.trusted == true ? .accepts : .rejects
        case .error, .limit: return .error
        case .skipped: return .skipped
        case .unstable: return .unstable
        case .open: return .open
        }
    }

    /// The verdict in a cell with the library's names for its reasons, without their messages (they
    /// are in its detail).
    static func verdict(_ result: ConformanceResult) -> String {
        guard let observed = result.observed else { return result.outcome == .skipped ? "skipped" : "error" }
        let mark = observed.trusted ? "✓ " : "✗ "
        if let step = observed.step { return mark + (observed.trusted ? "trusted" : "rejected") + " at " + step.rawValue }
        if observed.trusted { return mark + "trusted" }
        // The library's own names for it (its messages are in the detail).
        let names = observed.diagnostics.map(\.name)
        return mark + "rejected: " + (observed.failures.isEmpty ? "no reason" : observed.failures.map(\.rawValue).joined(separator: ", "))
            + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
    }

    /// Results one reason explains: the same back end, outcome, direction, impact (and the rule it
    /// rests on) and words.
    static func reasonKey(_ result: ConformanceResult) -> String {
        [result.backend, result.outcome.rawValue, result.judgement.failureKind?.rawValue ?? "", result.impact?.label ?? "", result.impact?.rule ?? "",
         result.judgement.detail].joined(separator: "\u{1F}")
    }

    /// What a reader needs beside the verdict: why this outcome, its impact, the policy's reason,
    /// the library's own diagnostics, the failures and the path. On a `page` the cell's "why" links
    /// to the reason and its impact, written once, and its verdict names the failures (but for a
    /// policy's step): none is repeated.
    static func details(_ result: ConformanceResult, page: Bool = false) -> String {
        var lines = page ? [] : [result.judgement.detail]
        if let impact = result.impact, !page { lines.append("impact: \(impact.label), by \(impact.rule)") }
        if let error = result.error { lines.append("error: \(error)") }
        if let observed = result.observed {
            if let reason = observed.reason { lines.append("policy: \(reason)") }
            for diagnostic in observed.diagnostics {
                lines.append("\(diagnostic.name) (\(diagnostic.code))\(diagnostic.depth.map { " depth \($0)" } ?? "") → \(diagnostic.failure.rawValue): \(diagnostic.message)\(diagnostic.origin.tag(layer: diagnostic.layer))")
            }
            var facts: [String] = []
            if !observed.failures.isEmpty, !(page && observed.step == nil) { facts.append("failures: \(observed.failures.map(\.rawValue).joined(separator: ", "))") }
            if let length = observed.pathLength { facts.append("path of \(length)") }
            if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// A short label for a result that is neither a pass nor already named by its verdict text, so
    /// that colour is not the only signal.
    static func tag(_ result: ConformanceResult) -> String? {
        switch result.outcome {
        case .pass, .error: return nil
        case .limit: return "limit"
        case .deviation: return result.judgement.failureKind == .acceptedShouldReject ? "accepts!" : "deviation"
        case .skipped: return result.observed == nil ? nil : "skipped"
        case .open: return "left open"
        case .unstable: return "unstable"
        case .fail:
            switch result.judgement.failureKind {
            case .acceptedShouldReject: return "should reject"
            case .rejectedShouldTrust: return "should trust"
            case .wrongReason: return "wrong reason"
            case .wrongPath: return "wrong path"
            case .deviationChanged: return "deviation changed"
            case nil: return "fail"
            }
        }
    }

    /// Microseconds per evaluation as bars, one group per back end and mode (cold before warm), one
    /// bar per scenario on one scale, and the figures as a table.
    static func benchmarkSection(_ report: BenchmarkReport, order: [String]) -> ReportDocument.Section {
        let entries = report.results
        guard !entries.isEmpty else {
            return .init(id: "benchmarks", title: "Benchmarks", blocks: [.paragraph("The benchmark file has no results.")])
        }
        let backends = ordered(entries.map(\.backend), first: order)
        let modes = ordered(entries.map(\.mode), first: ["cold", "warm"])
        let sorted = backends.flatMap { backend in modes.flatMap { mode in entries.filter { $0.backend == backend && $0.mode == mode } } }
        let bars = sorted.map { entry in
            ReportDocument.BarChart.Bar(label: entry.scenario, value: entry.microsecondsPerEvaluation,
                                        note: "· \(DocumentWriter.grouped(entry.evaluationsPerSecond))/s", group: "\(entry.backend) · \(entry.mode)")
        }
        let figures = sorted.map { entry -> [ReportDocument.Table.Cell] in
            [.init(entry.backend), .init(entry.mode), .init(entry.scenario), .init(DocumentWriter.number(entry.microsecondsPerEvaluation)), .init(DocumentWriter.grouped(entry.evaluationsPerSecond))]
        }
        return .init(id: "benchmarks", title: "Benchmarks", blocks: [
            .paragraph("Microseconds per evaluation (shorter is faster); cold: DER seen for the first time, warm: the same chain again."),
            .bars(.init(title: "µs per evaluation by back end, mode and scenario", unit: "µs", bars: bars)),
            .table(.init(headers: ["back end", "mode", "scenario", "µs per evaluation", "evaluations/s"], cells: figures, numeric: [3, 4])),
        ])
    }

    /// The distinct values in order of appearance, those named in `first` leading in that order.
    static func ordered(_ values: [String], first: [String]) -> [String] {
        let present = Set(values)
        var seen = Set<String>()
        return (first.filter(present.contains) + values).filter { seen.insert($0).inserted }
    }
}
