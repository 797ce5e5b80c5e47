import TrustBackendKit
import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

struct BenchCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        _superCommandName: "trust-harness",
        abstract: "Quick side-by-side speed of every back end on the hot evaluation path, cold and warm, against the raw C loops.",
        discussion: """
        cold: an evaluator without a certificate cache, so every evaluation parses the chain's DER. \
        warm: the same chain again and again through a caching evaluator, as to a client reconnecting. \
        The raw C loops do exactly the same library work without TrustHarness, for the back ends that \
        registered one (the built-in OpenSSL and GnuTLS do; a back end without one gets cold and warm \
        figures and no ratio). "warm / floor" compares with the chain's signature verifications alone: \
        the back end's own floor loop when it registered one (swift-certificates: swift-crypto's), else \
        the tool's (OpenSSL's), when the tool was given one.

        Everything is measured in one run, back ends interleaved; figures are medians of the rounds. \
        For gated, statistically careful figures use the Benchmarks/ package (swift package benchmark).
        Examples:
          trust-harness bench --seconds 0.5
          trust-harness bench --chain server.pem --system-anchors \\
              --host www.example.com
          swift run -c release trust-harness bench --format json --report bench.json
        """
    )

    typealias Format = DocumentFormat

    @Option(name: .customLong("chain"), help: ArgumentHelp("Benchmark your own chain instead of the vectors: PEM bundle or DER, leaf first; repeatable.", valueName: "file"), completion: .file())
    var chainFiles: [String] = []

    @Option(name: .customLong("anchors"), help: ArgumentHelp("Anchors for --chain; repeatable.", valueName: "file"), completion: .file())
    var anchorFiles: [String] = []

    @Flag(name: .customLong("system-anchors"), help: "For --chain: trust the system's store (\(EvaluateCommand.systemAnchorsPath)) as well, as evaluate does.")
    var systemAnchors = false

    @Option(help: "Host for --chain (DNS name or IP address).")
    var host: String?

    @Option(help: ArgumentHelp("Validation time for --chain: \(Timestamp.accepted). Default: now.", valueName: "time"))
    var at: String?

    @OptionGroup var backendOption: BackendOption

    @Option(help: "Seconds per measurement (each round measures every back end, scenario and mode once).")
    var seconds: Double = 0.25

    @Option(help: "Rounds; the median is reported.")
    var rounds: Int = 3

    @OptionGroup var formatOption: FormatOption<Format>
    var format: Format { formatOption.value }

    @OptionGroup var output: OutputOption

    @OptionGroup var location: VectorsOption

    func validate() throws {
        if !chainFiles.isEmpty && anchorFiles.isEmpty && !systemAnchors { throw ValidationError("--chain needs --anchors or --system-anchors") }
        if chainFiles.isEmpty && (!anchorFiles.isEmpty || systemAnchors || host != nil || at != nil) {
            throw ValidationError("--anchors, --system-anchors, --host and --at describe your own chain: give it with --chain (without --chain, bench measures the vectors)")
        }
        if seconds <= 0 || seconds > 60 { throw ValidationError("--seconds must be in (0, 60]") }
        if rounds < 1 || rounds > 50 { throw ValidationError("--rounds must be in 1...50") }
    }

    func run(in tool: ToolContext) async throws {
        let entries: [BackendRegistry.Entry]
        do {
            entries = try backendOption.entries(in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        let scenarios = try loadScenarios(in: tool)
        let runner = BenchmarkRunner(entries: entries, baselines: tool.benchmarks, scenarios: scenarios, seconds: seconds, rounds: rounds)
        let progress = Progress.onTerminal(label: "measuring")
        var report: (@Sendable (Int, Int) -> Void)?
        if let progress { report = { done, total in progress.update(done, total) } }
        let result: BenchmarkResult
        do {
            result = try runner.run(progress: report)
        } catch {
            tool.error("error: \(error)")
            throw ExitCode(error.kind == .anchorsRefused ? 2 : 1)
        }
        progress?.finish()
        if let text = format.render(result.document(provenance: tool.provenance)) {
            try output.write(in: tool, text)
        } else {
            try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: WithBackends(backends: result.backends, body: result.json))) + "\n")
        }
        if !result.hasFigures {
            tool.error("error: no back end trusts \(scenarios.map(\.name).joined(separator: ", ")); bench measures the trusted hot path (check --host and --at)")
            throw ExitCode(1)
        }
    }

    /// What to measure: the chain given with --chain, else the vectors bench measures.
    func loadScenarios(in tool: ToolContext) throws -> [BenchmarkScenario] {
        if !chainFiles.isEmpty {
            let chain = try CertificateInput.read(chainFiles, role: "--chain", in: tool)
            var anchors = try CertificateInput.read(anchorFiles, role: "--anchors", folders: true, in: tool)
            if systemAnchors { anchors += try CertificateInput.read([EvaluateCommand.systemAnchorsPath], role: "--system-anchors", in: tool) }
            var time = Date()
            if let at {
                guard let parsed = Timestamp.parse(at) else { throw ValidationError("--at \"\(at)\" is not \(Timestamp.accepted)") }
                time = parsed
            }
            return [BenchmarkScenario(name: "your-chain", chain: chain, anchors: anchors, host: try EvaluateCommand.validated(host: host), time: time)]
        }
        let suite = try location.load(in: tool)
        do {
            return try BenchmarkScenario.vectors(in: suite)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
