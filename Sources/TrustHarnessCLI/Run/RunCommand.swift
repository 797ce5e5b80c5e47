import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

struct RunCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        _superCommandName: "trust-harness",
        abstract: "Evaluate every vector on every back end and print the conformance matrix.",
        discussion: """
        Exit status: 0 when every result is a pass or a recorded deviation, 1 otherwise, 2 for bad input.
        Examples:
          trust-harness run --id 'expired-*' --backend gnutls
          trust-harness run --format junit --report conformance.xml
          trust-harness run --format html --report report.html
          trust-harness run --handshake --id 'valid-chain/*'
        """
    )

    @OptionGroup var options: ReportOptions

    @OptionGroup var formatOption: FormatOption<SuiteFormat>
    var format: SuiteFormat { formatOption.value }

    @Option(name: .customLong("benchmarks"), help: ArgumentHelp("HTML only: a `trust-harness bench --format json` file to chart beside the matrix.", valueName: "file"), completion: .file())
    var benchmarksFile: String?

    @OptionGroup var output: OutputOption

    @Flag(help: "Also serve every selected chain vector on 127.0.0.1 with a real TLS server and compare, per back end with a TLS client, the handshake's verdict with the chain's (differences recorded in Vectors/handshake.json); a summary on standard error.")
    var handshake = false

    func validate() throws {
        if benchmarksFile != nil && format != .html { throw ValidationError("--benchmarks charts figures in the HTML report: add --format html") }
    }

    func run(in tool: ToolContext) async throws {
        // Read before anything is evaluated: a bad file is refused at once.
        let benchmarks = try benchmarksFile.map { path in
            do { return try BenchmarkReport.read(URL(fileURLWithPath: path)) } catch { throw ValidationError("\(error)") }
        }
        let run = try await options.run(in: tool)
        let (infos, results) = (run.infos, run.results)
        try output.write(in: tool, try options.render(format, infos: infos, results: results, benchmarks: benchmarks, in: tool))
        var failed = false
        let unexpected = ConformanceSummary.of(results, backends: infos.map(\.name)).map(\.unexpected).reduce(0, +)
        if unexpected > 0 {
            tool.error("\(unexpected) result(s) neither pass nor match a recorded deviation")
            failed = true
        }
        if handshake { failed = try compareHandshakes(in: tool) || failed }
        if failed { throw ExitCode(1) }
    }

    /// The handshake comparison of the selected chain vectors; true when it found a problem.
    func compareHandshakes(in tool: ToolContext) throws -> Bool {
        guard let serve = tool.loopbackServer else { throw ValidationError("--handshake: this tool has no loopback TLS server") }
        let directory = try options.location.directory()
        let suite = try options.load(in: tool)
        let ids = Set(try options.subjects(of: ConformanceRunner(backends: [], suite: suite)).map(\.id))
        let recordURL = directory.appendingPathComponent("handshake.json")
        let record = FileManager.default.fileExists(atPath: recordURL.path) ? try HandshakeComparison.readRecord(recordURL) : HandshakeComparison.Record(differences: [])
        let comparison = HandshakeComparison(backends: try options.backends(in: tool), vectorsDirectory: directory, serve: serve)
        let rows = comparison.run(suite.vectors.filter { ids.contains($0.id) }, record: record)
        let problems = HandshakeComparison.problems(rows, record: record)
        tool.error("\nHandshake against chain (\(Set(rows.map(\.vector)).count) vectors served on 127.0.0.1, \(rows.count) handshakes): \(rows.filter(\.differs).count) differ, \(rows.filter { $0.differs && $0.recorded != nil }.count) of them recorded")
        for row in rows where row.differs {
            tool.error("  \(row.vector) on \(row.backend): handshake \(row.handshake), chain \(row.chain)\(row.recorded.map { " (recorded: \($0))" } ?? "")")
        }
        for problem in problems { tool.error("  PROBLEM: \(problem)") }
        return !problems.isEmpty
    }
}
