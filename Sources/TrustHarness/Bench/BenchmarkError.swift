/// Why a benchmark could not be set up or produce trustworthy figures: what kind of problem, and a
/// message naming the back end or loop, the scenario and what happened.
public struct BenchmarkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem a benchmark meets.
    public enum Kind: Sendable, Hashable {
        /// A vector the benchmark measures is missing from the suite (a problem with the input).
        case missingVector
        /// A back end refused a scenario's anchors, so no evaluator could be made (a problem with
        /// the input, or the back end's).
        case anchorsRefused
        /// A back end trusted a scenario with one configuration (cold or warm) and not with the
        /// other: a cache changed a verdict.
        case cacheChangedVerdict
        /// A back end stopped trusting a scenario it trusted before: its verdicts differ between
        /// repetitions.
        case verdictChanged
        /// A raw loop (`BaselineLoop`) did not verify a scenario the back ends trust.
        case rawLoopFailed
        /// Instructions could not be counted: the process is not under callgrind, or its dump could
        /// not be read.
        case countFailed
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The problem in a sentence: which back end or loop, which scenario, what happened.
    public var message: String

    /// A problem of `kind`, described by `message`.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
