import Foundation
import TrustCore
import TrustVectors

/// The classes a person reads first. A large run finds thousands of classes; the ranking puts the
/// security-relevant ones on top:
///
/// 1. **accepted where the standards reject**: a back end trusts a mutant the standards' answer
///    rejects (a shared accept, or a verdict disagreement whose trusting side is wrong);
/// 2. **rejected where the standards trust**;
/// 3. **failure-class differences**: every back end rejects, as the standards say, for other reasons;
/// 4. the rest: verdict disagreements the standards leave open, and classes a hardening closed.
///
/// Within a tier: the gravest impact first (``TrustVectors/ImpactCatalogue``: what accepting the
/// class gives an attacker, what rejecting it costs a user, from the rules the standards' answer
/// cites), so a shared accept of a forged signature comes before one of a malformed time; then more
/// back ends accepting (or rejecting); then classes not yet adopted as vectors (Vectors/explored/)
/// before those that are; then more mutants; then the class's key.
extension Explorer {
    public struct Ranked: Sendable, Codable, Equatable {
        /// 1 to 4, as above.
        public var tier: Int
        /// The tier's name: `accepted-where-rejected`, `rejected-where-trusted`, `reason`, `other`.
        public var why: String
        /// The back ends whose answer puts the class in its tier (accepting, rejecting, or, for
        /// `reason` and `other`, every back end asked).
        public var backends: [String]
        /// The class's index in the report's `findings`.
        public var finding: Int
        /// The candidate vector id the class would be adopted as (`explored/...`), and whether the
        /// vectors already hold it.
        public var candidate: String
        public var adopted: Bool
        /// What the tier's departure does (tiers 1 and 2, where the standards answer); nil otherwise
        /// or when the catalogue has no class for the answer's rules.
        public var impact: Impact? = nil
    }

    static let tierNames = [1: "accepted-where-rejected", 2: "rejected-where-trusted", 3: "reason", 4: "other"]

    /// `report`'s classes ranked; `adopted` holds the ids of the vectors already adopted
    /// (`explored/...`).
    public static func rank(_ report: Report, adopted: Set<String>, impacts: ImpactCatalogue = .empty) -> [Ranked] {
        let ranked = report.findings.enumerated().map { index, finding -> Ranked in
            let (tier, backends) = tier(of: finding)
            let candidate = "explored/\(FindingFiles.name(finding))"
            var entry = Ranked(tier: tier, why: tierNames[tier] ?? "other", backends: backends, finding: index, candidate: candidate, adopted: adopted.contains(candidate))
            if let answer = report.profile == .webpki ? finding.webpki : finding.rfc5280, answer.open == nil {
                if tier == 1 { entry.impact = impacts.accepting(answer).impact }
                if tier == 2 {
                    let trustedUnder = StandardsProfile.allCases.filter { profile in
                        (profile == .webpki ? finding.webpki : finding.rfc5280).map { $0.open == nil && $0.expected.trusted } ?? false
                    }
                    entry.impact = impacts.refusing(answer, trustedUnder: trustedUnder).impact
                }
            }
            return entry
        }
        return ranked.sorted { a, b in
            let x = report.findings[a.finding], y = report.findings[b.finding]
            let (p, q) = (a.impact?.rank ?? Int.max, b.impact?.rank ?? Int.max)
            return (a.tier, p, -a.backends.count, a.adopted ? 1 : 0, -x.occurrences, x.key) < (b.tier, q, -b.backends.count, b.adopted ? 1 : 0, -y.occurrences, y.key)
        }
    }

    static func tier(of finding: Finding) -> (Int, [String]) {
        if let standard = finding.standard {
            if !standard.trusted {
                let accepting = finding.answers.filter(\.trusted).map(\.backend)
                if !accepting.isEmpty { return (1, accepting) }
            } else {
                let rejecting = finding.answers.filter { !$0.trusted }.map(\.backend)
                if !rejecting.isEmpty { return (2, rejecting) }
            }
        }
        return (finding.kind == "reason" ? 3 : 4, finding.answers.map(\.backend))
    }
}
