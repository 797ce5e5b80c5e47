import TrustVectors

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
    /// How many of the recorded deviations are drafts (``TrustVectors/Deviation/draft``): recorded,
    /// so not unexpected, but with no cause named, so not explained either.
    public var deviationsUnexplained = 0
    public var errors = 0
    /// Results a time or work limit stopped before the library answered (``Outcome/limit``): neither
    /// passes nor the library's verdicts, and not unexpected.
    public var limited = 0
    public var skipped = 0
    /// Requests whose verdict changed between repetitions (``Outcome/unstable``).
    public var unstable = 0
    /// Results on vectors the profile leaves open (``Outcome/open``): neither passes nor failures.
    public var leftOpen = 0
    /// The departures above by impact class (``Impact``; `unclassified` when the catalogue has no
    /// class for the rule), and by severity: what a reader weighs before counting.
    public var byImpact: [String: Int] = [:]
    public var bySeverity: [String: Int] = [:]

    public init(backend: String) {
        self.backend = backend
    }

    private enum CodingKeys: String, CodingKey {
        case backend, total, passed, acceptedShouldReject, rejectedShouldTrust, otherFailures, deviations
        case deviationsAcceptingShouldReject, deviationsRejectingShouldTrust, deviationsOther, deviationsUnexplained, errors, limited, skipped, unstable, leftOpen, byImpact, bySeverity
    }

    /// Reads a summary; one written before limits were counted has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        backend = try c.decode(String.self, forKey: .backend)
        total = try c.decode(Int.self, forKey: .total)
        passed = try c.decode(Int.self, forKey: .passed)
        acceptedShouldReject = try c.decode(Int.self, forKey: .acceptedShouldReject)
        rejectedShouldTrust = try c.decode(Int.self, forKey: .rejectedShouldTrust)
        otherFailures = try c.decode(Int.self, forKey: .otherFailures)
        deviations = try c.decode(Int.self, forKey: .deviations)
        deviationsAcceptingShouldReject = try c.decode(Int.self, forKey: .deviationsAcceptingShouldReject)
        deviationsRejectingShouldTrust = try c.decode(Int.self, forKey: .deviationsRejectingShouldTrust)
        deviationsOther = try c.decode(Int.self, forKey: .deviationsOther)
        deviationsUnexplained = try c.decodeIfPresent(Int.self, forKey: .deviationsUnexplained) ?? 0
        errors = try c.decode(Int.self, forKey: .errors)
        limited = try c.decodeIfPresent(Int.self, forKey: .limited) ?? 0
        skipped = try c.decode(Int.self, forKey: .skipped)
        unstable = try c.decode(Int.self, forKey: .unstable)
        leftOpen = try c.decode(Int.self, forKey: .leftOpen)
        byImpact = try c.decodeIfPresent([String: Int].self, forKey: .byImpact) ?? [:]
        bySeverity = try c.decodeIfPresent([String: Int].self, forKey: .bySeverity) ?? [:]
    }

    /// The most serious severity among the departures, or nil when there are none.
    public var worstSeverity: ImpactCatalogue.Severity? {
        ImpactCatalogue.Severity.allCases.first { (bySeverity[$0.rawValue] ?? 0) > 0 }
    }

    /// `critical 2 · high 14 · medium 30`: the departures by severity, most serious first.
    public var severityLine: String {
        let line = ImpactCatalogue.Severity.line(bySeverity)
        return line.isEmpty ? "none" : line
    }

    /// Departures from the standards that are not recorded, errors, and unstable verdicts: what makes
    /// the run exit non-zero.
    public var unexpected: Int { acceptedShouldReject + rejectedShouldTrust + otherFailures - deviations + errors + unstable }

    /// The unexpected count, with how many recorded deviations are unexplained (drafts) when any
    /// are: `0 (3 unexplained)`. The summary table's cell.
    public var unexpectedCell: String {
        "\(unexpected)" + (deviationsUnexplained > 0 ? " (\(deviationsUnexplained) unexplained)" : "")
    }

    /// `count`, with how many of them are recorded deviations when any are: `9 (9 recorded)`.
    public static func cell(_ count: Int, recorded: Int) -> String {
        recorded == 0 ? "\(count)" : "\(count) (\(recorded) recorded)"
    }

    mutating func add(_ result: ConformanceResult) {
        total += 1
        switch result.outcome {
        case .pass: passed += 1
        case .error: errors += 1
        case .limit: limited += 1
        case .skipped: skipped += 1
        case .unstable: unstable += 1
        case .open: leftOpen += 1
        case .fail, .deviation:
            let recorded = result.outcome == .deviation
            if recorded { deviations += 1 }
            if recorded && result.judgement.unexplained { deviationsUnexplained += 1 }
            byImpact[result.impact?.class ?? "unclassified", default: 0] += 1
            bySeverity[result.impact?.severity.rawValue ?? "unclassified", default: 0] += 1
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
