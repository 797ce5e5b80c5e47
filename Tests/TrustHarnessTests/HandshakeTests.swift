import TrustBackendKit
import Foundation
import GnuTLSBackend
import OpenSSLBackend
import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors
import TrustProbe

/// Every chain vector served by a real TLS server on 127.0.0.1, each TLS client against it: the
/// handshake's verdict equals the chain's, or the difference is recorded (Vectors/handshake.json)
/// with its reason; a recorded difference that is no longer seen fails too. OCSP revocation vectors
/// are served with their response stapled and judged against the standards' answer.
@Suite struct HandshakeTests {
    static let backends: [any TrustBackend] = [GuardedBackend(OpenSSLBackend()), GuardedBackend(GnuTLSBackend())]

    @Test func handshakesAgreeWithChainsOrAreRecorded() throws {
        let suite = try Fixtures.suite()
        let record = try HandshakeComparison.readRecord(suite.directory.appendingPathComponent("handshake.json"))
        let comparison = HandshakeComparison(backends: Self.backends, vectorsDirectory: suite.directory) { chain, key in
            try LoopbackTLSServer(chain: chain, privateKey: key)
        }
        // The catalogue's vectors: the explored ones (231 more served) are CI's
        // `scripts/all-backends run --handshake`, which judges every vector with a leaf key on the
        // three TLS clients against the same record; here they would double the test's time.
        let rows = comparison.run(suite.vectors.filter { !$0.id.hasPrefix("explored/") }, record: record, timeout: .seconds(5))
        #expect(Set(rows.map(\.vector)).count >= 150, "every generated chain vector has a key to serve it with")
        #expect(rows.allSatisfy { !$0.handshake.hasPrefix("failed") }, "\(rows.filter { $0.handshake.hasPrefix("failed") }.prefix(3))")
        let stapled = rows.filter { $0.staple != nil }
        #expect(Set(stapled.map(\.vector)).count == suite.vectors.filter { $0.id.hasPrefix("revocation-ocsp-") }.count, "every OCSP vector is served stapled")
        #expect(stapled.allSatisfy { $0.staple == "none" || $0.staple!.hasSuffix(", received") }, "both clients ask for status and receive the staple: \(stapled.filter { $0.staple != "none" && !$0.staple!.hasSuffix(", received") }.prefix(3))")
        #expect(!rows.contains { $0.vector.hasPrefix("revocation-crl-") }, "a handshake carries no CRL")
        let problems = HandshakeComparison.problems(rows, record: record)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Bad servers fail fast with the reason, and are the caller's error, not a verdict.
    @Test func unreachableAndSilentServersFailFast() throws {
        let request = EvaluationRequest(chain: [], host: .dns("www.example.test"), time: Date())
        let start = ContinuousClock.now
        for backend in Self.backends {
            let refused = try #require(TLSClients.of(backend)).handshake(TLSTarget(address: "127.0.0.1", port: 1, serverName: nil), anchors: [], request: request, timeout: .seconds(1))
            #expect(refused.failure?.userError == true && refused.failure?.stage == "connect", "\(String(describing: refused.failure))")
            #expect(!refused.verdict.isTrusted)
        }
        // A listener that never answers: the handshake waits at most the timeout.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(listener, 4)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        for backend in Self.backends {
            let silent = try #require(TLSClients.of(backend)).handshake(TLSTarget(address: "127.0.0.1", port: port, serverName: nil), anchors: [], request: request, timeout: .milliseconds(300))
            #expect(silent.failure?.userError == true, "\(backend.name): \(String(describing: silent.failure))")
        }
        #expect(ContinuousClock.now - start < .seconds(10), "every wait is bounded")
    }
}
