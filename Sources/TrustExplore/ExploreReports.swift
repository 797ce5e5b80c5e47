import Foundation
import TrustHarness
import TrustVectors

/// The explorer's report as a document of the one model (text for a terminal, Markdown, HTML: one
/// record per class with the mutation, each back end's verdict and reason, the command reproducing
/// it); JSON through ``Explorer/Report``.
public enum ExploreReports {
    /// The run as a document: what was asked and answered, the classes by family of mutation with
    /// each back end's departures, then one record per class (the mutation, the standards' answer,
    /// each back end's verdict with its diagnostics, the command that reproduces it).
    ///
    /// `listing` caps the classes listed one by one: a run with more lists the `listing` ranked
    /// highest (``Report/ranking``, else the first), in the ranking's order and under their class
    /// numbers, and says where the rest are; nil lists every class in report order. The counts,
    /// the ranking's head and the families always cover every class.
    public static func document(_ report: Explorer.Report, backends: [BackendInfo], provenance: Provenance?, folders: [String]?, listing: Int? = nil) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let kinds = Dictionary(grouping: report.findings, by: \.kind).mapValues(\.count)
        let places = Set(report.findings.map { $0.steps.map(\.description).joined(separator: " + ") }).count
        var run: [ReportDocument.Block] = [
            .paragraph("\(report.mutants) mutants of \(report.bases.count) chains in \(String(format: "%.1f", report.seconds)) s (\(Int(Double(report.mutants) / max(report.seconds, 0.001) * 60))/min); \(report.notApplicable) drawn mutations did not apply."),
            .paragraph("The standards' answer (profile \(report.profile.rawValue)) for \(report.answered) of them, \(report.leftOpen) of those left open by the standards; the other \(report.mutants - report.answered) change what no rule answers (mutations that meet each other or the base)."),
        ]
        if !report.disagreeingBases.isEmpty {
            run.append(.paragraph("Left out, trusted once re-keyed by fewer than two of the back ends that can be asked about it (by none, where at most one can): \(report.disagreeingBases.joined(separator: ", "))."))
        }
        for (backend, bases) in (report.lackingFeatures ?? [:]).sorted(by: { $0.key < $1.key }) {
            run.append(.paragraph("\(backend) not asked about \(bases.count) chain\(bases.count == 1 ? "" : "s") whose request needs a feature it lacks (CRLs, OCSP responses or the revocation mode): \(bases.joined(separator: ", "))."))
        }
        for (backend, bases) in report.excludedBackends.sorted(by: { $0.key < $1.key }) {
            run.append(.paragraph("\(backend) left out of \(bases.count) chain\(bases.count == 1 ? "" : "s") it does not trust once re-keyed (their mutants are asked of the others): \(bases.joined(separator: ", "))."))
        }
        if report.foldedPairs > 0 {
            run.append(.paragraph("\(report.foldedPairs) mutants of two mutations folded into the class of one of them, which gives the same answers alone (counted in its mutants); a class of two mutations is one neither gives alone."))
        }
        if let time = report.coreTime, time.all > 0 {
            run.append(contentsOf: coreTimeBlocks(report, time))
        }
        run.append(.callout(kinds["shared-accept", default: 0] > 0 ? .accepts : .pass,
            "\(report.disagreeing) mutants in \(report.findings.count) classes (\(places) mutations and places): \(kinds["shared-accept", default: 0]) accepted by every back end against the standards, \(kinds["verdict", default: 0]) on the verdict, \(kinds["shared-reject", default: 0]) rejected by every back end against the standards, \(kinds["reason", default: 0]) on the failure classes only, \(kinds["closed", default: 0]) closed by a hardening (every back end as the standards say; adopted, they pin it)."))

