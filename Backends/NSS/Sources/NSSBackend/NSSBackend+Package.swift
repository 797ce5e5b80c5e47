import Foundation
import TrustBackendKit

extension NSSBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `AllBackends`): the `nss` back end, its bare C loop for `bench`, and its deviations
    /// file (`deviations.json`, a resource of this target).
    public static let package = BackendPackage(
        name: "NSS",
        entries: [
            .init { NSSBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: NSSBaselineLoop()]),
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
