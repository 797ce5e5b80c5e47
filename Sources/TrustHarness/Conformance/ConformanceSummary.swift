/// Counts per back end, the bottom of every report.
///
/// The three directions count every result that departs from the standards, recorded deviations
/// included: a recorded deviation that trusts what the standards reject is still an acceptance of
/// what should be rejected, and the number a reader looks at first must say so. ``deviations`` says
/// how many of them are recorded (and so expected), ``unexpected`` how many are not (plus errors):
/// what makes a run exit non-zero.
public struct ConformanceSummary: Sendable, Hashable, Codable {
    public var backend: String
    public var total = 0
    public var passed = 0
    /// Trusted although the standards say reject, recorded or not (the security-relevant column).
    public var acceptedShouldReject = 0
    /// Rejected although the standards say trust, recorded or not.
    public var rejectedShouldTrust = 0
    /// Rejected as expected but for another reason, trusted through another path, a policy decided
    /// at another step with the same verdict, or a recorded deviation that changed; recorded or not.
    public var otherFailures = 0
    /// How many of the three above are recorded deviations, each direction alone.
    public var deviations = 0
    public var deviationsAcceptingShouldReject = 0
    public var deviationsRejectingShouldTrust = 0
    public var deviationsOther = 0
    public var errors = 0
    public var skipped = 0
    /// Requests whose verdict changed between repetitions (``Outcome/unstable``).
    public var unstable = 0
    /// Results on vectors the profile leaves open (``Outcome/open``): neither passes nor failures.
    public var leftOpen = 0

    public init(backend: String) {
        self.backend = backend
    }

    /// Departures from the standards that are not recorded, errors, and unstable verdicts: what makes
    /// the run exit non-zero.
    public var unexpected: Int { acceptedShouldReject + rejectedShouldTrust + otherFailures - deviations + errors + unstable }

    /// `count`, with how many of them are recorded deviations when any are: `9 (9 recorded)`.
    public static func cell(_ count: Int, recorded: Int) -> String {
        recorded == 0 ? "\(count)" : "\(count) (\(recorded) recorded)"
    }

    mutating func add(_ result: ConformanceResult) {
        total += 1
        switch result.outcome {
        case .pass: passed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        case .unstable: unstable += 1
        case .open: leftOpen += 1
        case .fail, .deviation:
            let recorded = result.outcome == .deviation
            if recorded { deviations += 1 }
            switch result.judgement.failureKind {
            case .acceptedShouldReject:
                acceptedShouldReject += 1
                if recorded { deviationsAcceptingShouldReject += 1 }
            case .rejectedShouldTrust:
                rejectedShouldTrust += 1
                if recorded { deviationsRejectingShouldTrust += 1 }
            default:
                otherFailures += 1
                if recorded { deviationsOther += 1 }
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
