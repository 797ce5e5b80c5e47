import Foundation
import TrustHarness

/// The explorer's reports: text for a terminal, HTML for a browser (one row per class: the mutation,
/// each back end's verdict and reason, the example's files), JSON through ``Explorer/Report``.
public enum ExploreReports {
    public static func text(_ report: Explorer.Report, backends: [BackendInfo], provenance: Provenance?, folders: [String]?) -> String {
        var out = "TrustHarness explore: seed \(report.seed)\n"
        if let provenance { out += "  by \(provenance.line)\n" }
        for backend in backends { out += "  \(backend.name): \(backend.version)\n" }
        out += "\n\(report.mutants) mutants of \(report.bases.count) chains in \(String(format: "%.1f", report.seconds)) s (\(Int(Double(report.mutants) / max(report.seconds, 0.001) * 60))/min); \(report.notApplicable) drawn mutations did not apply\n"
        out += "the standards' answer (profile \(report.profile.rawValue)) for \(report.answered) of them, \(report.leftOpen) of those left open by the standards; the other \(report.mutants - report.answered) change what no rule answers (mutations that meet each other or the base)\n"
        if !report.disagreeingBases.isEmpty {
            out += "left out, trusted by fewer than two back ends once re-keyed: \(report.disagreeingBases.joined(separator: ", "))\n"
        }
        for (backend, bases) in report.excludedBackends.sorted(by: { $0.key < $1.key }) {
            out += "\(backend) left out of \(bases.count) chain\(bases.count == 1 ? "" : "s") it does not trust once re-keyed (their mutants are asked of the others): \(bases.joined(separator: ", "))\n"
        }
        let kinds = Dictionary(grouping: report.findings, by: \.kind).mapValues(\.count)
        let places = Set(report.findings.map { $0.steps.map(\.description).joined(separator: " + ") }).count
        out += "\(report.disagreeing) mutants in \(report.findings.count) classes (\(places) mutations and places): \(kinds["shared-accept", default: 0]) accepted by every back end against the standards, \(kinds["verdict", default: 0]) on the verdict, \(kinds["shared-reject", default: 0]) rejected by every back end against the standards, \(kinds["reason", default: 0]) on the failure classes only, \(kinds["closed", default: 0]) closed by a hardening (every back end as the standards say; adopted, they pin it)\n"
        out += familyTable(report)
        for (index, finding) in report.findings.enumerated() {
            out += "\n\(index + 1). [\(finding.kind)] \(finding.steps.map(\.description).joined(separator: " + "))  (\(finding.occurrences) mutant\(finding.occurrences == 1 ? "" : "s"); example from \(finding.base))\n"
            out += "   \(finding.summary)\n"
            if let standard = finding.standard {
                out += "   standard: \(standard.trusted ? "trusted" : "rejected [\(standard.failures.map(\.rawValue).joined(separator: ", "))]")\n"
            }
            let width = finding.answers.map(\.backend.count).max() ?? 8
            for answer in finding.answers {
                let reason = answer.diagnostics.first.map { "  \(shorten($0))" } ?? ""
                let mark = finding.conforms(answer).map { $0 ? "  " : answer.trusted ? "! " : "- " } ?? "  "
                out += " \(mark)\(answer.backend.padding(toLength: width, withPad: " ", startingAt: 0))  \(answer.signature)\(reason)\n"
            }
            if let folders, index < folders.count {
                out += "   reproduce: \(FindingFiles.command(finding, folder: folders[index]))\n"
            }
        }
        return out
    }

    /// The run as a document: the counts, then one row per class (the mutation, the standards'
    /// answer, each back end's verdict with its diagnostics, the example's files).
    public static func document(_ report: Explorer.Report, backends: [BackendInfo], provenance: Provenance?, folders: [String]?) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let kinds = Dictionary(grouping: report.findings, by: \.kind).mapValues(\.count)
        let rows = report.findings.enumerated().map { index, finding -> [Cell] in
            let standard = finding.standard.map { $0.trusted ? "trusted" : "rejected [\($0.failures.map(\.rawValue).joined(separator: ", "))]" } ?? "open"
            let mutation = Cell(finding.steps.map(\.description).joined(separator: " + "),
                                detail: "\(finding.summary); \(finding.kind) disagreement, \(finding.occurrences) mutant(s), example from \(finding.base)")
            let answers = backends.map { backend -> Cell in
                guard let answer = finding.answers.first(where: { $0.backend == backend.name }) else { return Cell("not run", tone: .open) }
                // Toned against the standards' answer where there is one; neutral where it is open.
                let tone: ReportDocument.Tone = finding.conforms(answer).map { $0 ? .pass : answer.trusted ? .accepts : .rejects } ?? .open
                return Cell(answer.signature, tone: tone, detail: answer.diagnostics.joined(separator: "; "))
            }
            let files = folders.map { index < $0.count ? $0[index] : "" } ?? ""
            return [Cell("\(index + 1)"), mutation, Cell(standard)] + answers + [Cell(files)]
        }
        return ReportDocument(
            title: "TrustHarness explore", provenance: provenance,
            summary: "Seed \(report.seed); back ends " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ")
                + ". \(report.mutants) mutants of \(report.bases.count) chains in \(String(format: "%.1f", report.seconds)) s; \(report.disagreeing) mutants in \(report.findings.count) classes: "
                + "\(kinds["shared-accept", default: 0]) accepted by every back end against the standards, \(kinds["verdict", default: 0]) on the verdict, \(kinds["shared-reject", default: 0]) rejected by every back end against the standards, \(kinds["reason", default: 0]) on the failure classes only, \(kinds["closed", default: 0]) closed by a hardening.",
            sections: [.init(id: "classes", title: "Classes", blocks: [.table(.init(
                headers: ["#", "mutation", "standard"] + backends.map(\.name) + ["example"], cells: rows, numeric: [0],
                legend: [.pass: "as the standard says", .accepts: "trusted, the standard rejects (security relevant)", .rejects: "rejected otherwise than the standard says", .open: "the standards leave it open (or a pair)"]
            ))])]
        )
    }

    public static func html(_ report: Explorer.Report, backends: [BackendInfo], provenance: Provenance?, folders: [String]?) -> String {
        DocumentWriter.html(document(report, backends: backends, provenance: provenance, folders: folders))
    }

    /// Classes by mutation family (the part of the mutation's name before `/`; a pair counts under
    /// its first mutation's), with, per back end, how many of its answers in them depart from the
    /// standards' answer (classes without one are not counted).
    static func familyTable(_ report: Explorer.Report) -> String {
        let families = Dictionary(grouping: report.findings) { finding in
            String((finding.steps.first?.mutation ?? "?").prefix { $0 != "/" })
        }
        guard !families.isEmpty else { return "" }
        let backends = report.backends
        var rows: [[String]] = []
        for (family, findings) in families.sorted(by: { $0.key < $1.key }) {
            var row = [family, "\(findings.count)", "\(findings.filter { $0.kind == "shared-accept" }.count)"]
            for backend in backends {
                let departures = findings.filter { finding in
                    finding.answers.first { $0.backend == backend }.map { finding.conforms($0) == false } ?? false
                }.count
                row.append("\(departures)")
            }
            rows.append(row)
        }
        let columns = ["family", "classes", "shared accepts"] + backends
        return "\nclasses by family, and per back end the classes where it departs from the standards:\n" + TextTable.render(headers: columns, rows: rows)
    }

    static func shorten(_ text: String, to limit: Int = 110) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}
