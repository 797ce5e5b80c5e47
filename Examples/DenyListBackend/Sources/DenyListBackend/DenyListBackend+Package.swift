import Foundation
import OpenSSLBackend
import TrustBackendKit

extension DenyListBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`): OpenSSL with
    /// ``DenyList/keys`` refused, as `openssl-denylist`, and where it departs from the standards
    /// (`deviations.json`, a resource of this target, so an installed tool finds it too).
    public static let package = BackendPackage(
        name: "DenyList",
        entries: [
            .init { DenyListBackend(name: "openssl-denylist", wrapping: OpenSSLBackend(configuration: $0), denied: DenyList.keys, configuration: $0) },
        ],
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
