/// Counts per back end, the bottom of every report.
public struct ConformanceSummary: Sendable, Hashable, Codable {
    public var backend: String
    public var total = 0
    public var passed = 0
    /// Trusted although the standards say reject (the security-relevant column).
    public var acceptedShouldReject = 0
    /// Rejected although the standards say trust.
    public var rejectedShouldTrust = 0
    /// Rejected as expected but for another reason, trusted through another path, or a recorded
    /// deviation that changed.
    public var otherFailures = 0
    public var deviations = 0
    public var errors = 0
    public var skipped = 0

    public init(backend: String) {
        self.backend = backend
    }

    /// Failures and errors: what makes the run exit non-zero.
    public var unexpected: Int { acceptedShouldReject + rejectedShouldTrust + otherFailures + errors }

    mutating func add(_ result: ConformanceResult) {
        total += 1
        switch result.outcome {
        case .pass: passed += 1
        case .deviation: deviations += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        case .fail:
            switch result.judgement.failureKind {
            case .acceptedShouldReject: acceptedShouldReject += 1
            case .rejectedShouldTrust: rejectedShouldTrust += 1
            default: otherFailures += 1
            }
        }
    }

    /// One summary per back end, in the order the back ends are given.
    public static func of(_ results: [ConformanceResult], backends: [String]) -> [ConformanceSummary] {
        backends.map { name in
            var summary = ConformanceSummary(backend: name)
            for result in results where result.backend == name { summary.add(result) }
            return summary
        }
    }
}
