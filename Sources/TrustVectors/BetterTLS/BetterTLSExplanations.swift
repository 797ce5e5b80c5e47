import Foundation

/// Why a back end departs from BetterTLS's expected results, as data a test holds to the record: each
/// explanation names a back end, the cases it covers (patterns over a case's parts), the verdict
/// the back end gives on every one of them, the library's rule that gives it and where that rule is
/// in the library's source.
///
/// A file of explanations is sound for a record when (``problems(record:cases:expected:)``)
/// 1. every case an explanation covers was observed as it says (the rule holds over its whole pattern,
///    not only over the departures it was written for);
/// 2. every hard departure (BetterTLS expects PASS and the back end rejected, or FAIL and it accepted)
///    is covered by an explanation of its back end;
/// 3. every explanation covers at least one hard departure (none is stale).
public struct BetterTLSExplanations: Sendable, Codable {
    /// One rule of one back end.
    public struct Explanation: Sendable, Codable, Hashable {
        public var backend: String
        /// `SUCCESS` or `FAILURE`: the back end's verdict on every case the patterns cover.
        public var observed: String
        /// The cases covered: those matching any pattern. A pattern maps a part of the case (a field
        /// of its JSON form, nested fields joined by `.`, e.g. `clientHost`, `extraSAN.tag`) to the
        /// values it may hold; an absent optional part reads `none`, a present one `present`.
        public var `where`: [[String: [String]]]
        /// What the library does, and why that departs from the standards and BetterTLS's expectation.
        public var reason: String
        /// The library's file and function (and version) that does it.
        public var source: String

        public init(backend: String, observed: String, where patterns: [[String: [String]]], reason: String, source: String) {
            self.backend = backend
            self.observed = observed
            self.where = patterns
            self.reason = reason
            self.source = source
        }

        /// Whether `parts` (a case's flattened fields, ``BetterTLSExplanations/parts(of:)``) match a pattern.
        public func covers(_ parts: [String: String]) -> Bool {
            self.where.contains { pattern in
                pattern.allSatisfy { key, values in values.contains(parts[key] ?? "none") }
            }
        }
    }

    /// `nameconstraints` or `pathbuilding`.
    public var suite: String
    /// For differences from published results: each back end's published result file (its name in
    /// `Vectors/bettertls/published/`, e.g. `dec_2021/openssl_3.0.1.json`); nil for departures from
    /// BetterTLS's expectations.
    public var against: [String: String]?
    public var explanations: [Explanation]

    public init(suite: String, against: [String: String]? = nil, explanations: [Explanation]) {
        self.suite = suite
        self.against = against
        self.explanations = explanations
    }

    public static func read(_ url: URL) throws -> BetterTLSExplanations {
        try FileProblem.decodeJSON(BetterTLSExplanations.self, from: url, shape: "BetterTLS explanations ({\"suite\", \"explanations\"})")
    }

    /// A case's parts as patterns read them: its JSON form flattened, nested fields joined by `.`,
    /// an optional part `present` (or absent, read as `none`), bytes as text or `bytes 127.0.0.1`,
    /// other arrays left out.
    /// With `index`, the case's index too (`index`), for a rule that holds for named cases only.
    public static func parts<Case: Encodable>(of testcase: Case, index: Int? = nil) -> [String: String] {
        guard let data = try? JSONEncoder().encode(testcase),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var parts: [String: String] = [:]
        func flatten(_ value: Any, _ key: String) {
            switch value {
            case let object as [String: Any]:
                if !key.isEmpty { parts[key] = "present" }
                for (name, inner) in object { flatten(inner, key.isEmpty ? name : "\(key).\(name)") }
            case let bytes as [Int] where bytes.allSatisfy({ (0...255).contains($0) }):
                // Bytes (a subjectAltName's value): their text when it is printable ASCII, else
                // "bytes " and the octets in decimal joined by dots.
                parts[key] = bytes.allSatisfy({ (0x20..<0x7F).contains($0) })
                    ? String(decoding: bytes.map(UInt8.init), as: UTF8.self)
                    : "bytes " + bytes.map(String.init).joined(separator: ".")
            case is [Any], is NSNull: break
            case let number as NSNumber: parts[key] = number.stringValue
            default: parts[key] = "\(value)"
            }
        }
        flatten(object, "")
        if let index { parts["index"] = String(index) }
        return parts
    }

