import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// What `run`, `compare` and `findings` evaluate and how: the vectors (and the deviations they are
/// judged with), which of them, on which back ends, against which profile, asked how often. Each
/// command declares its own output (`run` and `compare` a report in `--format`, `findings` folders).
struct ReportOptions: ParsableArguments {
    @OptionGroup var location: VectorsOption

    @OptionGroup var deviations: DeviationsOption

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp("Only vectors whose id matches this pattern (* and ? wildcards, e.g. 'expired-*' or 'policy/*/p256'); repeatable. --vector is the same.", valueName: "pattern"))
    var vectorPatterns: [String] = []

    @OptionGroup var backendOption: BackendOption

    @OptionGroup var profileOption: ProfileOption

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Ask every request again in this many rounds, each on one task and on many tasks at once, one through warm shared evaluators and the other through cold new ones (they swap each round: 2 rounds ask all four ways); a request whose verdicts differ is reported as unstable, with every verdict and its count. 0: ask once.", valueName: "n"))
    var repetitions: Int = 2

    func validate() throws {
        if repetitions < 0 || repetitions > 1000 { throw ValidationError("--repeat takes 0 to 1000 (how many more times each request is asked in each way), not \(repetitions)") }
    }

    /// The vectors, with the packages' deviations and every `--deviations` file added.
    func load(in tool: ToolContext) throws -> VectorSuite {
        try deviations.load(location, in: tool)
    }

    func backends(in tool: ToolContext) throws -> [any TrustBackend] {
        try backendOption.backends(in: tool)
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

    /// Runs the selected vectors with progress on standard error, counted in vectors (``Progress``).
    /// Bad options and files are refused before anything is evaluated.
    func run(in tool: ToolContext) async throws -> RunOutput {
        let backends = try backends(in: tool)
        let suite = try load(in: tool)
        // A package's own deviations file names only back ends the tool registers: a misspelt name
        // would never be judged (the test kit refuses it too). `NAME+checks` exists for every NAME.
        let known = Set(tool.registry.names)
        for file in Set(tool.deviationsFileOf.values).sorted(by: { $0.path < $1.path }) {
            guard let list = try? JSONDecoder().decode(DeviationList.self, from: FileProblem.contents(of: file)) else { continue }
            let unknown = Set(list.deviations.map(\.backend)).filter { name in
                !known.contains(name) && !(name.hasSuffix("+checks") && known.contains(String(name.dropLast("+checks".count))))
            }
            if !unknown.isEmpty {
                throw ValidationError("\(FileProblem(file: file.path, problem: "names back ends no package registers: \(unknown.sorted().joined(separator: ", ")) (a misspelt name? the registered ones: --version)"))")
            }
        }
        let runner = ConformanceRunner(backends: backends, suite: suite, profile: profileOption.profile)
        let subjects = try subjects(of: runner)
        // Every request is asked once, then twice more in each round of --repeat.
        let progress = Progress(label: "evaluating", count: subjects.count, unit: "vectors",
                                detail: "\(Progress.backends(backends.count)), \(Progress.asked(1 + 2 * repetitions))", in: tool)
        let results = await runner.run(subjects, repetitions: repetitions) { done, total in progress.update(done, of: total) }
        progress.finish()
        return RunOutput(infos: backends.map(BackendInfo.init), results: results)
    }

    struct RunOutput {
        var infos: [BackendInfo]
        var results: [ConformanceResult]
    }

    /// The conformance document of `results` in `format` (JSON: the run's own schema), judged
    /// against this run's profile.
    func render(_ format: SuiteFormat, infos: [BackendInfo], results: [ConformanceResult], benchmarks: BenchmarkReport? = nil, title: String = "TrustHarness conformance",
                whenEmpty: String = "No vector was evaluated.", in tool: ToolContext) throws -> String {
        let provenance = tool.provenance(judging: profileOption.profile)
        switch format {
        case .json: return try JSONReport(backends: infos, results: results, provenance: provenance).encoded() + "\n"
        case .text, .junit, .markdown, .html:
            let document = ConformanceDocument.make(backends: infos, results: results, benchmarks: benchmarks, provenance: provenance, title: title,
                                                    suite: title == "TrustHarness conformance" ? "TrustHarness" : "TrustHarness compare", whenEmpty: whenEmpty)
            switch format {
            case .junit: return DocumentWriter.junit(document)
            case .markdown: return DocumentWriter.markdown(document)
            case .html: return DocumentWriter.html(document)
            default: return DocumentWriter.text(document)
            }
        }
    }
}

/// What a command can write; each command names its own set, and `--format` is declared once, by
/// ``FormatOption``.
protocol OutputFormat: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// `--format`, the one definition every command uses with the formats it writes: any other value
/// is a usage error naming them.
struct FormatOption<Format: OutputFormat>: ParsableArguments {
    @Option(name: .customLong("format"), help: ArgumentHelp("Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"), completion: .list(Format.allCases.map(\.rawValue)))
    var name: String = "text"

    func validate() throws {
        guard Format(rawValue: name) != nil else {
            throw ValidationError("--format \(name): this command writes \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// The chosen format (validated when parsed).
    var value: Format { Format(rawValue: name) ?? Format.allCases[Format.allCases.startIndex] }
}

/// The formats of every command that runs a suite (`run`, `compare`, `limbo`, `pkits`, `bad-input`):
/// text, json, junit (CI), markdown (pull requests), html (one self-contained page).
enum SuiteFormat: String, OutputFormat {
    case text, json, junit, markdown, html
}

/// The formats of `pins`: its text is a pin file (`--pin` reads it), not a report, and JSON.
enum PinFileFormat: String, OutputFormat {
    case text, json
}

/// What a command whose report is a document writes: its JSON (the command's own schema), or the
/// document in text, Markdown or HTML.
enum DocumentFormat: String, OutputFormat {
    case text, json, markdown, html

    /// The document in this format (nil for JSON, which is the command's own).
    func render(_ document: @autoclosure () -> ReportDocument) -> String? {
        switch self {
        case .text: return DocumentWriter.text(document())
        case .markdown: return DocumentWriter.markdown(document())
        case .html: return DocumentWriter.html(document())
        case .json: return nil
        }
    }
}
