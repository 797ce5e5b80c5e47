import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit
import WolfSSLBackend

/// wolfSSL, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file.
@Suite struct WolfSSLBackendTests {
    static let registry = try! BackendRegistry(WolfSSLBackend.package.entries)

    @Test func conformance() async throws {
        try await BackendTestKit.expectConformance(Self.registry, deviations: WolfSSLBackend.deviationsFile)
    }

    @Test func badInput() async throws {
        try await BackendTestKit.expectBadInputAnswers(Self.registry, deviations: WolfSSLBackend.deviationsFile)
    }

    @Test func contract() async throws {
        try await BackendTestKit.expectContract(Self.registry)
    }
}
