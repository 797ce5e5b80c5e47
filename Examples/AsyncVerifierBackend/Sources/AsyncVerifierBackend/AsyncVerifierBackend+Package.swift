import Foundation
import TrustBackendKit

extension AsyncVerifierBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`), with where it
    /// departs from the standards (`deviations.json`, recorded with `scripts/record-deviations REPORT
    /// Sources/AsyncVerifierBackend/deviations.json`).
    public static let package = BackendPackage(
        name: "AsyncVerifier",
        entries: [.init { _ in AsyncVerifierBackend() }],
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