    /// The explanation of a back end's verdict on a case, if one covers it.
    public func explanation(backend: String, parts: [String: String]) -> Explanation? {
        explanations.first { $0.backend == backend && $0.covers(parts) }
    }

    /// The hard departures of `observed` (back end -> SUCCESS/FAILURE per case index) from
    /// BetterTLS's `expected` results (PASS, FAIL, SOFT_PASS, SOFT_FAIL) in case order: a PASS
    /// rejected or a FAIL accepted. A soft result is never a hard departure.
    public static func departures(observed: [String: [String]], expected: [String]) -> [String: Set<Int>] {
        observed.mapValues { verdicts in
            Set(verdicts.indices.filter { index in
                // A SKIPPED case (the library's own limit, or not asked) is no verdict, so no departure.
                index < expected.count && verdicts[index] != "SKIPPED"
                    && ((expected[index] == "PASS" && verdicts[index] != "SUCCESS") || (expected[index] == "FAIL" && verdicts[index] != "FAILURE"))
            })
        }
    }

    /// What keeps these explanations from being sound for `observed` (back end -> SUCCESS/FAILURE
    /// per case index) given each case's `parts` and the `departures` to explain (per back end, case
    /// indexes: departures from BetterTLS's expectations, or differences from published results);
    /// empty when sound. Back ends missing from `observed` are not judged.
    public func problems(observed: [String: [String]], parts: [[String: String]], departures: [String: Set<Int>]) -> [String] {
        var problems: [String] = []
        // A key no case has would read as `none` everywhere: a misspelt key matching every case.
        // Known keys are those of the cases given and of the suite's current revision (an older
        // revision may lack a part, e.g. a738c20 has no smuggled extraSAN, which reads as `none`).
        let current = suite == "pathbuilding" ? BetterTLSCaseFacts.pathBuilding().parts : suite == "nameconstraints" ? BetterTLSCaseFacts.nameConstraints().parts : []
        let keys = Set(parts.flatMap(\.keys)).union(current.flatMap(\.keys))
        for (number, explanation) in explanations.enumerated() {
            let unknown = Set(explanation.where.flatMap(\.keys)).subtracting(keys)
            if !unknown.isEmpty {
                problems.append("\(explanation.backend) explanation \(number + 1): no case has \(unknown.sorted().joined(separator: ", "))")
            }
        }
        for (backend, verdicts) in observed.sorted(by: { $0.key < $1.key }) {
            let departures = departures[backend] ?? []
            var covered = Set<Int>()
            for (number, explanation) in explanations.enumerated() where explanation.backend == backend {
                let cases = parts.indices.filter { explanation.covers(parts[$0]) }
                let wrong = cases.filter { $0 >= verdicts.count || (verdicts[$0] != explanation.observed && verdicts[$0] != "SKIPPED") }
                if !wrong.isEmpty {
                    problems.append("\(backend) explanation \(number + 1): \(wrong.count) of the \(cases.count) cases it covers were not \(explanation.observed) (tc\(wrong.prefix(5).map(String.init).joined(separator: ", tc")))")
                }
                let explained = departures.intersection(cases)
                if explained.isEmpty {
                    problems.append("\(backend) explanation \(number + 1) covers no departure (\(cases.count) cases): stale")
                }
                covered.formUnion(explained)
            }
            let unexplained = departures.subtracting(covered).sorted()
            if !unexplained.isEmpty {
                problems.append("\(backend): \(unexplained.count) of \(departures.count) departures not explained (tc\(unexplained.prefix(8).map(String.init).joined(separator: ", tc")))")
            }
        }
        return problems
    }
}
