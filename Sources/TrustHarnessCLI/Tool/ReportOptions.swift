import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Selection and output options shared by `run` and `compare`.
struct ReportOptions: ParsableArguments {
    typealias Format = SuiteFormat

    @OptionGroup var location: VectorsOption

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp("Only vectors whose id matches this pattern (* and ? wildcards, e.g. 'expired-*' or 'policy/*/p256'); repeatable. --vector is the same.", valueName: "pattern"))
    var vectorPatterns: [String] = []

    @OptionGroup var backendOption: BackendOption

    @OptionGroup var profileOption: ProfileOption

    @Option(help: SuiteFormat.help)
    var format: Format = .text

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Ask every request again in this many rounds, each on one task and on many tasks at once, one through warm shared evaluators and the other through cold new ones (they swap each round: 2 rounds ask all four ways); a request whose verdicts differ is reported as unstable, with every verdict and its count, and fails the run. 0: ask once.", valueName: "n"))
    var repetitions: Int = 2

    @Option(name: .customLong("benchmarks"), help: ArgumentHelp("HTML only: a `trust-harness bench --format json` file to chart beside the matrix.", valueName: "file"), completion: .file())
    var benchmarksFile: String?

    func validate() throws {
        if repetitions < 0 || repetitions > 1000 { throw ValidationError("--repeat takes 0 to 1000 (how many more times each request is asked in each way), not \(repetitions)") }
        if benchmarksFile != nil && format != .html { throw ValidationError("--benchmarks charts figures in the HTML report: add --format html") }
    }

    func backends() throws -> [any TrustBackend] {
        do {
            return try backendOption.backends()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func subjects(of runner: ConformanceRunner) throws -> [ConformanceRunner.Subject] {
        let all = runner.allSubjects
        guard !vectorPatterns.isEmpty else { return all }
        let selected = all.filter { subject in vectorPatterns.contains { Glob.matches($0, subject.id) } }
        guard !selected.isEmpty else {
            throw ValidationError("--id: no vector id matches \(vectorPatterns.map { "'\($0)'" }.joined(separator: ", ")); ids look like 'expired-leaf/rsa2048' or 'policy/certificate-pin-leaf/p256'")
        }
        return selected
    }

    /// Runs the selected vectors with progress on a terminal (standard error), none when piped.
    /// Bad options and files are refused before anything is evaluated.
    func run() async throws -> RunOutput {
        let backends = try backends()
        let benchmarks = try benchmarksFile.map { path in
            do { return try BenchmarkReport.read(URL(fileURLWithPath: path)) } catch { throw ValidationError("\(error)") }
        }
        let runner = ConformanceRunner(backends: backends, suite: try location.load(), profile: profileOption.profile)
        let subjects = try subjects(of: runner)
        let progress = Progress.onTerminal(label: "evaluating")
        var report: (@Sendable (Int, Int) -> Void)?
        if let progress {
            report = { done, total in progress.update(done, total) }
        }
        let results = await runner.run(subjects, repetitions: repetitions, progress: report)
        progress?.finish()
        return RunOutput(infos: backends.map(BackendInfo.init), results: results, benchmarks: benchmarks)
    }

    struct RunOutput {
        var infos: [BackendInfo]
        var results: [ConformanceResult]
        var benchmarks: BenchmarkReport?
    }

    func render(infos: [BackendInfo], results: [ConformanceResult], benchmarks: BenchmarkReport? = nil, title: String = "TrustHarness conformance") throws -> String {
        let provenance = TrustHarnessTool.provenance(judging: profileOption.profile)
        switch format {
        case .text: return TextReport.render(backends: infos, results: results, provenance: provenance)
        case .json: return try JSONReport(backends: infos, results: results, provenance: provenance).encoded() + "\n"
        case .junit: return JUnitReport.render(backends: infos, results: results, provenance: provenance, suite: title == "TrustHarness conformance" ? "TrustHarness" : "TrustHarness compare")
        case .markdown: return MarkdownReport.render(backends: infos, results: results, provenance: provenance, title: title)
        case .html:
            return HTMLReport.render(backends: infos, results: results, benchmarks: benchmarks, title: title, provenance: provenance)
        }
    }
}

/// The formats of every command that runs a suite (`run`, `compare`, `limbo`, `bad-input`): the
/// same five everywhere. Commands that report one evaluation or a measurement (`evaluate`, `stress`,
/// `bench`, `pins`) write text and JSON (``MeasurementFormat``).
enum SuiteFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit, markdown, html

    static let help = ArgumentHelp("Output format: text, json, junit (CI), markdown (pull requests), html (one self-contained page); the same for every suite command.", valueName: "format")
}

/// The formats of commands that report one evaluation or a measurement.
enum MeasurementFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    static let help = ArgumentHelp("Output format: text, json (one evaluation or a measurement; suite commands also write junit, markdown and html).", valueName: "format")
}

