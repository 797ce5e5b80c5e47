import Foundation
import Testing
import TrustHarness
import TrustVectors

/// A record of suite results is matched with a run by case id and expected result, not by the
/// suite file's bytes: a suite compiled again (new keys, the same cases) is still compared.
@Suite struct SuiteRecordTests {
    static func result(_ id: String, _ backend: String, expected: String, _ actual: SuiteResult.Actual) -> SuiteResult {
        SuiteResult(id: id, backend: backend, expected: expected, actual: actual, context: nil)
    }

    static let recorded = SuiteRecord(suite: "old-build", backends: [BackendInfo(name: "openssl", version: "3")], results: [
        result("a", "openssl", expected: "SUCCESS", .success),
        result("b", "openssl", expected: "FAILURE", .failure),
        result("c", "openssl", expected: "FAILURE", .success),
    ])

    @Test func anotherBuildOfTheSameCasesIsComparedByCaseId() {
        let run = [Self.result("c", "openssl", expected: "FAILURE", .success), Self.result("a", "openssl", expected: "SUCCESS", .success), Self.result("b", "openssl", expected: "FAILURE", .failure)]
        #expect(Self.recorded.changes(run).isEmpty)
        let changed = [Self.result("a", "openssl", expected: "SUCCESS", .failure)]
        #expect(Self.recorded.changes(changed).map(\.id) == ["a"])
    }

    @Test func aCaseWhoseExpectationChangedIsReportedEvenWhenAnsweredAsRecorded() throws {
        let run = [Self.result("b", "openssl", expected: "SUCCESS", .failure)]
        let change = try #require(Self.recorded.changes(run).first)
        #expect(change.recordedExpectation == "FAILURE")
        #expect(change.description.contains("the suite changed the case (it expected FAILURE when recorded, SUCCESS now)"))
    }

    @Test func aCaseNewToTheRecordIsNotComparedButNamed() {
        let run = [Self.result("d", "openssl", expected: "SUCCESS", .success), Self.result("a", "openssl", expected: "SUCCESS", .success)]
        #expect(Self.recorded.changes(run).isEmpty)
        #expect(Self.recorded.unrecorded(run) == ["d"])
    }

    @Test func recordingOneBackEndKeepsTheOthersWhateverTheBuild() {
        let newer = SuiteRecord(suite: "new-build", backends: [BackendInfo(name: "gnutls", version: "3.7")], results: [Self.result("a", "gnutls", expected: "SUCCESS", .success)])
        let merged = Self.recorded.merging(newer)
        #expect(Set(merged.backends.keys) == ["openssl", "gnutls"])
        #expect(merged.suite == "new-build")
        #expect(merged.expected?["b"] == "FAILURE")
    }

    @Test func aLongReasonIsCutToWhatAReaderNeeds() {
        let key = String(repeating: "30820122300d06092a864886f70d01010105000382010f00", count: 200)
        let result = SuiteResult(id: "x", backend: "b", expected: "FAILURE", actual: .failure, context: "the key \(key) and again \(key)")
        let context = result.context ?? ""
        #expect(context.count < SuiteResult.contextLimit + 40)
        #expect(context.hasSuffix("more characters)"))
    }

    /// BetterTLS's soft results: another answer is a warning, counted apart from the departures.
    @Test func aDepartureWhereTheSuiteSaysItIsOnlyAWarningIsAWarning() {
        var soft = Self.result("s", "openssl", expected: "SUCCESS", .failure)
        #expect(soft.outcome == .rejectedExpectedSuccess)
        soft.failureIsWarning = true
        #expect(soft.outcome == .warning)
        let row = SuiteSummary([soft, Self.result("a", "openssl", expected: "SUCCESS", .success)]).backends[0].all
        #expect(row.warnings == 1 && row.passed == 1 && row.rejectedExpectedSuccess == 0 && row.unexpected == 0)
    }

    @Test func aSuiteNewerThanTheRunnerKnowsSaysSo() throws {
        let suite = try LimboSuite.decode(Data(#"{"version": 2, "testcases": []}"#.utf8), file: "limbo.json")
        #expect(suite.newerVersionNote?.contains("declares x509-limbo format version 2; this runner knows versions up to 1") == true)
        #expect(try LimboSuite.decode(Data(#"{"version": 1, "testcases": []}"#.utf8), file: "limbo.json").newerVersionNote == nil)
    }
}
