import Dispatch
import Foundation
import TrustBackendKit
import TrustCore

/// Measures the hot evaluation path of back ends, cold and warm, beside the raw C loops and the
/// signature floors they registered, on the same scenarios in one process: what
/// `trust-harness bench` reports. Quick side-by-side figures, medians of a few rounds with back ends
/// interleaved; gated, statistically careful figures are the Benchmarks/ package's.
///
/// Every back end is made twice from its registry entry: uncached (cold: every evaluation parses
/// the chain's DER) and with the default configuration (warm: the same chain again and again
/// through a caching evaluator). Each is guarded (`GuardedBackend`), as everywhere else.
public struct BenchmarkRunner: Sendable {
    /// One back end, as measured cold and warm.
    struct Subject: Sendable {
        var name: String
        var cold: any TrustBackend
        var warm: any TrustBackend
    }

    let subjects: [Subject]
    /// The raw loops of the back ends that have one, in report order.
    let loops: [(name: String, loop: any BaselineLoop)]
    /// Each distinct floor loop once, in the order of the first back end using it.
    let floors: [any BaselineLoop]
    /// Each back end's floor label, by back-end name.
    let floorOf: [String: String]
    let scenarios: [BenchmarkScenario]
    let seconds: Double
    let rounds: Int

    /// A runner measuring the back ends of `entries` (in report order) on `scenarios` (the first is
    /// also measured on all cores at once), each measurement lasting about `seconds`, every figure
    /// the median of `rounds` rounds. A back end's raw loop is `baselines.loops[name]`; its floor is
    /// `baselines.floors[name]`, else `baselines.signatureFloor`; either may be absent.
    ///
    /// - Precondition: `scenarios` is not empty, `seconds` is positive and `rounds` at least 1.
    public init(entries: [BackendRegistry.Entry], baselines: BenchmarkBaselines, scenarios: [BenchmarkScenario], seconds: Double, rounds: Int) {
        precondition(!scenarios.isEmpty, "BenchmarkRunner: at least one scenario")
        precondition(seconds > 0 && rounds >= 1, "BenchmarkRunner: a positive time and at least one round")
        subjects = entries.map { Subject(name: $0.name, cold: GuardedBackend($0.make(.uncached)), warm: GuardedBackend($0.make(.default))) }
        loops = entries.compactMap { entry in baselines.loops[entry.name].map { (name: entry.name, loop: $0) } }
        // Each back end's floor: its entry's own, else the common one; measured once per distinct loop.
        var floors: [any BaselineLoop] = []
        var floorOf: [String: String] = [:]
        for entry in entries {
            guard let loop = baselines.floors[entry.name] ?? baselines.signatureFloor else { continue }
            if !floors.contains(where: { $0.label == loop.label }) { floors.append(loop) }
            floorOf[entry.name] = loop.label
        }
        self.floors = floors
        self.floorOf = floorOf
        self.scenarios = scenarios
        self.seconds = seconds
        self.rounds = rounds
    }

    /// How many measurements ``run(progress:)`` counts in its progress: every back end cold and
    /// warm, every raw loop cold and warm and every floor, on every scenario, in every round (the
    /// all-cores measurement at the end is not counted).
    public var measurements: Int {
        scenarios.count * (subjects.count * 2 + loops.count * 2 + floors.count) * rounds
    }

