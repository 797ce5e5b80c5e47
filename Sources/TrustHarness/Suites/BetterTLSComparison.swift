import Foundation
import TrustCore
import TrustVectors

/// One back end's BetterTLS results set beside what BetterTLS's authors published for a library
/// (``BetterTLSPublished``), case by case on the suite's cases at the published file's revision:
/// where the verdicts differ, with the recorded explanation of each difference.
public struct BetterTLSComparison: Sendable, Codable {
    /// A case whose verdict differs.
    public struct Difference: Sendable, Codable, Hashable {
        public var id: String
        public var index: Int
        /// BetterTLS's expected result (PASS, FAIL, SOFT_PASS, SOFT_FAIL).
        public var expected: String
        /// ACCEPTED or REJECTED: ours, and the published one.
        public var ours: String
        public var theirs: String
        /// The case in one line.
        public var summary: String
        /// Our back end's reason for a rejection.
        public var context: String?
        /// The recorded explanation and where its rule lives, or nil when none covers the case.
        public var explanation: String?
        public var source: String?
    }

    /// The JSON report's body: `comparisons`, one per back end.
    public struct Report: Sendable, Codable {
        public var comparisons: [BetterTLSComparison]
        public init(comparisons: [BetterTLSComparison]) { self.comparisons = comparisons }
    }

    public var suite: String
    public var backend: String
    /// Our back end's library and version.
    public var library: String
    /// The published file (its name under Vectors/bettertls/published), its implementation and version.
    public var publishedFile: String
    public var publishedImplementation: String
    public var publishedVersion: String
    /// The BetterTLS revision of the published results, and so of the cases compared.
    public var revision: String
    /// Cases both answered; of them, the same verdict; cases the published run skipped (a feature
    /// it failed) or we skipped.
    public var compared: Int
    public var same: Int
    public var skippedByThem: Int
    public var skippedByUs: Int
    public var differences: [Difference]
    /// What keeps the recorded explanations from being sound: a difference none explains, an
    /// explanation whose rule does not hold or that covers no difference. Empty when sound.
    public var problems: [String]

    /// Compares `results` (one back end's, on the cases of `published`'s revision, in case order by
    /// index) with `published`'s results for `suite`.
    /// - Parameters:
    ///   - expected: BetterTLS's expected result per case index.
    ///   - summaries: each case in one line, per index.
    ///   - parts: each case's parts, for the explanations' patterns.
    ///   - explanations: the recorded explanations of the differences (their `backend` is ours).
    public static func compare(
        suite: String, backend: BackendInfo, results: [SuiteResult], publishedFile: String, published: BetterTLSPublished,
        expected: [String], summaries: [String], parts: [[String: String]], explanations: BetterTLSExplanations?
    ) -> BetterTLSComparison {
        let theirs = published.suites[suite]?.results ?? []
        var ours = [String](repeating: "MISSING", count: parts.count)
        var contexts = [String?](repeating: nil, count: parts.count)
        let prefix = "bettertls::\(suite)::tc"
        for result in results where result.backend == backend.name && result.id.hasPrefix(prefix) {
            guard let index = Int(result.id.dropFirst(prefix.count)), ours.indices.contains(index) else { continue }
            switch result.actual {
            case .success: ours[index] = "ACCEPTED"
            case .failure: ours[index] = "REJECTED"; contexts[index] = result.context
            case .skipped: ours[index] = "SKIPPED"
            }
        }
        var comparison = BetterTLSComparison(
            suite: suite, backend: backend.name, library: backend.version, publishedFile: publishedFile,
            publishedImplementation: published.implementation, publishedVersion: published.version.trimmingCharacters(in: .whitespacesAndNewlines),
            revision: published.revision, compared: 0, same: 0, skippedByThem: 0, skippedByUs: 0, differences: [], problems: []
        )
        var differing = Set<Int>()
        for index in parts.indices {
            let their = index < theirs.count ? theirs[index] : .skipped
            if their == .skipped { comparison.skippedByThem += 1; continue }
            if ours[index] != "ACCEPTED" && ours[index] != "REJECTED" { comparison.skippedByUs += 1; continue }
            comparison.compared += 1
            let theirText = their == .accepted ? "ACCEPTED" : "REJECTED"
            if theirText == ours[index] { comparison.same += 1; continue }
            differing.insert(index)
            let explanation = explanations?.explanation(backend: backend.name, parts: parts[index])
            comparison.differences.append(Difference(
                id: "\(prefix)\(index)", index: index, expected: index < expected.count ? expected[index] : "?", ours: ours[index], theirs: theirText,
                summary: index < summaries.count ? summaries[index] : "", context: contexts[index],
                explanation: explanation?.reason, source: explanation?.source
            ))
        }
        if theirs.count != parts.count {
            comparison.problems.append("\(publishedFile) holds \(theirs.count) \(suite) results where revision \(published.revision.prefix(7)) has \(parts.count) cases")
        }
        // An explanation's `observed` is our verdict (SUCCESS or FAILURE) on every case it covers.
        let verdicts = ours.map { $0 == "ACCEPTED" ? "SUCCESS" : $0 == "REJECTED" ? "FAILURE" : $0 }
        comparison.problems += (explanations ?? BetterTLSExplanations(suite: suite, explanations: []))
            .problems(observed: [backend.name: verdicts], parts: parts, departures: [backend.name: differing])
        return comparison
    }