        let listed = listedClasses(report, limit: listing)
        let rows = listed.map { index -> [Cell] in
            let finding = report.findings[index]
            let standard = finding.standard.map { $0.trusted ? "trusted" : "rejected [\($0.failures.map(\.rawValue).joined(separator: ", "))]" } ?? "open"
            let mutation = Cell("\(index + 1). [\(finding.kind)] \(finding.steps.map(\.description).joined(separator: " + "))")
            let folded = finding.foldedPairs.map { ", \($0) of them pairs folded in" } ?? ""
            let what = Cell("\(finding.summary) (\(finding.occurrences) mutant\(finding.occurrences == 1 ? "" : "s")\(folded), example from \(finding.base))")
            let answers = backends.map { backend -> Cell in
                guard let answer = finding.answers.first(where: { $0.backend == backend.name }) else { return Cell("not run", tone: .skipped) }
                // Toned against the standards' answer where there is one; neutral where it is open.
                let tone: ReportDocument.Tone = finding.conforms(answer).map { $0 ? .pass : answer.trusted ? .accepts : .rejects } ?? .open
                return Cell(answer.signature, tone: tone, detail: answer.diagnostics.isEmpty ? nil : answer.diagnostics.joined(separator: "\n"))
            }
            let reproduce = folders.flatMap { index < $0.count ? FindingFiles.command(finding, folder: $0[index]) : nil } ?? ""
            return [mutation, Cell(standard), what] + answers + [Cell(reproduce, code: !reproduce.isEmpty)]
        }
        var classes = ReportDocument.Table(
            headers: ["class", "standard", "what it changes"] + backends.map(\.name) + ["reproduce"], cells: rows,
            legend: [.pass: "as the standard says", .accepts: "trusted, the standard rejects (security relevant)", .rejects: "rejected otherwise than the standard says", .open: "the standards leave it open (or a pair)"],
            id: "classes-table", filters: [.init("shared-accept", "accepted by every back end against the standards"), .init("verdict", "on the verdict")],
            rowTags: listed.map { [report.findings[$0].kind] })
        classes.textLayout = .records
        classes.searchable = true
        var classBlocks: [ReportDocument.Block] = [.table(classes)]
        if listed.count < report.findings.count {
            classBlocks.insert(.paragraph("The \(listed.count) classes ranked highest of \(report.findings.count), in the ranking's order, numbered as in the JSON report (`--format json`, `findings`); it and `--results-dir` hold every class, and `--page-classes 0` lists them all here."), at: 0)
        }
        return ReportDocument(
            title: "TrustHarness explore", provenance: provenance,
            summary: "Seed \(report.seed); back ends " + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
            sections: (report.ranking.map { [ReportDocument.Section(id: "ranking", title: "Read first", blocks: rankingBlocks(report, $0, listed: listed.count))] } ?? []) + [
                .init(id: "run", title: "The run", blocks: run),
                .init(id: "families", title: "Classes by family", blocks: familyTable(report)),
                .init(id: "classes", title: "Classes", blocks: classBlocks),
            ])
    }

    /// The ranking's head: the classes to read first, most security-relevant on top, with how many
    /// classes each tier holds and how many pairs were folded.
    static let rankedRows = 30

    /// The indices of the classes listed one by one: every class in report order, or, past `limit`,
    /// the `limit` ranked highest in the ranking's order.
    static func listedClasses(_ report: Explorer.Report, limit: Int?) -> [Int] {
        guard let limit, limit < report.findings.count else { return Array(report.findings.indices) }
        return Array((report.ranking?.map(\.finding) ?? Array(report.findings.indices)).prefix(max(0, limit)))
    }

    static func rankingBlocks(_ report: Explorer.Report, _ ranking: [Explorer.Ranked], listed: Int) -> [ReportDocument.Block] {
        typealias Cell = ReportDocument.Table.Cell
        let tiers = Dictionary(grouping: ranking, by: \.tier).mapValues(\.count)
        let adopted = ranking.filter(\.adopted).count
        var blocks: [ReportDocument.Block] = [
            .callout(tiers[1, default: 0] > 0 ? .accepts : .pass,
                "\(tiers[1, default: 0]) classes accepted where the standards reject, \(tiers[2, default: 0]) rejected where they trust, \(tiers[3, default: 0]) on the failure classes only, \(tiers[4, default: 0]) other; \(ranking.count - adopted) new, \(adopted) already adopted as vectors. \(report.foldedPairs) pairs folded into their single mutation's class."),
        ]
        let rows = ranking.prefix(rankedRows).enumerated().map { rank, entry -> [Cell] in
            let finding = report.findings[entry.finding]
            let tone: ReportDocument.Tone = entry.tier == 1 ? .accepts : entry.tier == 2 ? .rejects : .open
            return [
                Cell("\(rank + 1)"),
                Cell(entry.why, tone: tone),
                Cell(entry.impact.map(\.label) ?? ""),
                Cell("\(entry.finding + 1). \(finding.steps.map(\.description).joined(separator: " + "))"),
                Cell(entry.backends.joined(separator: ", ")),
                Cell("\(finding.occurrences)\(finding.foldedPairs.map { " (\($0) folded pairs)" } ?? "")"),
                Cell(entry.adopted ? "adopted" : "new"),
            ]
        }
        var table = ReportDocument.Table(
            headers: ["rank", "why", "impact", "class", "back ends", "mutants", "vectors"], cells: rows,
            legend: [.accepts: "trusted where the standards reject (security relevant)", .rejects: "rejected where the standards trust", .open: "failure classes, or left open"],
            id: "ranking-table", filters: [], rowTags: [])
        table.textLayout = .records
        blocks.append(.table(table))
        if ranking.count > rankedRows {
            let below = listed >= ranking.count ? "in the classes below and" : listed > rankedRows ? "the next \(listed - rankedRows) of them in the classes below, every one" : "every one"
            blocks.append(.paragraph("\(ranking.count - rankedRows) more classes, \(below) in the JSON report's `ranking`."))
        }
        return blocks
    }

    /// Where the cores' time went: per back end its seconds in evaluations, per evaluation and as
    /// evaluations per core-second; the explorer's own (making and signing mutants); and mutants per
    /// core-second in all.
    static func coreTimeBlocks(_ report: Explorer.Report, _ time: Explorer.CoreTime) -> [ReportDocument.Block] {
        typealias Cell = ReportDocument.Table.Cell
        func figure(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var rows: [[Cell]] = time.backends.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { name, seconds in
            let count = time.evaluations[name, default: 0]
            return [Cell(name), Cell(figure(seconds)), Cell("\(count)"),
                    Cell(count > 0 ? figure(seconds / Double(count) * 1000, 3) : "-"),
                    Cell(seconds > 0 ? "\(Int((Double(count) / seconds).rounded()))" : "-")]
        }
        let drawn = report.mutants + report.notApplicable
        rows.append([Cell("the explorer (making and signing mutants)"), Cell(figure(time.explorer)), Cell(""), Cell(""), Cell("")])
        rows.append([Cell("in all"), Cell(figure(time.all)), Cell("\(drawn) mutants"),
                     Cell(drawn > 0 ? figure(time.all / Double(drawn) * 1000, 3) : "-"),
                     Cell(time.all > 0 ? "\(Int((Double(drawn) / time.all).rounded()))" : "-")])
        return [
            .paragraph("The cores' time: \(figure(time.all)) core-seconds in the mutants' jobs, one per core side by side (wall time of each job and each library call, added up; another process's work for a back end included). A back end evaluates a pair's single mutants too, so it makes more evaluations than there are mutants; a back end left out of a base makes fewer."),
            .table(.init(headers: ["back end", "core-seconds", "evaluations", "ms per evaluation", "per core-second"], cells: rows, numeric: [1, 2, 3, 4])),
        ]
    }

    /// Classes by mutation family (the part of the mutation's name before `/`; a pair counts under
    /// its first mutation's), with, per back end, how many of its answers in them depart from the
    /// standards' answer (classes without one are not counted).
    static func familyTable(_ report: Explorer.Report) -> [ReportDocument.Block] {
        let families = Dictionary(grouping: report.findings) { finding in
            ComparisonReport.mutationFamily(finding.steps.first?.mutation ?? "?")
        }
        guard !families.isEmpty else { return [.paragraph("No class.")] }
        let backends = report.backends
        var rows: [[ReportDocument.Table.Cell]] = []
        for (family, findings) in families.sorted(by: { $0.key < $1.key }) {
            let shared = findings.filter { $0.kind == "shared-accept" }.count
            var row: [ReportDocument.Table.Cell] = [.init(family), .init("\(findings.count)"), .init("\(shared)", tone: shared > 0 ? .accepts : nil)]
            for backend in backends {
                let departures = findings.filter { finding in
                    finding.answers.first { $0.backend == backend }.map { finding.conforms($0) == false } ?? false
                }.count
                row.append(.init("\(departures)"))
            }
            rows.append(row)
        }
        return [
            .paragraph("Per family of mutation, its classes, those every back end accepts against the standards, and per back end the classes where it departs from the standards."),
            .table(.init(headers: ["family", "classes", "shared accepts"] + backends, cells: rows, numeric: Set(1..<(3 + backends.count)))),
        ]
    }
}
