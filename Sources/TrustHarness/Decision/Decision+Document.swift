import Foundation
import TrustVectors

extension Decision {
    /// How the candidates are weighed, in a sentence (the pages say it where they rank).
    static let weighing = "Each candidate is weighed before it is counted: fewest critical accepts first, then high accepts, then valid chains refused (high), then medium and low accepts, counting the run's departures under the situation's profile and the false accepts of the suites it names (docs/impact.md); candidates of one kind are compared on the requests every one of them answered."

    /// The answer in one table: per situation (and kind of candidate), what to use, why, what comes next.
    public var answerSection: ReportDocument.Section {
        var rows: [[ReportDocument.Table.Cell]] = []
        for answer in answers {
            let title = answer.situation.title
            if let missing = answer.missing {
                rows.append([.init(title), .init("not answered", tone: .open), .init(missing), "", ""])
                continue
            }
            for ranking in answer.rankings {
                guard let best = ranking.candidates.first else { continue }
                let label = answer.rankings.count > 1 ? "\(title) (\(ranking.kind == .client ? "with an HTTP client" : "in your own code"))" : title
                let next = ranking.candidates.dropFirst().prefix(2).map { "\($0.name): \($0.weightLine)" }.joined(separator: " · ")
                let caveats = (answer.situation.limits ?? []).filter { $0.columns.contains(best.name) }.map(\.says)
                    + (answer.situation.excluded ?? []).filter { limit in answer.rankings.count == 1 || limit.columns.contains { kinds[$0] ?? .library == ranking.kind } }
                        .map { "not a candidate: \($0.columns.joined(separator: ", ")) \($0.says)" }
                rows.append([.init(label), .init(best.name, tone: .pass, code: true), .init(why(best, in: ranking, answer: answer)),
                             .init(next.isEmpty ? "(the only \(ranking.kind == .client ? "client" : "library") that can be used here)" : next),
                             .init(caveats.isEmpty ? "-" : caveats.joined(separator: " · "))])
            }
        }
        return .init(id: "choosing", title: "Which to use", blocks: [
            .paragraph(Self.weighing + " The evidence for each situation follows in its own section."),
            .table(.init(headers: ["situation", "use", "why", "next best", "but"], cells: rows)),
        ])
    }

    /// Why `best` leads its ranking, in a sentence, every figure from the reports.
    func why(_ best: Candidate, in ranking: Ranking, answer: Answer) -> String {
        let profile = answer.situation.profile.rawValue
        var parts = ["\(best.acceptLine) on the \(ranking.compared) requests compared under \(profile)"]
        if !best.suites.isEmpty { parts.append(best.suiteLine + " on the cases every candidate answered") }
        parts.append("\(best.rejects[.high, default: 0]) valid chains refused (high)")
        if let gravest = best.gravest.first { parts.append("gravest: \(gravest.id) \(gravest.count)") }
        if let speed = best.speed, let rsa = speed.rsa {
            let fastest = ranking.candidates.compactMap { $0.speed?.rsa }.min() ?? rsa
            parts.append(String(format: "RSA-2048 warm %@ (%.1fx the fastest candidate)", figure(rsa), rsa / fastest))
        }
        if ranking.candidates.count > 1, ranking.candidates[1].weight == best.weight { parts.append("tied with \(ranking.candidates[1].name); named first by name") }
        return parts.joined(separator: "; ")
    }

    func figure(_ value: Double) -> String {
        counted ? "\(DocumentWriter.grouped(value)) instructions" : (value >= 100 ? String(format: "%.0f µs", value) : String(format: "%.1f µs", value))
    }

