import Foundation
import TrustBackendKit

extension WolfSSLBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `AllBackends`): the `wolfssl` back end, its bare C loop for `bench`, and its
    /// deviations file (`deviations.json`, a resource of this target).
    public static let package = BackendPackage(
        name: "wolfSSL",
        entries: [
            .init { WolfSSLBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: WolfSSLBaselineLoop()]),
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
