import Foundation
import GnuTLSBackend
import OpenSSLBackend
import Testing
import TrustCore
import TrustProbe
import TrustVectors

/// The loopback server staples a vector's OCSP response in a real handshake, and each TLS client's
/// own handling of it: GnuTLS judges it inside `gnutls_certificate_verify_peers` at the request's
/// time; OpenSSL's client, given no status callback, receives it and verifies the chain alone.
@Suite struct StapledOCSPTests {
    struct Served {
        let vector: LoadedVector
        let server: LoopbackTLSServer
        var target: TLSTarget { TLSTarget(address: "127.0.0.1", port: server.port, serverName: vector.host.flatMap { $0.isDNS ? $0.description : nil }) }

        func request(at time: Date? = nil) -> EvaluationRequest {
            EvaluationRequest(chain: [], host: vector.host, time: time ?? vector.time)
        }
    }

    static func serve(_ id: String) throws -> Served {
        let suite = try Fixtures.suite()
        let vector = try #require(suite.vectors.first { $0.id == id })
        let key = try #require(vector.leafPrivateKey, "\(id) has a key to serve it with")
        let server = try LoopbackTLSServer(chain: vector.chain, privateKey: key)
        server.staple(vector.ocspResponses.first)
        return Served(vector: vector, server: server)
    }

    static let gnutls = TLSClients.of(GnuTLSBackend())!
    static let openssl = TLSClients.of(OpenSSLBackend())!

    @Test func gnutlsAcceptsAGoodStapleAtTheRequestTimeAndNotAfterItsNextUpdate() throws {
        let served = try Self.serve("revocation-ocsp-good/p256")
        defer { served.server.stop() }
        let good = Self.gnutls.handshake(served.target, anchors: served.vector.anchors, request: served.request(), timeout: .seconds(5))
        #expect(good.failure == nil)
        #expect(good.stapledResponse == served.vector.ocspResponses.first, "the client received the response the server stapled")
        #expect(good.verdict.isTrusted, "\(good.verdict.diagnostics)")
        // Ten days later the leaf is still valid but the response's nextUpdate (five days after the
        // vectors' time) has passed: GnuTLS's freshness check reads the per-thread time, not the clock
        // (at the clock's time, 2026, the good response above would have been superseded too).
        let later = Self.gnutls.handshake(served.target, anchors: served.vector.anchors, request: served.request(at: served.vector.time.addingTimeInterval(10 * 86_400)), timeout: .seconds(5))
        #expect(!later.verdict.isTrusted)
        #expect(later.verdict.diagnostics.map(\.name).contains("GNUTLS_CERT_REVOCATION_DATA_SUPERSEDED"), "\(later.verdict.diagnostics)")
    }

    @Test func gnutlsRejectsARevokedStapleAndOpenSSLsClientIgnoresIt() throws {
        let served = try Self.serve("revocation-ocsp-revoked/p256")
        defer { served.server.stop() }
        let gnutls = Self.gnutls.handshake(served.target, anchors: served.vector.anchors, request: served.request(), timeout: .seconds(5))
        #expect(gnutls.stapledResponse == served.vector.ocspResponses.first)
        #expect(!gnutls.verdict.isTrusted && gnutls.verdict.failures == [.revoked], "\(gnutls.verdict.diagnostics)")
        let openssl = Self.openssl.handshake(served.target, anchors: served.vector.anchors, request: served.request(), timeout: .seconds(5))
        #expect(openssl.protocolVersion == "TLSv1.3")
        #expect(openssl.stapledResponse == served.vector.ocspResponses.first, "OpenSSL's client received the staple (in TLS 1.3's Certificate message)")
        #expect(openssl.verdict.isTrusted, "OpenSSL's client without a status callback does not judge the staple")
    }

    @Test func nothingIsStapledWhenTheVectorHasNoResponse() throws {
        let served = try Self.serve("revocation-ocsp-missing-hard/p256")
        defer { served.server.stop() }
        for client in [Self.gnutls, Self.openssl] {
            let report = client.handshake(served.target, anchors: served.vector.anchors, request: served.request(), timeout: .seconds(5))
            #expect(report.failure == nil && report.stapledResponse == nil)
            #expect(report.verdict.isTrusted, "neither client can be told to require a status: \(report.verdict.diagnostics)")
        }
    }
}
