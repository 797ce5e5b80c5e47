import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Evaluate every vector on every back end and print the conformance matrix.",
        discussion: "Exits 0 when every result is a pass or a recorded deviation, 1 otherwise."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var location: VectorsOption

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .text

    func run() async throws {
        let suite: VectorSuite
        do {
            suite = try VectorSuite.load(from: try location.directory())
        } catch let error as VectorLoadError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let backends = BackendRegistry.all
        let infos = backends.map(BackendInfo.init)
        let results = await ConformanceRunner(backends: backends, suite: suite).run()
        switch format {
        case .text:
            print(TextReport.render(backends: infos, results: results), terminator: "")
        case .json:
            print(try JSONReport(backends: infos, results: results).encoded())
        }
        let unexpected = ConformanceSummary.of(results, backends: infos.map(\.name)).map(\.unexpected).reduce(0, +)
        if unexpected > 0 {
            printError("\(unexpected) result(s) neither pass nor match a recorded deviation")
            throw ExitCode(1)
        }
    }
}
