import OpenSSLBackend
import Testing
import TrustHarness
import TrustHarnessTestKit

/// The back-end contract every back end keeps (TrustHarnessTestKit), on OpenSSL's two presets.
@Suite struct OpenSSLContractTests {
    @Test(arguments: [OpenSSLBackend.Settings.hardened, .clientDefault])
    func keepsTheContract(settings: OpenSSLBackend.Settings) async throws {
        let registry = try BackendRegistry([.init(name: settings.name) { OpenSSLBackend(configuration: $0, settings: settings) }])
        try await BackendTestKit.expectContract(registry)
    }
}
