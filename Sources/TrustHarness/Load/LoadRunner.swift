import Foundation
import Synchronization
import TrustCore
import TrustVectors

/// Many tasks evaluating at once, on shared evaluators, for a bounded time: every verdict must equal
/// the one a single task gets for the same request from an uncached evaluator (``VerdictFingerprint``:
/// trusted or not, the failure classes, the diagnostics' names, the path's length), with the
/// validation times of the vectors mixed, so GnuTLS's per-thread time handling is exercised across
/// threads. The requests are every chain vector of the suite (the catalogue and the explored set),
/// every bad-input case, and every x509-limbo and PKITS case a back end is not skipped for. A request
/// that gets more than one verdict is reported as unstable, with every verdict and its count. Also
/// samples the process's resident memory, so a long run shows whether evaluations leak.
public struct LoadRunner: Sendable {
    /// One request and the back end's single-task verdict for it.
    struct Job: Sendable {
        var backend: Int
        var evaluator: any TrustEvaluator
        var request: EvaluationRequest
        var reference: VerdictFingerprint
        var label: String
    }

    /// A request that got more than one verdict: the single-task reference and the others, each with
    /// how often it came under load (the reference counted once more, for the single task).
    public struct UnstableRequest: Sendable, Codable {
        public var request: String
        public var variants: [VerdictVariant]
    }

    /// The figures of one run.
    public struct Report: Sendable, Codable {
        public var tasks: Int
        public var seconds: Double
        public var requests: Int
        public var evaluations: Int
        public var wrongVerdicts: Int
        /// Up to 10 examples of wrong verdicts.
        public var wrongExamples: [String]
        /// Every request whose verdicts differed, with each verdict and its count.
        public var unstable: [UnstableRequest]
        /// Evaluations per second of one task alone, measured first.
        public var singleTaskPerSecond: Double
        public var perSecond: Double
        /// Resident memory (MiB) after the warm-up, then the lowest and highest samples after it,
        /// and at the end; sampled once a second.
        public var residentMiBAfterWarmUp: Double
        public var residentMiBMinimum: Double
        public var residentMiBMaximum: Double
        public var residentMiBAtEnd: Double
    }

    let jobs: [Job]
    let backendNames: [String]

    /// Requests from every chain vector and every bad-input case that reaches a back end, and every
    /// case of `suites` (x509-limbo, PKITS) the back end is not skipped for, on every back end, each
    /// with its own evaluator per anchor set (shared by all tasks, as a client shares them).
    /// `references` holds, for each of `backends` in order, the same back end made uncached
    /// (``BackendConfiguration/uncached``): its verdicts, one task alone, are the ones to match.
    public init(backends: [any TrustBackend], references: [any TrustBackend], suite: VectorSuite, corpus: BadInputCorpus?, suites: [LimboTestcase] = [], now: Date = Date()) throws {
        precondition(references.count == backends.count, "LoadRunner: one uncached reference back end for each back end")
        typealias Input = (label: String, anchors: [[UInt8]], request: EvaluationRequest)
        var inputs: [Input] = suite.vectors.map { ($0.id, $0.anchors, $0.request) }
        for testcase in corpus?.cases ?? [] {
            // The 1,000-certificate chains (0.1-0.2 s each) would crowd out everything else.
            guard let input = try? corpus?.input(for: testcase), input.chain.count <= 64 else { continue }
            inputs.append(("bad-input/\(testcase.id)", input.anchors, EvaluationRequest(chain: input.chain, host: input.host, time: input.time)))
        }
        let limbo = SuiteRunner(backends: backends, now: now)
        var jobs: [Job] = []
        for (index, backend) in backends.enumerated() {
            // Suite cases as the limbo and pkits subcommands ask them of this back end.
            let cases: [Input] = suites.compactMap { testcase in
                guard limbo.skipReason(testcase, backend: backend) == nil, let input = try? limbo.input(testcase, on: backend) else { return nil }
                return (testcase.id, input.anchors, input.request)
            }
            // The reference verdicts come from a fresh, uncached evaluator of the same back end, one
            // task alone: so a cache shared under load is compared with no cache at all.
            // An uncached evaluator keeps no state between requests, so one per anchor set serves.
            let plain = references[index]
            var evaluators: [[[UInt8]]: (shared: any TrustEvaluator, reference: any TrustEvaluator)] = [:]
            for input in inputs + cases {
                let made = evaluators[input.anchors] ?? (backend.evaluatorFailingClosed(anchors: input.anchors), plain.evaluatorFailingClosed(anchors: input.anchors))
                evaluators[input.anchors] = made
                let reference = VerdictFingerprint(made.reference.evaluate(input.request))
                jobs.append(Job(backend: index, evaluator: made.shared, request: input.request, reference: reference, label: "\(backend.name) \(input.label)"))
            }
        }
        self.jobs = jobs
        self.backendNames = backends.map(\.name)
    }

