import Foundation
import TrustCore

/// How much a departure from the standards matters: for an accept, what an attacker gains; for a
/// reject, what a user loses. The classes, their CWE and the real precedents that calibrate them are
/// data (`Vectors/impacts.json`, documented in `docs/impact.md`), reviewed like an answer.
///
/// An impact is derived from the rule a vector tests, never typed per vector: each reference of a
/// profile's answer names a rule (its citation, `RFC 5280 §6.1.4(k)`, `Web PKI rule keys`), and the
/// catalogue says what accepting against that rule gives (and, where refusing what it allows costs
/// little, what refusing costs). A rejection answer citing several rules is as serious as the worst
/// of them: a library that accepts it ignores every one.
public struct ImpactCatalogue: Codable, Sendable, Hashable {
    /// How serious a class is, most serious first. Accepts and rejects share the scale; ordering puts
    /// an accept before a reject of the same severity.
    public enum Severity: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
        case critical, high, medium, low, info

        /// Most serious first: `critical < high` in this order.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// `critical 1 · high 3`: counts keyed by severity (and `unclassified`), most serious first;
        /// empty when there are none.
        public static func line(_ counts: [String: Int]) -> String {
            (allCases.map(\.rawValue) + ["unclassified"]).compactMap { name in counts[name].map { "\(name) \($0)" } }.joined(separator: " · ")
        }
    }

    /// Which departures a class describes.
    public enum Direction: String, Codable, Sendable, Hashable {
        /// Trusted where the standards call for rejection.
        case accepts
        /// Rejected where the standards call for trust.
        case rejects
        /// The right verdict for another reason or by another path.
        case other
    }

    /// A real case of a library shipping the behaviour, with its published severity.
    public struct Precedent: Codable, Sendable, Hashable {
        /// `CVE-2014-1266`, or the incident's name where no CVE exists.
        public var id: String
        public var library: String
        public var behaviour: String
        /// As published: NVD's CVSS base score with its version, and the vendor's own rating.
        public var severity: String
        public var url: String
    }

    /// One impact class.
    public struct ImpactClass: Codable, Sendable, Hashable, Identifiable {
        public var id: String
        public var direction: Direction
        public var severity: Severity
        /// Short, for tables: "a certificate for another name".
        public var title: String
        /// What an attacker gains or a user loses, in a sentence or two.
        public var consequence: String
        public var cwe: String
        public var cweName: String
        public var related: [String]?
        public var precedents: [Precedent]
    }

    /// A rule: a citation and what departing from it does.
    public struct Rule: Codable, Sendable, Hashable {
        /// The start of a reference that names the rule (`RFC 5280 §6.1.4(k)`); a reference names
        /// the rule when it begins with it and the next character does not continue the citation.
        public var cite: String
        /// The class of accepting a vector the rule rejects; nil when the reference is context only
        /// (it names no rule a verdict rests on).
        public var accepting: String?
        /// The class of refusing a vector the rule allows, where that is cheaper than the profile
        /// says (a rare encoding); nil: from the profiles that trust the vector.
        public var refusing: String?
        /// When set, the rule's accept class holds only for answers whose failure classes include
        /// one of these (one citation, two meanings: keyUsage at a CA or at a leaf).
        public var failures: [FailureClass]?
        public var reason: String
    }

    /// A public suite's cases by id: the rule a case tests is its place in the suite.
    public struct SuiteRule: Codable, Sendable, Hashable {
        /// `limbo`, `pkits`, `bettertls-nameconstraints`, `bettertls-pathbuilding`.
        public var suite: String
        /// The case ids (or PKITS groups) it covers: those beginning with this.
        public var prefix: String
        public var accepting: String
        public var refusing: String
        public var reason: String
    }

    public var version: Int
    public var about: String
    public var classes: [ImpactClass]
    public var rules: [Rule]
    public var suites: [SuiteRule]

    /// The file's name in a vectors folder.
    public static let fileName = "impacts.json"

    /// An empty catalogue: every departure is unclassified.
    public static let empty = ImpactCatalogue(version: 1, about: "", classes: [], rules: [], suites: [])

    /// `impacts.json` of a vectors folder.
    /// - Throws: ``VectorLoadError`` naming the file when it cannot be read or decoded, or a rule
    ///   names a class the file does not define.
    public static func load(from directory: URL) throws -> ImpactCatalogue {
        let url = directory.appendingPathComponent(fileName)
        let catalogue = try FileProblem.decodeJSON(ImpactCatalogue.self, from: url, shape: "an impact catalogue (docs/impact.md)")
        let ids = Set(catalogue.classes.map(\.id))
        for name in catalogue.rules.flatMap({ [$0.accepting, $0.refusing] }).compactMap({ $0 }) + catalogue.suites.flatMap({ [$0.accepting, $0.refusing] })
        where !ids.contains(name) {
            throw VectorLoadError(file: url.path, problem: "a rule names the impact class \"\(name)\", which the file does not define")
        }
        return catalogue
    }

    /// The class named `id`.
    public func impactClass(_ id: String) -> ImpactClass? { classes.first { $0.id == id } }

    /// The rules a reference names: those with the longest citation it begins with (several when a
    /// citation has meanings told apart by failure class); empty when it names none.
    public func rules(named reference: String) -> [Rule] {
        var best: [Rule] = []
        var length = 0
        for rule in rules where reference.hasPrefix(rule.cite) && rule.cite.count >= length {
            let rest = reference.dropFirst(rule.cite.count)
            if let next = rest.first, next.isLetter || next.isNumber || ".(-§".contains(next) { continue }
            if rule.cite.count > length { best = []; length = rule.cite.count }
            best.append(rule)
        }
        return best
    }

    /// What a departure on a vector does, or why it cannot be said.
    public enum Resolution: Sendable, Hashable {
        case classified(Impact)
        /// No rule of the catalogue gives a class: the references that name no rule, or the answer.
        case unclassified(String)

        public var impact: Impact? {
            if case .classified(let impact) = self { return impact }
            return nil
        }
    }

    /// The impact of accepting what `answer` rejects: the most serious class among the rules its
    /// references name.
    public func accepting(_ answer: ProfileAnswer) -> Resolution {
        var unknown: [String] = []
        var found: [(ImpactClass, String)] = []
        for reference in answer.references {
            let named = rules(named: reference)
            if named.isEmpty { unknown.append(String(reference.prefix(80))); continue }
            for rule in named {
                guard let id = rule.accepting, let impactClass = impactClass(id) else { continue }
                if let only = rule.failures, !only.contains(where: answer.expected.failures.contains) { continue }
                found.append((impactClass, rule.cite))
            }
        }
        if let missing = Self.missingRules(unknown) { return missing }
        guard let worst = found.min(by: { rank($0.0) < rank($1.0) }) else {
            return .unclassified("no rule among the references gives accepting a class (add one to Vectors/\(Self.fileName))")
        }
        return .classified(Impact(worst.0, rule: worst.1, rank: rank(worst.0)))
    }

    /// The impact of refusing what `answer` trusts, for a vector trusted under `trustedUnder`: a rare
    /// encoding where every rule the references name says refusing it is only that, else valid Web
    /// PKI chains refused when every profile trusts the vector, else a private-CA deployment refused.
    public func refusing(_ answer: ProfileAnswer, trustedUnder: [StandardsProfile]) -> Resolution {
        var unknown: [String] = []
        var cheap: [(ImpactClass, String)] = []
        var ruling = 0
        for reference in answer.references {
            let named = rules(named: reference)
            if named.isEmpty { unknown.append(String(reference.prefix(80))); continue }
            guard let rule = named.first, rule.accepting != nil || rule.refusing != nil else { continue }
            ruling += 1
            if let id = rule.refusing, let impactClass = impactClass(id) { cheap.append((impactClass, rule.cite)) }
        }
        if let missing = Self.missingRules(unknown) { return missing }
        if ruling > 0, cheap.count == ruling, let first = cheap.first { return .classified(Impact(first.0, rule: first.1, rank: rank(first.0))) }
        let everywhere = Set(StandardsProfile.allCases).isSubset(of: trustedUnder)
        let id = everywhere ? "web-pki-refused" : "private-ca-refused"
        guard let impactClass = impactClass(id) else { return .unclassified("the catalogue defines no class \(id)") }
        return .classified(Impact(impactClass, rule: everywhere ? "trusted under every profile" : "trusted under \(trustedUnder.map(\.rawValue).joined(separator: ", ")) only", rank: rank(impactClass)))
    }

    /// The answer naming references that name no rule of the catalogue, or nil when there are none.
    static func missingRules(_ references: [String]) -> Resolution? {
        guard !references.isEmpty else { return nil }
        return .unclassified("no impact rule for reference\(references.count == 1 ? "" : "s") \(references.map { "\"\($0)\"" }.joined(separator: ", ")) (add the rule to Vectors/\(fileName))")
    }

    /// The class of a right verdict for another reason or path.
    public func misreported() -> Resolution {
        guard let impactClass = impactClass("misreported") else { return .unclassified("the catalogue defines no class misreported") }
        return .classified(Impact(impactClass, rule: "the verdict holds", rank: rank(impactClass)))
    }

    /// The impact of a departure on a suite's case: its id (or group) matched against the suite's
    /// rules, the longest prefix first.
    public func suiteCase(_ suite: String, id: String, group: String?, accepted: Bool) -> Resolution {
        let candidates = suites.filter { $0.suite == suite && (id.hasPrefix($0.prefix) || (group?.hasPrefix($0.prefix) ?? false)) }
        guard let rule = candidates.max(by: { $0.prefix.count < $1.prefix.count }) else {
            return .unclassified("no impact rule for \(suite) case \(id) (add one to Vectors/\(Self.fileName))")
        }
        let id = accepted ? rule.accepting : rule.refusing
        guard let impactClass = impactClass(id) else { return .unclassified("the catalogue defines no class \(id)") }
        return .classified(Impact(impactClass, rule: "\(suite) \(rule.prefix)", rank: rank(impactClass)))
    }

    /// The order of a class: severity, then accepts before rejects, then the file's order.
    public func rank(_ impactClass: ImpactClass) -> Int {
        let severity = Severity.allCases.firstIndex(of: impactClass.severity)!
        let direction = impactClass.direction == .accepts ? 0 : 1
        return (severity * 2 + direction) * 1000 + (classes.firstIndex { $0.id == impactClass.id } ?? 999)
    }

    /// Every class in order (``rank(_:)``).
    public var ranked: [ImpactClass] { classes.sorted { rank($0) < rank($1) } }

    /// Problems a reviewer must fix: every decided answer of `entries` under every profile must
    /// resolve (a rejection to an accept class, a trust to a refusal class), every class must carry a
    /// CWE and a precedent.
    public func problems(_ entries: [VectorEntry], policies: [PolicyVectorEntry] = []) -> [String] {
        var problems: [String] = []
        for impactClass in classes {
            if !impactClass.cwe.hasPrefix("CWE-") { problems.append("impact class \(impactClass.id) has no CWE") }
            if impactClass.precedents.isEmpty { problems.append("impact class \(impactClass.id) has no precedent") }
        }
        for entry in entries {
            for profile in StandardsProfile.allCases {
                let answer = entry.answer(for: profile)
                guard answer.open == nil else { continue }
                let resolution = answer.expected.trusted ? refusing(answer, trustedUnder: entry.trustedUnder) : accepting(answer)
                if case .unclassified(let why) = resolution { problems.append("\(entry.id) (\(profile)): \(why)") }
            }
        }
        for policy in policies {
            let answer = policy.impactAnswer
            let resolution = policy.expected.trusted ? refusing(answer, trustedUnder: StandardsProfile.allCases) : accepting(answer)
            if case .unclassified(let why) = resolution { problems.append("\(policy.id): \(why)") }
        }
        return problems
    }
}

