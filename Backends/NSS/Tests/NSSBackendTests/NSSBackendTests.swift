import Foundation
import NSSBackend
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit

/// NSS, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file.
@Suite struct NSSBackendTests {
    static let registry = try! BackendRegistry(NSSBackend.package.entries)

    @Test func conformance() async throws {
        try await BackendTestKit.expectConformance(Self.registry, deviations: NSSBackend.deviationsFile)
    }

    @Test func badInput() async throws {
        try await BackendTestKit.expectBadInputAnswers(Self.registry, deviations: NSSBackend.deviationsFile)
    }

    @Test func contract() async throws {
        try await BackendTestKit.expectContract(Self.registry)
    }
}
