import Foundation
import HTTPClientWire
import NIOSSL
import TrustBackendKit

/// One request per evaluation, as an application makes it: a loopback HTTPS server presenting the
/// request's chain with the leaf's key, behind a CONNECT front; the stack's client in a child
/// process at the request's time, trusting exactly the anchors, fetching `https://HOST/`. The verdict
/// is the request's outcome: a response is trusted, an error is rejected with the stack's own error
/// (its type, code and text) as the diagnostic, classed by ``StackError``.
///
/// Not a verdict, so not the stack's (origin harness, reported as skipped with the reason): a
/// request without the leaf's key, a chain NIOSSL cannot serve, a child that cannot start, dies or
/// overruns, a clock libfaketime did not set.
final class HTTPClientEvaluator: TrustEvaluator, @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after init.
    let stack: ClientStack
    let backendName: String
    /// The anchors as PEM, written to the worker's CA file before each request.
    let anchorsPEM: String
    let launcher: ClientLauncher
    let timeoutSeconds: Double

    init(stack: ClientStack, backendName: String, anchors: [[UInt8]], launcher: ClientLauncher, timeoutSeconds: Double) throws(TrustBackendError) {
        self.stack = stack
        self.backendName = backendName
        self.launcher = launcher
        self.timeoutSeconds = timeoutSeconds
        // An anchor no client can read fails every request: refused now, as every back end refuses
        // it, with BoringSSL's reading of it (NIOSSLCertificate, as an AsyncHTTPClient application
        // makes its roots; libcurl's OpenSSL would fail to load the CA file with it).
        for (index, der) in anchors.enumerated() {
            do {
                _ = try NIOSSLCertificate(bytes: der, format: .der)
            } catch {
                throw TrustBackendError(backend: backendName, message: "anchor at index \(index) is not a certificate a client can read (NIOSSLCertificate(bytes:format: .der): \(error))")
            }
        }
        // AsyncHTTPClient reads them as its roots file; for URLSession the file is the system's CA
        // bundle in the worker's view (see ClientWorker).
        anchorsPEM = anchors.map { Self.pem($0) }.joined()
    }

    /// `der` as PEM, under `label` (a certificate unless told).
    static func pem(_ der: [UInt8], label: String = "CERTIFICATE") -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    static func notAsked(_ name: String, _ message: String) -> Verdict {
        .failClosed(.other, name: name, message: "not asked: \(message)", origin: .harness)
    }

    /// How the request reaches the server, or why it cannot be asked on loopback.
    struct Route {
        var url: String
        var proxied: Bool
        var verifyHost: Bool
    }

    /// The URL and the way to it. A DNS name, or an IP address other than 127.0.0.1, is the URL's
    /// host and the request goes through the CONNECT proxy: the client checks the certificate
    /// against that host. AsyncHTTPClient is the exception for an IP address: it gives NIOSSL no
    /// server name for one, and NIOSSL then checks the address connected to, which through a proxy
    /// is the proxy's; so only 127.0.0.1, connected to directly, is asked of it. A request without
    /// a host is `.noHostnameVerification` on AsyncHTTPClient and cannot be put to URLSession.
    func route(_ host: HostIdentity?, port: UInt16) -> Result<Route, RouteRefusal> {
        let direct = Route(url: "https://127.0.0.1:\(port)/", proxied: false, verifyHost: true)
        switch host {
        case .dns(let name)?:
            return .success(Route(url: "https://\(name)/", proxied: true, verifyHost: true))
        case .ipAddress(let bytes)?:
            if bytes == [127, 0, 0, 1] { return .success(stack == .urlSession ? Route(url: "https://127.0.0.1/", proxied: true, verifyHost: true) : direct) }
            guard stack == .urlSession else {
                return .failure(RouteRefusal(name: "IP_NOT_ON_LOOPBACK", message: "\(HostIdentity.ipAddress(bytes)) can only be reached here through a proxy, and through one AsyncHTTPClient checks the certificate against the proxy's address, not the URL's (it gives NIOSSL no server name for an IP address, HTTPConnectionPool+Factory.swift:714-720, and NIOSSLHandler.validateHostname then takes channel.remoteAddress, NIOSSLHandler.swift:832)"))
            }
            let literal = bytes.count == 16 ? "[\(HostIdentity.ipAddress(bytes))]" : "\(HostIdentity.ipAddress(bytes))"
            return .success(Route(url: "https://\(literal)/", proxied: true, verifyHost: true))
        case nil:
            guard stack == .asyncHTTPClient else {
                return .failure(RouteRefusal(name: "HOST_CHECK_ALWAYS_ON", message: "URLSession always checks the URL's host: an application on Linux has no setting to leave it out"))
            }
            return .success(Route(url: direct.url, proxied: false, verifyHost: false))
        }
    }

    struct RouteRefusal: Error {
        var name: String
        var message: String
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        guard let key = request.leafPrivateKey else {
            return Self.notAsked("NO_LEAF_KEY", "the request has no private key for the leaf, so no server can present the chain (\(backendName) is judged by a real request)")
        }
        let server: LoopbackHTTPSServer
        do {
            server = try LoopbackHTTPSServer(chain: request.chain, privateKey: key)
        } catch {
            return Self.notAsked("CANNOT_SERVE", "\(error)")
        }
        defer { server.stop() }
        return ask(port: server.port, host: request.host, at: request.unixTime)
    }

    /// One request by the stack's client, in its child process at `unixTime`, to the server whose
    /// CONNECT front listens on 127.0.0.1:`port`, for `host`, trusting exactly the anchors: the
    /// request every evaluation makes, whatever server answers it (``LoopbackHTTPSServer``, or one
    /// behind a ``LoopbackTunnel``). A child that cannot start, dies or overruns, a clock
    /// libfaketime did not set, and a host that cannot be asked on loopback are not the stack's
    /// verdicts (origin harness).
    func ask(port: UInt16, host: HostIdentity?, at unixTime: Int64) -> Verdict {
        let route: Route
        switch self.route(host, port: port) {
        case .success(let found): route = found
        case .failure(let refusal): return Self.notAsked(refusal.name, refusal.message)
        }
        let clientRequest = ClientRequest(
            stack: stack, url: route.url, proxyPort: nil, verifyHost: route.verifyHost,
            anchorsFile: "", timeoutSeconds: timeoutSeconds
        )
        switch launcher.run(clientRequest, at: unixTime, anchors: anchorsPEM, server: route.proxied ? port : nil) {
        case .failed(let why):
            return Self.notAsked("CLIENT_PROCESS", why)
        case .outcome(let outcome):
            guard let clock = outcome.clock, abs(clock - Double(unixTime)) < 5 else {
                return Self.notAsked("CLOCK_NOT_SET", "the client read the time \(outcome.clock.map { "\($0)" } ?? "nothing"), not the request's \(unixTime): libfaketime did not set its clock")
            }
            return StackError.verdict(outcome, stack: stack)
        }
    }
}
