import TrustCore
import TrustVectors

/// One x509-limbo test case on one back end: what the suite expects, what the back end did, and why.
public struct SuiteResult: Sendable, Hashable, Codable {
    /// x509-limbo's result values.
    public enum Actual: String, Sendable, Hashable, Codable, CaseIterable {
        case success = "SUCCESS"
        case failure = "FAILURE"
        case skipped = "SKIPPED"
        /// No answer: the evaluation did not return within the harness's one limit (a hang,
        /// ``GuardedEvaluation/hangMessage(_:limit:)``), a defect of the back end, never a skip.
        case error = "ERROR"
    }

    /// How the result compares with the suite's expectation: the columns of the summary.
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        case passed
        /// Trusted although the suite expects a rejection: the security-relevant column.
        case acceptedExpectedFailure = "accepted-expected-failure"
        /// Rejected although the suite expects the chain to be trusted.
        case rejectedExpectedSuccess = "rejected-expected-success"
        case skipped
        /// Other than the suite expects, on a case where it says that is only a warning (BetterTLS's
        /// soft results: the case's `failure-is-warning` feature).
        case warning
        /// The evaluation did not return (a hang): fails the run, whatever the record says.
        case error
    }

    public var id: String
    public var backend: String
    /// `SUCCESS` or `FAILURE`, as the suite says.
    public var expected: String
    public var actual: Actual
    /// Why: the skip reason, or the back end's diagnostics (or the input problem) for a rejection;
    /// nil for a success.
    @ExplicitNull public var context: String?
    /// The failure classes of a rejection.
    public var failures: [FailureClass]
    /// Wall-clock time of the evaluation alone, in milliseconds (0 when skipped or not evaluated).
    public var milliseconds: Double
    /// The case's description in the suite, for reports that show it.
    @ExplicitNull public var caseDescription: String? = nil
    /// The summary row the case counts in when it is not the id's namespace (PKITS: its section).
    @ExplicitNull public var group: String? = nil
    /// True when the suite says a result other than the expected one is only a warning; absent otherwise.
    public var failureIsWarning: Bool? = nil
    /// For a departure from the suite (not a warning): what it gives an attacker or costs a user,
    /// from the suite's rule for the case (``ImpactCatalogue/suiteCase(_:id:group:accepted:)``).
    public var impact: Impact? = nil

    /// The most characters of a context kept: a reader needs the back end's reason, not a key or a
    /// certificate printed whole (an x509-limbo DSA case's reason quoted its key twice, thousands of
    /// characters).
    public static let contextLimit = 400

    /// `text` cut to ``contextLimit`` characters, saying how many were cut.
    public static func shortened(_ text: String) -> String {
        guard text.count > contextLimit else { return text }
        return "\(text.prefix(contextLimit))... (\(text.count - contextLimit) more characters)"
    }

    /// A result whose `context` is kept to ``contextLimit`` characters (``shortened(_:)``).
    public init(id: String, backend: String, expected: String, actual: Actual, context: String?, failures: [FailureClass] = [], milliseconds: Double = 0) {
        self.id = id
        self.backend = backend
        self.expected = expected
        self.actual = actual
        self.context = context.map(Self.shortened)
        self.failures = failures
        self.milliseconds = milliseconds
    }

    public var outcome: Outcome {
        switch actual {
        case .skipped: return .skipped
        case .error: return .error
        case .success: return expected == "SUCCESS" ? .passed : failureIsWarning == true ? .warning : .acceptedExpectedFailure
        case .failure: return expected == "FAILURE" ? .passed : failureIsWarning == true ? .warning : .rejectedExpectedSuccess
        }
    }

    /// `rfc5280`, `webpki`, ...: the first component of the id, or the case's group.
    public var namespace: String {
        group ?? id.range(of: "::").map { String(id[..<$0.lowerBound]) } ?? id
    }

    /// The case ids in order of first appearance, and each case's results by back end.
    static func byCase(_ results: [SuiteResult]) -> (order: [String], byCase: [String: [String: SuiteResult]]) {
        var order: [String] = []
        var byCase: [String: [String: SuiteResult]] = [:]
        for result in results {
            if byCase[result.id] == nil { order.append(result.id) }
            byCase[result.id, default: [:]][result.backend] = result
        }
        return (order, byCase)
    }
}
