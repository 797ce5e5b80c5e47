import TrustCore
import TrustPolicy

/// What must be the same every time one request is asked: trusted or not, the failure classes, the
/// names of the library's diagnostics, the verified path's length and, for a policy, the deciding
/// step (or the error that stopped the evaluation). Messages may differ (they quote timings or
/// addresses); these may not.
public struct VerdictFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var trusted: Bool
    public var failures: [FailureClass]
    public var diagnostics: [String]
    public var pathLength: Int?
    public var step: PolicyStep?
    public var error: String?

    public init(_ verdict: Verdict) {
        self.init(observed: Observation(verdict), error: nil)
    }

    public init(_ result: ConformanceResult) {
        self.init(observed: result.observed, error: result.error)
    }

    /// The one mapping: what an observation (or the error in its place) must keep.
    init(observed: Observation?, error: String?) {
        trusted = observed?.trusted ?? false
        failures = observed?.failures ?? []
        diagnostics = observed?.diagnostics.map(\.name) ?? []
        pathLength = observed?.pathLength
        step = observed?.step
        self.error = error
    }

    /// `trusted (path of 3)`, `rejected [other] GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE`.
    public var description: String {
        if let error { return "error: \(error)" }
        var text = trusted ? "trusted" : "rejected [\(failures.map(\.rawValue).joined(separator: ", "))]"
        if let pathLength, trusted { text += " (path of \(pathLength))" }
        if !diagnostics.isEmpty { text += " " + diagnostics.joined(separator: ", ") }
        if let step { text += " at \(step.rawValue)" }
        return text
    }
}

/// One of the verdicts an unstable request got, and how many of its repetitions got it.
public struct VerdictVariant: Sendable, Hashable, Codable {
    public var verdict: VerdictFingerprint
    public var count: Int

    public init(verdict: VerdictFingerprint, count: Int) {
        self.verdict = verdict
        self.count = count
    }

    /// Every distinct verdict of `answers`, most frequent first (ties in order of first appearance).
    public static func tally(_ answers: [VerdictFingerprint]) -> [VerdictVariant] {
        var order: [VerdictFingerprint] = []
        var counts: [VerdictFingerprint: Int] = [:]
        for answer in answers {
            if counts[answer] == nil { order.append(answer) }
            counts[answer, default: 0] += 1
        }
        return order.enumerated()
            .sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }
            .map { VerdictVariant(verdict: $0.element, count: counts[$0.element]!) }
    }

    /// `trusted ×5; rejected [other] GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE ×1`.
    public static func describe(_ variants: [VerdictVariant]) -> String {
        variants.map { "\($0.verdict) ×\($0.count)" }.joined(separator: "; ")
    }
}

extension ConformanceResult {
    /// This result (the first answer) judged again with every repetition of the same request: when
    /// they all agree, unchanged; otherwise ``Outcome/unstable``, listing every distinct verdict
    /// with how often it came, whatever the standards say (an answer that changes is not one a
    /// deviation can record).
    func judgedForStability(with repetitions: [ConformanceResult]) -> ConformanceResult {
        let variants = VerdictVariant.tally(([self] + repetitions).map(VerdictFingerprint.init))
        guard variants.count > 1 else { return self }
        var unstable = self
        unstable.variants = variants
        unstable.judgement = Judgement(
            outcome: .unstable, failureKind: nil,
            detail: "\(variants.count) different verdicts in \(repetitions.count + 1) evaluations of the same request (cold and warm evaluators, one task and many): \(VerdictVariant.describe(variants))"
        )
        return unstable
    }
}
