/// The terminal report of a limbo run: per back end, a table by id namespace (passed; accepted
/// although the suite expects failure; rejected although it expects success; skipped), then the
/// cases in the two disagreeing columns with the back end's reason, and the skip reasons counted.
public enum SuiteTextReport {
    public static func render(title: String = "x509-limbo", suite: String, backends: [BackendInfo], results: [SuiteResult], casesShown: Int = 12, provenance: Provenance? = nil, record: SuiteRecord? = nil) -> String {
        var out = "\(title): \(suite)\n"
        if let provenance { out += "  by \(provenance.line)\n" }
        let summary = SuiteSummary(results, record: record)
        for backend in summary.backends {
            let version = backends.first { $0.name == backend.backend }?.version ?? ""
            out += "\n\(backend.backend) (\(version))\n"
            out += table(backend.namespaces + [backend.all], recorded: record?.backends[backend.backend] != nil)
            let mine = results.filter { $0.backend == backend.backend }
            for (outcome, title) in [(SuiteResult.Outcome.acceptedExpectedFailure, "accepted although the suite expects FAILURE"),
                                     (.rejectedExpectedSuccess, "rejected although the suite expects SUCCESS"),
                                     (.warning, "warnings: other than the suite expects where it says that is only a warning")] {
                let cases = mine.filter { $0.outcome == outcome }
                guard !cases.isEmpty else { continue }
                out += "  \(title) (\(cases.count)):\n"
                for result in cases.prefix(casesShown) {
                    out += "    \(result.id)" + (result.context.map { ": \(shorten($0))" } ?? "") + "\n"
                }
                if cases.count > casesShown { out += "    ... and \(cases.count - casesShown) more (--format json lists all)\n" }
            }
            let reasons = Dictionary(grouping: mine.filter { $0.outcome == .skipped }, by: { skipClass($0.context ?? "") })
            if !reasons.isEmpty {
                out += "  skipped:\n"
                for (reason, cases) in reasons.sorted(by: { $0.value.count > $1.value.count || ($0.value.count == $1.value.count && $0.key < $1.key) }) {
                    out += "    \(cases.count) \(reason) (e.g. \(cases[0].id))\n"
                }
            }
        }
        return out
    }

    /// The summary table; with `recorded`, each departure count says how many of them the record
    /// holds, as the run summary says how many are recorded deviations.
    static func table(_ rows: [SuiteSummary.Row], recorded: Bool = false) -> String {
        // The warnings column only for a suite that has soft results (BetterTLS).
        let warnings = rows.contains { $0.warnings > 0 }
        let headers = ["namespace or feature", "cases", "passed", "accepted, expected FAILURE", "rejected, expected SUCCESS"] + (warnings ? ["warnings"] : []) + ["skipped", "unexpected"]
        func count(_ value: Int, _ known: Int) -> String { recorded && value > 0 ? "\(value) (\(known) recorded)" : "\(value)" }
        let cells = rows.map { [$0.namespace, "\($0.total)", "\($0.passed)", count($0.acceptedExpectedFailure, $0.acceptedRecorded), count($0.rejectedExpectedSuccess, $0.rejectedRecorded)] + (warnings ? ["\($0.warnings)"] : []) + ["\($0.skipped)", "\($0.unexpected)"] }
        return TextTable.render(headers: headers, rows: cells, numeric: Set(1..<headers.count))
    }

    /// The part of a skip reason before its explanation, to count alike reasons together.
    static func skipClass(_ reason: String) -> String {
        String(reason.prefix { $0 != ":" && $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }

    static func shorten(_ text: String, to limit: Int = 160) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}
