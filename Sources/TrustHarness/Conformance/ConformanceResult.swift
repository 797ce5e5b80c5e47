import TrustCore
import TrustVectors
import TrustPolicy

/// What the standards or the policy semantics call for, in the terms every report uses.
public struct ExpectedOutcome: Sendable, Hashable, Codable {
    public var trusted: Bool
    /// For a rejected chain vector: the failure classes the standards allow.
    public var failures: [FailureClass]
    /// For a policy vector: the step that must decide (JSON `null` for a chain vector).
    @ExplicitNull public var step: PolicyStep?
    /// For a vector the profile leaves open: the sentence that leaves it open (then `trusted` and
    /// `failures` mean nothing). Absent otherwise.
    public var open: String?

    public init(_ expectation: Expectation) {
        self.trusted = expectation.trusted
        self.failures = expectation.failures
        self.step = nil
    }

    public init(_ answer: ProfileAnswer) {
        self.init(answer.expected)
        self.open = answer.open
    }

    public init(_ expectation: PolicyExpectation) {
        self.trusted = expectation.trusted
        self.failures = []
        self.step = expectation.step
    }
}

/// What a back end answered on one vector.
public struct Observation: Sendable, Hashable {
    public var trusted: Bool
    public var failures: [FailureClass]
    /// The library's own diagnostics behind a rejection.
    public var diagnostics: [NativeDiagnostic]
    /// The verified (or, for a policy, the pin-checked) path's length.
    public var pathLength: Int?
    /// Policy vectors: the deciding step and the policy's explanation.
    public var step: PolicyStep?
    public var reason: String?

    public init(_ verdict: Verdict) {
        trusted = verdict.isTrusted
        failures = verdict.failures
        diagnostics = verdict.diagnostics
        pathLength = verdict.path?.count
    }

    public init(_ decision: PolicyDecision) {
        trusted = decision.trusted
        failures = decision.failures
        diagnostics = decision.diagnostics
        pathLength = decision.path.isEmpty ? nil : decision.path.count
        step = decision.step
        reason = decision.reason
    }

    public var outcome: ObservedOutcome { ObservedOutcome(trusted: trusted, failures: failures, step: step) }
}

/// One back end's result on one vector (a chain vector or a policy vector).
/// What a reader needs to know about the vector itself: what it tests, the rules it rests on, the
/// host and the validation time. Shown by the HTML and Markdown reports.
public struct VectorContext: Sendable, Hashable, Codable {
    public var description: String
    public var references: [String]
    /// The host (or the policy's domain) checked, if any.
    public var host: String?
    /// RFC 3339.
    public var time: String

    public init(description: String, references: [String], host: String?, time: String) {
        self.description = description
        self.references = references
        self.host = host
        self.time = time
    }
}

public struct ConformanceResult: Sendable, Hashable {
    public var id: String
    public var backend: String
    public var expected: ExpectedOutcome
    /// Nil when the back end could not evaluate (see ``error``).
    public var observed: Observation?
    /// Why there is no observation: the back end's error making an evaluator.
    public var error: String?
    public var judgement: Judgement
    /// Wall-clock seconds the evaluation (or the policy decision) took, for reports that show times
    /// (JUnit); not part of the result's identity: equal results may take different times.
    public var seconds: Double = 0
    /// The vector's description, references, host and time; nil for results made without a suite.
    public var context: VectorContext? = nil
    /// For an ``Outcome/unstable`` result: every distinct verdict the repetitions got, most frequent
    /// first (the observation above is the first answer); empty otherwise.
    public var variants: [VerdictVariant] = []
    /// For a departure (a recorded deviation or a failure in a direction): what it gives an attacker
    /// or costs a user, derived from the rule the vector tests (``ImpactCatalogue``); nil for any
    /// other outcome, and when the catalogue has no class for the rule (`generate --check` fails then).
    public var impact: Impact? = nil

    public var outcome: Outcome { judgement.outcome }
    public var isPolicy: Bool { expected.step != nil }

    public static func == (lhs: ConformanceResult, rhs: ConformanceResult) -> Bool {
        lhs.id == rhs.id && lhs.backend == rhs.backend && lhs.expected == rhs.expected && lhs.observed == rhs.observed
            && lhs.error == rhs.error && lhs.judgement == rhs.judgement && lhs.variants == rhs.variants
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(backend)
        hasher.combine(observed)
    }
}
