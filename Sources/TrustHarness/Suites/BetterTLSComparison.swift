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
    ///   - facts: the cases of that revision (expected results, summaries, parts for the patterns).
    ///   - explanations: the recorded explanations of the differences (their `backend` is ours).
    public static func compare(
        suite: String, backend: BackendInfo, results: [SuiteResult], publishedFile: String, published: BetterTLSPublished,
        facts: BetterTLSCaseFacts, explanations: BetterTLSExplanations?
    ) -> BetterTLSComparison {
        let (expected, summaries, parts) = (facts.expected, facts.summaries, facts.parts)
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
            case .error: ours[index] = "ERROR"; contexts[index] = result.context
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

    /// The comparisons as a document: per back end its figures, then the differences grouped by the
    /// explanation that covers them (or NOT EXPLAINED), each case with its summary, and any problem.
    public static func document(_ comparisons: [BetterTLSComparison], provenance: Provenance?) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let figures = comparisons.map { c -> [Cell] in
            [Cell(c.backend), Cell(c.suite), Cell("\(c.publishedFile) (\(c.publishedImplementation) \(c.publishedVersion.split(separator: "\n").first ?? ""))"),
             Cell("\(c.compared)"), Cell("\(c.same)"), Cell("\(c.differences.count)", tone: c.differences.isEmpty ? .pass : c.problems.isEmpty ? .deviation : .rejects),
             Cell("\(c.differences.filter { $0.ours == "ACCEPTED" }.count)"), Cell("\(c.differences.filter { $0.ours == "REJECTED" }.count)"),
             Cell("\(c.skippedByThem)"), Cell("\(c.skippedByUs)")]
        }
        var sections: [ReportDocument.Section] = [.init(id: "figures", title: "Figures", blocks: [.table(.init(
            headers: ["back end", "suite", "published results", "compared", "the same", "differ", "we accept", "we reject", "skipped by them", "skipped by us"],
            cells: figures, numeric: Set(3...9), legend: [.pass: "no difference", .deviation: "every difference explained", .rejects: "a difference not explained"]
        ))])]
        for comparison in comparisons where !comparison.differences.isEmpty || !comparison.problems.isEmpty {
            // Differences grouped by their explanation, so a rule reads once with its cases.
            var groups: [(key: String, items: [Difference])] = []
            for difference in comparison.differences {
                let key = difference.explanation.map { "\($0) (\(difference.source ?? ""))" } ?? "NOT EXPLAINED"
                if let at = groups.firstIndex(where: { $0.key == key }) { groups[at].items.append(difference) } else { groups.append((key, [difference])) }
            }
            var blocks: [ReportDocument.Block] = []
            for group in groups {
                blocks.append(.paragraph("\(group.items.count) case(s): \(group.key)"))
                blocks.append(.table(.init(headers: ["case", "expected", "we", "they", "the case"], cells: group.items.map { d in
                    [Cell(d.id, code: true), Cell(d.expected), Cell(d.ours.lowercased(), tone: group.key == "NOT EXPLAINED" ? .rejects : .deviation, detail: d.context), Cell(d.theirs.lowercased()), Cell(d.summary)]
                })))
            }
            for problem in comparison.problems { blocks.append(.paragraph("Problem: \(problem)")) }
            sections.append(.init(id: "\(comparison.backend)-\(comparison.suite)", title: "\(comparison.backend) (\(comparison.library)), \(comparison.suite) at BetterTLS \(comparison.revision.prefix(7))", blocks: blocks))
        }
        let problems = comparisons.reduce(0) { $0 + $1.problems.count }
        return ReportDocument(
            title: "BetterTLS: our back ends beside the results BetterTLS's authors published", provenance: provenance,
            summary: problems == 0 ? "Every difference is explained." : "\(problems) problem(s): a difference not explained, or an explanation that no longer holds (Vectors/bettertls/published-<suite>-differences.json).",
            sections: sections
        )
    }
}
