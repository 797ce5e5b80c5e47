import TrustCore
import TrustVectors

/// One back end's result on one vector.
public struct ConformanceResult: Sendable, Hashable {
    public var vector: LoadedVector
    public var backend: String
    /// Nil when the back end could not evaluate (see ``error``) or the vector was skipped.
    public var verdict: Verdict?
    /// Why there is no verdict: the back end's error making an evaluator, or the skip reason.
    public var error: String?
    public var judgement: Judgement

    public var outcome: Outcome { judgement.outcome }
}
