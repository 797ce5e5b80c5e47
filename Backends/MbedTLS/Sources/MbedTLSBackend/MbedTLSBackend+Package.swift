import Foundation
import TrustBackendKit

extension MbedTLSBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `AllBackends`): `mbedtls` (mbedTLS's TLS client with the default profile) and, run
    /// only when named (`--backend`), `mbedtls-suiteb` (the Suite B profile and preset); the bare C
    /// loop `bench` measures `mbedtls` against; each back end's fidelity reference, that loop with
    /// its profile and the request's CRLs (``MbedTLSReference``); and its deviations
    /// file (a resource of this target). (`Settings.next`, the third named profile, answers every
    /// vector as the default one does, which differs from it only in SHA-224 and curves under
    /// 128-bit security, so it is not registered.)
    public static let package = BackendPackage(
        name: "MbedTLS",
        entries: [
            .init { MbedTLSBackend(configuration: $0) },
            .init(isDefault: false) { MbedTLSBackend(configuration: $0, settings: .suiteB) },
        ],
        benchmarks: BenchmarkBaselines(
            loops: [Settings.tlsClient.name: MbedTLSBaselineLoop()],
            references: [Settings.tlsClient.name: MbedTLSReference(settings: .tlsClient),
                         Settings.suiteB.name: MbedTLSReference(settings: .suiteB)]
        ),
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
