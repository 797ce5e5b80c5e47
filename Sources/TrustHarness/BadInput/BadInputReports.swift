/// The bad-input corpus run in the formats every suite command writes: JUnit, Markdown and HTML,
/// framed as the conformance matrix frames it (an answer as stated passes, a recorded deviation is
/// skipped with its reason, any other answer fails with the problems found).
public enum BadInputReports {
    public typealias Result = BadInputRunner.Result

    /// One back end's counts: cases, answers as stated, recorded deviations, other answers.
    public struct Summary: Sendable, Codable {
        public var backend: String
        public var cases: Int
        public var asStated: Int
        public var recordedDeviations: Int
        public var otherAnswers: Int

        public static func of(_ results: [Result], backends: [BackendInfo]) -> [Summary] {
            backends.map { backend in
                let mine = results.filter { $0.backend == backend.name }
                let deviations = mine.filter { $0.conforms && $0.deviation != nil }.count
                return Summary(backend: backend.name, cases: mine.count, asStated: mine.filter(\.conforms).count - deviations,
                               recordedDeviations: deviations, otherAnswers: mine.filter { !$0.conforms }.count)
            }
        }
    }

    /// The JSON body: the back ends, their summaries and every result.
    public struct JSONBody: Sendable, Codable {
        public var backends: [BackendInfo]
        public var summary: [Summary]
        public var results: [Result]

        public init(backends: [BackendInfo], results: [Result]) {
            self.backends = backends
            self.summary = Summary.of(results, backends: backends)
            self.results = results
        }
    }

    /// The results as checks: an answer as stated passes, a recorded deviation is skipped with its
    /// reason, any other answer fails with the problems found.
    static func checks(backends: [BackendInfo], results: [Result]) -> ReportDocument.Checks {
        typealias Check = ReportDocument.Check
        return .init(suite: "bad-input", backends: backends) { backend in
            results.filter { $0.backend == backend }.map { result in
                let seconds = result.milliseconds / 1000
                if !result.conforms {
                    return Check(name: result.id, status: .failed, type: "answer", message: result.problems.joined(separator: "; "),
                                 body: "expected \(result.expected)\nobserved \(result.observed): \(result.message)", seconds: seconds)
                }
                if let reason = result.deviation {
                    return Check(name: result.id, status: .skipped, message: "recorded deviation (\(result.observed)): \(reason)", seconds: seconds)
                }
                return Check(name: result.id, status: .passed, seconds: seconds)
            }
        }
    }

    /// The run as a document: the back ends' counts, then every case with each back end's answer
    /// (as stated, a recorded deviation, or another answer with the problems found).
    public static func document(backends: [BackendInfo], results: [Result], descriptions: [String: String], provenance: Provenance?, title: String = "TrustHarness: bad input") -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let counts = zip(backends, Summary.of(results, backends: backends)).map { backend, s in
            [backend.name, backend.version, "\(s.cases)", "\(s.asStated)", "\(s.recordedDeviations)", "\(s.otherAnswers)"]
        }
        let cases = rows(results).map { id, row -> [Cell] in
            let stated = row.first { $0.deviation == nil }?.expected ?? row.first?.expected ?? ""
            return [Cell(id, detail: descriptions[id], code: true), Cell(stated)] + backends.map { backend in
                guard let result = row.first(where: { $0.backend == backend.name }) else { return Cell("not run", tone: .open) }
                var detail = result.message
                if let reason = result.deviation { detail = "Recorded deviation: \(reason). " + detail }
                if !result.problems.isEmpty { detail = result.problems.joined(separator: "; ") + ". " + detail }
                if result.observed != "inputError" { detail += String(format: " (%.2f ms)", result.milliseconds) }
                return Cell(result.observed, tone: !result.conforms ? .rejects : result.deviation == nil ? .pass : .deviation, detail: detail)
            }
        }
        let wrong = results.filter { !$0.conforms }.count
        let slowest = results.max { $0.milliseconds < $1.milliseconds }
        let deviating = results.filter { $0.conforms && $0.deviation != nil }.count
        var table = ReportDocument.Table(headers: ["case", "expected"] + backends.map(\.name), cells: cases,
                                         legend: [.pass: "as stated", .deviation: "recorded deviation", .rejects: "another answer"])
        table.textLayout = .records
        return ReportDocument(
            title: title, provenance: provenance,
            summary: "Back ends: " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
            sections: [
                .init(id: "cases", title: "Cases", blocks: [.table(table)]),
                .init(id: "summary", title: "Summary", blocks: [
                    .callout(wrong == 0 ? .pass : .rejects, wrong == 0 ? "Every answer is the one the corpus states or a recorded deviation." : "\(wrong) answer(s) differ from the corpus."),
                    .table(.init(headers: ["back end", "library", "cases", "as stated", "recorded deviations", "other answers"], rows: counts, numeric: [2, 3, 4, 5])),
                    .paragraph("\(results.filter(\.conforms).count) of \(results.count) answers as stated\(deviating == 0 ? "" : " (\(deviating) of them recorded deviations from the corpus)"); slowest evaluation \(String(format: "%.1f", slowest?.milliseconds ?? 0)) ms (\(slowest?.id ?? "-"), \(slowest?.backend ?? "-"))."),
                ], inText: .atEnd),
            ],
            checks: checks(backends: backends, results: results)
        )
    }

    /// The results grouped by case, in order of first appearance.
    static func rows(_ results: [Result]) -> [(String, [Result])] {
        var order: [String] = []
        var byCase: [String: [Result]] = [:]
        for result in results {
            if byCase[result.id] == nil { order.append(result.id) }
            byCase[result.id, default: []].append(result)
        }
        return order.map { ($0, byCase[$0]!) }
    }
}
