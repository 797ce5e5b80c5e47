import Foundation
import TrustHarness

extension NIOSSLBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): the `swift-nio-ssl` back end, the bare BoringSSL loop `bench`
    /// measures it against, and its deviations file.
    public static let package = BackendPackage(
        name: "NIOSSL",
        entries: [
            .init { NIOSSLBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [backendName: BoringSSLBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/NIOSSL/deviations.json`: where NIOSSL answers other than the standards, with the
    /// reasons; found by walking up from this source file to the folder holding Package.swift.
    public static let deviationsFile: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("deviations.json")
    }()
}
