import Foundation
import Testing
import TrustBackendKit
import TrustHarnessTestKit
import WolfSSLBackend

/// wolfSSL, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file.
@Suite struct WolfSSLBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: WolfSSLBackend.package)
    }
}
