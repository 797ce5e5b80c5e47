import Foundation
import TrustHarness

extension BotanBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): the `botan` back end, its bare C loop for `bench`, and its deviations
    /// file (`Backends/Botan/deviations.json`, found beside this source file).
    public static let package = BackendPackage(
        name: "Botan",
        entries: [
            .init { BotanBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: BotanBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/Botan/deviations.json`: where Botan answers other than the standards, with the reasons.
    public static let deviationsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../deviations.json").standardized
}
