import TrustCore
import TrustVectors

extension ImpactCatalogue {
    /// The impact of `result` when it departs (a recorded deviation or a failure): accepting what
    /// `answer` rejects, refusing what it trusts (the vector trusted under `trustedUnder`), or the
    /// right verdict for another reason or path; nil for any other outcome or an unclassified rule.
    public func impact(of result: ConformanceResult, answer: ProfileAnswer, trustedUnder: [StandardsProfile]) -> Impact? {
        guard result.outcome == .deviation || result.outcome == .fail, answer.open == nil, let observed = result.observed else { return nil }
        switch (observed.trusted, answer.expected.trusted) {
        case (true, false): return accepting(answer).impact
        case (false, true) where result.judgement.failureKind != .wrongPath: return refusing(answer, trustedUnder: trustedUnder).impact
        default: return misreported().impact
        }
    }
}

extension ConformanceResult {
    /// Departures in the order a reader needs them: the most serious impact first (accepts before
    /// rejects of a severity), then by vector and back end; results without an impact last.
    public static func byImpact(_ results: [ConformanceResult]) -> [ConformanceResult] {
        results.sorted { a, b in
            switch (a.impact, b.impact) {
            case let (x?, y?) where x.order != y.order: return x.order < y.order
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.id, a.backend) < (b.id, b.backend)
            }
        }
    }
}
