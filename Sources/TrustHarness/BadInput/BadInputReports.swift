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

    public static func junit(backends: [BackendInfo], results: [Result], provenance: Provenance?) -> String {
        JUnitReport.render(suite: "bad-input", backends: backends, provenance: provenance) { backend in
            results.filter { $0.backend == backend }.map { result in
                let seconds = result.milliseconds / 1000
                if !result.conforms {
                    return JUnitReport.Case(name: result.id, status: .failed, type: "answer", message: result.problems.joined(separator: "; "),
                                            body: "expected \(result.expected)\nobserved \(result.observed): \(result.message)", seconds: seconds)
                }
                if let reason = result.deviation {
                    return JUnitReport.Case(name: result.id, status: .skipped, message: "recorded deviation (\(result.observed)): \(reason)", seconds: seconds)
                }
                return JUnitReport.Case(name: result.id, status: .passed, seconds: seconds)
            }
        }
    }

    public static func markdown(backends: [BackendInfo], results: [Result], descriptions: [String: String], provenance: Provenance?, title: String = "TrustHarness: bad input") -> String {
        let cell = MarkdownReport.cell
        var out = "# \(title)\n\n"
        out += MarkdownReport.provenanceLine(provenance)
        out += "| back end | library | cases | as stated | recorded deviations | other answers |\n|---|---|---:|---:|---:|---:|\n"
        for (backend, s) in zip(backends, Summary.of(results, backends: backends)) {
            out += "| \(cell(backend.name)) | \(cell(backend.version)) | \(s.cases) | \(s.asStated) | \(s.recordedDeviations) | \(s.otherAnswers) |\n"
        }
        out += "\n| case | expected | " + backends.map { cell($0.name) }.joined(separator: " | ") + " |\n"
        out += "|---|---|" + backends.map { _ in "---|" }.joined() + "\n"
        for (id, row) in rows(results) {
            let stated = row.first { $0.deviation == nil }?.expected ?? row.first?.expected ?? ""
            let cells = backends.map { backend -> String in
                guard let result = row.first(where: { $0.backend == backend.name }) else { return "not run" }
                return "\(icon(result)) \(cell(result.observed))"
            }
            out += "| `\(cell(id))` | \(cell(stated)) | " + cells.joined(separator: " | ") + " |\n"
        }
        out += "\n✅ as stated · 🟨 recorded deviation · ❌ another answer\n\n## Cases\n\n"
        for (id, row) in rows(results) {
            out += "- `\(cell(id))`: \(cell(descriptions[id] ?? ""))\n"
            for result in row where !result.conforms || result.deviation != nil {
                let why = result.conforms ? "recorded deviation: \(result.deviation ?? "")" : result.problems.joined(separator: "; ")
                out += "  - \(icon(result)) \(cell(result.backend)): \(cell(why))\n"
            }
        }
        return out
    }

    public static func html(backends: [BackendInfo], results: [Result], descriptions: [String: String], provenance: Provenance?, title: String = "TrustHarness: bad input") -> String {
        let e = Markup.escape
        var body = "<header>\n<h1>\(e(title))</h1>\n"
        body += HTMLReport.provenanceLine(provenance)
        body += "<p class=\"meta\">back ends " + backends.map { "<b>\(e($0.name))</b> (\(e($0.version)))" }.joined(separator: ", ") + "</p>\n"
        let wrong = results.filter { !$0.conforms }.count
        body += wrong == 0 ? "<p class=\"status ok\">Every answer is the one the corpus states or a recorded deviation.</p>\n"
            : "<p class=\"status bad\">\(wrong) answer(s) differ from the corpus.</p>\n"
        body += "</header>\n<main>\n<h2>Cases</h2>\n<div class=\"scroll\"><table class=\"limbo\"><thead><tr><th>case</th><th>expected</th>"
        body += backends.map { "<th>\(e($0.name))</th>" }.joined() + "</tr></thead><tbody>\n"
        for (id, row) in rows(results) {
            let stated = row.first { $0.deviation == nil }?.expected ?? row.first?.expected ?? ""
            let about = descriptions[id].map { "<details class=\"about\"><summary>\(e(id))</summary><p>\(e($0))</p></details>" } ?? e(id)
            body += "<tr><td class=\"id\">\(about)</td><td class=\"exp\">\(e(stated))</td>"
            for backend in backends {
                guard let result = row.first(where: { $0.backend == backend.name }) else { body += "<td class=\"cell none\">not run</td>"; continue }
                let kind = !result.conforms ? "rejected-expected-success" : result.deviation == nil ? "passed" : "skipped"
                var detail = result.message
                if let reason = result.deviation { detail = "Recorded deviation: \(reason). " + detail }
                if !result.problems.isEmpty { detail = result.problems.joined(separator: "; ") + ". " + detail }
                let time = result.observed == "inputError" ? "" : String(format: " (%.2f ms)", result.milliseconds)
                body += "<td class=\"cell \(kind)\"><details><summary>\(e(result.observed))</summary>\(e(detail + time))</details></td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></div>\n<p class=\"legend\"><span class=\"key lk passed\">as stated</span> <span class=\"key lk skipped\">recorded deviation</span> <span class=\"key lk rejected-expected-success\">another answer</span> <span class=\"hint\">click an answer for the message; a case's name for what it holds.</span></p>\n</main>\n"
        return HTMLReport.document(title: title, css: HTMLReport.css + SuiteHTMLReport.css, body: body, script: "")
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

    static func icon(_ result: Result) -> String {
        !result.conforms ? "❌" : result.deviation == nil ? "✅" : "🟨"
    }
}
