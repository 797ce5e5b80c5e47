import Foundation
import TrustBackendKit

extension NIOSSLBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `AllBackends`): the `swift-nio-ssl` back end, the bare BoringSSL loop `bench`
    /// measures it against, its deviations file, and how to reproduce a finding with NIOSSL alone.
    public static let package = BackendPackage(
        name: "NIOSSL",
        entries: [
            .init { NIOSSLBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [backendName: BoringSSLBaselineLoop()]),
        deviations: BackendPackage.bundledDeviations(.module),
        reproductions: [backendName: reproduction]
    )
}
