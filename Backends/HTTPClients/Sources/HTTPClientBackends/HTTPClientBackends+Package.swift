import Foundation
import TrustBackendKit

/// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`, `AllBackends`):
/// the `urlsession` and `async-http-client` back ends and their deviations file.
public enum HTTPClientBackends {
    public static let package = BackendPackage(
        name: "HTTPClients",
        entries: [
            .init { URLSessionBackend(configuration: $0) },
            .init { AsyncHTTPClientBackend(configuration: $0) },
        ],
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
