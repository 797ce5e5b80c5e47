import Foundation
import TrustCore
import TrustVectors

/// The conformance matrix as one self-contained HTML page for a person with a browser: a summary per
/// back end, then one coloured row per vector with each back end's verdict (the native diagnostics,
/// the policy's reason and the judgement one click away), filters, and optionally benchmark figures.
///
/// The page loads nothing: CSS, script and charts are inline and a Content-Security-Policy forbids
/// any other source. Every text that comes from vectors, libraries or files is escaped, and the
/// script reads only the page's own markup, so a hostile message shows as text.
///
/// The filters can be preset from the address's fragment, so that a link or a headless browser
/// opens the page filtered: `#only=disagreements`, `#only=failing`, `#only=disagreements,failing`,
/// `#hide=pass`, `#q=wildcard` (words that must all occur in the id) and `#expand` (open every
/// visible cell's details), joined with `&`.
public enum HTMLReport {
    /// One self-contained HTML page (no external resources, inline CSS/JS/SVG).
    ///
    /// `results` are grouped by vector id in order of first appearance, whatever their order; a back
    /// end that has results but is missing from `backends` gets a column with an unknown version, and
    /// a back end without a result for a vector shows "not run" there. The benchmark section appears
    /// only when `benchmarks` is given.
    public static func render(backends: [BackendInfo], results: [ConformanceResult], benchmarks: BenchmarkReport? = nil, title: String = "TrustHarness conformance", provenance: Provenance? = nil) -> String {
        let columns = columns(backends, results)
        let rows = VectorRow.rows(results, columns: columns.map(\.name))
        var body = "<header>\n<h1>\(escape(title))</h1>\n"
        body += HTMLReport.provenanceLine(provenance)
        body += overview(columns, rows, results, hasBenchmarks: benchmarks != nil)
        body += "</header>\n<main>\n"
        body += summary(columns, results)
        body += matrix(columns, rows)
        if let benchmarks { body += benchmarkSection(benchmarks, order: columns.map(\.name)) }
        body += "</main>\n"
        return document(title: title, css: css, body: body, script: script)
    }

