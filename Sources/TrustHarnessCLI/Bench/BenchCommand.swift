import TrustBackendKit
import ArgumentParser
import Dispatch
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

struct BenchCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
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

    typealias Format = MeasurementFormat

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
        let names = entries.map(\.name)
        let cold = entries.map { GuardedBackend($0.make(.uncached)) }
        let warm = entries.map { GuardedBackend($0.make(.default)) }
        // Each back end's floor: its entry's own, else the tool's; measured once per distinct loop.
        var floors: [(label: String, loop: any BaselineLoop)] = []
        var floorOf: [String: String] = [:]
        for entry in entries {
            guard let loop = tool.benchmarks.floors[entry.name] ?? tool.benchmarks.signatureFloor else { continue }
            if !floors.contains(where: { $0.label == loop.label }) { floors.append((loop.label, loop)) }
            floorOf[entry.name] = loop.label
        }
        let scenarios = try loadScenarios(in: tool)
        // The hot path is a trusted evaluation: a back end that does not trust a scenario (NSS 3.87
        // has no Ed25519) is not measured on it, and the report says why.
        var notMeasured: [NotMeasured] = []
        for scenario in scenarios {
            for (index, name) in names.enumerated() {
                let verdicts: [Verdict]
                do {
                    verdicts = try [cold[index], warm[index]].map { try $0.makeEvaluator(anchors: scenario.anchors).evaluate(scenario.request) }
                } catch {
                    tool.error("error: \(name) refuses the anchors of \(scenario.name): \(error)")
                    throw ExitCode(2)
                }
                if verdicts[0].isTrusted != verdicts[1].isTrusted {
                    tool.error("error: \(name) answers \(scenario.name) differently cold and warm (a cache changed a verdict): cold \(Self.describe(verdicts[0])), warm \(Self.describe(verdicts[1]))")
                    throw ExitCode(1)
                }
                if !verdicts[1].isTrusted {
                    notMeasured.append(NotMeasured(backend: name, scenario: scenario.name, reason: Self.describe(verdicts[1])))
                }
            }
        }
        let skipped = Set(notMeasured.map { Key(backend: $0.backend, scenario: $0.scenario, mode: "") })
        func measured(_ name: String, _ scenario: Scenario) -> Bool { !skipped.contains(Key(backend: name, scenario: scenario.name, mode: "")) }
        let progress = Progress.onTerminal(label: "measuring")
        var samples: [Key: [Double]] = [:]
        let baselines = entries.compactMap { entry in tool.benchmarks.loops[entry.name].map { (name: entry.name, loop: $0) } }
        let measurements = scenarios.count * (names.count * 2 + baselines.count * 2 + floors.count) * rounds
        var done = 0
        for _ in 0..<rounds {
            for scenario in scenarios {
                for (index, name) in names.enumerated() {
                    for (mode, backend) in [("cold", cold[index]), ("warm", warm[index])] {
                        done += 1
                        guard measured(name, scenario) else { continue }
                        let evaluator: any TrustEvaluator
                        do {
                            evaluator = try backend.makeEvaluator(anchors: scenario.anchors)
                        } catch {
                            tool.error("error: \(name) refuses the anchors of \(scenario.name): \(error)")
                            throw ExitCode(2)
                        }
                        let request = scenario.request
                        guard evaluator.evaluate(request).isTrusted else {
                            // Trusted a moment ago: a verdict that flips is a defect, never a figure.
                            tool.error("error: \(name) no longer trusts \(scenario.name), which it trusted before measuring: a verdict that differs between repetitions")
                            throw ExitCode(1)
                        }
                        samples[Key(backend: name, scenario: scenario.name, mode: mode), default: []].append(
                            Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
                        )
                        progress?.update(done, measurements)
                    }
                }
                for baseline in baselines where measured(baseline.name, scenario) {
                    for mode in ["cold", "warm"] {
                        samples[Key(backend: baseline.name + "-c", scenario: scenario.name, mode: mode), default: []].append(try measure(baseline.loop, cold: mode == "cold", scenario, in: tool))
                        done += 1
                        progress?.update(done, measurements)
                    }
                }
                for floor in floors {
                    samples[Key(backend: Self.floorKey(floor.label), scenario: scenario.name, mode: "floor"), default: []].append(try measure(floor.loop, cold: false, scenario, in: tool))
                    done += 1
                    progress?.update(done, measurements)
                }
            }
        }
        progress?.finish()
        let medians = samples.mapValues { $0.sorted()[$0.count / 2] }
        let parallelNames = names.indices.filter { measured(names[$0], scenarios[0]) }
        let parallel = try measureParallel(names: parallelNames.map { names[$0] }, backends: parallelNames.map { warm[$0] }, scenario: scenarios[0])
        let infos = warm.map(BackendInfo.init)
        switch format {
        case .text: try output.write(in: tool, text(in: tool, medians, names: names, floorOf: floorOf, scenarios: scenarios.map(\.name), parallel: parallel, infos: infos, notMeasured: notMeasured))
        case .json: try output.write(in: tool, try json(in: tool, medians, names: names, floorOf: floorOf, scenarios: scenarios.map(\.name), parallel: parallel, infos: infos, notMeasured: notMeasured) + "\n")
        }
        if medians.isEmpty {
            tool.error("error: no back end trusts \(scenarios.map(\.name).joined(separator: ", ")); bench measures the trusted hot path (check --host and --at)")
            throw ExitCode(1)
        }
    }

    /// A back end not measured on a scenario because it does not trust it, with its verdict.
    struct NotMeasured: Encodable {
        var backend: String
        var scenario: String
        var reason: String
    }

    static func describe(_ verdict: Verdict) -> String {
        if verdict.isTrusted { return "trusted" }
        let diagnostic = verdict.diagnostics.first.map { ": \($0.description)" } ?? ""
        return "rejected \(verdict.failures.map(\.rawValue).joined(separator: ", "))\(diagnostic)"
    }

    struct Key: Hashable {
        var backend: String
        var scenario: String
        var mode: String
    }

    struct Scenario {
        var name: String
        var chain: [[UInt8]]
        var anchors: [[UInt8]]
        var host: String?
        var time: Date

        var request: EvaluationRequest { EvaluationRequest(chain: chain, host: host.map(HostIdentity.init), time: time) }
    }

    func loadScenarios(in tool: ToolContext) throws -> [Scenario] {
        if !chainFiles.isEmpty {
            let chain = try CertificateInput.read(chainFiles, role: "--chain", in: tool)
            var anchors = try CertificateInput.read(anchorFiles, role: "--anchors", folders: true, in: tool)
            if systemAnchors { anchors += try CertificateInput.read([EvaluateCommand.systemAnchorsPath], role: "--system-anchors", in: tool) }
            var time = Date()
            if let at {
                guard let parsed = Timestamp.parse(at) else { throw ValidationError("--at \"\(at)\" is not \(Timestamp.accepted)") }
                time = parsed
            }
            return [Scenario(name: "your-chain", chain: chain, anchors: anchors, host: try EvaluateCommand.validated(host: host), time: time)]
        }
        let suite = try location.load(in: tool)
        return try ["valid-chain/rsa2048", "valid-chain/p256", "valid-chain/ed25519"].map { id in
            guard let vector = suite.vectors.first(where: { $0.id == id }) else {
                throw ValidationError("vector \(id) is missing from \(suite.directory.path)")
            }
            return Scenario(name: id, chain: vector.chain, anchors: vector.anchors, host: vector.entry.host, time: vector.time)
        }
    }

    /// Microseconds per call of `body`, measured over about `seconds` after a short warm-up.
    static func measure(seconds: Double, _ body: () -> Void) -> Double {
        for _ in 0..<8 { body() }
        var iterations = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var now = start
        while now < deadline {
            for _ in 0..<16 { body() }
            iterations += 16
            now = DispatchTime.now().uptimeNanoseconds
        }
        return Double(now - start) / 1000 / Double(iterations)
    }

    /// The raw loop's microseconds per verification of `scenario`: a first short run gives the
    /// per-iteration cost, so that the measured run lasts about `seconds`.
    func measure(_ loop: any BaselineLoop, cold: Bool, _ scenario: Scenario, in tool: ToolContext) throws -> Double {
        func run(_ iterations: UInt64) throws -> Double {
            guard let elapsed = loop.run(
                chain: scenario.chain, anchors: scenario.anchors, host: scenario.host,
                unixTime: Int64(scenario.time.timeIntervalSince1970), cold: cold, iterations: iterations
            ) else {
                tool.error("error: the raw loop \(loop.label) (\(cold ? "cold" : "warm")) did not verify \(scenario.name)")
                throw ExitCode(1)
            }
            return Double(elapsed) / 1000 / Double(iterations)
        }
        let probe = try run(16)
        return try run(UInt64(max(16, min(5_000_000, seconds * 1e6 / max(probe, 0.01)))))
    }

    struct Parallel: Encodable {
        var backend: String
        var threads: Int
        var singleEvaluationsPerSecond: Double
        var parallelEvaluationsPerSecond: Double
        var speedup: Double
    }

    /// Throughput of one thread against all cores evaluating the same warm chain at once.
    func measureParallel(names: [String], backends: [any TrustBackend], scenario: Scenario) throws -> [Parallel] {
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try zip(names, backends).map { name, backend in
            let evaluator = try backend.makeEvaluator(anchors: scenario.anchors)
            let request = scenario.request
            let single = 1e6 / Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
            let perThread = UnsafeMutableBufferPointer<Double>.allocate(capacity: threads)
            defer { perThread.deallocate() }
            nonisolated(unsafe) let results = perThread
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                results[index] = 1e6 / Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
            }
            let total = perThread.reduce(0, +)
            return Parallel(backend: name, threads: threads, singleEvaluationsPerSecond: single, parallelEvaluationsPerSecond: total, speedup: total / single)
        }
    }

    /// The samples' key for the floor loop labelled `label`.
    static func floorKey(_ label: String) -> String { "floor:" + label }

    func text(in tool: ToolContext, _ m: [Key: Double], names: [String], floorOf: [String: String], scenarios: [String], parallel: [Parallel], infos: [BackendInfo], notMeasured: [NotMeasured]) -> String {
        var out = "bench, by \(tool.provenance.line)\n" + WithBackends<Int>.lines(infos) + "µs per evaluation (evaluations per second), median of \(rounds) round(s) of \(seconds) s, one process, back ends interleaved\n"
        func cell(_ key: Key) -> String {
            guard let value = m[key] else { return "-" }
            return String(format: "%.1f (%.0f/s)", value, 1e6 / value)
        }
        func ratio(_ a: Key, _ b: Key) -> String {
            guard let x = m[a], let y = m[b] else { return "-" }
            return String(format: "%.2fx", x / y)
        }
        for scenario in scenarios {
            out += "\n\(scenario)\n"
            let columns = ["back end", "cold", "warm", "C loop cold", "C loop warm", "cold / C", "warm / C", "warm / floor"]
            var rows: [[String]] = []
            for name in names {
                let c = name + "-c"
                rows.append([
                    name,
                    cell(Key(backend: name, scenario: scenario, mode: "cold")),
                    cell(Key(backend: name, scenario: scenario, mode: "warm")),
                    cell(Key(backend: c, scenario: scenario, mode: "cold")),
                    cell(Key(backend: c, scenario: scenario, mode: "warm")),
                    ratio(Key(backend: name, scenario: scenario, mode: "cold"), Key(backend: c, scenario: scenario, mode: "cold")),
                    ratio(Key(backend: name, scenario: scenario, mode: "warm"), Key(backend: c, scenario: scenario, mode: "warm")),
                    floorOf[name].map { ratio(Key(backend: name, scenario: scenario, mode: "warm"), Key(backend: Self.floorKey($0), scenario: scenario, mode: "floor")) } ?? "-",
                ])
            }
            out += table(columns, rows)
            for skip in notMeasured where skip.scenario == scenario {
                out += "  \(skip.backend): not measured, it does not trust this chain (\(skip.reason))\n"
            }
            for label in Set(floorOf.values).sorted() {
                let users = names.filter { floorOf[$0] == label }.joined(separator: ", ")
                out += "  the chain's signature verifications alone (\(label), the floor of \(users)): \(cell(Key(backend: Self.floorKey(label), scenario: scenario, mode: "floor")))\n"
            }
            if names.count >= 2, m[Key(backend: names[0], scenario: scenario, mode: "warm")] != nil, m[Key(backend: names[1], scenario: scenario, mode: "warm")] != nil {
                for mode in ["cold", "warm"] {
                    out += "  \(mode): \(names[1]) / \(names[0]) = \(ratio(Key(backend: names[1], scenario: scenario, mode: mode), Key(backend: names[0], scenario: scenario, mode: mode)))\n"
                }
            }
        }
        out += "\nAll cores at once (warm, \(scenarios[0])):\n"
        for p in parallel {
            out += String(format: "  %@: %.0f/s on 1 thread, %.0f/s on %d threads: %.2fx\n", p.backend, p.singleEvaluationsPerSecond, p.parallelEvaluationsPerSecond, p.threads, p.speedup)
        }
        return out
    }

    func table(_ columns: [String], _ rows: [[String]]) -> String {
        let widths = columns.indices.map { c in ([columns[c]] + rows.map { $0[c] }).map(\.count).max()! }
        func line(_ cells: [String]) -> String {
            "  " + cells.indices.map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "\n"
        }
        return line(columns) + rows.map(line).joined()
    }

    struct JSONEntry: Encodable {
        var backend: String
        var scenario: String
        var mode: String
        var microsecondsPerEvaluation: Double
        var evaluationsPerSecond: Double
        /// The raw C loop of the same library and mode, and this entry's ratio to it.
        var baselineMicroseconds: Double?
        var ratioToBaseline: Double?
        /// The back end's floor (its library's signature verifications alone), and the ratio to it.
        var floor: String? = nil
        var floorMicroseconds: Double? = nil
        var ratioToFloor: Double? = nil
    }

    struct JSONOutput: Encodable {
        var results: [JSONEntry]
        var baselines: [JSONEntry]
        var parallel: [Parallel]
        /// Back ends not measured on a scenario they do not trust, with the verdict.
        var notMeasured: [NotMeasured]
    }

    func json(in tool: ToolContext, _ m: [Key: Double], names: [String], floorOf: [String: String], scenarios: [String], parallel: [Parallel], infos: [BackendInfo], notMeasured: [NotMeasured]) throws -> String {
        var results: [JSONEntry] = []
        var baselines: [JSONEntry] = []
        for scenario in scenarios {
            for name in names {
                for mode in ["cold", "warm"] {
                    guard let value = m[Key(backend: name, scenario: scenario, mode: mode)] else { continue }
                    let base = m[Key(backend: name + "-c", scenario: scenario, mode: mode)]
                    let floor = floorOf[name].flatMap { m[Key(backend: Self.floorKey($0), scenario: scenario, mode: "floor")] }
                    results.append(JSONEntry(
                        backend: name, scenario: scenario, mode: mode, microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value,
                        baselineMicroseconds: base, ratioToBaseline: base.map { value / $0 },
                        floor: floorOf[name], floorMicroseconds: floor, ratioToFloor: floor.map { value / $0 }
                    ))
                }
            }
            for (library, modes) in names.map({ ($0 + "-c", ["cold", "warm"]) }) {
                for mode in modes {
                    guard let value = m[Key(backend: library, scenario: scenario, mode: mode)] else { continue }
                    baselines.append(JSONEntry(backend: library, scenario: scenario, mode: mode, microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value))
                }
            }
            for label in Set(floorOf.values).sorted() {
                guard let value = m[Key(backend: Self.floorKey(label), scenario: scenario, mode: "floor")] else { continue }
                baselines.append(JSONEntry(backend: label, scenario: scenario, mode: "floor", microsecondsPerEvaluation: value, evaluationsPerSecond: 1e6 / value))
            }
        }
        return try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: WithBackends(backends: infos, body: JSONOutput(results: results, baselines: baselines, parallel: parallel, notMeasured: notMeasured))))
    }
}
