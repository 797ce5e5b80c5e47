/// A suite run (x509-limbo, PKITS, BetterTLS) as a document of the one model: the back ends, the
/// comparison with the record, the summary per back end and namespace or feature, and one row per
/// case with each back end's result, toned by how it compares with the suite, its reason one click
/// away. On a page a filter shows all cases, the disagreeing ones or one outcome (`#only=...`
/// presets it); text and Markdown show the cases where a back end departs from the suite.
public enum SuiteDocument {
    /// - Parameter kind: the suite's short name (`x509-limbo`, `PKITS`, ...), the checks' name in JUnit.
    public static func make(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, title: String, provenance: Provenance?, record: SuiteRecord?,
                            kind: String = "x509-limbo") -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        var sections: [ReportDocument.Section] = []
        if let recordChanges {
            sections.append(.init(id: "record", title: "The record", blocks: recordChanges.isEmpty
                ? [.paragraph("Every result equals the committed record.")]
                : [.paragraph("\(recordChanges.count) result(s) differ from the committed record:"),
                   .details([.init(id: "changes", title: "changed results", items: recordChanges.map(\.description))])]))
        }
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
        ]))
        let names = backends.map(\.name)
        let (order, byCase) = SuiteResult.byCase(results)
        var rows: [[Cell]] = [], tags: [[String]] = []
        for id in order {
            let row = byCase[id]!
            let answered = Set(row.values.map(\.actual).filter { $0 != .skipped })
            let departs = row.values.contains { $0.outcome == .acceptedExpectedFailure || $0.outcome == .rejectedExpectedSuccess }
            tags.append(Set(row.values.map(\.outcome.rawValue)).sorted() + (answered.count > 1 ? ["disagreements"] : []) + (departs ? ["departures"] : []))
            rows.append([Cell(id, detail: row.values.compactMap(\.caseDescription).first, code: true), Cell(row.values.first?.expected ?? "")] + names.map { name in
                guard let result = row[name] else { return Cell("not run", tone: .open) }
                let recorded = result.outcome != .passed && result.outcome != .skipped && record?.backends[name]?.results[id] == result.actual.rawValue
                switch result.outcome {
                case .passed: return Cell(result.actual.rawValue, tone: .pass, detail: result.context)
                case .skipped: return Cell("SKIPPED", tone: .open, detail: result.context)
                case .warning: return Cell("\(result.actual.rawValue) (warning)", tone: .open, detail: result.context)
                case .acceptedExpectedFailure:
                    let what = "Trusted, although the suite expects FAILURE" + (recorded ? " (recorded; security relevant)." : ".")
                    return Cell(result.actual.rawValue + (recorded ? " (accepts!)" : ""), tone: recorded ? .deviation : .accepts, detail: what + (result.caseDescription.map { " The case: \($0)" } ?? ""))
                case .rejectedExpectedSuccess:
                    return Cell(result.actual.rawValue, tone: recorded ? .deviation : .rejects, detail: (recorded ? "Rejected, although the suite expects SUCCESS (recorded). " : "") + (result.context ?? ""))
                }
            })
        }
        let filters: [ReportDocument.Table.Filter] = [
            .init("disagreements", "back ends disagree"), .init("departures", "a back end departs from the suite"),
            .init(SuiteResult.Outcome.acceptedExpectedFailure.rawValue, "accepted, suite expects FAILURE"),
            .init(SuiteResult.Outcome.rejectedExpectedSuccess.rawValue, "rejected, suite expects SUCCESS"),
            .init(SuiteResult.Outcome.warning.rawValue, "warnings"), .init(SuiteResult.Outcome.skipped.rawValue, "skipped"),
        ]
        sections.append(.init(id: "cases", title: "Cases", blocks: [.table(.init(
            headers: ["case", "expected"] + names, cells: rows,
            legend: [.pass: "as the suite expects", .accepts: "accepted, suite expects FAILURE (security relevant)", .rejects: "rejected, suite expects SUCCESS",
                     .deviation: "either, as the committed record holds it", .open: "skipped, or a warning"],
            id: "case-table", filters: filters, rowTags: tags, staticFilter: filters[1]
        ))]))
        return ReportDocument(title: title, provenance: provenance,
                              summary: "Suite \(suite); back ends " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + "."
                                  + (recordChanges == nil ? " Not compared with a record (none for this suite)." : ""),
                              sections: sections, checks: checks(kind: kind, backends: backends, results: results, record: record))
    }
}
