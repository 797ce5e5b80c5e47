import Foundation
import TrustHarness

extension MbedTLSBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): `mbedtls` (mbedTLS's TLS client with the default profile) and, run
    /// only when named (`--backend`), `mbedtls-suiteb` (the Suite B profile and preset); the bare C
    /// loop `bench` measures `mbedtls` against; and the deviations file beside this package's
    /// Package.swift. (`Settings.next`, the third named profile, answers every vector as the default
    /// one does, which differs from it only in SHA-224 and curves under 128-bit security, so it is
    /// not registered.)
    public static let package = BackendPackage(
        name: "MbedTLS",
        entries: [
            .init { MbedTLSBackend(configuration: $0) },
            .init(isDefault: false) { MbedTLSBackend(configuration: $0, settings: .suiteB) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: MbedTLSBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/MbedTLS/deviations.json`: where mbedTLS answers other than the standards, with the
    /// reasons; found by walking up from this source file to the folder holding Package.swift.
    public static let deviationsFile: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("deviations.json")
    }()
}
