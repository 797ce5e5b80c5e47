import Foundation
import TrustHarness

extension NSSBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`,
    /// `scripts/all-backends`): the `nss` back end, its bare C loop for `bench`, and its deviations
    /// file (`Backends/NSS/deviations.json`, found beside this source file).
    public static let package = BackendPackage(
        name: "NSS",
        entries: [
            .init { NSSBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [Settings.tlsClient.name: NSSBaselineLoop()]),
        deviations: [deviationsFile]
    )

    /// `Backends/NSS/deviations.json`: where NSS answers other than the standards, with the reasons.
    public static let deviationsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../deviations.json").standardized
}
