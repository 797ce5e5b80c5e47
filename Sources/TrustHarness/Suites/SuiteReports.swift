/// A limbo run as JUnit, framed as the conformance matrix frames it: a result equal to the committed
/// record is a pass when it is what the suite expects and `<skipped>` (a recorded departure, with its
/// direction) when it is not; a result that differs from the record is a `<failure>` (the run's exit
/// status is 1 for it). A back end the record does not cover is judged against the suite alone.
/// A case the back end cannot honour is `<skipped>` with the reason.
public enum SuiteJUnitReport {
    public static func render(suite: String = "x509-limbo", backends: [BackendInfo], results: [SuiteResult], record: SuiteRecord?, provenance: Provenance?) -> String {
        JUnitReport.render(suite: suite, backends: backends, provenance: provenance) { backend in
            let recorded = record?.backends[backend]
            return results.filter { $0.backend == backend }.map { result in
                let seconds = result.milliseconds / 1000
                let why = result.context.map { ": \($0)" } ?? ""
                if result.outcome == .skipped {
                    return JUnitReport.Case(name: result.id, status: .skipped, message: "skipped\(why)")
                }
                if let recorded, let before = recorded.results[result.id], before != result.actual.rawValue || result.outcome != .passed {
                    if before != result.actual.rawValue {
                        return JUnitReport.Case(name: result.id, status: .failed, type: "changed-from-record",
                                                message: "recorded \(before), observed \(result.actual.rawValue); the suite expects \(result.expected)",
                                                body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
                    }
                    return JUnitReport.Case(name: result.id, status: .skipped, message: "recorded departure (\(result.outcome.rawValue)): \(result.actual.rawValue) although the suite expects \(result.expected)\(why)", seconds: seconds)
                }
                if result.outcome == .passed {
                    return JUnitReport.Case(name: result.id, status: .passed, seconds: seconds)
                }
                return JUnitReport.Case(name: result.id, status: .failed, type: result.outcome.rawValue,
                                        message: "\(result.actual.rawValue) although the suite expects \(result.expected)\(recorded == nil ? " (no record to compare with)" : " (not in the record)")",
                                        body: "observed \(result.actual.rawValue)\(why)", seconds: seconds)
            }
        }
    }
}

/// A limbo run as Markdown (for pull requests and wikis): the provenance, the summary with back ends
/// side by side per id namespace, the differences from the record, and every case on which some back
/// end departs from the suite, with each back end's result and reason.
public enum SuiteMarkdownReport {
    public static func render(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, provenance: Provenance?, title: String = "TrustHarness: x509-limbo", record: SuiteRecord? = nil) -> String {
        let cell = MarkdownReport.cell
        var out = "# \(title)\n\n"
        out += MarkdownReport.provenanceLine(provenance)
        out += "Suite `\(cell(suite))`; back ends " + backends.map { "\(cell($0.name)) (\(cell($0.version)))" }.joined(separator: ", ") + ".\n\n"
        if let recordChanges {
            out += recordChanges.isEmpty ? "Every result equals the committed record.\n\n"
                : "**\(recordChanges.count) result(s) differ from the committed record:**\n\n" + recordChanges.map { "- `\(cell($0.description))`\n" }.joined() + "\n"
        } else {
            out += "Not compared with a record (none for this suite).\n\n"
        }
        out += "| back end | namespace | cases | passed | accepted, suite expects FAILURE | rejected, suite expects SUCCESS | skipped | unexpected |\n"
        out += "|---|---|---:|---:|---:|---:|---:|---:|\n"
        for backend in SuiteSummary(results, record: record).backends {
            let known = record?.backends[backend.backend] != nil
            func count(_ value: Int, _ recorded: Int) -> String { known && value > 0 ? "\(value) (\(recorded) recorded)" : "\(value)" }
            for row in backend.namespaces + [backend.all] {
                let name = row.namespace == "all" ? "**all**" : row.namespace
                out += "| \(cell(backend.backend)) | \(name) | \(row.total) | \(row.passed) | \(count(row.acceptedExpectedFailure, row.acceptedRecorded)) | \(count(row.rejectedExpectedSuccess, row.rejectedRecorded)) | \(row.skipped) | \(row.unexpected) |\n"
            }
        }
        out += "\nAccepted although the suite expects FAILURE is the security-relevant column; \"recorded\" says how many of a count the committed record holds (known departures, as recorded deviations are in the conformance matrix). Unexpected: results that differ from the record, or departures of a back end no record covers.\n"
        let (order, byCase) = SuiteResult.byCase(results)
        let departing = order.filter { id in byCase[id]!.values.contains { $0.outcome == .acceptedExpectedFailure || $0.outcome == .rejectedExpectedSuccess } }
        guard !departing.isEmpty else { return out + "\nEvery evaluated case is as the suite expects.\n" }
        out += "\n## Cases where a back end departs from the suite (\(departing.count))\n\n"
        out += "| case | expected | " + backends.map { cell($0.name) }.joined(separator: " | ") + " |\n"
        out += "|---|---|" + backends.map { _ in "---|" }.joined() + "\n"
        for id in departing {
            let row = byCase[id]!
            let cells = backends.map { backend -> String in
                guard let result = row[backend.name] else { return "not run" }
                return "\(icon(result.outcome)) \(result.actual.rawValue)"
            }
            out += "| `\(cell(id))` | \(row.values.first?.expected ?? "") | " + cells.joined(separator: " | ") + " |\n"
        }
        out += "\n✅ as the suite expects · 🟥 accepted, suite expects FAILURE · 🟧 rejected, suite expects SUCCESS · ⏭ skipped\n\n"
        for id in departing {
            let row = byCase[id]!
            let about = row.values.compactMap(\.caseDescription).first.map { ": \(cell($0))" } ?? ""
            out += "- `\(cell(id))`\(about)\n"
            for backend in backends {
                guard let result = row[backend.name], result.outcome != .passed, let context = result.context else { continue }
                out += "  - \(cell(backend.name)): \(cell(SuiteTextReport.shorten(context, to: 300)))\n"
            }
        }
        return out
    }

    static func icon(_ outcome: SuiteResult.Outcome) -> String {
        switch outcome {
        case .passed: return "✅"
        case .acceptedExpectedFailure: return "🟥"
        case .rejectedExpectedSuccess: return "🟧"
        case .skipped: return "⏭"
        case .warning: return "⚠️"
        }
    }
}
