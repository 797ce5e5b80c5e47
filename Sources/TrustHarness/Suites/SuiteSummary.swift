/// The counts of a limbo run per back end and per id namespace: the table the terminal shows.
public struct SuiteSummary: Sendable, Hashable, Codable {
    public struct Row: Sendable, Hashable, Codable {
        /// An id namespace (`rfc5280`, `webpki`, ...) or `all`.
        public var namespace: String
        public var total = 0
        public var passed = 0
        /// Trusted although the suite expects failure: the security-relevant column.
        public var acceptedExpectedFailure = 0
        public var rejectedExpectedSuccess = 0
        public var skipped = 0
        /// Other than the suite expects where it says that is only a warning (BetterTLS's soft results).
        public var warnings = 0
        /// Evaluations that did not return (hangs): errors, never skips.
        public var errors = 0
        /// Of `acceptedExpectedFailure` and `rejectedExpectedSuccess`, how many equal the committed
        /// record: known departures, as recorded deviations are in the conformance matrix.
        public var acceptedRecorded = 0
        public var rejectedRecorded = 0
        /// Results that differ from the record, departures from the suite of a back end no record
        /// covers, and hangs: what nobody has looked at yet.
        public var unexpected = 0

        /// `recorded`: the record's answer for the case, `.some(nil)` when the record covers the
        /// back end but not the case, nil when there is no record for the back end.
        mutating func count(_ result: SuiteResult, recorded: String??) {
            total += 1
            let known = recorded.map { $0 == result.actual.rawValue } ?? false
            switch result.outcome {
            case .passed: passed += 1
            case .acceptedExpectedFailure:
                acceptedExpectedFailure += 1
                if known { acceptedRecorded += 1 }
            case .rejectedExpectedSuccess:
                rejectedExpectedSuccess += 1
                if known { rejectedRecorded += 1 }
            case .skipped: skipped += 1
            case .warning: warnings += 1
            case .error: errors += 1
            }
            // A hang is unexpected whatever is recorded: nobody records a back end that never answers.
            if result.outcome == .error || (recorded == nil ? (result.outcome == .acceptedExpectedFailure || result.outcome == .rejectedExpectedSuccess) : !known) {
                unexpected += 1
            }
        }

        /// Evaluated (not skipped).
        public var evaluated: Int { total - skipped }

        private enum CodingKeys: String, CodingKey {
            case namespace, total, passed, acceptedExpectedFailure, rejectedExpectedSuccess, skipped, warnings, errors, acceptedRecorded, rejectedRecorded, unexpected
        }

        init(namespace: String) { self.namespace = namespace }

        /// Reads a row; one written before hangs were errors has none.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            namespace = try c.decode(String.self, forKey: .namespace)
            total = try c.decode(Int.self, forKey: .total)
            passed = try c.decode(Int.self, forKey: .passed)
            acceptedExpectedFailure = try c.decode(Int.self, forKey: .acceptedExpectedFailure)
            rejectedExpectedSuccess = try c.decode(Int.self, forKey: .rejectedExpectedSuccess)
            skipped = try c.decode(Int.self, forKey: .skipped)
            warnings = try c.decode(Int.self, forKey: .warnings)
            errors = try c.decodeIfPresent(Int.self, forKey: .errors) ?? 0
            acceptedRecorded = try c.decode(Int.self, forKey: .acceptedRecorded)
            rejectedRecorded = try c.decode(Int.self, forKey: .rejectedRecorded)
            unexpected = try c.decode(Int.self, forKey: .unexpected)
        }
    }

    public struct Backend: Sendable, Hashable, Codable {
        public var backend: String
        public var all: Row
        /// One row per namespace, in order of first appearance in the suite.
        public var namespaces: [Row]
    }

    public var backends: [Backend]

    /// - Parameter record: the committed record the results were compared with, if any: departures
    ///   equal to it are counted as recorded, differences from it as unexpected.
    public init(_ results: [SuiteResult], record: SuiteRecord? = nil) {
        var order: [String] = []
        var rows: [String: (all: Row, namespaces: [String: Row], order: [String])] = [:]
        for result in results {
            if rows[result.backend] == nil {
                order.append(result.backend)
                rows[result.backend] = (Row(namespace: "all"), [:], [])
            }
            var recorded: String?? = nil
            if let covered = record?.backends[result.backend] { recorded = .some(covered.results[result.id]) }
            rows[result.backend]!.all.count(result, recorded: recorded)
            if rows[result.backend]!.namespaces[result.namespace] == nil {
                rows[result.backend]!.order.append(result.namespace)
                rows[result.backend]!.namespaces[result.namespace] = Row(namespace: result.namespace)
            }
            rows[result.backend]!.namespaces[result.namespace]!.count(result, recorded: recorded)
        }
        backends = order.map { name in
            let entry = rows[name]!
            return Backend(backend: name, all: entry.all, namespaces: entry.order.map { entry.namespaces[$0]! })
        }
    }
}