    /// One section per situation: its candidates ranked with their departures by severity, gravest
    /// classes, the suites and families it names, speed where it counts, and what no run shows.
    public var situationSections: [ReportDocument.Section] {
        answers.map { answer in
            let situation = answer.situation
            var blocks: [ReportDocument.Block] = [.paragraph("For \(situation.who). Judged against profile \(situation.profile.rawValue)" + (situation.vectors.map { ", on the vectors \($0)*" } ?? "") + "; weighed as the answer says.")]
            if let missing = answer.missing { blocks.append(.callout(.open, "Not answered: \(missing).")) }
            if !answer.suitesMissing.isEmpty { blocks.append(.callout(.open, "No report of \(answer.suitesMissing.joined(separator: ", ")) was given: the ranking leaves \(answer.suitesMissing.count == 1 ? "it" : "them") out.")) }
            for ranking in answer.rankings {
                let families = situation.families ?? []
                let suites = (situation.suites ?? []).filter { name in ranking.candidates.contains { $0.suites[name] != nil } }
                let speed = situation.speed == true && ranking.candidates.contains { $0.speed != nil }
                var headers = ["", ranking.kind == .client ? "client" : "library", "accepts critical / high / medium / low", "refuses valid: high / medium / low", "gravest accepts"]
                headers += families.map { "\($0): accepts / rejects" }
                headers += suites.map { "\($0): false accepts (critical or high) / cases compared" }
                if speed { headers.append(counted ? "warm RSA-2048 / P-256, instructions" : "warm RSA-2048 / P-256, µs (one run)") }
                headers.append("needs")
                let rows: [[ReportDocument.Table.Cell]] = ranking.candidates.enumerated().map { index, c in
                    var row: [ReportDocument.Table.Cell] = [.init("\(index + 1)"), .init(c.name, tone: index == 0 ? .pass : nil, code: true),
                        .init(([.critical, .high, .medium, .low] as [ImpactCatalogue.Severity]).map { "\(c.accepts[$0, default: 0])" }.joined(separator: " / "), tone: (c.weight[0] + c.weight[1]) > 0 ? .accepts : nil),
                        .init(([.high, .medium, .low] as [ImpactCatalogue.Severity]).map { "\(c.rejects[$0, default: 0])" }.joined(separator: " / ")),
                        .init(c.gravest.prefix(3).map { "\($0.id) \($0.count)" }.joined(separator: ", ").ifEmpty("none"))]
                    row += families.map { .init(c.families[$0].map { "\($0.accepts) / \($0.rejects)" } ?? "-") }
                    row += suites.map { name in .init(c.suites[name].map { "\($0.falseAccepts) (\($0.serious)) / \($0.answered)" } ?? "not answered") }
                    if speed { row.append(.init(c.speed.map { [$0.rsa, $0.p256].map { $0.map(figure) ?? "not trusted" }.joined(separator: " / ") } ?? "not measured")) }
                    row.append(.init(needs[c.name] ?? "-"))
                    return row
                }
                blocks.append(.paragraph("\(ranking.kind == .client ? "HTTP clients" : "Libraries"), best first, on the \(ranking.compared) requests of the run every one of them answered."))
                blocks.append(.table(.init(headers: headers, cells: rows, numeric: [0])))
            }
            for limit in situation.limits ?? [] {
                blocks.append(.paragraph("\(limit.columns.joined(separator: ", ")): \(limit.says) (\(limit.source))."))
            }
            for limit in situation.excluded ?? [] {
                blocks.append(.paragraph("Not a candidate: \(limit.columns.joined(separator: ", ")) \(limit.says) (\(limit.source))."))
            }
            return .init(id: "situation-\(situation.id)", title: situation.title, blocks: blocks)
        }
    }

    /// What TrustHarness cannot yet tell.
    public var unknownSection: ReportDocument.Section {
        .init(id: "cannot-tell", title: "What TrustHarness cannot yet tell", blocks: unknowns.map { .paragraph($0) })
    }

    /// The decision page alone (`report --page choosing`): the answer, each situation's evidence,
    /// what cannot be told yet.
    public func document(provenance: Provenance?) -> ReportDocument {
        ReportDocument(title: "Choosing a TLS verification library or client for a Swift service on Linux", provenance: provenance,
                       summary: "Generated by trust-harness report --page choosing from the reports \(sources.joined(separator: ", ")): every figure and every ranking is computed from them; what no run can measure comes from Vectors/situations.json with its source.",
                       sections: [answerSection] + situationSections + [unknownSection])
    }
}

extension String {
    fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
