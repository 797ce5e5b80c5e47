import BuiltInBackends
import Foundation
import Testing
import TrustBackendKit
import TrustHarness
import TrustVectors

/// BetterTLS's name-constraints suite, made here in x509-limbo's format, runs through the suite
/// runner like any x509-limbo file.
@Suite struct BetterTLSTests {
    static let time = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// The first seven cases (the sanity check, one per feature, the first smuggled name) and every
    /// 97th: the whole suite takes 10 s to make in a debug build; CI runs all of it through the tool.
    static let suite = Result { () throws -> LimboSuite in
        try LimboSuite.decode(try BetterTLSExport.nameConstraints(at: time, selected: { $0 < 7 || $0 % 97 == 0 }), file: "bettertls-nameconstraints.json")
    }

    @Test func theSuiteLoadsAsXLimboWithBetterTLSsIds() throws {
        let suite = try Self.suite.get()
        #expect(suite.testcases.count == 7 + 9_491 / 97)
        #expect(suite.testcases.first?.id == "bettertls::nameconstraints::tc0")
        #expect(suite.testcases.contains { $0.id == "bettertls::nameconstraints::tc9409" })
        let expected = BetterTLSNameConstraints.cases()
        for testcase in suite.testcases {
            let index = try #require(Int(testcase.id.dropFirst("bettertls::nameconstraints::tc".count)))
            #expect(testcase.expectsSuccess == [.pass, .softPass].contains(expected[index].expected), "\(testcase.id)")
            #expect(testcase.features.contains("failure-is-warning") == [.softPass, .softFail].contains(expected[index].expected), "\(testcase.id)")
        }
    }

    @Test func theFeatureCasesGetTheirAnswersOnEveryBackEnd() async throws {
        let suite = try Self.suite.get()
        // The sanity check and one case per feature (BetterTLS's first six): every client answers them.
        let results = await SuiteRunner(backends: BuiltInBackends.registry.all(configuration: .uncached)).run(Array(suite.testcases.prefix(6)))
        for result in results where result.outcome != .passed {
            Issue.record("\(result.backend) \(result.id): \(result.actual.rawValue), expected \(result.expected): \(result.context ?? "")")
        }
    }
}