    /// Measures everything: first asks every back end each scenario cold and warm (a back end that
    /// does not trust a scenario is not measured on it, and the result says why), then runs the
    /// rounds, each measuring every back end cold and warm, its raw loop cold and warm, and every
    /// floor, on every scenario, interleaved; then each back end that trusts the first scenario on
    /// all cores at once. `progress` is called with the measurements done and ``measurements``
    /// after each one, from the calling thread. Blocks the calling thread for about
    /// `seconds` x (``measurements`` + 2 x the back ends), longer for slow loops.
    ///
    /// - Throws: ``BenchmarkError`` when a back end refuses a scenario's anchors
    ///   (``BenchmarkError/Kind/anchorsRefused``), trusts a scenario cold and not warm or the other
    ///   way round (``BenchmarkError/Kind/cacheChangedVerdict``), stops trusting a scenario it trusted
    ///   before (``BenchmarkError/Kind/verdictChanged``), or when a raw loop does not verify a
    ///   scenario (``BenchmarkError/Kind/rawLoopFailed``): figures measured on a failing path would
    ///   mislead, so there are none.
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(BenchmarkError) -> BenchmarkResult {
        let notMeasured = try untrusted()
        let measured = Self.measured(besides: notMeasured)
        var samples: [BenchmarkResult.Key: [Double]] = [:]
        let total = measurements
        var done = 0
        for _ in 0..<rounds {
            for scenario in scenarios {
                for subject in subjects {
                    for (mode, backend) in [(BenchmarkResult.Mode.cold, subject.cold), (.warm, subject.warm)] {
                        done += 1
                        guard measured(subject.name, scenario) else { continue }
                        let evaluator = try makeEvaluator(backend, subject.name, scenario)
                        let request = scenario.request
                        guard evaluator.evaluate(request).isTrusted else {
                            // Trusted a moment ago: a verdict that flips is a defect, never a figure.
                            throw BenchmarkError(kind: .verdictChanged, message: "\(subject.name) no longer trusts \(scenario.name), which it trusted before measuring: a verdict that differs between repetitions")
                        }
                        samples[.init(subject: .backend(subject.name), scenario: scenario.name, mode: mode), default: []].append(
                            Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
                        )
                        progress?(done, total)
                    }
                }
                for baseline in loops where measured(baseline.name, scenario) {
                    for mode in BenchmarkResult.Mode.allCases {
                        samples[.init(subject: .rawLoop(baseline.name), scenario: scenario.name, mode: mode), default: []].append(try measure(baseline.loop, cold: mode == .cold, scenario))
                        done += 1
                        progress?(done, total)
                    }
                }
                for floor in floors {
                    samples[.init(subject: .floor(floor.label), scenario: scenario.name, mode: nil), default: []].append(try measure(floor, cold: false, scenario.floor))
                    done += 1
                    progress?(done, total)
                }
            }
        }
        let medians = samples.mapValues { $0.sorted()[$0.count / 2] }
        let parallel = try measureParallel(subjects.filter { measured($0.name, scenarios[0]) }, scenario: scenarios[0])
        return BenchmarkResult(
            measure: .time, backends: subjects.map { BackendInfo($0.warm) }, scenarios: scenarios.map(\.name), seconds: seconds, rounds: rounds,
            floorOf: floorOf, parallel: parallel, notMeasured: notMeasured, medians: medians
        )
    }

