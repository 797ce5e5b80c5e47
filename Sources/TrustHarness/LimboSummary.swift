/// The counts of a limbo run per back end and per id namespace: the table the terminal shows.
public struct LimboSummary: Sendable, Hashable, Codable {
    public struct Row: Sendable, Hashable, Codable {
        /// An id namespace (`rfc5280`, `webpki`, ...) or `all`.
        public var namespace: String
        public var total = 0
        public var passed = 0
        /// Trusted although the suite expects failure: the security-relevant column.
        public var acceptedExpectedFailure = 0
        public var rejectedExpectedSuccess = 0
        public var skipped = 0

        mutating func count(_ outcome: LimboResult.Outcome) {
            total += 1
            switch outcome {
            case .passed: passed += 1
            case .acceptedExpectedFailure: acceptedExpectedFailure += 1
            case .rejectedExpectedSuccess: rejectedExpectedSuccess += 1
            case .skipped: skipped += 1
            }
        }

        /// Evaluated (not skipped).
        public var evaluated: Int { total - skipped }
    }

    public struct Backend: Sendable, Hashable, Codable {
        public var backend: String
        public var all: Row
        /// One row per namespace, in order of first appearance in the suite.
        public var namespaces: [Row]
    }

    public var backends: [Backend]

    public init(_ results: [LimboResult]) {
        var order: [String] = []
        var rows: [String: (all: Row, namespaces: [String: Row], order: [String])] = [:]
        for result in results {
            if rows[result.backend] == nil {
                order.append(result.backend)
                rows[result.backend] = (Row(namespace: "all"), [:], [])
            }
            rows[result.backend]!.all.count(result.outcome)
            if rows[result.backend]!.namespaces[result.namespace] == nil {
                rows[result.backend]!.order.append(result.namespace)
                rows[result.backend]!.namespaces[result.namespace] = Row(namespace: result.namespace)
            }
            rows[result.backend]!.namespaces[result.namespace]!.count(result.outcome)
        }
        backends = order.map { name in
            let entry = rows[name]!
            return Backend(backend: name, all: entry.all, namespaces: entry.order.map { entry.namespaces[$0]! })
        }
    }
}
