import Foundation
import TrustHarness

extension BotanBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): `botan` (Botan's TLS client) and two variants to compare it with,
    /// `botan-ffi` (no usage check, as Botan's C interface) and `botan-legacy` (minimum strength 80:
    /// SHA-1 and 1024-bit RSA); the bare C++ loop `bench` measures `botan` against; and the
    /// deviations file beside this package's Package.swift. The variants run only when named (`--backend`).
    public static let package = BackendPackage(
        name: "Botan",
        entries: [
            .init { BotanBackend(configuration: $0) },
            .init(isDefault: false) { BotanBackend(configuration: $0, settings: .ffi) },
            .init(isDefault: false) { BotanBackend(configuration: $0, settings: .legacy) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: BotanBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/Botan/deviations.json`: where Botan answers other than the standards, with the
    /// reasons; found by walking up from this source file to the folder holding Package.swift.
    public static let deviationsFile: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("deviations.json")
    }()
}
