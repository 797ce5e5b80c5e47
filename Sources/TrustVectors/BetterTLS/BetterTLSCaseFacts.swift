/// What the runner, the reports and the explanations read of a BetterTLS suite's cases, per case
/// index: the expected result, the case in one line, the summary row it counts in, and its parts
/// as explanations' patterns read them (``BetterTLSExplanations/parts(of:index:)``). One place that
/// knows both suites, so that callers need not switch on which it is.
public struct BetterTLSCaseFacts: Sendable {
    public var expected: [String]
    public var summaries: [String]
    public var groups: [String]
    /// Made when read (each case's fields flattened through JSON: the costly part, which a run that
    /// only needs the groups never pays).
    public var parts: [[String: String]] { makeParts() }
    private let makeParts: @Sendable () -> [[String: String]]

    public init(expected: [String], summaries: [String], groups: [String], parts: @autoclosure @escaping @Sendable () -> [[String: String]]) {
        self.expected = expected
        self.summaries = summaries
        self.groups = groups
        self.makeParts = parts
    }

    /// The name-constraints cases of `revision`.
    public static func nameConstraints(_ revision: BetterTLSNameConstraints.Revision = .current) -> BetterTLSCaseFacts {
        let cases = BetterTLSNameConstraints.cases(revision)
        return BetterTLSCaseFacts(expected: cases.map(\.expected.rawValue), summaries: cases.map(\.summary), groups: cases.map(\.group),
                                  parts: cases.enumerated().map { BetterTLSExplanations.parts(of: $1, index: $0) })
    }

    /// The path-building cases (the same at every revision this code knows).
    public static func pathBuilding() -> BetterTLSCaseFacts {
        let cases = BetterTLSPathBuilding.cases()
        return BetterTLSCaseFacts(expected: cases.map(\.expected.rawValue), summaries: cases.map(\.summary), groups: cases.map(\.group),
                                  parts: cases.enumerated().map { BetterTLSExplanations.parts(of: $1, index: $0) })
    }
}
