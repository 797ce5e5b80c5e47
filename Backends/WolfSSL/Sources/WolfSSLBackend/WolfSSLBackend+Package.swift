import Foundation
import TrustHarness

extension WolfSSLBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): the `wolfssl` back end, its bare C loop for `bench`, and its
    /// deviations file (`Backends/WolfSSL/deviations.json`).
    public static let package = BackendPackage(
        name: "wolfSSL",
        entries: [
            .init { WolfSSLBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: WolfSSLBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/WolfSSL/deviations.json`: where wolfSSL answers other than the standards, with the
    /// reasons; found by walking up from this source file to the folder holding Package.swift.
    public static let deviationsFile: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("deviations.json")
    }()
}
