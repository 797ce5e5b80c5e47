/// A limbo run as one self-contained HTML page (same Content-Security-Policy and escaping as
/// ``HTMLReport``): the summary per back end and id namespace, the differences from the record, and
/// one row per case with each back end's result, coloured by how it compares with the suite, the
/// back end's reason one click away. A filter shows all cases, the disagreeing ones, or one column.
/// The fragment presets it: `#only=accepted-expected-failure`, `#only=disagreements`, ...
public enum LimboHTMLReport {
    public static func render(suite: String, backends: [BackendInfo], results: [LimboResult], recordChanges: [LimboRecord.Change]?, title: String = "TrustHarness: x509-limbo") -> String {
        let names = backends.map(\.name)
        var body = "<header>\n<h1>\(e(title))</h1>\n"
        body += "<p class=\"meta\">suite <b>\(e(suite))</b>; back ends " + backends.map { "<b>\(e($0.name))</b> (\(e($0.version)))" }.joined(separator: ", ") + "</p>\n"
        if let recordChanges {
            body += recordChanges.isEmpty ? "<p class=\"status ok\">Every result equals the committed record.</p>\n"
                : "<p class=\"status bad\">\(recordChanges.count) result(s) differ from the committed record:</p>\n<ul>" + recordChanges.map { "<li><code>\(e($0.description))</code></li>" }.joined() + "</ul>\n"
        }
        body += "</header>\n<main>\n<h2>Summary</h2>\n"
        for backend in LimboSummary(results).backends {
            body += "<h3>\(e(backend.backend))</h3>\n<table class=\"summary\"><thead><tr><th>namespace</th><th>cases</th><th>passed</th><th class=\"sec\">accepted, suite expects FAILURE<small>security-relevant</small></th><th>rejected, suite expects SUCCESS</th><th>skipped</th></tr></thead><tbody>\n"
            for row in backend.namespaces + [backend.all] {
                body += "<tr><td class=\"lib\">\(e(row.namespace))</td><td class=\"num\">\(row.total)</td><td class=\"num\">\(row.passed)</td><td class=\"num asr\">\(row.acceptedExpectedFailure)</td><td class=\"num\">\(row.rejectedExpectedSuccess)</td><td class=\"num\">\(row.skipped)</td></tr>\n"
            }
            body += "</tbody></table>\n"
        }
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
        var order: [String] = []
        var byCase: [String: [String: LimboResult]] = [:]
        for result in results {
            if byCase[result.id] == nil { order.append(result.id) }
            byCase[result.id, default: [:]][result.backend] = result
        }
        for id in order {
            let row = byCase[id]!
            let outcomes = Set(row.values.map(\.outcome.rawValue))
            // A skip is no answer: back ends disagree only when two of them answered differently.
            let disagree = Set(row.values.map(\.actual).filter { $0 != .skipped }).count > 1
            let classes = outcomes.sorted() + (disagree ? ["disagreements"] : [])
            body += "<tr data-outcomes=\"\(e(classes.joined(separator: " ")))\"><td class=\"id\">\(e(id))</td><td class=\"exp\">\(e(row.values.first?.expected ?? ""))</td>"
            for name in names {
                guard let result = row[name] else { body += "<td class=\"cell none\">not run</td>"; continue }
                let label = "\(result.actual.rawValue)"
                if let context = result.context {
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

    static let css = #"""
        h3 { font-size: 14px; margin: 14px 0 6px; }
        table.limbo th, table.limbo td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
        table.limbo td.cell { min-width: 9em; max-width: 38em; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; border-left: 3px solid transparent; }
        td.passed { background: var(--pass-bg); color: var(--pass-fg); border-left-color: var(--pass-edge) !important; }
        td.accepted-expected-failure { background: var(--err-bg); color: var(--err-fg); border-left-color: var(--err-edge) !important; }
        td.rejected-expected-success { background: var(--fail-bg); color: var(--fail-fg); border-left-color: var(--fail-edge) !important; }
        td.skipped, td.none { background: var(--skip-bg); color: var(--skip-fg); border-left-color: var(--skip-edge) !important; }
        td.cell details summary { cursor: pointer; font-weight: 600; }
        td.cell details { white-space: normal; word-break: break-word; }
        """#

    static let script = #"""
        (function () {
          var select = document.getElementById('only');
          var rows = Array.prototype.slice.call(document.querySelectorAll('table.limbo tbody tr'));
          function apply() {
            var want = select.value, shown = 0;
            rows.forEach(function (row) {
              var show = !want || row.getAttribute('data-outcomes').split(' ').indexOf(want) >= 0;
              row.hidden = !show;
              if (show) { shown += 1; }
            });
            document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' cases';
          }
          var match = /only=([a-z-]+)/.exec(location.hash);
          if (match) { select.value = match[1]; }
          select.addEventListener('change', apply);
          apply();
        })();
        """#
}
