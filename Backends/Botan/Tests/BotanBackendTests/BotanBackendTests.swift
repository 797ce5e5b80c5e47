import Foundation
import BotanBackend
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit

/// Botan, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file.
@Suite struct BotanBackendTests {
    static let registry = try! BackendRegistry(BotanBackend.package.entries)

    @Test func conformance() async throws {
        try await BackendTestKit.expectConformance(Self.registry, deviations: BotanBackend.deviationsFile)
    }

    @Test func badInput() async throws {
        try await BackendTestKit.expectBadInputAnswers(Self.registry, deviations: BotanBackend.deviationsFile)
    }

    @Test func contract() async throws {
        try await BackendTestKit.expectContract(Self.registry)
    }
}
