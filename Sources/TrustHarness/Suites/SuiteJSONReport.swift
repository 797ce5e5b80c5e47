import Foundation

/// The JSON report of a limbo run: the suite, the back ends, the summary table, every result, and
/// the differences from the committed record.
public struct SuiteJSONReport: Sendable, Codable {
    public struct Suite: Sendable, Codable {
        public var file: String
        public var sha256: String
        public var cases: Int

        public init(file: String, sha256: String, cases: Int) {
            self.file = file
            self.sha256 = sha256
            self.cases = cases
        }
    }

    public var suite: Suite
    public var backends: [BackendInfo]
    public var summary: SuiteSummary
    public var results: [SuiteResult]
    /// nil (`null`) when there was no record for this suite to compare with.
    @ExplicitNull public var recordChanges: [SuiteRecord.Change]?

    public init(suite: Suite, backends: [BackendInfo], results: [SuiteResult], recordChanges: [SuiteRecord.Change]?, record: SuiteRecord? = nil) {
        self.suite = suite
        self.backends = backends
        self.summary = SuiteSummary(results, record: record)
        self.results = results
        self.recordChanges = recordChanges
    }

    public func encoded() throws -> String {
        try JSONText.encode(self)
    }
}
