import Foundation
import Synchronization
import TrustCore
import TrustPolicy
import TrustVectors

/// Runs vectors against back ends and judges each verdict. Knows nothing of C or of report formats.
public struct ConformanceRunner: Sendable {
    public var backends: [any TrustBackend]
    public var suite: VectorSuite
    /// The standard every chain verdict is judged against (``StandardsProfile/default`` unless named).
    public var profile: StandardsProfile
    /// The longest one evaluation may take before it is reported as a hang (``GuardedEvaluation``).
    public var evaluationLimit: TimeInterval = GuardedEvaluation.limit

    public init(backends: [any TrustBackend], suite: VectorSuite, profile: StandardsProfile = .default) {
        self.backends = backends
        self.suite = suite
        self.profile = profile
    }

    /// A vector of either kind, as the runner schedules it.
    public enum Subject: Sendable {
        case chain(LoadedVector)
        case policy(LoadedPolicyVector)

        public var id: String {
            switch self {
            case .chain(let vector): return vector.id
            case .policy(let vector): return vector.id
            }
        }
    }

    /// Every chain vector, then every policy vector, of the suite.
    public var allSubjects: [Subject] {
        suite.vectors.map(Subject.chain) + suite.policies.map(Subject.policy)
    }

    /// The vectors whose results can be judged otherwise under `other` than under this runner's
    /// profile: chain vectors whose answer differs between the two, or with a deviation recorded
    /// under one of them only. Policy vectors and every other chain vector are judged alike under
    /// both (a verdict does not depend on the profile), so checking one profile after another needs
    /// only these evaluated again.
    public func subjects(judgedDifferentlyUnder other: StandardsProfile) -> [Subject] {
        guard other != profile else { return [] }
        let profiles = [profile, other]
        let splitDeviations = Set(suite.deviations.filter { $0.applies(to: profile) != $0.applies(to: other) }.map(\.vector))
        return suite.vectors.filter { vector in
            vector.entry.answer(for: profile) != vector.entry.answer(for: other) || splitDeviations.contains(vector.id)
                || profiles.contains { vector.entry.answer(for: $0).open != nil }
        }.map(Subject.chain)
    }

    /// Evaluates every vector (default: all of the suite) on every back end; results are in vector
    /// order then back-end order.
    ///
    /// Evaluators are made once per back end and distinct anchor set, as a client makes them once,
    /// and evaluations run concurrently across all cores; the results do not depend on that order.
    ///
    /// With `repetitions` above 0 every request is asked again twice per repetition: on one task in
    /// order and on many tasks at once (from an offset that moves each round), one of them through
    /// the shared, warm evaluators and the other through cold ones made for that evaluation alone,
    /// the two swapping each round, so that two repetitions ask in all four ways. A
    /// request whose answers differ is ``Outcome/unstable``, with every distinct verdict and its count
    /// (``ConformanceResult/variants``); the others keep their first result.
    public func run(_ selected: [Subject]? = nil, repetitions: Int = 0, progress: (@Sendable (Int, Int) -> Void)? = nil) async -> [ConformanceResult] {
        let subjects = selected ?? allSubjects
        let evaluators = EvaluatorCache(backends: backends)
        let jobs = subjects.flatMap { subject in backends.indices.map { (subject, $0) } }
        let rounds = max(0, repetitions)
        // The first answers, then each repetition: progress counts every evaluation.
        let total = jobs.count * (1 + 2 * rounds)
        let done = Atomic<Int>(0)
        var step: (@Sendable (Int, Int) -> Void)?
        if let progress {
            step = { _, _ in
                let count = done.add(1, ordering: .relaxed).newValue
                progress(count, total)
            }
        }
        let first = await ParallelJobs.run(count: jobs.count, progress: step) { index in
            self.evaluate(jobs[index].0, on: jobs[index].1, evaluators: evaluators)
        }
        guard rounds > 0, !jobs.isEmpty else { return first }
        var again = [[ConformanceResult]](repeating: [], count: jobs.count)
        for round in 0..<rounds {
            // Round 0 asks on one task in order through cold evaluators, and on many tasks at once
            // through the warm shared ones; round 1 the other way round (warm on one task, cold on
            // many); then they alternate: two rounds cover all four ways.
            let coldAlone = round % 2 == 0
            for index in jobs.indices {
                again[index].append(evaluate(jobs[index].0, on: jobs[index].1, evaluators: coldAlone ? EvaluatorCache(backends: backends) : evaluators))
                step?(0, 0)
            }
            // Many tasks at once, from an offset that moves each round.
            let offset = (round * 7919 + 104_729) % jobs.count
            let parallel = await ParallelJobs.run(count: jobs.count, progress: step) { position in
                let index = (position + offset) % jobs.count
                return (index, self.evaluate(jobs[index].0, on: jobs[index].1, evaluators: coldAlone ? evaluators : EvaluatorCache(backends: self.backends)))
            }
            for (index, result) in parallel { again[index].append(result) }
        }
        return first.indices.map { first[$0].judgedForStability(with: again[$0]) }
    }

    /// Evaluates one vector on one back end, without sharing evaluators.
    public func evaluate(_ subject: Subject, backend: any TrustBackend) -> ConformanceResult {
        let index = backends.firstIndex { $0.name == backend.name }
        var runner = index == nil ? ConformanceRunner(backends: [backend], suite: suite, profile: profile) : self
        runner.evaluationLimit = evaluationLimit
        return runner.evaluate(subject, on: index ?? 0, evaluators: EvaluatorCache(backends: runner.backends))
    }

