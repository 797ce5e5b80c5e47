import Foundation
import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

/// NIST PKITS (vendored in Vectors/pkits) on every back end and variant, pinned to the committed record
/// (Vectors/pkits/observed.json): a change either way fails until `trust-harness pkits --record`.
@Suite struct PKITSTests {
    static func suite() throws -> LimboSuite {
        try PKITSSuite.load(from: try #require(PKITSSuite.locateVendored(), "Vectors/pkits/pkits.json is missing"))
    }

    static let results = Task { () throws -> [SuiteResult] in
        try await SuiteRunner(backends: LimboTests.backends).run(suite().testcases)
    }

    @Test func everyEntryOnEveryBackEndEqualsTheRecord() async throws {
        let suite = try Self.suite()
        #expect(suite.testcases.count == 249)
        let url = try #require(PKITSSuite.locateVendored()).deletingLastPathComponent().appendingPathComponent("observed.json")
        let record = try SuiteRecord.read(url)
        #expect(record.suite == suite.digest, "the record was made from another pkits.json: run trust-harness pkits --record")
        let results = try await Self.results.value
        #expect(Set(LimboTests.backends.map(\.name)).isSubset(of: record.backends.keys), "every built-in back end must be recorded (columns of the Backends/ packages are kept beside them)")
        let changes = record.changes(results)
        #expect(changes.isEmpty, "results differ from Vectors/pkits/observed.json:\n\(changes.map(\.description).joined(separator: "\n"))")
        for result in results where result.actual != .success {
            #expect(result.context?.isEmpty == false, "\(result.backend) \(result.id): a SKIPPED or FAILURE result says why")
        }
    }

    /// Evaluated or skipped with a reason, every entry on every back end; OpenSSL, which processes
    /// policies and CRLs, accepts nothing PKITS rejects, and every skip names what is missing.
    @Test func openSSLAcceptsNothingPKITSRejects() async throws {
        let results = try await Self.results.value
        let openssl = results.filter { $0.backend == "openssl" }
        #expect(openssl.count == 249)
        #expect(openssl.filter { $0.outcome == .skipped }.isEmpty, "OpenSSL honours every input PKITS uses")
        #expect(openssl.filter { $0.outcome == .acceptedExpectedFailure }.map(\.id) == [])
        for skipped in results where skipped.outcome == .skipped {
            let reason = skipped.context ?? ""
            #expect(reason.contains("policy processing") || reason.contains("CRLs"), "\(skipped.backend) \(skipped.id): \(reason)")
        }
    }

    /// The policy inputs reach the back end: the same chain (§4.8.1) validates with the
    /// user-initial-policy-set {NIST-test-policy-1} and fails with {NIST-test-policy-2}, explicit
    /// policy required in both.
    @Test func policyInputsAreHonoured() throws {
        let suite = try Self.suite()
        let openssl = try #require(LimboTests.backends.first { $0.name == "openssl" })
        let runner = SuiteRunner(backends: [openssl])
        for (subpart, policy, expected) in [("2", "2.16.840.1.101.3.2.1.48.1", SuiteResult.Actual.success), ("3", "2.16.840.1.101.3.2.1.48.2", .failure)] {
            let entry = try #require(suite.testcases.first { $0.id == "pkits::4.8.1-AllCertificatesSamePolicyTest1::subpart\(subpart)" })
            #expect(entry.policy?.initialPolicySet == [policy] && entry.policy?.explicitPolicy == true && entry.needsPolicyProcessing)
            let result = runner.evaluate(entry, on: openssl)
            #expect(result.actual == expected, "subpart \(subpart): \(result.context ?? "")")
            if expected == .failure { #expect(result.context?.contains("X509_V_ERR_NO_EXPLICIT_POLICY") == true, "\(result.context ?? "")") }
        }
    }
}
