/// A limbo run as one self-contained HTML page (same Content-Security-Policy and escaping as
/// ``HTMLReport``): the summary per back end and id namespace, the differences from the record, and
/// one row per case with each back end's result, coloured by how it compares with the suite, the
/// back end's reason one click away. A filter shows all cases, the disagreeing ones, or one column.
/// The fragment presets it: `#only=accepted-expected-failure`, `#only=disagreements`, ...
public enum SuiteHTMLReport {
    public static func render(suite: String, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, title: String = "TrustHarness: x509-limbo", provenance: Provenance? = nil, record: SuiteRecord? = nil) -> String {
        let names = backends.map(\.name)
        var body = "<header>\n<h1>\(e(title))</h1>\n"
        body += HTMLReport.provenanceLine(provenance)
        body += "<p class=\"meta\">suite <b>\(e(suite))</b>; back ends " + backends.map { "<b>\(e($0.name))</b> (\(e($0.version)))" }.joined(separator: ", ") + "</p>\n"
        if let recordChanges {
            body += recordChanges.isEmpty ? "<p class=\"status ok\">Every result equals the committed record.</p>\n"
                : "<p class=\"status bad\">\(recordChanges.count) result(s) differ from the committed record:</p>\n<ul>" + recordChanges.map { "<li><code>\(e($0.description))</code></li>" }.joined() + "</ul>\n"
        }
        body += "</header>\n<main>\n<h2>Summary</h2>\n"
        // Back ends side by side: per id namespace, each back end's passed, accepted (the suite
        // expects FAILURE: security relevant), rejected (the suite expects SUCCESS) and skipped.
        let summaries = SuiteSummary(results, record: record).backends
        body += "<div class=\"scroll\"><table class=\"summary limbo-summary\"><thead><tr><th rowspan=\"2\">namespace or feature</th><th rowspan=\"2\">cases</th>"
        body += summaries.map { "<th colspan=\"5\" class=\"be\">\(e($0.backend))</th>" }.joined() + "</tr><tr>"
        body += summaries.map { _ in "<th>passed</th><th class=\"sec\" title=\"trusted although the suite expects FAILURE\">accepted<small>security relevant</small></th><th title=\"rejected although the suite expects SUCCESS\">rejected</th><th>skipped</th><th title=\"differs from the record, or departs from the suite where no record covers the back end\">unexpected</th>" }.joined()
        body += "</tr></thead><tbody>\n"
        if let first = summaries.first {
            for (index, row) in (first.namespaces + [first.all]).enumerated() {
                body += "<tr><td class=\"lib\">\(e(row.namespace))</td><td class=\"num\">\(row.total)</td>"
                for backend in summaries {
                    let cells = backend.namespaces + [backend.all]
                    guard index < cells.count else { body += "<td colspan=\"5\"></td>"; continue }
                    let r = cells[index]
                    let known = record?.backends[backend.backend] != nil
                    func recorded(_ value: Int, _ of: Int) -> String { known && of > 0 ? "<small class=\"rec\">of which \(value) recorded</small>" : "" }
                    body += "<td class=\"num be\">\(r.passed)</td><td class=\"num asr\(r.acceptedExpectedFailure > 0 ? " hot" : "")\">\(r.acceptedExpectedFailure)\(recorded(r.acceptedRecorded, r.acceptedExpectedFailure))</td><td class=\"num\">\(r.rejectedExpectedSuccess)\(recorded(r.rejectedRecorded, r.rejectedExpectedSuccess))</td><td class=\"num\">\(r.skipped)</td><td class=\"num\(r.unexpected > 0 ? " hot" : "")\">\(r.unexpected)</td>"
                }
                body += "</tr>\n"
            }
        }
        body += "</tbody></table></div>\n"
        body += "<p class=\"legend\"><span class=\"key lk passed\">passed</span> <span class=\"key lk accepted-expected-failure\">accepted, suite expects FAILURE (security relevant)</span> <span class=\"key lk rejected-expected-success\">rejected, suite expects SUCCESS</span> <span class=\"key lk recorded\">either, as the committed record holds it</span> <span class=\"key lk skipped\">skipped (a constraint the back end cannot honour)</span> <span class=\"hint\">click a result for the back end's reason; a case's name for what it tests.</span></p>\n"
        body += """
            <h2>Cases</h2>
            <p><label>Show <select id="only">
            <option value="">all cases</option>
            <option value="disagreements">back ends disagree</option>
            <option value="accepted-expected-failure">accepted, suite expects FAILURE</option>
            <option value="rejected-expected-success">rejected, suite expects SUCCESS</option>
            <option value="skipped">skipped</option>
            </select></label> <span id="shown"></span></p>
            <table class="limbo"><thead><tr><th>case</th><th>expected</th>
            """
        body += names.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        let (order, byCase) = SuiteResult.byCase(results)
        for id in order {
            let row = byCase[id]!
            let outcomes = Set(row.values.map(\.outcome.rawValue))
            // A skip is no answer: back ends disagree only when two of them answered differently.
            let disagree = Set(row.values.map(\.actual).filter { $0 != .skipped }).count > 1
            let classes = outcomes.sorted() + (disagree ? ["disagreements"] : [])
            let description = row.values.compactMap(\.caseDescription).first
            let idCell = description.map { "<details class=\"about\"><summary>\(e(id))</summary><p>\(e($0))</p></details>" } ?? e(id)
            body += "<tr data-outcomes=\"\(e(classes.joined(separator: " ")))\"><td class=\"id\">\(idCell)</td><td class=\"exp\">\(e(row.values.first?.expected ?? ""))</td>"
            for name in names {
                guard let result = row[name] else { body += "<td class=\"cell none\">not run</td>"; continue }
                let label = "\(result.actual.rawValue)"
                let isRecorded = result.outcome != .passed && result.outcome != .skipped && record?.backends[name]?.results[id] == result.actual.rawValue
                if isRecorded {
                    // A departure the record holds: a known one, in the run report's deviation colours;
                    // an accepted one still says it is security relevant.
                    let what = result.outcome == .acceptedExpectedFailure ? "trusted, although the suite expects FAILURE (recorded; security relevant)." : "rejected, although the suite expects SUCCESS (recorded)."
                    let tag = result.outcome == .acceptedExpectedFailure ? " <span class=\"tag\">accepts!</span>" : ""
                    body += "<td class=\"cell recorded \(result.outcome.rawValue)\"><details><summary>\(label)\(tag)</summary>\(e(what + (result.caseDescription.map { " The case: \($0)" } ?? "") + (result.context.map { " \($0)" } ?? "")))</details></td>"
                } else if result.outcome == .acceptedExpectedFailure {
                    // The security-relevant cell: say what was accepted and why the suite rejects it.
                    let why = result.caseDescription.map { " The case: \($0)" } ?? ""
                    body += "<td class=\"cell \(result.outcome.rawValue)\"><details><summary>\(label)</summary>\(e("trusted, although the suite expects FAILURE.\(why)"))</details></td>"
                } else if let context = result.context {
                    body += "<td class=\"cell \(result.outcome.rawValue)\"><details><summary>\(label)</summary>\(e(context))</details></td>"
                } else {
                    body += "<td class=\"cell \(result.outcome.rawValue)\">\(label)</td>"
                }
            }
            body += "</tr>\n"
        }
        body += "</tbody></table>\n</main>\n"
        return HTMLReport.document(title: title, css: HTMLReport.css + css, body: body, script: script)
    }

    static func e(_ text: String) -> String { Markup.escape(text) }

    package static let css = ReportAssets.text(PackageResources.suite_css)

    static let script = ReportAssets.text(PackageResources.suite_js)
}