    func evaluate(_ subject: Subject, on backendIndex: Int, evaluators: EvaluatorCache) -> ConformanceResult {
        let backend = backends[backendIndex]
        switch subject {
        case .chain(let vector):
            let answer = vector.entry.answer(for: profile)
            let expected = ExpectedOutcome(answer)
            // Anchors the back end refuses are its answer, rejected [malformed], as in every subcommand.
            let evaluator = evaluators.evaluator(backendIndex, anchors: vector.anchors)
            let start = ContinuousClock.now
            let label = GuardedEvaluation.label(vector: vector.id, backend: backend.name)
            let request = vector.request
            guard let verdict = GuardedEvaluation.run(label: label, limit: evaluationLimit, { evaluator.evaluate(request) }) else {
                return hung(vector.id, backend.name, expected, label, context: Self.context(subject))
            }
            let seconds = Self.seconds(since: start)
            var judgement = Judgement.judge(verdict, answer: answer, expectedPath: vector.expectedPath, deviation: suite.deviation(backend: backend.name, vector: vector.id, library: backend.libraryVersion, profile: profile))
            if judgement.outcome == .fail, let note = suite.otherBuildsNote(backend: backend.name, vector: vector.id, library: backend.libraryVersion, profile: profile) {
                judgement.detail += "; " + note
            }
            var result = ConformanceResult(id: vector.id, backend: backend.name, expected: expected, observed: Observation(verdict), error: nil, judgement: judgement, seconds: seconds, context: Self.context(subject))
            result.impact = suite.impacts.impact(of: result, answer: answer, trustedUnder: vector.entry.trustedUnder)
            return result
        case .policy(let vector):
            let expected = ExpectedOutcome(vector.expected)
            guard backend.reportsVerifiedPath else {
                // The policy matches pins against the verified path; a back end that cannot name it
                // (an HTTP client) could only be judged by a policy that guesses one.
                let detail = "not put to the library: the policy matches its pins against the path the library verified, and \(backend.name) does not say which path it verified (TrustBackend.reportsVerifiedPath); pinning on this stack is a matter of its own hook, see its README"
                return ConformanceResult(id: vector.id, backend: backend.name, expected: expected, observed: nil, error: nil,
                                         judgement: Judgement(outcome: .skipped, failureKind: nil, detail: detail), context: Self.context(subject))
            }
            let evaluator: SecurityPolicyEvaluator
            do {
                evaluator = try vector.policy.evaluator(on: backend, anchors: vector.anchors)
            } catch {
                return failed(vector.id, backend.name, expected, error)
            }
            let start = ContinuousClock.now
            let label = GuardedEvaluation.label(vector: vector.id, backend: backend.name)
            guard let decision = GuardedEvaluation.run(label: label, limit: evaluationLimit, { evaluator.evaluate(chain: vector.chain, forDomain: vector.domain, at: vector.time) }) else {
                return hung(vector.id, backend.name, expected, label, context: Self.context(subject))
            }
            let seconds = Self.seconds(since: start)
            let judgement = Judgement.judge(decision, expected: vector.expected, deviation: suite.deviation(backend: backend.name, vector: vector.id, library: backend.libraryVersion))
            var result = ConformanceResult(id: vector.id, backend: backend.name, expected: expected, observed: Observation(decision), error: nil, judgement: judgement, seconds: seconds, context: Self.context(subject))
            result.impact = suite.impacts.impact(of: result, answer: vector.entry.impactAnswer, trustedUnder: StandardsProfile.allCases)
            return result
        }
    }

    static func context(_ subject: Subject) -> VectorContext {
        switch subject {
        case .chain(let vector):
            return VectorContext(description: vector.entry.description, references: vector.entry.references + (vector.entry.webpki.map { ["Web PKI: " + ($0.open ?? ($0.expected.trusted ? "trusted" : "rejected")) + "; " + $0.references.joined(separator: "; ")] } ?? []), host: vector.entry.host, time: vector.entry.time)
        case .policy(let vector):
            return VectorContext(description: vector.entry.description, references: vector.entry.references, host: vector.entry.domain, time: vector.entry.time)
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// An evaluation that did not return within ``GuardedEvaluation/limit``: an error naming the
    /// vector and back end; the run goes on.
    func hung(_ id: String, _ backend: String, _ expected: ExpectedOutcome, _ label: String, context: VectorContext) -> ConformanceResult {
        let message = GuardedEvaluation.hangMessage(label, limit: evaluationLimit)
        return ConformanceResult(id: id, backend: backend, expected: expected, observed: nil, error: message,
                                 judgement: Judgement(outcome: .error, failureKind: nil, detail: message), context: context)
    }

    func failed(_ id: String, _ backend: String, _ expected: ExpectedOutcome, _ error: any Error) -> ConformanceResult {
        ConformanceResult(
            id: id, backend: backend, expected: expected, observed: nil, error: "\(error)",
            judgement: Judgement(outcome: .error, failureKind: nil, detail: "could not make an evaluator: \(error)"),
            context: allSubjects.first { $0.id == id }.map(Self.context)
        )
    }
}

/// Evaluators shared across concurrent evaluations, one per back end and anchor set.
final class EvaluatorCache: Sendable {
    private let backends: [any TrustBackend]
    private let made = Mutex<[Key: any TrustEvaluator]>([:])

    struct Key: Hashable {
        var backend: Int
        var anchors: [[UInt8]]
    }

    init(backends: [any TrustBackend]) {
        self.backends = backends
    }

    /// The back end's evaluator for `anchors` (``TrustBackend/evaluatorFailingClosed(anchors:)``).
    func evaluator(_ backend: Int, anchors: [[UInt8]]) -> any TrustEvaluator {
        let key = Key(backend: backend, anchors: anchors)
        if let existing = made.withLock({ $0[key] }) { return existing }
        let fresh = backends[backend].evaluatorFailingClosed(anchors: anchors)
        return made.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = fresh
            return fresh
        }
    }
}
