import Foundation
import TrustCore
import TrustVectors
import TrustPolicy

/// The stable JSON form of a conformance run (documented in the README):
/// `{"backends": [{"name", "version"}], "results": [{"vector", "backend", "expected", "observed",
/// "outcome", "detail"}], "summary": [...]}`; policy vectors add `step` to `expected` and `step`,
/// `reason` to `observed`.
public struct JSONReport: Codable, Sendable {
    public struct Native: Codable, Sendable {
        public var code: Int
        public var name: String
        public var message: String
        @ExplicitNull public var depth: Int?
        /// Who gave it when not the library (`layer`, `limit`, `harness`); absent for the library.
        public var origin: DiagnosticOrigin?
        /// The layer's name when ``origin`` is `layer`.
        public var layer: String?

        public init(code: Int, name: String, message: String, depth: Int?, origin: DiagnosticOrigin? = nil, layer: String? = nil) {
            self.code = code
            self.name = name
            self.message = message
            self.depth = depth
            self.origin = origin == .library ? nil : origin
            self.layer = layer
        }

        /// `diagnostic` as the reports write it: its origin and layer only when not the library's.
        public init(_ diagnostic: NativeDiagnostic) {
            self.init(code: diagnostic.code, name: diagnostic.name, message: diagnostic.message, depth: diagnostic.depth, origin: diagnostic.origin, layer: diagnostic.layer)
        }
    }

    public struct Observed: Codable, Sendable {
        public var trusted: Bool
        public var failures: [FailureClass]
        /// The library's own diagnostics (empty when trusted or not evaluated).
        public var native: [Native]
        /// The verified path's length when there is one.
        @ExplicitNull public var pathLength: Int?
        /// Policy vectors: the step that decided and the policy's explanation.
        @ExplicitNull public var step: PolicyStep?
        @ExplicitNull public var reason: String?
        /// Set when the back end could not evaluate at all.
        @ExplicitNull public var error: String?
    }

    public struct Entry: Codable, Sendable {
        public var vector: String
        public var backend: String
        public var expected: ExpectedOutcome
        public var observed: Observed
        public var outcome: Outcome
        public var detail: String
        /// For an `unstable` outcome: every distinct verdict of the repetitions and how often it came
        /// (`{"verdict": {...}, "count": n}`); empty otherwise.
        public var variants: [VerdictVariant]
        /// For a departure: its impact class, severity, direction, CWE and the rule that decided it
        /// (``Impact``); null otherwise.
        @ExplicitNull public var impact: Impact?
    }

    /// The version of this document's shape: 2 added `schemaVersion`, `provenance`, explicit nulls
    /// and the summary's recorded counts per direction; 3 the `unstable` outcome, each result's
    /// `variants` and the summary's `unstable` count; 4 the `open` outcome (a vector the profile
    /// leaves open, with `expected.open` quoting why), the summary's `leftOpen` count and
    /// `provenance.profile`, the standards profile the results were judged against; 5 the `limit`
    /// outcome, the summary's `limited` count, and a diagnostic's `origin` and `layer` when the
    /// library did not give it; 6 each departure's `impact` (class, severity, direction, CWE, rule)
    /// and the summary's `byImpact` and `bySeverity` counts.
    public var schemaVersion = 6
    @ExplicitNull public var provenance: Provenance?
    public var backends: [BackendInfo]
    public var results: [Entry]
    public var summary: [ConformanceSummary]

    public init(backends: [BackendInfo], results: [ConformanceResult], provenance: Provenance? = nil) {
        self.provenance = provenance
        self.backends = backends
        self.results = results.map { result in
            let observed = result.observed
            return Entry(
                vector: result.id,
                backend: result.backend,
                expected: result.expected,
                observed: Observed(
                    trusted: observed?.trusted ?? false,
                    failures: observed?.failures ?? [],
                    native: observed?.diagnostics.map(Native.init) ?? [],
                    pathLength: observed?.pathLength,
                    step: observed?.step,
                    reason: observed?.reason,
                    error: result.error
                ),
                outcome: result.outcome,
                detail: result.judgement.detail,
                variants: result.variants,
                impact: result.impact
            )
        }
        self.summary = ConformanceSummary.of(results, backends: backends.map(\.name))
    }

    public func encoded() throws -> String {
        try JSONText.encode(self)
    }
}

