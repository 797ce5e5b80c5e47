import Foundation
import TrustVectors

/// The decision page: for each situation a Swift service on Linux is in (``Situations``), which
/// column to use and why, from the evidence only. A candidate's departures under the situation's
/// profile are weighed before they are counted: fewest critical accepts first, then high accepts,
/// then valid chains refused as high, then medium accepts, then low accepts; the suites the
/// situation names add their false accepts to the same scale. Candidates of one kind (clients, or
/// libraries) are compared on the requests every one of them was asked, so a column asked less is
/// never ranked better for it. Every figure and sentence is made here from the reports, so prose
/// and tables cannot disagree.
public struct Decision: Sendable {
    /// One column's evidence in one situation.
    public struct Candidate: Sendable {
        public var name: String
        public var kind: Situations.Kind
        /// Departures in the run (only the compared requests), by direction and severity.
        public var accepts: [ImpactCatalogue.Severity: Int] = [:]
        public var rejects: [ImpactCatalogue.Severity: Int] = [:]
        /// Accepting impact classes and how many of each, gravest first.
        public var gravest: [(id: String, count: Int)] { acceptClasses.sorted { ($0.value.rank, $0.key) < ($1.value.rank, $1.key) }.map { ($0.key, $0.value.count) } }
        var acceptClasses: [String: (rank: Int, count: Int)] = [:]
        /// Departures within each family the situation names: accepts / rejects.
        public var families: [String: (accepts: Int, rejects: Int)] = [:]
        /// Per suite the situation names: cases answered, false accepts, and those of them critical or high.
        public var suites: [String: SuiteFigures] = [:]
        /// Warm evaluation of the bench's RSA-2048 and P-256 chains (µs, or instructions when counted).
        public var speed: (rsa: Double?, p256: Double?)?

        /// The weighing: critical accepts, high accepts, high rejects, medium accepts, low accepts
        /// (run and suites together), smaller first.
        public var weight: [Int] {
            let suite = { (s: ImpactCatalogue.Severity) in suites.values.reduce(0) { $0 + ($1.accepts[s] ?? 0) } }
            return [accepts[.critical, default: 0] + suite(.critical), accepts[.high, default: 0] + suite(.high),
                    rejects[.high, default: 0], accepts[.medium, default: 0] + suite(.medium), accepts[.low, default: 0] + suite(.low)]
        }

        /// `0 critical, 1 high, 9 medium accepts`: the run's accepts that matter.
        public var acceptLine: String {
            "\(accepts[.critical, default: 0]) critical, \(accepts[.high, default: 0]) high, \(accepts[.medium, default: 0]) medium accepts"
        }

        /// `limbo 23 of 43`: per suite, its critical or high false accepts of all its false accepts.
        public var suiteLine: String {
            suites.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.serious) critical or high of \($0.value.falseAccepts) false accepts" }.joined(separator: ", ")
        }