    /// Counts instead of timing: the instructions of one evaluation of every back end cold and
    /// warm, of its raw loop cold and warm, and of every floor, on every scenario, with `counter`
    /// (this process runs under callgrind). Each figure is the median of three estimates, each the
    /// difference between counting 2 x `iterations` and `iterations` evaluations divided by
    /// `iterations`, after a warm-up of `iterations` evaluations: what a loop or evaluator costs once
    /// (making a store, parsing anchors, the loop's own clock) cancels, and an occasional cost (a
    /// library flushing a cache) moves one estimate, not the median. The all-cores measurement has
    /// no counted equivalent (the threads' instructions add up whatever the scaling) and is left out.
    /// `progress` is called as in ``run(progress:)``.
    ///
    /// - Throws: ``BenchmarkError`` as ``run(progress:)`` does, and when a count fails
    ///   (``BenchmarkError/Kind/countFailed``).
    public func count(with counter: inout InstructionCounter, iterations: Int = 8, progress: (@Sendable (Int, Int) -> Void)? = nil) throws(BenchmarkError) -> BenchmarkResult {
        precondition(iterations >= 1, "BenchmarkRunner.count: at least one iteration")
        let notMeasured = try untrusted()
        let measured = Self.measured(besides: notMeasured)
        /// Instructions per repetition of `work(k)`, which repeats k times: the median of three
        /// (count(2n) - count(n)) / n.
        func perRepetition(_ label: String, _ work: (Int) throws(BenchmarkError) -> Void) throws(BenchmarkError) -> Double {
            try work(iterations)
            var estimates: [Double] = []
            for _ in 0..<3 {
                let once = try counter.count("\(label) x\(iterations)") { () throws(BenchmarkError) in try work(iterations) }
                let twice = try counter.count("\(label) x\(2 * iterations)") { () throws(BenchmarkError) in try work(2 * iterations) }
                estimates.append((Double(twice) - Double(once)) / Double(iterations))
            }
            return estimates.sorted()[1]
        }
        var counts: [BenchmarkResult.Key: Double] = [:]
        let total = scenarios.count * (subjects.count * 2 + loops.count * 2 + floors.count)
        var done = 0
        for scenario in scenarios {
            let request = scenario.request
            for subject in subjects {
                for (mode, backend) in [(BenchmarkResult.Mode.cold, subject.cold), (.warm, subject.warm)] {
                    done += 1
                    guard measured(subject.name, scenario) else { continue }
                    let evaluator = try makeEvaluator(backend, subject.name, scenario)
                    counts[.init(subject: .backend(subject.name), scenario: scenario.name, mode: mode)] = try perRepetition("\(subject.name) \(scenario.name) \(mode.rawValue)") { (times: Int) throws(BenchmarkError) in
                        for _ in 0..<times where !evaluator.evaluate(request).isTrusted {
                            throw BenchmarkError(kind: .verdictChanged, message: "\(subject.name) no longer trusts \(scenario.name), which it trusted before counting: a verdict that differs between repetitions")
                        }
                    }
                    progress?(done, total)
                }
            }
            for baseline in loops where measured(baseline.name, scenario) {
                for mode in BenchmarkResult.Mode.allCases {
                    counts[.init(subject: .rawLoop(baseline.name), scenario: scenario.name, mode: mode)] = try perRepetition("\(baseline.loop.label) \(scenario.name) \(mode.rawValue)") { (times: Int) throws(BenchmarkError) in
                        _ = try run(baseline.loop, cold: mode == .cold, scenario, iterations: UInt64(times))
                    }
                    done += 1
                    progress?(done, total)
                }
            }
            for floor in floors {
                counts[.init(subject: .floor(floor.label), scenario: scenario.name, mode: nil)] = try perRepetition("\(floor.label) \(scenario.name)") { (times: Int) throws(BenchmarkError) in
                    _ = try run(floor, cold: false, scenario.floor, iterations: UInt64(times))
                }
                done += 1
                progress?(done, total)
            }
        }
        return BenchmarkResult(
            measure: .instructions, backends: subjects.map { BackendInfo($0.warm) }, scenarios: scenarios.map(\.name), seconds: 0, rounds: 1,
            floorOf: floorOf, parallel: [], notMeasured: notMeasured, medians: counts, iterations: iterations
        )
    }

    /// The back ends that do not trust a scenario, with their verdicts: the hot path is a trusted
    /// evaluation, so a back end that does not trust a scenario (NSS 3.87 has no Ed25519) is not
    /// measured on it, and the report says why.
    ///
    /// - Throws: ``BenchmarkError`` when a back end refuses the anchors or answers cold and warm differently.
    private func untrusted() throws(BenchmarkError) -> [BenchmarkResult.NotMeasured] {
        var notMeasured: [BenchmarkResult.NotMeasured] = []
        for scenario in scenarios {
            for subject in subjects {
                let cold = try makeEvaluator(subject.cold, subject.name, scenario).evaluate(scenario.request)
                let warm = try makeEvaluator(subject.warm, subject.name, scenario).evaluate(scenario.request)
                if cold.isTrusted != warm.isTrusted {
                    throw BenchmarkError(kind: .cacheChangedVerdict, message: "\(subject.name) answers \(scenario.name) differently cold and warm (a cache changed a verdict): cold \(Self.describe(cold)), warm \(Self.describe(warm))")
                }
                if !warm.isTrusted {
                    notMeasured.append(.init(backend: subject.name, scenario: scenario.name, reason: Self.describe(warm)))
                }
            }
        }
        return notMeasured
    }

    /// Whether a back end is measured on a scenario: it is unless `notMeasured` lists it there.
    private static func measured(besides notMeasured: [BenchmarkResult.NotMeasured]) -> (String, BenchmarkScenario) -> Bool {
        let skipped = Set(notMeasured.map { SkipKey(backend: $0.backend, scenario: $0.scenario) })
        return { name, scenario in !skipped.contains(SkipKey(backend: name, scenario: scenario.name)) }
    }

