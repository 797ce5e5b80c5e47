import Foundation
import TrustBackendKit

extension BotanBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `AllBackends`): `botan` (Botan's TLS client) and two variants to compare it with,
    /// `botan-ffi` (no usage check, as Botan's C interface) and `botan-legacy` (minimum strength 80:
    /// SHA-1 and 1024-bit RSA); the bare C++ loop `bench` measures `botan` against; the fidelity
    /// references, each Botan called plainly with the back end's settings and the request's
    /// revocation inputs (`botan` and `botan-legacy`: that loop, ``BotanReference``, with strength
    /// 80 for `botan-legacy` as a TLS client whose policy lowers it; `botan-ffi`: Botan's C
    /// interface, `botan_x509_cert_verify` or, with CRLs, `botan_x509_cert_verify_with_crl`); and the
    /// deviations file (a resource of this target). The variants run only when named (`--backend`).
    public static let package = BackendPackage(
        name: "Botan",
        entries: [
            .init { BotanBackend(configuration: $0) },
            .init(isDefault: false) { BotanBackend(configuration: $0, settings: .ffi) },
            .init(isDefault: false) { BotanBackend(configuration: $0, settings: .legacy) },
        ],
        benchmarks: BenchmarkBaselines(
            loops: [Settings.tlsClient.name: BotanBaselineLoop()],
            references: [Settings.tlsClient.name: BotanReference(settings: .tlsClient),
                         Settings.ffi.name: BotanFFIReference(settings: .ffi),
                         Settings.legacy.name: BotanReference(settings: .legacy)]
        ),
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
