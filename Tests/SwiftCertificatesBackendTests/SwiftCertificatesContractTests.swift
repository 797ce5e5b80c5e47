import Foundation
import SwiftCertificatesBackend
import Testing
import TrustCore
import TrustHarness
import TrustHarnessTestKit

/// The swift-certificates back end through the test kit's contract suite. The chain, policy and
/// bad-input vectors run in TrustHarnessTests with every built-in back end, the
/// `swift-certificates-bare` variant included; the variant differs only in its policy set, not in
/// the evaluator code the contract exercises, so the contract runs on the default back end only
/// (in a debug build each run costs several seconds of pure-Swift parsing).
@Suite struct SwiftCertificatesContractTests {
    @Test func keepsTheContract() async throws {
        let registry = try BackendRegistry([
            .init(name: SwiftCertificatesBackend.Settings.standard.name) { SwiftCertificatesBackend(configuration: $0) },
        ])
        try await BackendTestKit.expectContract(registry)
    }
}
