import Foundation
import TrustVectors

/// The comparison page: back ends against families of the standards (a heat map of where each
/// departs, in which direction, with the vectors behind each cell), the public suites' columns, and
/// speed against each library's own loop, from the JSON reports of `run`, `limbo`, `pkits`,
/// `bettertls`, `explore` and `bench`.
public enum ComparisonReport {
    /// A report file this page reads, decoded to what it needs.
    public enum Input: Sendable {
        case run(Run)
        case suite(Suite)
        case bench(Bench)
        case explore(Explore)
    }

    /// An explore report: its classes, each with the standards' answer (nil: left open) and each
    /// back end's.
    public struct Explore: Sendable, Decodable {
        public struct Finding: Sendable, Decodable {
            public struct Step: Sendable, Decodable { public var mutation: String; public var role: String }
            public struct Answer: Sendable, Decodable { public var backend: String; public var trusted: Bool }
            public struct Standard: Sendable, Decodable { public var trusted: Bool }
            public var kind: String
            public var steps: [Step]
            public var summary: String
            public var occurrences: Int
            public var answers: [Answer]
            public var standard: Standard?
        }
        public var seed: UInt64
        /// The standards profile its answers are of.
        public var profile: String?
        public var backends: [String]
        public var mutants: Int
        public var findings: [Finding]
        /// The explorer's ranking: per class (its index in `findings`) the impact of its departure.
        public struct Ranked: Sendable, Decodable { public var finding: Int; public var impact: Impact? }
        public var ranking: [Ranked]?
    }

    public struct Run: Sendable, Decodable {
        public struct Result: Sendable, Decodable {
            public struct Expected: Sendable, Decodable { public var trusted: Bool }
            public struct Observed: Sendable, Decodable { public var trusted: Bool }
            public var backend: String
            public var vector: String
            public var outcome: String
            public var expected: Expected
            public var observed: Observed
            /// The departure's impact (run reports of schema 6 on); nil before or for a pass.
            public var impact: Impact?
        }
        public var provenance: Provenance?
        public var backends: [BackendInfo]
        public var results: [Result]
        /// The run's own counts (``ConformanceSummary``), which the page's totals repeat.
        public var summary: [ConformanceSummary]?
    }

    public struct Suite: Sendable, Decodable {
        public struct File: Sendable, Decodable { public var file: String; public var cases: Int }
        public struct Result: Sendable, Decodable {
            public var id: String
            public var backend: String
            public var expected: String
            public var actual: String
            public var failureIsWarning: Bool?
            /// Why a case was skipped, or what else the result says (limbo and PKITS reports).
            public var context: String?
            /// The departure's impact (suite reports with impacts); nil otherwise.
            public var impact: Impact?
        }
        public var suite: File
        public var backends: [BackendInfo]
        public var results: [Result]
    }

    /// A `bench` report, timed (microseconds) or counted (`measure: instructions`).
    public struct Bench: Sendable, Decodable {
        public struct Result: Sendable, Decodable {
            public var backend: String
            public var scenario: String
            public var mode: String
            public var microsecondsPerEvaluation: Double?
            public var baselineMicroseconds: Double?
            public var instructionsPerEvaluation: Double?
            public var baselineInstructions: Double?
        }
        /// `time` or `instructions`; reports from before counting have none (time).
        public var measure: String?
        public var results: [Result]
        /// Whether the figures are counted instructions.
        public var counted: Bool { measure == "instructions" }
    }

