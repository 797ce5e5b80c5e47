import Foundation
import TrustBackendKit

/// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`, `AllBackends`):
/// the `urlsession` and `async-http-client` back ends, each stack's own request loop `bench` puts
/// an evaluation beside (``HTTPClientLoop``), and their deviations file.
///
/// Both run when named (`--backend urlsession --backend async-http-client`), not by default: an
/// evaluation is a real request and a handshake, milliseconds against a library's tens of
/// microseconds. CI names them for the vectors, BetterTLS and the comparison page.
public enum HTTPClientBackends {
    public static let package = BackendPackage(
        name: "HTTPClients",
        entries: [
            .init(isDefault: false) { URLSessionBackend(configuration: $0) },
            .init(isDefault: false) { AsyncHTTPClientBackend(configuration: $0) },
        ],
        benchmarks: BenchmarkBaselines(loops: [
            URLSessionBackend.backendName: HTTPClientLoop(stack: .urlSession),
            AsyncHTTPClientBackend.backendName: HTTPClientLoop(stack: .asyncHTTPClient),
        ]),
        deviations: BackendPackage.bundledDeviations(.module)
    )
}
