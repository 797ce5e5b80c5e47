import Synchronization
import TrustCore

/// A back end that is deliberately unstable, for proving that a harness notices: it answers as
/// `base` does, except that every `period`-th evaluation (counted across all its evaluators and
/// tasks) gets the opposite answer, a trust turned into a rejection naming `UNSTABLE_BY_DESIGN`
/// and a rejection turned into a trust of the presented chain. Never ship it; it exists so that
/// tests (TrustHarness's own, and a back-end author's) can show that `ConformanceRunner` with
/// repetitions (in `TrustHarness`), `stress` and
/// ``BackendTestKit/expectConformance(_:deviations:sourceLocation:)`` report such a back end as
/// `unstable` instead of passing or failing it by luck.
public struct UnstableBackend: TrustBackend {
    /// The back end whose answers are given, but for one in ``period``.
    public let base: any TrustBackend
    /// How often the answer flips: every `period`-th evaluation, counted across every evaluator.
    public let period: Int
    private let counter: Counter

    /// - Parameters:
    ///   - base: the back end whose answers are given, but for one in `period`.
    ///   - period: 2 or more: how often the answer flips.
    public init(base: any TrustBackend, period: Int = 5) {
        precondition(period >= 2, "UnstableBackend: a period of 2 or more")
        self.base = base
        self.period = period
        self.counter = Counter()
    }

    /// The base back end's name, so that its deviations apply.
    public var name: String { base.name }
    /// The base back end's library version, marked as made unstable.
    public var libraryVersion: String { base.libraryVersion + " (made unstable on purpose)" }
    /// The base back end's features.
    public var features: Set<BackendFeature> { base.features }

    /// The base back end's evaluator for `anchors`, with every ``period``-th answer flipped.
    /// - Throws: whatever the base back end throws.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        Evaluator(base: try base.makeEvaluator(anchors: anchors), period: period, counter: counter)
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    struct Evaluator: TrustEvaluator {
        let base: any TrustEvaluator
        let period: Int
        let counter: Counter

        func evaluate(_ request: EvaluationRequest) -> Verdict {
            let verdict = base.evaluate(request)
            guard counter.value.add(1, ordering: .relaxed).newValue % period == 0 else { return verdict }
            return verdict.isTrusted
                ? .failClosed(.other, name: "UNSTABLE_BY_DESIGN", message: "UnstableBackend flipped this answer on purpose", origin: .library)
                : .trusted(path: request.chain)
        }
    }
}
