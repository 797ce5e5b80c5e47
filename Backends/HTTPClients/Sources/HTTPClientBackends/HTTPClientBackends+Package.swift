import Foundation
import TrustBackendKit

/// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`, `AllBackends`):
/// the `urlsession` and `async-http-client` back ends and their deviations file.
///
/// Both run when named (`--backend urlsession --backend async-http-client`), not by default: an
/// evaluation is a process and a handshake, some 30 ms against a library's tens of microseconds, so
/// BetterTLS's 9,491 name-constraint cases alone take minutes on each. CI names them for the
/// vectors, BetterTLS's path building and the comparison page.
public enum HTTPClientBackends {
    public static let package = BackendPackage(
        name: "HTTPClients",
        entries: [
            .init(isDefault: false) { URLSessionBackend(configuration: $0) },
            .init(isDefault: false) { AsyncHTTPClientBackend(configuration: $0) },
        ],
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
