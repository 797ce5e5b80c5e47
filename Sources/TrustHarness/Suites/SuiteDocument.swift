/// A suite run (x509-limbo, PKITS, BetterTLS) as a document of the one model: the back ends, the
/// comparison with the record, the summary per back end and namespace or feature, and one row per
/// case with each back end's result, toned by how it compares with the suite, its reason one click
/// away. On a page a filter shows all cases, the disagreeing ones or one outcome (`#only=...`
/// presets it); text and Markdown show the cases where a back end departs from the suite.
public enum SuiteDocument {
    /// - Parameter kind: the suite's short name (`x509-limbo`, `PKITS`, ...), the checks' name in JUnit.
    public static func make(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, title: String, provenance: Provenance?, record: SuiteRecord?,
                            kind: String = "x509-limbo", notes: [String] = []) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        var sections: [ReportDocument.Section] = []
        var summary: [[Cell]] = []
        for backend in SuiteSummary(results, record: record).backends {
            let known = record?.backends[backend.backend] != nil
            func count(_ value: Int, _ recorded: Int) -> String { known && value > 0 ? "\(value) (\(recorded) recorded)" : "\(value)" }
            for row in backend.namespaces + [backend.all] {
                summary.append([Cell(backend.backend), Cell(row.namespace), Cell("\(row.total)"), Cell("\(row.passed)"),
                                Cell(count(row.acceptedExpectedFailure, row.acceptedRecorded), tone: row.acceptedExpectedFailure > row.acceptedRecorded ? .accepts : nil),
                                Cell(count(row.rejectedExpectedSuccess, row.rejectedRecorded)), Cell("\(row.warnings)"), Cell("\(row.skipped)"),
                                Cell("\(row.unexpected)", tone: row.unexpected > 0 ? .rejects : nil)])
            }
        }
        sections.append(.init(id: "summary", title: "Summary", blocks: [
            .table(.init(headers: ["back end", "namespace or feature", "cases", "passed", "accepted, suite expects FAILURE", "rejected, suite expects SUCCESS", "warnings", "skipped", "unexpected"],
                         cells: summary, numeric: [2, 3, 4, 5, 6, 7, 8])),
            .paragraph("Accepted although the suite expects FAILURE is the security-relevant column; \"recorded\" says how many of a count the committed record holds. Warnings: another answer where the suite says that is only a warning (BetterTLS's soft results). Unexpected: results that differ from the record, or departures of a back end no record covers."),
        ], inText: .atEnd))
        let departing = results.filter { $0.outcome == .acceptedExpectedFailure || $0.outcome == .rejectedExpectedSuccess }
        if !departing.isEmpty {
            sections.append(.init(id: "impact", title: "Impact", blocks: [
                .paragraph(ImpactTable.explanation),
                .table(ImpactTable.make(departing.sorted { ($0.impact?.order ?? (Int.max, "")) < ($1.impact?.order ?? (Int.max, "")) }.map { ($0.backend, $0.impact) }, backends: backends.map(\.name))),
            ]))
        }
        if let recordChanges {
            sections.append(.init(id: "record", title: "The record", blocks: (recordChanges.isEmpty
                ? [.callout(.pass, "Every result equals the committed record.")]
                : [.callout(.rejects, "\(recordChanges.count) result(s) differ from the committed record (update it deliberately with --record):"),
                   .details([.init(id: "changes", title: "changed results", items: recordChanges.map(\.description))])]) + notes.map(ReportDocument.Block.paragraph), inText: .atEnd))
        } else if !notes.isEmpty {
            sections.append(.init(id: "record", title: "The record", blocks: notes.map(ReportDocument.Block.paragraph), inText: .atEnd))
        }
        let names = backends.map(\.name)
        let (order, byCase) = SuiteResult.byCase(results)
        var rows: [[Cell]] = [], tags: [[String]] = []
        for id in order {
            let row = byCase[id]!
            let answered = Set(row.values.map(\.actual).filter { $0 != .skipped })
            let departs = row.values.contains { $0.outcome == .acceptedExpectedFailure || $0.outcome == .rejectedExpectedSuccess }
            let warns = row.values.contains { $0.outcome == .warning }
            tags.append(Set(row.values.map(\.outcome.rawValue)).sorted() + (answered.count > 1 ? ["disagreements"] : []) + (departs ? ["departures"] : [])
                        + (departs || warns ? ["departures-or-warnings"] : []))
            rows.append([Cell(id, detail: row.values.compactMap(\.caseDescription).first, code: true), Cell(row.values.first?.expected ?? "")] + names.map { name in
                guard let result = row[name] else { return Cell("not run", tone: .skipped) }
                let recorded = result.outcome != .passed && result.outcome != .skipped && record?.backends[name]?.results[id] == result.actual.rawValue
                switch result.outcome {
                case .passed: return Cell(result.actual.rawValue, tone: .pass, detail: result.context)
                case .skipped: return Cell("SKIPPED", tone: .skipped, detail: result.context)
                case .error: return Cell("ERROR", tone: .error, detail: result.context)
                case .warning: return Cell("\(result.actual.rawValue) (warning)", tone: .open, detail: result.context)
                case .acceptedExpectedFailure:
                    let what = "Trusted, although the suite expects FAILURE" + (recorded ? " (recorded; security relevant)." : ".") + (result.impact.map { " Impact: \($0.label)." } ?? "")
                    return Cell(result.actual.rawValue + (recorded ? " (accepts!)" : ""), tone: recorded ? .deviation : .accepts, detail: what + (result.context.map { " \($0)" } ?? ""))
                case .rejectedExpectedSuccess:
                    return Cell(result.actual.rawValue, tone: recorded ? .deviation : .rejects, detail: (recorded ? "Rejected, although the suite expects SUCCESS (recorded). " : "") + (result.impact.map { "Impact: \($0.label). " } ?? "") + (result.context ?? ""))
                }
            })
        }
        let filters: [ReportDocument.Table.Filter] = [
            .init("disagreements", "back ends disagree"), .init("departures", "a back end departs from the suite"),
            .init(SuiteResult.Outcome.acceptedExpectedFailure.rawValue, "accepted, suite expects FAILURE"),
            .init(SuiteResult.Outcome.rejectedExpectedSuccess.rawValue, "rejected, suite expects SUCCESS"),
            .init(SuiteResult.Outcome.warning.rawValue, "warnings"), .init(SuiteResult.Outcome.skipped.rawValue, "skipped"),
        ]
        var cases = ReportDocument.Table(
            headers: ["case", "expected"] + names, cells: rows,
            legend: [.pass: "as the suite expects", .accepts: "accepted, suite expects FAILURE (security relevant)", .rejects: "rejected, suite expects SUCCESS",
                     .deviation: "either, as the committed record holds it", .open: "a warning", .skipped: "skipped"],
            id: "case-table", filters: filters, rowTags: tags,
            // Text and Markdown list the cases where a back end departs or warns (BetterTLS's soft results).
            staticFilter: .init("departures-or-warnings", "a back end departs from the suite or warns")
        )
        cases.textLayout = .records
        cases.textLimit = 40
        cases.searchable = true
        sections.append(.init(id: "cases", title: "Cases", blocks: [.table(cases)]))
        // Why cases were not asked, counted by reason (the part of it before its explanation).
        let skipped = backends.flatMap { backend in
            Dictionary(grouping: results.filter { $0.backend == backend.name && $0.outcome == .skipped }, by: { skipClass($0.context ?? "") })
                .sorted { $0.value.count > $1.value.count || ($0.value.count == $1.value.count && $0.key < $1.key) }
                .map { reason, cases in [Cell(backend.name), Cell(reason), Cell("\(cases.count)"), Cell(cases[0].id, code: true)] }
        }
        if !skipped.isEmpty {
            sections.append(.init(id: "skipped", title: "Skipped", blocks: [
                .paragraph("Cases a back end cannot honour (a feature it lacks, or one the harness does not ask of it), by reason."),
                .table(.init(headers: ["back end", "reason", "cases", "for example"], cells: skipped, numeric: [2])),
            ]))
        }
        return ReportDocument(title: title, provenance: provenance,
                              summary: "Suite \(suite); back ends " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + "."
                                  + (recordChanges == nil ? " Not compared with a record (none for this suite)." : ""),
                              sections: sections, checks: checks(kind: kind, backends: backends, results: results, record: record))
    }

    /// The part of a skip reason before its explanation, to count alike reasons together.
    static func skipClass(_ reason: String) -> String {
        String(reason.prefix { $0 != ":" && $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }
}
