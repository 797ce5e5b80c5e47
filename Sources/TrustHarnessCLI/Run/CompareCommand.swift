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

    @OptionGroup var formatOption: FormatOption<SuiteFormat>

    @OptionGroup var output: OutputOption

    func validate() throws {
        if Set(options.backendOption.names).count == 1 { throw ValidationError("--backend: compare sets back ends side by side: name at least two (or none for all)") }
    }

    func run(in tool: ToolContext) async throws {
        let run = try await options.run(in: tool)
        let (infos, results) = (run.infos, run.results)
        let rows = ResultRows.group(results).filter(\.disagree)
        let disagreeing = rows.flatMap(\.results)
        try output.write(in: tool, try options.render(formatOption.value, infos: infos, results: disagreeing, title: "TrustHarness: where the back ends disagree",
                                                      whenEmpty: "None: every back end gives the same answer on every selected vector.", in: tool))
        tool.error("\(rows.count) of \(ResultRows.group(results).count) vector(s) get different answers from \(infos.map(\.name).joined(separator: " and "))")
    }
}
