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

        --instructions counts instead of timing: bench starts itself again under Valgrind's callgrind \
        (valgrind must be on PATH, or named by TRUST_HARNESS_VALGRIND) and reports the instructions of \
        one evaluation, for the back ends, their C loops and floors alike: the same from run to run for \
        the same binary and inputs, whatever else the machine does, so "x of its own loop" repeats. \
        Under callgrind everything runs about 50 times slower; counts take a few minutes.
        Examples:
          trust-harness bench --seconds 0.5
          trust-harness bench --instructions --keep-counts counts/
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

    @Flag(help: ArgumentHelp("Measure revocation checking instead: the P-256 chain with the root's CRL and a CRL of the intermediate listing \(BenchmarkScenario.largeListEntries) serial numbers (back ends and C loops that take CRLs), and with one OCSP response for the leaf (back ends that take OCSP responses)."))
    var revocation = false

    @Option(help: "Host for --chain (DNS name or IP address).")
    var host: String?

    @Option(help: ArgumentHelp("Validation time for --chain: \(Timestamp.accepted). Default: now.", valueName: "time"))
    var at: String?

    @OptionGroup var backendOption: BackendOption

    @Option(help: "Seconds per measurement (each round measures every back end, scenario and mode once).")
    var seconds: Double = 0.25

    @Option(help: "Rounds; the median is reported.")
    var rounds: Int = 3

    @Flag(help: "Count instructions with Valgrind's callgrind instead of timing (needs valgrind).")
    var instructions = false

    @Option(name: .customLong("count-iterations"), help: ArgumentHelp("With --instructions: each figure is 2n evaluations counted less n, divided by n.", valueName: "n"))
    var countIterations: Int = 8

    @Option(name: .customLong("keep-counts"), help: ArgumentHelp("With --instructions: keep callgrind's dump of every count in this folder (read one with callgrind_annotate).", valueName: "folder"), completion: .directory)
    var keepCounts: String?

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
        if countIterations < 1 || countIterations > 1000 { throw ValidationError("--count-iterations must be in 1...1000") }
        if !instructions && (keepCounts != nil) { throw ValidationError("--keep-counts keeps the counts of --instructions") }
    }

    func run(in tool: ToolContext) async throws {
        let entries: [BackendRegistry.Entry]
        do {
            entries = try backendOption.entries(in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        var counter: InstructionCounter? = nil
        if instructions {
            counter = InstructionCounter(keep: keepCounts != nil)
            // Not under callgrind yet: this very command again, under it, says everything.
            if counter == nil { throw ExitCode(try countUnderCallgrind(in: tool)) }
        }
        let scenarios = try loadScenarios(in: tool)
        let runner = BenchmarkRunner(entries: entries, baselines: tool.benchmarks, scenarios: scenarios, seconds: seconds, rounds: rounds)
        // Counted in measurements: every back end, raw loop and floor, per scenario and mode, per round.
        let progress = Progress(label: counter == nil ? "measuring" : "counting", count: counter == nil ? runner.measurements : nil, unit: "measurements",
                                detail: "\(Progress.backends(entries.count)), \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s")\(counter == nil ? ", \(rounds) round\(rounds == 1 ? "" : "s")" : "")", in: tool)
        let report: @Sendable (Int, Int) -> Void = { done, total in progress.update(done, of: total) }
        let result: BenchmarkResult
        do {
            if var counter {
                result = try runner.count(with: &counter, iterations: countIterations, progress: report)
            } else {
                result = try runner.run(progress: report)
            }
        } catch {
            progress.finish()
            tool.error("error: \(error)")
            throw ExitCode(error.kind == .anchorsRefused ? 2 : 1)
        }
        progress.finish()
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

    /// Runs this command again under callgrind (`bench --instructions` in a process that can count)
    /// with its dumps in a temporary folder, or in `--keep-counts`; returns its exit status.
    func countUnderCallgrind(in tool: ToolContext) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let valgrind = environment["TRUST_HARNESS_VALGRIND"] ?? (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let valgrind, FileManager.default.isExecutableFile(atPath: valgrind) else {
            throw ValidationError("--instructions counts with Valgrind's callgrind, and there is no valgrind on PATH (Debian: apt-get install valgrind; or name it with TRUST_HARNESS_VALGRIND)")
        }
        let folder: URL
        if let keepCounts {
            folder = URL(fileURLWithPath: keepCounts, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-harness-counts-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { if keepCounts == nil { try? FileManager.default.removeItem(at: folder) } }
        let dumps = folder.appendingPathComponent("callgrind.out").path
        // The executable itself (a tool with other packages' back ends, such as all-backends, counts
        // its own back ends), with the arguments it was given, as a copy without its debug
        // information: Swift 6.3 writes DWARF 5, which Debian 12's Valgrind 3.19 cannot read (it
        // gives up on the whole process); the code, and so every count, is the same. The copy finds
        // the vectors this command would have found.
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let copy = folder.appendingPathComponent("counted-" + URL(fileURLWithPath: executable).lastPathComponent).path
        try Self.runTool(["objcopy", "--strip-debug", executable, copy], what: "objcopy comes with binutils")
        // Valgrind 3.19 removes its own signals from the mask sigsuspend is given, in place, and
        // libdispatch (the main thread of an async main) passes a mask in read-only memory: Valgrind
        // dies of SIGSEGV at start (`VALGRIND INTERNAL ERROR ... sys_rt_sigsuspend`). A preloaded
        // sigsuspend passes the kernel a copy instead; the same call otherwise.
        let fixSource = folder.appendingPathComponent("sigsuspend-copy.c")
        let fix = folder.appendingPathComponent("sigsuspend-copy.so").path
        try Self.sigsuspendCopy.write(to: fixSource, atomically: true, encoding: .utf8)
        try Self.runTool(["clang", "-shared", "-fPIC", "-O2", "-o", fix, fixSource.path], what: "clang comes with the Swift toolchain")
        var childEnvironment = InstructionCounter.environment(dumps: dumps)
        childEnvironment["LD_PRELOAD"] = [fix, childEnvironment["LD_PRELOAD"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        if location.vectors == nil, let vectors = try? location.directory() {
            childEnvironment[VectorSuite.environmentVariable] = vectors.standardizedFileURL.path
        }
        let command = InstructionCounter.commandLine(valgrind: valgrind, executable: copy, arguments: tool.arguments, dumps: dumps)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = childEnvironment
        tool.error("bench: counting under callgrind (\(valgrind)); everything runs about 50 times slower")
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 1
    }

    /// A sigsuspend that hands the kernel a copy of the mask (see ``countUnderCallgrind(in:)``).
    static let sigsuspendCopy = """
        #define _GNU_SOURCE
        #include <signal.h>
        #include <unistd.h>
        #include <sys/syscall.h>
        // TrustHarness bench --instructions: Valgrind 3.19 writes into the mask it is given, which
        // libdispatch keeps in read-only memory; the kernel gets a copy on the stack instead.
        int sigsuspend(const sigset_t *mask) {
            sigset_t copy = *mask;
            return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
        }
        """

    /// Runs `command` (looked up on PATH) to its end.
    ///
    /// - Throws: a `ValidationError` naming the command and `what` when it cannot start or fails.
    static func runTool(_ command: [String], what: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        do { try process.run() } catch {
            throw ValidationError("--instructions: \(command[0]) could not start (\(what)): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ValidationError("--instructions: \(command.joined(separator: " ")) failed (status \(process.terminationStatus); \(what))")
        }
    }

    /// What to measure: the chain given with --chain, else the revocation scenarios with
    /// --revocation, else the vectors bench measures.
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
            return revocation ? try BenchmarkScenario.revocation(in: suite) : try BenchmarkScenario.vectors(in: suite)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