/// The impact of one departure: its class and the rule that decided it.
public struct Impact: Codable, Sendable, Hashable {
    /// The class's id (`another-name`).
    public var `class`: String
    public var severity: ImpactCatalogue.Severity
    public var direction: ImpactCatalogue.Direction
    public var cwe: String
    /// The citation whose rule gave the class (`RFC 9525 §6.3`), or why a refusal got its class.
    public var rule: String
    /// The class's place in the catalogue's order (``ImpactCatalogue/rank(_:)``): lower is more
    /// serious.
    public var rank: Int

    public init(_ impactClass: ImpactCatalogue.ImpactClass, rule: String, rank: Int) {
        self.rank = rank
        self.class = impactClass.id
        self.severity = impactClass.severity
        self.direction = impactClass.direction
        self.cwe = impactClass.cwe
        self.rule = rule
    }

    /// Sorting key: the catalogue's rank (severity, accepts before rejects, the file's order), then the class id.
    public var order: (Int, String) { (rank, self.class) }

    /// `high · another-name (CWE-297)`.
    public var label: String { "\(severity.rawValue) · \(self.class) (\(cwe))" }
}

extension PolicyVectorEntry {
    /// The policy vector's answer as the impact catalogue reads it: its verdict and the references
    /// (AFSecurityPolicy's steps, RFC sections) it rests on; policy vectors have one answer.
    public var impactAnswer: ProfileAnswer {
        ProfileAnswer(expected: Expectation(trusted: expected.trusted), references: references)
    }
}
