import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Evaluate every vector on every back end and print the conformance matrix.",
        discussion: """
        Exit status: 0 when every result is a pass or a recorded deviation, 1 otherwise, 2 for bad input.
        Examples:
          trust-harness run --id 'expired-*' --backend gnutls
          trust-harness run --format junit --report conformance.xml
          trust-harness run --format html --report report.html
        """
    )

    @OptionGroup var options: ReportOptions
    @OptionGroup var output: OutputOption

    func run() async throws {
        let run = try await options.run()
        let (infos, results) = (run.infos, run.results)
        try output.write(try options.render(infos: infos, results: results, benchmarks: run.benchmarks))
        let unexpected = ConformanceSummary.of(results, backends: infos.map(\.name)).map(\.unexpected).reduce(0, +)
        if unexpected > 0 {
            printError("\(unexpected) result(s) neither pass nor match a recorded deviation")
            throw ExitCode(1)
        }
    }
}
