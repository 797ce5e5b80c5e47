import AsyncHTTPClient
import Foundation
import HTTPClientWire
import NIOCore
import NIOSSL

/// An AsyncHTTPClient request, as an application makes one: `HTTPClient.Configuration` with a
/// `TLSConfiguration.makeClientConfiguration()` whose `trustRoots` are the anchors (its only
/// roots), the proxy as `Configuration.Proxy.server(host:port:)`, and the request's timeout.
/// The host to check is the URL's: AsyncHTTPClient gives it to NIOSSL as the server name.
/// `connectionPool.retryConnectionEstablishment` is off, so a rejection is not retried until the
/// timeout (see below).
enum AsyncHTTPClientClient {
    static func fetch(_ request: ClientRequest) async -> ClientOutcome {
        var tls = TLSConfiguration.makeClientConfiguration()
        do {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(request.anchorsFile))
        } catch {
            return ClientOutcome(errorType: String(describing: type(of: error)), errorDescription: "the anchors cannot be read by NIOSSLCertificate.fromPEMFile: \(error)")
        }
        let timeout = TimeAmount.milliseconds(Int64(request.timeoutSeconds * 1000))
        if !request.verifyHost { tls.certificateVerification = .noHostnameVerification }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, proxy: request.proxyPort.map { .server(host: "127.0.0.1", port: Int($0)) })
        configuration.timeout = .init(connect: timeout, read: timeout)
        // A failed handshake fails the request at once, instead of being retried with backoff until
        // the connect timeout (AsyncHTTPClient's default): the same error, sooner. Verification is
        // not touched by it.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        var outcome = ClientOutcome()
        do {
            let response = try await client.execute(HTTPClientRequest(url: request.url), timeout: timeout)
            outcome.status = Int(response.status.code)
        } catch {
            outcome = Self.outcome(of: error)
        }
        try? await client.shutdown()
        return outcome
    }

    /// The error as the application sees it: its type and case (`NIOSSLError.handshakeFailed`), the
    /// BoringSSL reasons it carries (`CERTIFICATE_VERIFY_FAILED`), and its text without the build
    /// paths BoringSSL errors name (` at /path/ssl/handshake.cc:320`), so the same error reads the same
    /// on every machine.
    static func outcome(of error: any Error) -> ClientOutcome {
        let text = "\(error)"
        let typeName = String(describing: type(of: error))
        var name = typeName
        if !text.hasPrefix(typeName), let caseName = text.split(separator: "(", maxSplits: 1).first, !caseName.contains(" ") {
            name += "." + caseName
        } else if text.hasPrefix(typeName + "."), let caseName = text.dropFirst(typeName.count + 1).split(whereSeparator: { ":( ".contains($0) }).first {
            name += "." + caseName
        }
        var reasons: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "OPENSSL_internal:") {
            let reason = rest[range.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
            if !reason.isEmpty && !reasons.contains(String(reason)) { reasons.append(String(reason)) }
            rest = rest[range.upperBound...]
        }
        if !reasons.isEmpty { name += " [" + reasons.joined(separator: ", ") + "]" }
        return ClientOutcome(errorType: name, errorDescription: withoutBuildPaths(text))
    }
}
