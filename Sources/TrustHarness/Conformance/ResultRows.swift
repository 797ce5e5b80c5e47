/// Results grouped by vector, in run order: one row per vector with every back end's result, and
/// whether the back ends disagree.
public struct ResultRows: Sendable {
    public var id: String
    public var expected: ExpectedOutcome
    public var results: [ConformanceResult]

    /// Back ends disagree when their observed outcomes (trusted, failure classes, policy step) differ,
    /// or when some evaluated and some could not.
    public var disagree: Bool {
        Set(results.map { $0.observed?.outcome }).count > 1
    }

    public static func group(_ results: [ConformanceResult]) -> [ResultRows] {
        var rows: [ResultRows] = []
        var index: [String: Int] = [:]
        for result in results {
            if let at = index[result.id] {
                rows[at].results.append(result)
            } else {
                index[result.id] = rows.count
                rows.append(ResultRows(id: result.id, expected: result.expected, results: [result]))
            }
        }
        return rows
    }
}
