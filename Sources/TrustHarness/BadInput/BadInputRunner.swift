import Foundation
import TrustCore
import TrustVectors
import TrustPolicy

/// Runs the bad-input corpus on back ends and through the SecurityPolicy, and says for every case
/// and back end whether the answer is the one the corpus states, with the time it took.
public struct BadInputRunner: Sendable {
    /// One case on one back end.
    public struct Result: Sendable, Codable {
        public var id: String
        public var backend: String
        /// What the corpus states (`trusted`, `rejected [classes]` or `inputError`), or the recorded
        /// deviation's answer when there is one for this back end.
        public var expected: String
        /// What happened, in the same words, with the back end's or the reader's message.
        public var observed: String
        public var message: String
        /// Whether the back end (evaluated twice, the second time warm), the pinned policy (never
        /// trusting) and the unpinned policy (agreeing with the back end) all behaved as stated.
        public var conforms: Bool
        /// Problems found, one line each; empty when `conforms`.
        public var problems: [String]
        /// Wall-clock time of the first evaluation, in milliseconds (0 for input errors).
        public var milliseconds: Double
        /// The recorded deviation's reason when this back end is known to answer otherwise than the
        /// corpus states (`expected` is then the recorded answer); nil otherwise.
        @ExplicitNull public var deviation: String?
    }

    public let backends: [any TrustBackend]
    public let corpus: BadInputCorpus
    /// Recorded deviations; those whose `vector` is `bad-input/<case id>` apply here.
    public let deviations: [Deviation]

    public init(backends: [any TrustBackend], corpus: BadInputCorpus, deviations: [Deviation] = []) {
        self.backends = backends
        self.corpus = corpus
        self.deviations = deviations.filter { $0.vector.hasPrefix(VectorSuite.badInputPrefix) }
    }

    /// An answer in the words of ``Result/expected`` and ``Result/observed``.
    static func answer(trusted: Bool, failures: [FailureClass]) -> String {
        trusted ? "trusted" : "rejected \(failures.map(\.rawValue))"
    }

    /// Every case (default: all) on every back end, concurrently; results in case then back-end order.
    public func run(_ ids: [String]? = nil) async -> [Result] {
        let cases = ids.map { wanted in corpus.cases.filter { wanted.contains($0.id) } } ?? corpus.cases
        let jobs = cases.flatMap { testcase in backends.map { (testcase, $0) } }
        return await ParallelJobs.run(count: jobs.count) { index in
            self.evaluate(jobs[index].0, on: jobs[index].1)
        }
    }

    public func evaluate(_ testcase: BadInputCorpus.Case, on backend: any TrustBackend) -> Result {
        let expect = testcase.expect
        let stated = expect.verdict == "rejected" ? Self.answer(trusted: false, failures: expect.failures ?? []) : expect.verdict
        let deviation = deviations.first { $0.backend == backend.name && $0.vector == VectorSuite.badInputPrefix + testcase.id }
        let expected = deviation.map { Self.answer(trusted: $0.observed.trusted, failures: $0.observed.failures) } ?? stated
        var result = Result(id: testcase.id, backend: backend.name, expected: expected, observed: "", message: "", conforms: false, problems: [], milliseconds: 0, deviation: deviation?.reason)
        let input: BadInputCorpus.Input
        do {
            input = try corpus.input(for: testcase)
        } catch {
            result.observed = "inputError"
            result.message = "\(error)"
            if expect.verdict != "inputError" { result.problems.append("the files could not be read: \(error)") }
            if deviation != nil { result.problems.append("a deviation is recorded, but no back end sees input the reader refuses") }
            if let message = expect.message, !result.message.contains(message) { result.problems.append("the error does not say \"\(message)\"") }
            result.conforms = result.problems.isEmpty
            return result
        }
        if expect.verdict == "inputError" { result.problems.append("the files were read, but the corpus expects an input error") }
        let evaluator: any TrustEvaluator
        do {
            evaluator = try backend.makeEvaluator(anchors: input.anchors)
        } catch {
            result.observed = "error"
            result.message = "\(error)"
            result.problems.append("the anchors were refused: \(error)")
            return result
        }
        let request = input.request
        let start = ContinuousClock.now
        let label = GuardedEvaluation.label(vector: VectorSuite.badInputPrefix + testcase.id, backend: backend.name)
        guard let verdict = GuardedEvaluation.run(label: label, { evaluator.evaluate(request) }) else {
            result.observed = "error"
            result.message = GuardedEvaluation.hangMessage(label)
            result.problems.append(result.message)
            return result
        }
        let elapsed = ContinuousClock.now - start
        result.milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        result.observed = Self.answer(trusted: verdict.isTrusted, failures: verdict.failures)
        result.message = verdict.diagnostics.map(\.description).joined(separator: "; ")
        if verdict.origin == .harness && result.observed != expected {
            // Not put to the library (a back end judged by a real request that cannot serve this
            // chain): not an answer to compare with the corpus's.
            result.observed = "not asked"
            result.conforms = true
            return result
        }
        if result.observed != expected {
            if deviation != nil && result.observed == stated {
                result.problems.append("answers as the corpus states (\(stated)): the recorded deviation (\(expected)) is no longer observed; remove it")
            } else {
                result.problems.append("\(result.observed), expected \(expected)\(deviation == nil ? "" : " (the recorded deviation; the corpus states \(stated))")")
            }
        }
        if !verdict.isTrusted && verdict.diagnostics.contains(where: { $0.message.isEmpty }) { result.problems.append("a diagnostic without a message") }
        if evaluator.evaluate(request) != verdict { result.problems.append("a second (warm) evaluation gave another verdict") }
        // The policy matches pins against the verified path: not for a back end that cannot name it.
        if backend.reportsVerifiedPath {
            result.problems += policyProblems(testcase, input: input, backend: backend, verdict: verdict)
        }
        result.conforms = result.problems.isEmpty
        return result
    }

    /// The policy on the same input: pinned to a key on no certificate, even allowing invalid
    /// certificates, it must not trust; without pinning it must agree with the back end.
    private func policyProblems(_ testcase: BadInputCorpus.Case, input: BadInputCorpus.Input, backend: any TrustBackend, verdict: Verdict) -> [String] {
        do {
            let stranger = try SPKIPin("sha256/" + String(repeating: "A", count: 43) + "=")
            let pinned = try SecurityPolicy(pinningMode: .publicKey, pins: [stranger], allowInvalidCertificates: true).evaluator(on: backend, anchors: input.anchors)
            let plain = try SecurityPolicy().evaluator(on: backend, anchors: input.anchors)
            var problems: [String] = []
            let pinnedDecision = pinned.evaluate(chain: input.chain, forDomain: testcase.host, at: input.time)
            if pinnedDecision.trusted { problems.append("the policy pinned to an absent key trusted it: \(pinnedDecision.reason)") }
            let plainDecision = plain.evaluate(chain: input.chain, forDomain: testcase.host, at: input.time)
            if plainDecision.trusted != verdict.isTrusted { problems.append("the unpinned policy disagrees with the back end: \(plainDecision.reason)") }
            return problems
        } catch {
            return ["the policies could not be made: \(error)"]
        }
    }
}
