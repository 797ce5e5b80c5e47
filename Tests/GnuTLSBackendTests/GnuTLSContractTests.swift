import GnuTLSBackend
import Testing
import TrustHarness
import TrustHarnessTestKit

/// The back-end contract every back end keeps (TrustHarnessTestKit), on GnuTLS's two presets.
@Suite struct GnuTLSContractTests {
    @Test(arguments: [GnuTLSBackend.Settings.hardened, .clientDefault])
    func keepsTheContract(settings: GnuTLSBackend.Settings) async throws {
        let registry = try BackendRegistry([.init(name: settings.name) { GnuTLSBackend(configuration: $0, settings: settings) }])
        try await BackendTestKit.expectContract(registry)
    }
}
