import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

struct CompareCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        _superCommandName: "trust-harness",
        abstract: "Show only the vectors where back ends disagree, side by side with their native reasons.",
        discussion: """
        Accepts the same selection and --format options as run. Exit status: 0 (disagreement is \
        information, not failure), 2 for bad input.
        Examples:
          trust-harness compare
          trust-harness compare --id 'policy/*' --backend openssl --backend gnutls
          trust-harness compare --format markdown --report disagreements.md
        """
    )

    @OptionGroup var options: ReportOptions
    @OptionGroup var output: OutputOption

    func validate() throws {
        if Set(options.backendOption.names).count == 1 { throw ValidationError("--backend: compare sets back ends side by side: name at least two (or none for all)") }
    }

    func run(in tool: ToolContext) async throws {
        let run = try await options.run(in: tool)
        let (infos, results) = (run.infos, run.results)
        let rows = ResultRows.group(results).filter(\.disagree)
        let disagreeing = rows.flatMap(\.results)
        if options.format == .text {
            try output.write(in: tool, Self.sideBySide(infos: infos, rows: rows, in: tool))
        } else {
            try output.write(in: tool, try options.render(infos: infos, results: disagreeing, title: "TrustHarness: where the back ends disagree", in: tool))
        }
        tool.error("\(rows.count) of \(ResultRows.group(results).count) vector(s) get different answers from \(infos.map(\.name).joined(separator: " and "))")
    }

    static func sideBySide(infos: [BackendInfo], rows: [ResultRows], in tool: ToolContext) -> String {
        var out = "Vectors where back ends disagree\n  by \(tool.provenance.line)\n"
        for info in infos { out += "  \(info.name): \(info.version)\n" }
        // The summary of the disagreeing vectors, in the run summary's terms (directions counted
        // with their recorded share), so the number read first is the honest one here too.
        if !rows.isEmpty {
            out += "\n" + TextReport.summary(ConformanceSummary.of(rows.flatMap(\.results), backends: infos.map(\.name)))
        }
        if rows.isEmpty { return out + "\nnone: every back end gives the same answer on every selected vector\n" }
        let width = infos.map(\.name.count).max() ?? 6
        for row in rows {
            out += "\n\(row.id)\n  \("expected".padding(toLength: max(width, 8), withPad: " ", startingAt: 0))  \(TextReport.expectation(row.expected))\n"
            for result in row.results {
                let name = result.backend.padding(toLength: max(width, 8), withPad: " ", startingAt: 0)
                let direction = result.judgement.failureKind.map { ", \($0.rawValue)" } ?? ""
                out += "  \(name)  \(TextReport.observed(result))  [\(result.outcome.rawValue)\(direction)]\n"
                if result.outcome == .deviation || result.outcome == .fail { out += "  \(String(repeating: " ", count: max(width, 8)))  \(result.judgement.detail)\n" }
                if let reason = result.observed?.reason { out += "  \(String(repeating: " ", count: max(width, 8)))  \(reason)\n" }
            }
        }
        return out
    }
}
