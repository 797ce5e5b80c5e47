import TrustCore
import TrustVectors

/// A conformance run as a document of the one model: the summary per back end, one row per vector
/// with each back end's verdict toned by its outcome (the judgement one click away), what each vector
/// tests, and why each recorded deviation is accepted and each failure fails.
public enum ConformanceDocument {
    public static func make(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance?, title: String = "TrustHarness conformance") -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let summaries = ConformanceSummary.of(results, backends: backends.map(\.name))
        let summary = zip(backends, summaries).map { backend, s in
            [Cell(backend.name), Cell(backend.version), Cell("\(s.total)"), Cell("\(s.passed)")] + s.directionCells.map { Cell($0) }
                + [Cell("\(s.errors)"), Cell("\(s.skipped)"), Cell("\(s.unstable)"), Cell("\(s.unexpected)", tone: s.unexpected > 0 ? .rejects : nil)]
        }
        let rows = ResultRows.group(results)
        let matrix = rows.map { row -> [Cell] in
            [Cell(row.id, code: true), Cell(TextReport.expectation(row.expected))] + backends.map { backend in
                guard let result = row.results.first(where: { $0.backend == backend.name }) else { return Cell("") }
                return Cell(shortObserved(result), tone: tone(result), detail: result.judgement.detail)
            }
        }
        var matrixTable = ReportDocument.Table(
            headers: ["vector", "expected"] + backends.map(\.name), cells: matrix,
            legend: [.pass: "pass", .deviation: "recorded deviation", .accepts: "fail: trusted, should reject", .rejects: "fail", .error: "error", .skipped: "skipped", .unstable: "unstable", .open: "left open by the standards"]
        )
        // The reasons are the "Deviations and failures" section's.
        matrixTable.staticNotes = false
        var sections: [ReportDocument.Section] = [
            .init(id: "summary", title: "Summary", blocks: [
                .table(.init(headers: ["back end", "library", "vectors", "passed", "accepted, should reject", "rejected, should trust", "other failures", "errors", "skipped", "unstable", "unexpected"],
                             cells: summary, numeric: Set(2...10))),
                .paragraph("Each direction counts every departure from the standards; \"recorded\" says how many of them are recorded deviations. Unexpected: the rest, errors, and unstable verdicts (different verdicts when the request was asked again)."),
            ]),
            .init(id: "matrix", title: "Matrix", blocks: [.table(matrixTable)]),
        ]
        let described = rows.compactMap { row -> [Cell]? in
            guard let context = row.results.first?.context else { return nil }
            return [Cell(row.id, code: true), Cell(context.description), Cell(context.host ?? "no host check"), Cell(context.time), Cell(context.references.joined(separator: ", "))]
        }
        if !described.isEmpty {
            sections.append(.init(id: "vectors", title: "Vectors", blocks: [.table(.init(headers: ["vector", "what it tests", "host", "at", "references"], cells: described))]))
        }
        let explained = results.filter { $0.outcome == .deviation || $0.outcome == .fail || $0.outcome == .error }.map { result in
            [Cell(result.id, code: true), Cell(result.backend), Cell(result.outcome.rawValue, tone: tone(result)),
             Cell(result.judgement.failureKind?.rawValue ?? ""), Cell(result.judgement.detail)]
        }
        if !explained.isEmpty {
            sections.append(.init(id: "departures", title: "Deviations and failures", blocks: [
                .paragraph("Why each recorded deviation is accepted and each failure fails."),
                .table(.init(headers: ["vector", "back end", "outcome", "direction", "why"], cells: explained)),
            ]))
        }
        return ReportDocument(title: title, provenance: provenance,
                              summary: "\(rows.count) vectors on \(backends.count) back end(s): " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
                              sections: sections)
    }

    /// How an outcome stands; a failure is toned by its direction.
    static func tone(_ result: ConformanceResult) -> ReportDocument.Tone {
        switch result.outcome {
        case .pass: return .pass
        case .deviation: return .deviation
        case .fail: return result.observed?.trusted == true ? .accepts : .rejects
        case .error: return .error
        case .skipped: return .skipped
        case .unstable: return .unstable
        case .open: return .open
        }
    }

    /// The verdict without native messages, which would make a table unreadable.
    static func shortObserved(_ result: ConformanceResult) -> String {
        guard let observed = result.observed else { return "error" }
        if let step = observed.step { return "\(observed.trusted ? "trusted" : "rejected") at \(step.rawValue)" }
        if observed.trusted { return "trusted" }
        let names = observed.diagnostics.map(\.name).joined(separator: ", ")
        return "rejected [\(observed.failures.map(\.rawValue).joined(separator: ", "))] \(names)"
    }
}
