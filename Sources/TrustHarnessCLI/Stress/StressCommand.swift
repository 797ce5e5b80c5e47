import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

struct StressCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        _superCommandName: "trust-harness",
        abstract: "Many tasks evaluating at once on shared evaluators: every verdict must equal the single-task one; reports throughput and resident memory.",
        discussion: """
        The requests are every chain vector (the catalogue and the explored set), every bad-input case (up to \
        64 certificates) and every x509-limbo and NIST PKITS case of the vectors folder that a back end is not \
        skipped for, on every back end, at their own validation times, mixed. Each verdict is compared with the \
        one a single uncached task got (trusted, failure classes, diagnostic names, path length); a request that \
        gets more than one verdict is listed as unstable with every verdict and its count. Resident memory is sampled once a second: over a long run \
        (--seconds 120) it shows whether evaluations leak. Exit status: 0 with no wrong verdict, 1 otherwise.
        Examples:
          trust-harness stress --seconds 5
          swift run -c release trust-harness stress --seconds 60 --tasks 16
        """
    )

    typealias Format = DocumentFormat

    @OptionGroup var location: VectorsOption

    @Option(help: "How long the tasks run, in seconds.")
    var seconds: Double = 10

    @Option(name: .customLong("tasks"), help: ArgumentHelp("How many tasks evaluate at once (default: two per core, at least 2).", valueName: "n"))
    var taskOption: Int?

    /// `--tasks`, else two per core (at least 2).
    var tasks: Int { taskOption ?? max(2, ProcessInfo.processInfo.activeProcessorCount * 2) }

    @OptionGroup var backendOption: BackendOption

    @OptionGroup var formatOption: FormatOption<Format>
    var format: Format { formatOption.value }

    @OptionGroup var output: OutputOption

    func validate() throws {
        guard seconds > 0, seconds <= 86_400 else { throw ValidationError("--seconds must be between 0 and 86400") }
        guard tasks >= 1, tasks <= 10_000 else { throw ValidationError("--tasks must be between 1 and 10000") }
    }

    func run(in tool: ToolContext) async throws {
        let directory = try location.directory()
        let suite = try location.load(in: tool)
        let backends: [any TrustBackend]
        let references: [any TrustBackend]
        do {
            backends = try backendOption.backends(in: tool)
            references = try backendOption.backends(configuration: .uncached, in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        let corpus = try? BadInputCorpus.load(vectors: directory)
        // The vendored suites, as `limbo` and `pkits` ask them.
        var cases: [LimboTestcase] = []
        for kind in [SuiteKind.limbo, .pkits] {
            let url = directory.appendingPathComponent(kind.vendoredPath)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do { cases += try kind.load(url).testcases } catch { throw ValidationError("\(kind.vendoredPath): \(error)") }
        }
        let runner = try LoadRunner(backends: backends, references: references, suite: suite, corpus: corpus, suites: cases)
        tool.error("stress: \(tasks) tasks for \(seconds) s on \(backends.map(\.name).joined(separator: ", "))...")
        let report = await runner.run(tasks: tasks, seconds: seconds)
        switch format {
        case .json:
            try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: WithBackends(backends: backends.map(BackendInfo.init), body: report))) + "\n")
        case .text, .markdown, .html:
            let infos = backends.map(BackendInfo.init)
            var blocks: [ReportDocument.Block] = [
                .callout(report.wrongVerdicts == 0 && report.unstable.isEmpty ? .pass : .rejects, "evaluations: \(report.evaluations), wrong verdicts: \(report.wrongVerdicts)"),
                .paragraph("\(report.tasks) tasks, \(String(format: "%.1f", report.seconds)) s, \(report.requests) distinct requests (\(backends.map(\.name).joined(separator: ", ")))"),
                .paragraph("throughput: \(Int(report.perSecond))/s with \(report.tasks) tasks, \(Int(report.singleTaskPerSecond))/s with one: \(String(format: "%.2f", report.perSecond / max(report.singleTaskPerSecond, 1)))x on \(ProcessInfo.processInfo.activeProcessorCount) cores"),
                .paragraph("resident memory (MiB): \(String(format: "%.1f", report.residentMiBAfterWarmUp)) after warm-up, \(String(format: "%.1f", report.residentMiBMinimum))-\(String(format: "%.1f", report.residentMiBMaximum)) during, \(String(format: "%.1f", report.residentMiBAtEnd)) at the end"),
            ]
            if !report.wrongExamples.isEmpty || !report.unstable.isEmpty {
                blocks.append(.details([
                    .init(id: "wrong", title: "wrong verdicts", items: report.wrongExamples),
                    .init(id: "unstable", title: "unstable requests", items: report.unstable.map { "UNSTABLE \($0.request): \(VerdictVariant.describe($0.variants))" }),
                ]))
            }
            let document = ReportDocument(title: "TrustHarness stress", provenance: tool.provenance,
                                          summary: "Back ends: " + infos.map { "\($0.name) (\($0.version))" }.joined(separator: ", ") + ".",
                                          sections: [.init(id: "load", title: "Under load", blocks: blocks)])
            try output.write(in: tool, format.render(document) ?? "")
        }
        if report.wrongVerdicts > 0 {
            tool.error("\(report.wrongVerdicts) verdict(s) under load differ from the single-task verdict; \(report.unstable.count) request(s) unstable")
            throw ExitCode(1)
        }
    }
}
