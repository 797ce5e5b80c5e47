import Foundation

/// `trust-harness fidelity` as a document of the one report model: each back end's agreement with
/// its library called the plain way, then every difference with what names it.
public enum FidelityDocument {
    public typealias Row = FidelityComparison.Row
    public typealias Agreement = FidelityComparison.Agreement

    /// The JSON body: the back ends, their summaries, every difference (rows that agree are counted
    /// only) and the problems.
    public struct JSONBody: Sendable, Codable {
        public var backends: [BackendInfo]
        public var summary: [FidelityComparison.Summary]
        public var differences: [Row]
        public var problems: [String]

        public init(backends: [BackendInfo], rows: [Row], problems: [String]) {
            self.backends = backends
            self.summary = FidelityComparison.summaries(rows, backends: backends.map(\.name))
            self.differences = rows.filter { $0.agreement != .agrees }
            self.problems = problems
        }
    }

    /// The columns of the summary, in order.
    static let counted: [Agreement] = [.agrees, .layer, .limit, .notAsked, .recorded, .unexplained, .noReference]

    public static func make(backends: [BackendInfo], rows: [Row], problems: [String], provenance: Provenance?, title: String = "TrustHarness: fidelity") -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let summaries = FidelityComparison.summaries(rows, backends: backends.map(\.name))
        let summaryCells = summaries.map { s -> [Cell] in
            [Cell(s.backend), Cell(s.reference ?? "none"), Cell("\(s.requests)"), Cell("\(s.compared)")]
                + counted.map { agreement in
                    let count = s.counts[agreement] ?? 0
                    let tone: ReportDocument.Tone? = count == 0 ? nil : agreement == .unexplained ? .rejects : agreement == .agrees ? .pass : .deviation
                    return Cell("\(count)", tone: tone)
                }
                + [Cell(s.compared == 0 ? "-" : String(format: "%.1f%%", s.agreementPercent))]
        }
        var summaryTable = ReportDocument.Table(
            headers: ["back end", "reference", "requests", "compared", "agree", "layer", "limit", "not asked", "recorded", "unexplained", "no reference", "agreement"],
            cells: summaryCells, numeric: Set(2...11),
            legend: [.pass: "the same answer as the library called plainly", .deviation: "a named difference", .rejects: "unexplained"])
        summaryTable.staticNotes = false
        let differences = rows.filter { $0.agreement != .agrees && $0.agreement != .noReference }
        let cells = differences.map { row -> [Cell] in
            [Cell(row.vector, code: true), Cell(row.backend), Cell(row.column), Cell("\(row.reference ?? "-"): \(row.referenceAnswer)"),
             Cell(row.agreement.rawValue, tone: row.agreement == .unexplained ? .rejects : .deviation, detail: row.why)]
        }
        var table = ReportDocument.Table(headers: ["vector", "back end", "column", "reference", "named as"], cells: cells,
                                         legend: [.deviation: "a named difference", .rejects: "unexplained"])
        table.textLayout = .records
        let unexplained = problems.count
        return ReportDocument(
            title: title, provenance: provenance,
            summary: "Each back end's column beside its library called the plain way (its raw loop, or a reference of its own), on every chain vector: "
                + backends.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
            sections: [
                .init(id: "differences", title: "Differences", blocks: differences.isEmpty ? [.paragraph("None: every column answers as its library called plainly.")] : [.table(table)]),
                .init(id: "summary", title: "Summary", blocks: [
                    .callout(unexplained == 0 ? .pass : .rejects, unexplained == 0
                             ? "Every difference is named: a layer of ours, a limit, a request the harness could not ask, or a recorded difference with its reason."
                             : "\(unexplained) problem(s): " + problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; ..." : "")),
                    .paragraph("\"compared\" counts the requests the reference answers (not an IP host to a loop that takes DNS names only, nor a request that sets what the reference does not take: a depth, any purpose, CRLs or OCSP responses where its call has none). A column named NAME+checks is the library behind TrustHarness's checks layer: its differences from the library are the layer's."),
                    .table(summaryTable),
                ], inText: .atEnd),
            ]
        )
    }
}