    /// The comparisons as text: per back end its figures, then every difference with its explanation.
    public static func renderText(_ comparisons: [BetterTLSComparison], provenance: Provenance?) -> String {
        var out = "BetterTLS: our back ends beside the results BetterTLS's authors published\n"
        if let provenance { out += "  by \(provenance.line)\n" }
        for comparison in comparisons {
            out += "\n\(comparison.backend) (\(comparison.library))\n"
            out += "  against \(comparison.publishedFile): \(comparison.publishedImplementation) \(comparison.publishedVersion.split(separator: "\n").first ?? "")\n"
            out += "  \(comparison.suite) at BetterTLS \(comparison.revision.prefix(7)): \(comparison.compared) cases compared, \(comparison.same) the same, \(comparison.differences.count) differ"
            out += " (\(comparison.differences.filter { $0.ours == "ACCEPTED" }.count) we accept, \(comparison.differences.filter { $0.ours == "REJECTED" }.count) we reject);"
            out += " \(comparison.skippedByThem) skipped by the published run, \(comparison.skippedByUs) by ours\n"
            // Differences grouped by their explanation, so a rule reads once with its cases.
            var groups: [(key: String, items: [Difference])] = []
            for difference in comparison.differences {
                let key = difference.explanation.map { "\($0)\n      (\(difference.source ?? ""))" } ?? "NOT EXPLAINED"
                if let at = groups.firstIndex(where: { $0.key == key }) { groups[at].items.append(difference) } else { groups.append((key, [difference])) }
            }
            for group in groups {
                out += "  \(group.items.count) case(s): \(group.key)\n"
                for difference in group.items.prefix(group.key == "NOT EXPLAINED" ? Int.max : 3) {
                    out += "    tc\(difference.index) (expected \(difference.expected)): we \(difference.ours.lowercased()), they \(difference.theirs.lowercased()); \(difference.summary)\n"
                }
                if group.key != "NOT EXPLAINED" && group.items.count > 3 {
                    out += "    ... and \(group.items.count - 3) more: tc\(group.items.dropFirst(3).map { String($0.index) }.joined(separator: ", tc"))\n"
                }
            }
            for problem in comparison.problems { out += "  problem: \(problem)\n" }
        }
        let problems = comparisons.reduce(0) { $0 + $1.problems.count }
        out += problems == 0 ? "\nEvery difference is explained.\n" : "\n\(problems) problem(s): a difference not explained, or an explanation that no longer holds (Vectors/bettertls/published-<suite>-differences.json).\n"
        return out
    }
}