    /// A self-contained page: the strict Content-Security-Policy (inline style and script only, no
    /// other source), `css`, `body` (already escaped markup) and `script`. The conformance page's
    /// alone now; the other reports are documents (``DocumentWriter/html(_:)``, the same policy).
    static func document(title: String, css: String, body: String, script: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light">
        <title>\(escape(title))</title>
        <style>\(css)</style>
        </head>
        <body>
        \(body)<script>\(script)</script>
        </body>
        </html>

        """
    }

    // MARK: - Model

    struct Column {
        var name: String
        var version: String?
    }

    /// The given back ends, then any back end the results name that was not given.
    static func columns(_ backends: [BackendInfo], _ results: [ConformanceResult]) -> [Column] {
        var columns = backends.map { Column(name: $0.name, version: $0.version) }
        var seen = Set(columns.map(\.name))
        for result in results where seen.insert(result.backend).inserted {
            columns.append(Column(name: result.backend, version: nil))
        }
        return columns
    }

    /// One vector across the back ends (a ``ResultRows`` laid out in columns), with what the filters
    /// need to know about it.
    struct VectorRow {
        var id: String
        var expected: ExpectedOutcome
        var isPolicy: Bool
        /// One per column; nil when that back end has no result for the vector.
        var cells: [ConformanceResult?]
        /// As `trust-harness compare` counts it (``ResultRows/disagree``).
        var disagree: Bool

        /// The part of the id before its last `/`: the case the key-type variants share.
        var caseName: String {
            guard let slash = id.lastIndex(of: "/") else { return id }
            return String(id[..<slash])
        }

        var present: [ConformanceResult] { cells.compactMap { $0 } }
        var failing: Bool { present.contains { $0.outcome == .fail || $0.outcome == .error } }
        var allPass: Bool { !present.isEmpty && present.allSatisfy { $0.outcome == .pass } }

        static func rows(_ results: [ConformanceResult], columns: [String]) -> [VectorRow] {
            ResultRows.group(results).map { row in
                VectorRow(
                    id: row.id,
                    expected: row.expected,
                    isPolicy: row.expected.step != nil,
                    cells: columns.map { name in row.results.first { $0.backend == name } },
                    disagree: row.disagree
                )
            }
        }
    }

    // MARK: - Sections

    static func overview(_ columns: [Column], _ rows: [VectorRow], _ results: [ConformanceResult], hasBenchmarks: Bool) -> String {
        let policies = rows.filter(\.isPolicy).count
        let summaries = ConformanceSummary.of(results, backends: columns.map(\.name))
        let unexpected = summaries.map(\.unexpected).reduce(0, +)
        let skipped = summaries.map(\.skipped).reduce(0, +)
        let skippedNote = skipped == 0 ? "" : " \(skipped) skipped."
        let backends = columns.map { "<b>\(escape($0.name))</b> \(escape($0.version ?? "version unknown"))" }.joined(separator: " · ")
        let status = unexpected == 0
            ? "<p class=\"status ok\">Every result evaluated passes or matches its recorded deviation.\(skippedNote)</p>"
            : "<p class=\"status bad\">\(unexpected) unexpected result\(unexpected == 1 ? "" : "s") (failures, errors and unstable verdicts).\(skippedNote)</p>"
        let links = "<a href=\"#summary\">Summary</a> · <a href=\"#matrix\">Matrix</a>" + (hasBenchmarks ? " · <a href=\"#benchmarks\">Benchmarks</a>" : "")
        return """
            <p class="meta">\(rows.count) vectors (\(rows.count - policies) chain, \(policies) policy) on \(columns.count) back end\(columns.count == 1 ? "" : "s"): \(backends)</p>
            \(status)
            <nav>\(links)</nav>

            """
    }

    static func summary(_ columns: [Column], _ results: [ConformanceResult]) -> String {
        let summaries = ConformanceSummary.of(results, backends: columns.map(\.name))
        var out = """
            <section id="summary">
            <h2>Summary</h2>
            <div class="scroll">
            <table class="summary">
            <thead><tr><th>back end</th><th>library</th><th>vectors</th><th>passed</th>\
            <th class="sec" title="Trusted although the standards say reject">accepted, should reject<small>security relevant</small></th>\
            <th>rejected, should trust</th><th>other failures</th><th title="How many of the three before are recorded deviations">of these recorded</th><th>errors</th><th>skipped</th><th title="Different verdicts when the same request was asked again">unstable</th><th class="dist">distribution</th></tr></thead>
            <tbody>

            """
        for (column, s) in zip(columns, summaries) {
            func count(_ value: Int, _ hot: String, _ extra: String = "") -> String {
                "<td class=\"num\(extra)\(value > 0 ? " \(hot)" : " zero")\">\(value)</td>"
            }
            out += "<tr><th>\(escape(column.name))</th><td class=\"lib\">\(escape(column.version ?? "unknown"))</td>"
            out += "<td class=\"num\">\(s.total)</td>" + count(s.passed, "good")
            func directed(_ value: Int, recorded: Int, _ hot: String, _ extra: String = "") -> String {
                let note = recorded == 0 ? "" : "<small class=\"rec\">of which \(recorded) recorded</small>"
                return "<td class=\"num\(extra)\(value > 0 ? " \(value > recorded ? hot : "warn")" : " zero")\">\(value)\(note)</td>"
            }
            out += directed(s.acceptedShouldReject, recorded: s.deviationsAcceptingShouldReject, "alarm", " asr")
            out += directed(s.rejectedShouldTrust, recorded: s.deviationsRejectingShouldTrust, "bad")
            out += directed(s.otherFailures, recorded: s.deviationsOther, "bad") + count(s.deviations, "warn")
            out += count(s.errors, "bad") + count(s.skipped, "muted") + count(s.unstable, "alarm")
            out += "<td class=\"dist\">\(distribution(s))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</div>\n" + legend + "</section>\n"
        return out
    }

    /// A bar of the back end's outcomes in proportion, pass to skipped.
    static func distribution(_ s: ConformanceSummary) -> String {
        let failures = s.acceptedShouldReject + s.rejectedShouldTrust + s.otherFailures - s.deviations
        let parts: [(Outcome, Int)] = [(.pass, s.passed), (.deviation, s.deviations), (.fail, failures), (.error, s.errors), (.unstable, s.unstable), (.skipped, s.skipped)]
        guard s.total > 0 else { return "" }
        let segments = parts.filter { $0.1 > 0 }.map { outcome, value in
            let percent = Double(value) * 100 / Double(s.total)
            return "<span class=\"o-\(outcome.rawValue)\" style=\"width:\(String(format: "%.3f", percent))%\" title=\"\(outcome.rawValue): \(value)\"></span>"
        }
        return "<div class=\"bar\">\(segments.joined())</div>"
    }

    static let legend = """
        <p class="legend"><span class="key o-pass">pass</span> <span class="key o-deviation">deviation (recorded)</span> \
        <span class="key o-fail">fail</span> <span class="key o-error">error</span> <span class="key o-unstable">unstable</span> <span class="key o-skipped">skipped</span> \
        <span class="hint">✓ trusted, ✗ rejected; click a cell for the library's diagnostics, the policy's reason and the judgement.</span></p>

        """

    static func matrix(_ columns: [Column], _ rows: [VectorRow]) -> String {
        let disagreements = rows.filter(\.disagree).count
        let failing = rows.filter(\.failing).count
        let passing = rows.filter(\.allPass).count
        var out = """
            <section id="matrix">
            <h2>Matrix</h2>
            <div class="toolbar" id="toolbar">
            <label><input type="checkbox" id="f-dis"> only disagreements <span class="count">\(disagreements)</span></label>
            <label><input type="checkbox" id="f-bad"> only fail/error <span class="count\(failing > 0 ? " hot" : "")">\(failing)</span></label>
            <label><input type="checkbox" id="f-pass"> hide passing <span class="count">\(passing)</span></label>
            <input type="search" id="f-q" placeholder="search ids, e.g. expired p256" aria-label="search vector ids">
            <button type="button" id="f-open">expand</button><button type="button" id="f-close">collapse</button><button type="button" id="f-reset">reset</button>
            <span class="shown"><b id="shown">\(rows.count)</b> of \(rows.count) vectors</span>
            </div>
            <table class="matrix">
            <colgroup><col class="c-id"><col class="c-exp">\(String(repeating: "<col class=\"c-be\">", count: columns.count))</colgroup>
            <thead><tr><th>vector</th><th>expected</th>\(columns.map { "<th>\(escape($0.name))<small>\(escape($0.version ?? "version unknown"))</small></th>" }.joined())</tr></thead>

            """
        let width = columns.count + 2
        var section: Bool?
        var currentCase: String?
        var alternate = false
        for row in rows {
            if row.isPolicy != section {
                if currentCase != nil { out += "</tbody>\n" }
                currentCase = nil
                section = row.isPolicy
                let kind = row.isPolicy ? "policy" : "chain"
                let count = rows.filter { $0.isPolicy == row.isPolicy }.count
                out += "<tbody class=\"s\" data-sec=\"\(kind)\"><tr><th colspan=\"\(width)\">\(row.isPolicy ? "Policy vectors" : "Chain vectors") <span data-total=\"\(count)\">\(count)</span></th></tr></tbody>\n"
            }
            if row.caseName != currentCase {
                if currentCase != nil { out += "</tbody>\n" }
                currentCase = row.caseName
                out += "<tbody class=\"g\(alternate ? " alt" : "")\" data-sec=\"\(row.isPolicy ? "policy" : "chain")\">\n"
                alternate.toggle()
            }
            out += vectorRow(row)
        }
        if currentCase != nil { out += "</tbody>\n" }
        out += "</table>\n<p id=\"none\" class=\"none\" hidden>No vector matches the filters.</p>\n</section>\n"
        return out
    }

    static func vectorRow(_ row: VectorRow) -> String {
        var flags = ""
        if row.disagree { flags += " data-dis" }
        if row.failing { flags += " data-bad" }
        if row.allPass { flags += " data-pass" }
        let caseName = row.caseName
        let idCell = caseName == row.id
            ? escape(row.id)
            : "<span class=\"cp\">\(escape(caseName))/</span>\(escape(String(row.id.dropFirst(caseName.count + 1))))"
        let marker = row.disagree ? "<span class=\"dis\" title=\"the back ends disagree\">≠</span>" : ""
        var about = ""
        if let context = row.present.first?.context {
            let host = context.host.map { "host <code>\(escape($0))</code>" } ?? "no host check"
            let references = context.references.isEmpty ? "" : "<p class=\"refs\">\(context.references.map(escape).joined(separator: " · "))</p>"
            about = "<details class=\"about\"><summary>about</summary><p>\(escape(context.description))</p><p class=\"refs\">\(host) at <code>\(escape(context.time))</code></p>\(references)</details>"
        }
        var out = "<tr class=\"v\" data-id=\"\(escape(row.id))\"\(flags)><td class=\"id\"><div><span title=\"\(escape(row.id))\">\(idCell)</span>\(marker)</div>\(about)</td><td class=\"exp\">\(escape(expectation(row.expected)))</td>"
        for cell in row.cells {
            out += cell.map(resultCell) ?? "<td class=\"cell o-skipped\"><span class=\"vd\">not run</span></td>"
        }
        return out + "</tr>\n"
    }

    static func resultCell(_ result: ConformanceResult) -> String {
        let tag = tag(result).map { "<span class=\"tag\" title=\"\(escape($0.title))\">\(escape($0.short))</span>" } ?? ""
        let security = result.judgement.failureKind == .acceptedShouldReject ? " asr" : ""
        return "<td class=\"cell o-\(result.outcome.rawValue)\(security)\"><details><summary><span class=\"vd\">\(escape(verdict(result)))</span>\(tag)</summary>\(details(result))</details></td>"
    }

    /// What a reader needs beside the verdict: why this outcome, the policy's reason, the library's
    /// own diagnostics, the path.
    static func details(_ result: ConformanceResult) -> String {
        var out = "<div class=\"more\"><p class=\"judgement\"><b>\(result.outcome.rawValue)</b> \(escape(result.judgement.detail))</p>"
        if let error = result.error {
            out += "<p><b>error</b> \(escape(error))</p>"
        }
        if let observed = result.observed {
            if let reason = observed.reason {
                out += "<p><b>policy</b> \(escape(reason))</p>"
            }
            if !observed.diagnostics.isEmpty {
                out += "<ul class=\"native\">"
                for diagnostic in observed.diagnostics {
                    let depth = diagnostic.depth.map { " <span class=\"depth\">depth \($0)</span>" } ?? ""
                    out += "<li><code>\(escape(diagnostic.name))</code> <span class=\"code\">(\(diagnostic.code))</span>\(depth) <span class=\"class\">→ \(escape(diagnostic.failure.rawValue))</span><br>\(escape(diagnostic.message))</li>"
                }
                out += "</ul>"
            }
            var facts: [String] = []
            if !observed.failures.isEmpty { facts.append("failures: \(observed.failures.map(\.rawValue).joined(separator: ", "))") }
            if let length = observed.pathLength { facts.append("path of \(length)") }
            if !facts.isEmpty { out += "<p class=\"facts\">\(escape(facts.joined(separator: " · ")))</p>" }
        }
        return out + "</div>"
    }

    // MARK: - Wording (as the text report words it, compacted for a cell)

    static func expectation(_ expected: ExpectedOutcome) -> String {
        let mark = expected.trusted ? "✓ " : "✗ "
        if let step = expected.step { return mark + step.rawValue }
        return mark + (expected.trusted ? "trusted" : "rejected [\(expected.failures.map(\.rawValue).joined(separator: ", "))]")
    }

    static func verdict(_ result: ConformanceResult) -> String {
        guard let observed = result.observed else { return result.outcome == .skipped ? "skipped" : "error" }
        let mark = observed.trusted ? "✓ " : "✗ "
        if let step = observed.step { return mark + step.rawValue }
        if observed.trusted { return mark + "trusted" }
        return mark + "rejected: " + (observed.failures.isEmpty ? "no reason" : observed.failures.map(\.rawValue).joined(separator: ", "))
    }

    /// A short label (and a longer one for its tooltip) for a result that is neither a pass nor
    /// already named by its verdict text, so that colour is not the only signal.
    static func tag(_ result: ConformanceResult) -> (short: String, title: String)? {
        switch result.outcome {
        case .pass, .error: return nil
        case .deviation:
            switch result.judgement.failureKind {
            case .acceptedShouldReject: return ("accepts!", "recorded deviation: trusted although the standards say reject (security relevant)")
            case .rejectedShouldTrust: return ("deviation", "recorded deviation: rejected although the standards say trust")
            default: return ("deviation", "recorded deviation")
            }
        case .skipped: return result.observed == nil ? nil : ("skipped", "skipped")
        case .open: return ("left open", "the standards leave this open: neither pass nor fail (\(result.expected.open ?? ""))")
        case .unstable: return ("unstable", "different verdicts when asked again: \(VerdictVariant.describe(result.variants))")
        case .fail:
            switch result.judgement.failureKind {
            case .acceptedShouldReject: return ("should reject", "accepted, should reject (security relevant)")
            case .rejectedShouldTrust: return ("should trust", "rejected, should trust")
            case .wrongReason: return ("wrong reason", "rejected as expected but for another failure class")
            case .wrongPath: return ("wrong path", "trusted through another path than expected")
            case .deviationChanged: return ("deviation changed", "the recorded deviation no longer matches")
            case nil: return ("fail", "fail")
            }
        }
    }

    // MARK: - Benchmarks

    /// Horizontal bars of microseconds per evaluation: one group per back end and mode (cold before
    /// warm), one bar per scenario, on one scale so that groups compare.
    static func benchmarkSection(_ report: BenchmarkReport, order: [String]) -> String {
        let entries = report.results
        var out = "<section id=\"benchmarks\">\n<h2>Benchmarks</h2>\n"
        guard !entries.isEmpty else {
            return out + "<p class=\"meta\">The benchmark file has no results.</p>\n</section>\n"
        }
        let backends = ordered(entries.map(\.backend), first: order)
        let modes = ordered(entries.map(\.mode), first: ["cold", "warm"])
        let groups: [(backend: String, mode: String, entries: [BenchmarkReport.Entry])] = backends.flatMap { backend in
            modes.compactMap { mode in
                let members = entries.filter { $0.backend == backend && $0.mode == mode }
                return members.isEmpty ? nil : (backend, mode, members)
            }
        }
        let longest = entries.map(\.scenario.count).max() ?? 10
        let labelWidth = min(380.0, max(110.0, Double(longest) * 7.2 + 16))
        let width = 960.0, valueWidth = 150.0
        let barWidth = width - labelWidth - valueWidth
        let maximum = entries.map(\.microsecondsPerEvaluation).filter { $0.isFinite }.max() ?? 0
        let (step, top) = scale(maximum)
        let rowHeight = 18.0, headHeight = 24.0, gap = 8.0, axisHeight = 36.0
        let height = groups.reduce(0) { $0 + headHeight + Double($1.entries.count) * rowHeight + gap } + axisHeight
        let palette = ["#2f6db5", "#8a4fb0", "#1f8a7d", "#c0691a", "#b23b6b", "#5a7a1e"]

        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(number(width)) \(number(height))\" width=\"\(number(width))\" height=\"\(number(height))\" role=\"img\" aria-label=\"microseconds per evaluation by back end, mode and scenario\">\n"
        let chartBottom = height - axisHeight
        var tick = 0.0
        while top > 0 && tick <= top + step / 2 {
            let x = labelWidth + barWidth * tick / top
            svg += "<line class=\"grid\" x1=\"\(number(x))\" y1=\"0\" x2=\"\(number(x))\" y2=\"\(number(chartBottom))\"/>"
            svg += "<text class=\"axis\" x=\"\(number(x))\" y=\"\(number(chartBottom + 14))\" text-anchor=\"middle\">\(microseconds(tick))</text>\n"
            tick += step
        }
        svg += "<text class=\"axis\" x=\"\(number(labelWidth + barWidth / 2))\" y=\"\(number(height - 4))\" text-anchor=\"middle\">µs per evaluation (shorter is faster)</text>\n"
        var y = 0.0
        for group in groups {
            let colour = palette[(backends.firstIndex(of: group.backend) ?? 0) % palette.count]
            // Modes after the first (warm after cold) in a lighter shade of the back end's colour.
            let warm = group.mode != modes[0]
            svg += "<text class=\"head\" x=\"4\" y=\"\(number(y + 16))\">\(escape(group.backend)) · \(escape(group.mode))</text>\n"
            y += headHeight
            for entry in group.entries {
                let value = entry.microsecondsPerEvaluation
                let length = top > 0 && value.isFinite ? max(0, barWidth * value / top) : 0
                svg += "<text class=\"label\" x=\"\(number(labelWidth - 8))\" y=\"\(number(y + 13))\" text-anchor=\"end\">\(escape(entry.scenario))</text>"
                svg += "<rect x=\"\(number(labelWidth))\" y=\"\(number(y + 3))\" width=\"\(number(length))\" height=\"\(number(rowHeight - 6))\" fill=\"\(colour)\"\(warm ? " fill-opacity=\"0.55\"" : "")>"
                svg += "<title>\(escape(entry.backend)) \(escape(entry.mode)) \(escape(entry.scenario)): \(microseconds(value)) µs per evaluation, \(perSecond(entry.evaluationsPerSecond)) evaluations/s</title></rect>"
                svg += "<text class=\"value\" x=\"\(number(labelWidth + length + 6))\" y=\"\(number(y + 13))\">\(microseconds(value)) µs · \(perSecond(entry.evaluationsPerSecond))/s</text>\n"
                y += rowHeight
            }
            y += gap
        }
        svg += "</svg>\n"
        out += "<p class=\"meta\">Microseconds per evaluation; cold: DER seen for the first time, warm: the same chain again.</p>\n"
        out += "<div class=\"chartbox\">\(svg)</div>\n"
        out += "<details class=\"figures\"><summary>figures as a table</summary><table class=\"summary\"><thead><tr><th>back end</th><th>mode</th><th>scenario</th><th>µs per evaluation</th><th>evaluations/s</th></tr></thead><tbody>\n"
        for group in groups {
            for entry in group.entries {
                out += "<tr><td>\(escape(entry.backend))</td><td>\(escape(entry.mode))</td><td>\(escape(entry.scenario))</td><td class=\"num\">\(microseconds(entry.microsecondsPerEvaluation))</td><td class=\"num\">\(perSecond(entry.evaluationsPerSecond))</td></tr>\n"
            }
        }
        return out + "</tbody></table></details>\n</section>\n"
    }

    /// The distinct values in order of appearance, those named in `first` leading in that order.
    static func ordered(_ values: [String], first: [String]) -> [String] {
        let present = Set(values)
        var seen = Set<String>()
        return (first.filter(present.contains) + values).filter { seen.insert($0).inserted }
    }

    /// A round tick step (1, 2 or 5 times a power of ten) giving about five ticks, and the axis end.
    static func scale(_ maximum: Double) -> (step: Double, top: Double) {
        guard maximum > 0, maximum.isFinite else { return (1, 0) }
        let rough = maximum / 5
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        return (step, ceil(maximum / step) * step)
    }

    static func microseconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value == 0 { return "0" }
        if abs(value) >= 100 { return String(format: "%.0f", value) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    static func perSecond(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "n/a" }
        let digits = String(Int(value.rounded()).magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    // MARK: - Escaping

    /// Text safe in element content and in double- or single-quoted attribute values.
    static func escape(_ text: String) -> String { Markup.escape(text) }

    /// The meta line every HTML report opens with: tool, time and command (nothing when nil).
    static func provenanceLine(_ provenance: Provenance?) -> String {
        guard let provenance else { return "" }
        return "<p class=\"meta\">Made by \(escape(provenance.tool)) at \(escape(provenance.generatedAt)): <code>\(escape(provenance.command.map(Provenance.quoted).joined(separator: " ")))</code>\(provenance.profile.map { "; judged against profile <b>\(escape($0.rawValue))</b>: \(escape($0.summary))" } ?? "")</p>\n"
    }

    // MARK: - Style and behaviour (constant: no data is ever placed in them)

    static let css = ReportAssets.text(PackageResources.report_css)

    static let script = ReportAssets.text(PackageResources.report_js)
}