        /// The weighing in words, for a runner-up: what sets it behind.
        public var weightLine: String {
            var parts = [acceptLine, "\(rejects[.high, default: 0]) valid refused (high)"]
            if !suites.isEmpty { parts.append(suiteLine) }
            return parts.joined(separator: "; ")
        }
    }

    /// A suite's figures for one column.
    public struct SuiteFigures: Sendable, Hashable {
        public var answered = 0
        public var falseAccepts = 0
        public var accepts: [ImpactCatalogue.Severity: Int] = [:]
        public var serious: Int { (accepts[.critical] ?? 0) + (accepts[.high] ?? 0) }
    }

    /// One kind of candidate ranked in one situation.
    public struct Ranking: Sendable {
        public var kind: Situations.Kind
        /// Best first.
        public var candidates: [Candidate]
        /// How many requests of the run every candidate was asked.
        public var compared: Int
    }

    /// The answer for one situation.
    public struct Answer: Sendable {
        public var situation: Situations.Situation
        /// One ranking per kind the situation compares, in its order; empty when `missing` says why.
        public var rankings: [Ranking]
        /// Why there is no answer (no run under its profile was given).
        public var missing: String?
        /// The suites it names that no report given covers.
        public var suitesMissing: [String]
    }

    public var answers: [Answer]
    /// What TrustHarness cannot yet tell, each with its figures where a report has them.
    public var unknowns: [String]
    /// The reports the answers rest on, by name (`run.json (rfc5280)`).
    public var sources: [String]
    public var counted: Bool
    /// What each column needs (situations.json).
    public var needs: [String: String]
    /// Each column's kind (situations.json).
    public var kinds: [String: Situations.Kind]

    /// The decision from the reports: runs (by their profile), suites (named by their file: `limbo`,
    /// `pkits`, and BetterTLS's `nameconstraints`, `pathbuilding`) and a bench.
    public init(situations: Situations, inputs: [(name: String, input: ComparisonReport.Input)], families: [String: String]) {
        var runs: [String: ComparisonReport.Run] = [:]
        var suites: [String: ComparisonReport.Suite] = [:]
        var bench: ComparisonReport.Bench?
        var sources: [String] = []
        for (name, input) in inputs {
            switch input {
            case .run(let run):
                let profile = run.provenance?.profile?.rawValue ?? StandardsProfile.rfc5280.rawValue
                if runs[profile] == nil { runs[profile] = run; sources.append("\(name) (run, \(profile))") }
            case .suite(let suite):
                let key = Self.suiteKey(suite)
                if suites[key] == nil { suites[key] = suite; sources.append("\(name) (\(key))") }
            case .bench(let b):
                // Counted figures, which repeat, over timed ones when both are given.
                if bench == nil || (b.counted && !(bench?.counted ?? false)) { bench = b }
                sources.append("\(name) (bench, \(b.counted ? "counted" : "timed"))")
            case .explore: continue
            }
        }
        self.sources = sources
        self.kinds = Dictionary(situations.columns.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        self.needs = Dictionary(situations.columns.map { ($0.name, $0.needs) }, uniquingKeysWith: { first, _ in first })
        self.counted = bench?.counted ?? false
        answers = situations.situations.map { situation in
            Self.answer(situation, situations: situations, run: runs[situation.profile.rawValue], suites: suites, bench: bench, families: families)
        }
        unknowns = situations.unknowns.map { unknown in
            var line = unknown.says
            if unknown.counts == .pkitsCRLSkips, let pkits = suites["pkits"] {
                // Revocation, counted: the PKITS cases each library is not asked for want of CRLs.
                var skipped: [String: Int] = [:]
                for result in pkits.results where result.actual == "SKIPPED" && (result.context ?? "").hasPrefix("CRLs:") { skipped[result.backend, default: 0] += 1 }
                let names = pkits.backends.map(\.name)
                let asked = names.filter { skipped[$0] == nil }
                let notAsked = names.filter { skipped[$0] != nil }
                line += ": given CRLs, \(asked.isEmpty ? "none" : asked.joined(separator: ", ")); not asked, \(notAsked.map { "\($0) (\(skipped[$0]!) PKITS cases)" }.joined(separator: ", "))"
            }
            return line + " (" + unknown.source + ")."
        }
    }

    /// The ids that `count` distinct back ends answered, from (id, back end) pairs: what every
    /// candidate can be compared on.
    static func answeredByAll(_ answers: [(id: String, backend: String)], count: Int) -> Set<String> {
        var by: [String: Set<String>] = [:]
        for answer in answers { by[answer.id, default: []].insert(answer.backend) }
        return Set(by.filter { $0.value.count == count }.keys)
    }

    /// The key a suite report is known by: its file's name without extension (`limbo`, `pkits`;
    /// BetterTLS reports name their suite).
    static func suiteKey(_ suite: ComparisonReport.Suite) -> String {
        if suite.suite.file.hasPrefix("BetterTLS ") { return String(suite.suite.file.dropFirst("BetterTLS ".count).prefix { $0 != " " }) }
        let file = suite.suite.file.split(separator: "/").last.map(String.init) ?? suite.suite.file
        return String(file.split(separator: ".").first ?? Substring(file))
    }

    static func answer(_ situation: Situations.Situation, situations: Situations, run: ComparisonReport.Run?, suites: [String: ComparisonReport.Suite],
                       bench: ComparisonReport.Bench?, families: [String: String]) -> Answer {
        let missingSuites = (situation.suites ?? []).filter { suites[$0] == nil }
        guard let run else {
            return Answer(situation: situation, rankings: [], missing: "no run under profile \(situation.profile.rawValue) was given", suitesMissing: missingSuites)
        }
        let excluded = Set((situation.excluded ?? []).flatMap(\.columns))
        let judged: Set<String> = ["pass", "deviation", "fail", "open"]
        var rankings: [Ranking] = []
        for kind in situation.kinds {
            let names = run.backends.map(\.name).filter { situations.kind(of: $0) == kind && !excluded.contains($0) }
            guard !names.isEmpty else { continue }
            // The requests every candidate of this kind was asked and answered (a verdict, judged).
            let mine = run.results.filter { names.contains($0.backend) && (situation.vectors.map($0.vector.hasPrefix) ?? true) }
            let compared = Self.answeredByAll(mine.filter { judged.contains($0.outcome) }.map { ($0.vector, $0.backend) }, count: names.count)
            var candidates = names.map { Candidate(name: $0, kind: kind) }
            for result in mine where compared.contains(result.vector) && (result.outcome == "deviation" || result.outcome == "fail") {
                guard let index = candidates.firstIndex(where: { $0.name == result.backend }), let impact = result.impact else { continue }
                switch impact.direction {
                case .accepts:
                    candidates[index].accepts[impact.severity, default: 0] += 1
                    candidates[index].acceptClasses[impact.class, default: (impact.rank, 0)].count += 1
                case .rejects: candidates[index].rejects[impact.severity, default: 0] += 1
                case .other: break
                }
                if let family = families[result.vector], (situation.families ?? []).contains(family) {
                    let trusted = result.observed.trusted && !result.expected.trusted
                    candidates[index].families[family, default: (0, 0)].accepts += trusted ? 1 : 0
                    candidates[index].families[family, default: (0, 0)].rejects += trusted ? 0 : 1
                }
            }
            for family in situation.families ?? [] {
                for index in candidates.indices where candidates[index].families[family] == nil { candidates[index].families[family] = (0, 0) }
            }
            for key in situation.suites ?? [] {
                guard let suite = suites[key] else { continue }
                // The cases every candidate answered (a library not asked a case is not ranked better for it).
                let common = Self.answeredByAll(suite.results.filter { names.contains($0.backend) && $0.actual != "SKIPPED" }.map { ($0.id, $0.backend) }, count: names.count)
                for index in candidates.indices {
                    var figures = SuiteFigures()
                    for result in suite.results where result.backend == candidates[index].name && common.contains(result.id) {
                        figures.answered += 1
                        if result.actual == "SUCCESS" && result.expected == "FAILURE" && result.failureIsWarning != true {
                            figures.falseAccepts += 1
                            if let severity = result.impact?.severity { figures.accepts[severity, default: 0] += 1 }
                        }
                    }
                    if figures.answered > 0 { candidates[index].suites[key] = figures }
                }
            }
            if situation.speed == true, let bench {
                for index in candidates.indices {
                    func figure(_ scenario: String) -> Double? {
                        bench.results.first { $0.backend == candidates[index].name && $0.scenario == scenario && $0.mode == "warm" }
                            .flatMap { bench.counted ? $0.instructionsPerEvaluation : $0.microsecondsPerEvaluation }
                    }
                    let rsa = figure("valid-chain/rsa2048"), p256 = figure("valid-chain/p256")
                    if rsa != nil || p256 != nil { candidates[index].speed = (rsa, p256) }
                }
            }
            candidates.sort { $0.weight != $1.weight ? $0.weight.lexicographicallyPrecedes($1.weight) : $0.name < $1.name }
            rankings.append(Ranking(kind: kind, candidates: candidates, compared: compared.count))
        }
        // A run without any column of the kinds asked (a run of libraries for a question to HTTP
        // clients) answers nothing, and says so.
        let missing = rankings.isEmpty ? "the \(situation.profile.rawValue) run has no \(situation.kinds.map { $0 == .client ? "HTTP client" : "library" }.joined(separator: " or ")) that can be used here" : nil
        return Answer(situation: situation, rankings: rankings, missing: missing, suitesMissing: missingSuites)
    }
}
