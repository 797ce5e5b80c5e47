import TrustCore
import TrustVectors

/// The conformance matrix for a terminal: per vector, what the standards expect and each back end's
/// verdict with its native reason and outcome; then a summary per back end.
public enum TextReport {
    public static func render(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil) -> String {
        var out = "TrustHarness conformance matrix\n"
        if let provenance { out += "  by \(provenance.line)\n" }
        for backend in backends {
            out += "  \(backend.name): \(backend.version)\n"
        }
        out += "\n"
        let nameWidth = backends.map(\.name.count).max() ?? 6
        var index = 0
        while index < results.count {
            let first = results[index]
            out += "\(first.id)  expected \(expectation(first.expected))\n"
            while index < results.count && results[index].id == first.id {
                let result = results[index]
                let label = result.outcome.rawValue.uppercased()
                out += "  \(pad(result.backend, nameWidth))  \(pad(label, 9))  \(observed(result))\n"
                if result.outcome != .pass {
                    out += "  \(pad("", nameWidth))  \(pad("", 9))  -> \(result.outcome == .unstable ? result.judgement.detail : firstSentence(result.judgement.detail))\n"
                    if let reason = result.observed?.reason {
                        out += "  \(pad("", nameWidth))  \(pad("", 9))  policy: \(reason)\n"
                    }
                }
                index += 1
            }
        }
        out += "\n" + summary(ConformanceSummary.of(results, backends: backends.map(\.name)))
        return out
    }

    public static func summary(_ summaries: [ConformanceSummary]) -> String {
        let columns = ["back end", "vectors", "passed", "accepted-should-reject", "rejected-should-trust", "other-fail", "left-open", "errors", "skipped", "unstable", "unexpected"]
        let rows = summaries.map { s in
            [s.backend, "\(s.total)", "\(s.passed)"] + s.directionCells + ["\(s.leftOpen)", "\(s.errors)", "\(s.skipped)", "\(s.unstable)", "\(s.unexpected)"]
        }
        let widths = columns.indices.map { c in ([columns[c]] + rows.map { $0[c] }).map(\.count).max()! }
        func line(_ cells: [String]) -> String {
            cells.indices.map { c in c == 0 ? pad(cells[c], widths[c]) : leftPad(cells[c], widths[c]) }.joined(separator: "  ") + "\n"
        }
        return "Summary (accepted-should-reject: trusted where the profile's standards call for rejection; rejected-should-trust: rejected where they call for trust; other-fail: rejected for a reason they do not give, another path, or a changed record; each counts recorded deviations too, \"recorded\" says how many; left-open: vectors the standards leave to the relying party, neither pass nor fail; unexpected: departures not recorded, errors and unstable verdicts)\n" + line(columns) + rows.map(line).joined()
    }

    public static func expectation(_ expected: ExpectedOutcome) -> String {
        if expected.open != nil { return "left open" }
        if let step = expected.step { return "\(expected.trusted ? "trusted" : "rejected") at \(step.rawValue)" }
        return expected.trusted ? "trusted" : "rejected [\(expected.failures.map(\.rawValue).joined(separator: ", "))]"
    }

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

    /// The matrix shows a deviation's reason up to its first sentence; JSON and deviations.json keep it whole.
    static func firstSentence(_ text: String) -> String {
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