    /// What one task saw: how many evaluations of each request, and for each request that got
    /// another verdict than its reference, those verdicts.
    struct Tally: Sendable {
        var perJob: [Int]
        var wrong: [Int: [VerdictFingerprint]] = [:]

        init(jobs: Int) {
            perJob = [Int](repeating: 0, count: jobs)
        }

        var evaluations: Int { perJob.reduce(0, +) }

        mutating func record(_ job: Int, _ fingerprint: VerdictFingerprint, reference: VerdictFingerprint) {
            perJob[job] += 1
            if fingerprint != reference { wrong[job, default: []].append(fingerprint) }
        }
    }

    /// The unstable requests of the merged tallies: each with the reference (its single-task answer
    /// and every matching answer under load) and every other verdict.
    func unstable(_ tallies: [Tally]) -> [UnstableRequest] {
        var wrong: [Int: [VerdictFingerprint]] = [:]
        for tally in tallies {
            for (job, answers) in tally.wrong { wrong[job, default: []] += answers }
        }
        return wrong.keys.sorted().map { job in
            let answers = wrong[job]!
            // Every task's evaluations of this request, the ones that went right included.
            let matching = tallies.map { $0.perJob[job] }.reduce(0, +) - answers.count
            var variants = [VerdictVariant(verdict: jobs[job].reference, count: matching + 1)]
            variants += VerdictVariant.tally(answers)
            return UnstableRequest(request: jobs[job].label, variants: variants)
        }
    }

    /// Runs `tasks` tasks for `seconds`, each walking the requests from its own offset.
    public func run(tasks: Int, seconds: Double) async -> Report {
        let single = Self.throughput(of: jobs, seconds: min(2, seconds / 4))
        let stop = Atomic<Bool>(false)
        let sampler = Task.detached { () -> [Double] in
            var samples: [Double] = []
            while !stop.load(ordering: .relaxed) {
                samples.append(Self.residentMiB())
                try? await Task.sleep(for: .seconds(1))
            }
            samples.append(Self.residentMiB())
            return samples
        }
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let tallies = await withTaskGroup(of: Tally.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var tally = Tally(jobs: jobs.count)
                    var index = (task * 7919) % max(jobs.count, 1)
                    // At least one batch, even for a task the pool starts after the deadline.
                    repeat {
                        for _ in 0..<32 {
                            let job = jobs[index]
                            tally.record(index, VerdictFingerprint(job.evaluator.evaluate(job.request)), reference: job.reference)
                            index = (index + 1) % jobs.count
                        }
                    } while ContinuousClock.now < deadline
                    return tally
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let wrongLabels = tallies.flatMap { $0.wrong.flatMap { job, answers in Array(repeating: jobs[job].label, count: answers.count) } }
        let counts = (tallies.map(\.evaluations).reduce(0, +), wrongLabels)
        let elapsed = ContinuousClock.now - start
        stop.store(true, ordering: .relaxed)
        let samples = await sampler.value
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let afterWarmUp = samples.count > 2 ? Array(samples.dropFirst(2)) : samples
        return Report(
            tasks: tasks, seconds: seconds, requests: jobs.count, evaluations: counts.0, wrongVerdicts: counts.1.count,
            wrongExamples: Array(Set(counts.1)).sorted().prefix(10).map { $0 },
            unstable: unstable(tallies),
            singleTaskPerSecond: single, perSecond: Double(counts.0) / seconds,
            residentMiBAfterWarmUp: afterWarmUp.first ?? 0, residentMiBMinimum: afterWarmUp.min() ?? 0,
            residentMiBMaximum: afterWarmUp.max() ?? 0, residentMiBAtEnd: samples.last ?? 0
        )
    }

    /// Every request `rounds` times on each of `tasks` tasks at once (each from its own offset),
    /// comparing with the references: the deterministic form of ``run(tasks:seconds:)`` for tests.
    /// Returns the labels of wrong verdicts.
    public func wrongVerdicts(tasks: Int, rounds: Int) async -> [String] {
        await withTaskGroup(of: [String].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var wrong: [String] = []
                    for round in 0..<rounds {
                        for offset in jobs.indices {
                            let job = jobs[(offset + task * 31 + round * 17) % jobs.count]
                            if VerdictFingerprint(job.evaluator.evaluate(job.request)) != job.reference { wrong.append(job.label) }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    private static func throughput(of jobs: [Job], seconds: Double) -> Double {
        let start = ContinuousClock.now
        var count = 0
        var index = 0
        while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
            _ = jobs[index].evaluator.evaluate(jobs[index].request)
            count += 1
            index = (index + 1) % jobs.count
        }
        let elapsed = ContinuousClock.now - start
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Resident set size from /proc/self/statm (pages x page size), in MiB; 0 where unavailable.
    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