    /// What a report file is, from its shape; nil when it is none this page reads.
    public static func input(_ data: Data) -> Input? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let decoder = JSONDecoder()
        if object["suite"] != nil, let suite = try? decoder.decode(Suite.self, from: data) { return .suite(suite) }
        if object["baselines"] != nil, let bench = try? decoder.decode(Bench.self, from: data) { return .bench(bench) }
        if object["summary"] != nil, let run = try? decoder.decode(Run.self, from: data) { return .run(run) }
        if object["findings"] != nil, let explore = try? decoder.decode(Explore.self, from: data) { return .explore(explore) }
        return nil
    }

    /// The family of the standards a vector belongs to: an explored vector's mutation family (the
    /// first word of its name), a SecurityPolicy vector's `SecurityPolicy`, or else the family its
    /// first reference's section names.
    public static func family(vector id: String, references: [String]) -> String {
        if id.hasPrefix("explored/") {
            let name = id.dropFirst("explored/".count)
            return String(name.prefix { $0 != "-" && $0 != "+" && $0 != "/" })
        }
        if id.hasPrefix("policy/") { return "SecurityPolicy" }
        let reference = references.first ?? ""
        let sections: [(String, String)] = [
            ("§4.1.2.5", "validity"), ("§4.2.1.3", "keyUsage"), ("§4.2.1.9", "basicConstraints"), ("§4.2.1.10", "nameConstraints"),
            ("§4.2.1.12", "extendedKeyUsage"), ("§4.2.1.6", "subjectAltName"), ("§4.2.1.1", "authorityKeyIdentifier"),
            ("§4.2.1.2", "subjectKeyIdentifier"), ("§4.2.1.4", "policy"), ("§4.1.2.2", "serial"), ("§4.1.1.2", "signature"),
            ("§6.1.3(a)(1)", "signature"), ("§7.1", "issuerName"), ("§4.2", "extension"),
        ]
        if reference.hasPrefix("RFC 9525") { return "hostName" }
        if reference.hasPrefix("RFC 8446") { return "chain" }
        if let match = sections.first(where: { reference.contains($0.0 + " ") || reference.hasSuffix($0.0) || reference.contains($0.0 + ",") }) { return match.1 }
        if reference.contains("§6.1") { return "chain" }
        return "other"
    }

    /// The page. `families` maps a vector id to its family (``family(vector:references:)``); a
    /// vector missing from it counts as `other`.
    public static func document(_ inputs: [(name: String, input: Input)], families: [String: String], provenance: Provenance?) -> ReportDocument {
        var sections: [ReportDocument.Section] = []
        // What is behind each heat-map cell comes after the suites and speed, folded: the page's
        // first screens are the answers, the maps and the suites.
        var behind: [ReportDocument.Section] = []
        func split(_ section: ReportDocument.Section) -> ReportDocument.Section {
            var kept = section
            kept.blocks = section.blocks.filter { if case .details = $0 { return false } else { return true } }
            let details = section.blocks.filter { if case .details = $0 { return true } else { return false } }
            if !details.isEmpty {
                behind.append(.init(id: section.id + "-cells", title: "Behind each cell: " + section.title, blocks: details, folded: true))
            }
            return kept
        }
        for (index, (name, input)) in inputs.enumerated() {
            guard case .run(let run) = input else { continue }
            sections.append(split(heatMapSection(run, name: name, families: families, index: index)))
        }
        let suites = inputs.compactMap { item -> (String, Suite)? in
            if case .suite(let suite) = item.input { return (item.name, suite) } else { return nil }
        }
        // The suites come first after the answer (which the report command puts first): within the
        // page's first two screens, before the heat maps' detail.
        if !suites.isEmpty { sections.insert(suitesSection(suites), at: 0) }
        for (index, (name, input)) in inputs.enumerated() {
            guard case .explore(let explore) = input else { continue }
            sections.append(split(exploreSection(explore, name: name, index: index)))
        }
        for (index, (name, input)) in inputs.enumerated() {
            guard case .bench(let bench) = input else { continue }
            sections.append(speedSection(bench, name: name, index: index))
        }
        sections += behind
        var profiles: [String] = []
        for item in inputs {
            let profile: String?
            switch item.input {
            case .run(let run): profile = run.provenance?.profile?.rawValue
            case .explore(let explore): profile = explore.profile
            default: profile = nil
            }
            if let profile, !profiles.contains(profile) { profiles.append(profile) }
        }
        return ReportDocument(
            title: "TrustHarness: the libraries compared",
            provenance: provenance,
            summary: "Where each library departs from the standards, by family (judged against profile \(profiles.isEmpty ? "none given" : profiles.joined(separator: ", "))), "
                + "how it does on the public suites, and how fast it is against its own library's loop. Made from the JSON reports of \(inputs.map(\.name).joined(separator: ", ")).",
            sections: sections
        )
    }

    /// Back ends' answers counted per family: in each cell the items answered and those answered
    /// against the standards, by direction; one tally makes a heat map and the lists behind its cells.
    struct FamilyTally {
        typealias Cell = ReportDocument.HeatMap.Cell
        var cells: [String: [String: Cell]] = [:]

        /// One answer: `item` (a vector or a class) of `family`, answered by `backend`; `departure`
        /// says in which direction it goes against the standards (nil: as they say), `answered` false
        /// when the standards give no answer to judge it by.
        mutating func count(_ item: String, family: String, backend: String, answered: Bool, trusted departure: Bool?, impact: Impact? = nil) {
            var cell = cells[family, default: [:]][backend] ?? Cell(total: 0, accepts: [], rejects: [])
            if answered {
                cell.total += 1
                switch departure {
                case true?: cell.accepts.append(item)
                case false?: cell.rejects.append(item)
                case nil: break
                }
                if departure != nil {
                    cell.bySeverity = cell.bySeverity ?? [:]
                    cell.bySeverity?[impact?.severity.rawValue ?? "unclassified", default: 0] += 1
                    if let impact, cell.worst.map({ impact.order < $0.order }) ?? true { cell.worst = impact }
                }
            }
            cells[family, default: [:]][backend] = cell
        }

        /// The heat map (families with the most departures first) and each departing cell's items.
        func heatMap(backends: [String], prefix: String, describe: (String, String, Cell) -> String) -> (ReportDocument.HeatMap, [ReportDocument.Detail]) {
            // The families whose worst departure is gravest first, then those with the most.
            let departures = cells.mapValues { $0.values.reduce(0) { $0 + $1.departures } }
            let worst = cells.mapValues { $0.values.compactMap(\.worst?.rank).min() ?? Int.max }
            let columns = cells.keys.sorted { a, b in
                worst[a]! != worst[b]! ? worst[a]! < worst[b]! : departures[a]! != departures[b]! ? departures[a]! > departures[b]! : a < b
            }
            let map = ReportDocument.HeatMap(columns: columns, rows: backends.map { backend in
                .init(name: backend, cells: columns.map { cells[$0]?[backend] ?? Cell(total: 0, accepts: [], rejects: []) })
            }, detailPrefix: prefix)
            var details: [ReportDocument.Detail] = []
            for (r, row) in map.rows.enumerated() {
                for (c, cell) in row.cells.enumerated() where cell.departures > 0 {
                    details.append(.init(id: map.anchor(row: r, column: c), title: describe(row.name, columns[c], cell) + (cell.worst.map { "; worst impact \($0.severity.rawValue) \($0.class) (\($0.cwe)); \(cell.severityLine)" } ?? ""),
                                         items: cell.accepts.map { "trusted: \($0)" } + cell.rejects.map { "rejected: \($0)" }))
                }
            }
            return (map, details)
        }
    }

    static func heatMapSection(_ run: Run, name: String, families: [String: String], index: Int) -> ReportDocument.Section {
        let profile = run.provenance?.profile?.rawValue ?? "unknown"
        var tally = FamilyTally()
        for result in run.results {
            // Judged answers only: a pass, a recorded deviation or a failure (not an error, an
            // unstable verdict, a skipped or left-open vector, which have no direction).
            let departs = result.outcome == "deviation" || result.outcome == "fail"
            tally.count(result.vector, family: families[result.vector] ?? "other", backend: result.backend, answered: departs || result.outcome == "pass",
                        trusted: departs ? result.observed.trusted && !result.expected.trusted : nil, impact: result.impact)
        }
        let (map, details) = tally.heatMap(backends: run.backends.map(\.name), prefix: "cell\(index)") { backend, family, cell in
            "\(backend), \(family): \(cell.accepts.count) trusted where the standards reject, \(cell.rejects.count) rejected where they trust"
        }
        // The totals are the run's own summary where the report carries it (as `run` counts them);
        // else the heat map's cells added up.
        let totals = map.rows.map { row -> [String] in
            if let s = run.summary?.first(where: { $0.backend == row.name }) {
                return [row.name, "\(s.passed + s.acceptedShouldReject + s.rejectedShouldTrust + s.otherFailures)", "\(s.acceptedShouldReject)", "\(s.rejectedShouldTrust)", "\(s.otherFailures)", s.bySeverity.isEmpty ? "-" : s.severityLine]
            }
            return [row.name, "\(row.cells.reduce(0) { $0 + $1.total })", "\(row.cells.reduce(0) { $0 + $1.accepts.count })", "\(row.cells.reduce(0) { $0 + $1.rejects.count })", "-", "-"]
        }
        return .init(id: "families-\(index)", title: "Departures by family of the standards (profile \(profile), \(name))", blocks: [
            .paragraph("Each cell: how many of the family's vectors the back end answers against the standards: trusted where they call for rejection / rejected where they call for trust (or for another reason). The colour is the worst impact in the cell (docs/impact.md): accepts dark red (critical: a certificate anyone can make), red (high: another name, an issuer that may not issue), orange (medium), amber (low: a parser differential); rejects in blues, deeper for valid Web PKI chains refused; grey: the right verdict for another reason. Families with the gravest departures first. Green dot: none. Every departure is a recorded deviation with its reason. Click a cell for its vectors and its counts per severity."),
            .heatMap(map),
            .table(.init(headers: ["back end", "vectors judged", "trusted, should reject", "rejected, should trust", "other departures (reason, path)", "departures by severity"], rows: totals, numeric: [1, 2, 3, 4])),
            .details(details),
        ])
    }

    static func suitesSection(_ suites: [(String, Suite)]) -> ReportDocument.Section {
        var backends: [String] = []
        for (_, suite) in suites { for backend in suite.backends.map(\.name) where !backends.contains(backend) { backends.append(backend) } }
        var headers = ["back end"]
        var rows = backends.map { [$0] }
        var charts: [ReportDocument.Block] = []
        for (name, suite) in suites {
            headers.append("\(name): as expected / false accepts / false rejects / skipped (false accepts of critical or high impact)")
            var bars: [ReportDocument.BarChart.Bar] = []
            for (index, backend) in backends.enumerated() {
                let mine = suite.results.filter { $0.backend == backend }
                guard !mine.isEmpty else { rows[index].append("-"); continue }
                let skipped = mine.filter { $0.actual == "SKIPPED" }.count
                let agree = mine.filter { $0.actual == $0.expected }.count
                let soft = mine.filter { $0.actual != $0.expected && $0.actual != "SKIPPED" && $0.failureIsWarning == true }.count
                let accepts = mine.filter { $0.actual == "SUCCESS" && $0.expected == "FAILURE" && $0.failureIsWarning != true }.count
                let rejects = mine.filter { $0.actual == "FAILURE" && $0.expected == "SUCCESS" && $0.failureIsWarning != true }.count
                let serious = mine.filter { $0.actual == "SUCCESS" && $0.expected == "FAILURE" && $0.failureIsWarning != true && ($0.impact.map { $0.severity <= .high } ?? false) }.count
                rows[index].append("\(agree) / \(accepts) / \(rejects) / \(skipped)" + (soft > 0 ? " (+\(soft) warnings)" : "") + (accepts > 0 ? " (\(serious) critical or high)" : ""))
                let answered = mine.count - skipped
                if answered > 0 {
                    bars.append(.init(label: backend, value: 100 * Double(agree + soft) / Double(answered), note: "of \(answered) answered"))
                }
            }
            charts.append(.bars(.init(title: "\(name): share of the answered cases as the suite expects (soft results count as expected)", unit: "%", bars: bars)))
        }
        return .init(id: "suites", title: "The public suites", blocks: [.table(.init(headers: headers, rows: rows))] + charts)
    }

    /// The explorer's classes by mutation family: per back end, how many classes it answers against
    /// the standards in each direction, and the classes every back end gets wrong together.
    static func exploreSection(_ explore: Explore, name: String, index: Int) -> ReportDocument.Section {
        var tally = FamilyTally()
        var shared: [(String, Impact?)] = []
        let impacts = Dictionary((explore.ranking ?? []).map { ($0.finding, $0.impact) }, uniquingKeysWith: { first, _ in first })
        for (index, finding) in explore.findings.enumerated() {
            let label = finding.steps.map { "\($0.mutation) @\($0.role)" }.joined(separator: " + ")
            let family = mutationFamily(finding.steps.first?.mutation ?? "other")
            let impact = impacts[index] ?? nil
            for answer in finding.answers {
                let departs = finding.standard.map { $0.trusted != answer.trusted } ?? false
                tally.count(label, family: family, backend: answer.backend, answered: finding.standard != nil, trusted: departs ? answer.trusted : nil, impact: departs ? impact : nil)
            }
            if finding.kind == "shared-accept" {
                shared.append(("\(impact.map { "[\($0.severity.rawValue) \($0.class)] " } ?? "")\(label): \(finding.summary) (\(finding.occurrences) mutants)", impact))
            }
        }
        // The gravest shared false accepts first.
        let sharedItems = shared.enumerated().sorted { ($0.element.1?.rank ?? Int.max, $0.offset) < ($1.element.1?.rank ?? Int.max, $1.offset) }.map(\.element.0)
        let (map, details) = tally.heatMap(backends: explore.backends, prefix: "explore\(index)") { backend, family, _ in "\(backend), \(family) classes" }
        return .init(id: "explore-\(index)", title: "Explore: classes of mutants by family (\(name), seed \(explore.seed))", blocks: [
            .paragraph("\(explore.mutants) mutants in \(explore.findings.count) classes, judged against profile \(explore.profile ?? "unknown"). Each cell: the family's classes with a standards' answer that the back end answers against it, trusted / rejected; click for the classes."),
            .heatMap(map), .details([.init(id: "explore\(index)-shared", title: "accepted by every back end asked, against the standards, the gravest impact first", items: sharedItems)] + details),
        ])
    }

    /// A mutation's family: the part of its name before `/` (`keyUsage/only-cRLSign`: keyUsage).
    public static func mutationFamily(_ mutation: String) -> String {
        String(mutation.prefix { $0 != "/" })
    }

    static func speedSection(_ bench: Bench, name: String, index: Int) -> ReportDocument.Section {
        let counted = bench.counted
        let unit = counted ? "instructions" : "µs"
        var blocks: [ReportDocument.Block] = [.paragraph(counted
            ? "Instructions per evaluation of each back end (bars) and of its library's own C loop doing the same work (red tick), per scenario and mode, counted by Valgrind's callgrind: the same from run to run for the same build, so the ratio repeats; the gap is what the bridge executes."
            : "Microseconds per evaluation of each back end (bars) and of its library's own C loop doing the same work (red tick), per scenario and mode, from one run (timed: ratios move with the machine's load; a counted bench, --instructions, gives ratios that repeat): the gap is what the bridge costs.")]
        var seen: [String] = []
        for result in bench.results where !seen.contains("\(result.scenario) \(result.mode)") { seen.append("\(result.scenario) \(result.mode)") }
        for key in seen {
            let mine = bench.results.filter { "\($0.scenario) \($0.mode)" == key }
            let bars = mine.compactMap { result -> ReportDocument.BarChart.Bar? in
                guard let value = counted ? result.instructionsPerEvaluation : result.microsecondsPerEvaluation else { return nil }
                let loop = counted ? result.baselineInstructions : result.baselineMicroseconds
                return ReportDocument.BarChart.Bar(label: result.backend, value: value, reference: loop,
                                                   note: loop.map { DocumentWriter.ratio(value, to: $0) + " its loop" } ?? "")
            }
            blocks.append(.bars(.init(title: "\(key) (\(name))", unit: unit, bars: bars)))
        }
        let title = counted ? "Instructions against each library's own loop, counted (\(name))" : "Speed against each library's own loop, timed (\(name))"
        return .init(id: "speed-\(index)", title: title, blocks: blocks)
    }
}