    /// A back end and scenario, for the set of those not measured.
    private struct SkipKey: Hashable {
        var backend: String
        var scenario: String
    }

    /// `backend`'s evaluator for `scenario`'s anchors.
    private func makeEvaluator(_ backend: any TrustBackend, _ name: String, _ scenario: BenchmarkScenario) throws(BenchmarkError) -> any TrustEvaluator {
        do {
            return try backend.makeEvaluator(anchors: scenario.anchors)
        } catch {
            throw BenchmarkError(kind: .anchorsRefused, message: "\(name) refuses the anchors of \(scenario.name): \(error)")
        }
    }

    /// `trusted`, or `rejected <failure classes>` with the first diagnostic.
    static func describe(_ verdict: Verdict) -> String {
        if verdict.isTrusted { return "trusted" }
        let diagnostic = verdict.diagnostics.first.map { ": \($0.description)" } ?? ""
        return "rejected \(verdict.failures.map(\.rawValue).joined(separator: ", "))\(diagnostic)"
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

    /// Runs `loop` for `iterations` verifications of `scenario`: the nanoseconds it took.
    ///
    /// - Throws: ``BenchmarkError/Kind/rawLoopFailed`` when a verification did not succeed.
    private func run(_ loop: any BaselineLoop, cold: Bool, _ scenario: BenchmarkScenario, iterations: UInt64) throws(BenchmarkError) -> UInt64 {
        // A loop is measured on what the back end is asked: the scenario's CRLs too (nil: no
        // revocation checking); a loop that takes none answers nil, and the scenario has no loop.
        guard scenario.ocspResponses.isEmpty, let elapsed = loop.run(
            chain: scenario.chain, anchors: scenario.anchors, leafPrivateKey: scenario.leafPrivateKey,
            revocationLists: scenario.revocationLists.isEmpty ? nil : scenario.revocationLists,
            host: scenario.host, unixTime: Int64(scenario.time.timeIntervalSince1970), cold: cold, iterations: iterations
        ) else {
            throw BenchmarkError(kind: .rawLoopFailed, message: "the raw loop \(loop.label) (\(cold ? "cold" : "warm")) did not verify \(scenario.name)")
        }
        return elapsed
    }

    /// The raw loop's microseconds per verification of `scenario`: a first short run gives the
    /// per-iteration cost, so that the measured run lasts about `seconds`.
    private func measure(_ loop: any BaselineLoop, cold: Bool, _ scenario: BenchmarkScenario) throws(BenchmarkError) -> Double {
        func microseconds(_ iterations: UInt64) throws(BenchmarkError) -> Double {
            Double(try run(loop, cold: cold, scenario, iterations: iterations)) / 1000 / Double(iterations)
        }
        let probe = try microseconds(16)
        return try microseconds(UInt64(max(16, min(5_000_000, seconds * 1e6 / max(probe, 0.01)))))
    }

    /// Throughput of one thread against all cores evaluating the same warm chain at once.
    private func measureParallel(_ subjects: [Subject], scenario: BenchmarkScenario) throws(BenchmarkError) -> [BenchmarkResult.Parallel] {
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let seconds = seconds
        return try subjects.map { subject throws(BenchmarkError) in
            let evaluator = try makeEvaluator(subject.warm, subject.name, scenario)
            let request = scenario.request
            let single = 1e6 / Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
            let perThread = UnsafeMutableBufferPointer<Double>.allocate(capacity: threads)
            defer { perThread.deallocate() }
            // Each thread writes its own element only, and concurrentPerform returns after all have.
            nonisolated(unsafe) let results = perThread
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                results[index] = 1e6 / Self.measure(seconds: seconds) { _ = evaluator.evaluate(request) }
            }
            let total = perThread.reduce(0, +)
            return BenchmarkResult.Parallel(backend: subject.name, threads: threads, singleEvaluationsPerSecond: single, parallelEvaluationsPerSecond: total, speedup: total / single)
        }
    }
}
