/// The conformance matrix as a Markdown document (for pull requests and wikis): the per-back-end
/// summary, then one table row per vector with each back end's verdict and outcome.
public enum MarkdownReport {
    public static func render(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil, title: String = "TrustHarness conformance") -> String {
        var out = "# \(title)\n\n"
        out += MarkdownReport.provenanceLine(provenance)
        out += "| back end | library | vectors | passed | accepted, should reject | rejected, should trust | other failures | errors | skipped | unstable | unexpected |\n"
        out += "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        for (backend, s) in zip(backends, summaries) {
            let directions = s.directionCells.joined(separator: " | ")
            out += "| \(cell(backend.name)) | \(cell(backend.version)) | \(s.total) | \(s.passed) | \(directions) | \(s.errors) | \(s.skipped) | \(s.unstable) | \(s.unexpected) |\n"
        }
        out += "\nEach direction counts every departure from the standards; \"recorded\" says how many of them are recorded deviations. Unexpected: the rest, errors, and unstable verdicts (🔀: different verdicts when the request was asked again).\n"
        out += "\n| vector | expected | " + backends.map { cell($0.name) }.joined(separator: " | ") + " |\n"
        out += "|---|---|" + backends.map { _ in "---|" }.joined() + "\n"
        for row in ResultRows.group(results) {
            let cells = backends.map { backend -> String in
                guard let result = row.results.first(where: { $0.backend == backend.name }) else { return "" }
                return "\(icon(result.outcome)) \(cell(shortObserved(result)))"
            }
            out += "| `\(row.id)` | \(cell(TextReport.expectation(row.expected))) | " + cells.joined(separator: " | ") + " |\n"
        }
        out += "\n✅ pass · 🟨 recorded deviation · ❌ fail · ⛔ error · ⏭ skipped\n"
        // What each vector tests, against which host and when, and the rules it rests on.
        let rows = ResultRows.group(results)
        if rows.contains(where: { $0.results.first?.context != nil }) {
            out += "\n## Vectors\n\n"
            for row in rows {
                guard let context = row.results.first?.context else { continue }
                let host = context.host.map { "host `\($0)`" } ?? "no host check"
                let references = context.references.isEmpty ? "" : "; \(cell(context.references.joined(separator: ", ")))"
                out += "- `\(row.id)`: \(cell(context.description)) (\(host), at \(context.time)\(references))\n"
            }
        }
        // Why each recorded deviation is accepted, and each failure fails: a table cell has no room.
        let explained = results.filter { $0.outcome == .deviation || $0.outcome == .fail || $0.outcome == .error }
        if !explained.isEmpty {
            out += "\n## Deviations and failures\n\n"
            for result in explained {
                let direction = result.judgement.failureKind.map { " (\($0.rawValue))" } ?? ""
                out += "- \(icon(result.outcome)) `\(result.id)` on \(cell(result.backend))\(direction): \(cell(result.judgement.detail))\n"
            }
        }
        return out
    }

    static func icon(_ outcome: Outcome) -> String {
        switch outcome {
        case .pass: return "✅"
        case .deviation: return "🟨"
        case .fail: return "❌"
        case .error: return "⛔"
        case .skipped: return "⏭"
        case .unstable: return "🔀"
        case .open: return "⚪"
        }
    }

    /// The verdict without native messages, which would make the table unreadable.
    static func shortObserved(_ result: ConformanceResult) -> String {
        guard let observed = result.observed else { return "error" }
        if let step = observed.step { return "\(observed.trusted ? "trusted" : "rejected") at \(step.rawValue)" }
        if observed.trusted { return "trusted" }
        let names = observed.diagnostics.map(\.name).joined(separator: ", ")
        return "rejected [\(observed.failures.map(\.rawValue).joined(separator: ", "))] \(names)"
    }

    /// The line every Markdown report opens with: tool, time and command (nothing when nil).
    static func provenanceLine(_ provenance: Provenance?) -> String {
        guard let provenance else { return "" }
        let command = provenance.command.map(Provenance.quoted).joined(separator: " ")
        // A command holding backticks needs a longer fence (CommonMark code spans).
        let fence = command.contains("`") ? "`` " : "`"
        return "Made by \(cell(provenance.tool)) at \(provenance.generatedAt): \(fence)\(command.replacingOccurrences(of: "\n", with: " "))\(String(fence.reversed()))"+(provenance.profile.map { ". Judged against profile `\($0.rawValue)`: \($0.summary)" } ?? "") + "\n\n"
    }

    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
