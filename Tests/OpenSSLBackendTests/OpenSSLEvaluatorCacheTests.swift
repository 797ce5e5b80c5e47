import Foundation
@testable import OpenSSLBackend
import Testing
import TrustCore
import TrustVectors

/// The evaluator's cache of parsed presented certificates: bounded, never changing a verdict, and
/// safe under concurrent evaluations.
@Suite struct OpenSSLEvaluatorCacheTests {
    let leaf = TestPKI.leaf, intermediate = TestPKI.intermediate, root = TestPKI.root

    func makeEvaluator(_ configuration: BackendConfiguration, anchors: [TestPKI.Node]? = nil) throws -> OpenSSLEvaluator {
        let evaluator = try OpenSSLBackend(configuration: configuration).makeEvaluator(anchors: (anchors ?? [root]).map(\.der))
        return try #require(evaluator as? OpenSSLEvaluator)
    }

    /// Requests whose verdicts span trusted, expired, not yet valid, wrong host, pinned leaf, a
    /// repeated certificate and an unparseable one.
    var requests: [EvaluationRequest] {
        let other = TestPKI.leaf("other.example.com", issuer: intermediate, names: [.dnsName("other.example.com")])
        return [
            request([leaf, intermediate]),
            request([leaf, intermediate, root]),
            request([leaf, intermediate], at: leaf.certificate.notValidAfter + 1),
            request([leaf, intermediate], at: leaf.certificate.notValidBefore - 1),
            request([leaf, intermediate], host: .dns("mail.example.com")),
            request([leaf, intermediate, intermediate, leaf]),
            request([other, intermediate], host: .dns("other.example.com")),
            request([leaf]),
            EvaluationRequest(chain: [leaf.der, [0x30, 0x03, 0x02, 0x01, 0x00]], host: .dns("www.example.com"), time: TestPKI.start),
        ]
    }

    @Test func cacheHoldsAtMostItsCapacity() throws {
        let evaluator = try makeEvaluator(BackendConfiguration(certificateCacheCapacity: 4))
        for index in 0..<10 {
            let host = "host\(index).example.com"
            let leaf = TestPKI.leaf(host, issuer: intermediate, names: [.dnsName(host)])
            expectTrusted(evaluator.evaluate(request([leaf, intermediate], host: .dns(host))), path: [leaf, intermediate, root])
            #expect(evaluator.cache.count <= 4)
        }
        #expect(evaluator.cache.count == 4)
        // Presented every time, the intermediate outlives the one-off leaves (CLOCK eviction).
        #expect(evaluator.cache.value(for: DERBytes(intermediate.der)) != nil)
    }

    /// RSA, ECDSA and Ed25519 keys carry all their parameters, so their certificates are shared;
    /// only a key that inherits domain parameters (DSA) would be parsed afresh every time.
    @Test(arguments: ["rsa2048", "p256", "ed25519"])
    func certificatesOfEveryVectorKeyTypeAreShared(keyType: String) throws {
        let directory = try #require(VectorSuite.locate()).appendingPathComponent("certs/\(keyType)")
        for name in ["leaf", "intermediate", "root"] {
            let der = try #require(try CertificateFile.read(directory.appendingPathComponent("\(name).pem")).first)
            #expect(try OpenSSLCertificate.parse(der: der).isShareable, "\(keyType)/\(name)")
        }
        #expect(try OpenSSLCertificate.parse(der: leaf.der).isShareable)
    }

    @Test func uncachedEvaluatorKeepsNothing() throws {
        let evaluator = try makeEvaluator(.uncached)
        expectTrusted(evaluator.evaluate(request([leaf, intermediate])), path: [leaf, intermediate, root])
        #expect(evaluator.cache.count == 0)
    }

    @Test func unparseableCertificateIsNeverKept() throws {
        let evaluator = try makeEvaluator(.default)
        let garbage: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x00]
        let bad = EvaluationRequest(chain: [leaf.der, garbage], host: .dns("www.example.com"), time: TestPKI.start)
        let first = evaluator.evaluate(bad)
        expectRejected(first, .malformed, name: "DER_NOT_A_CERTIFICATE", depth: 1)
        #expect(evaluator.evaluate(bad) == first)
        #expect(evaluator.cache.value(for: DERBytes(garbage)) == nil)
        #expect(evaluator.cache.count == 1)
    }

    /// Cold (first sight), warm (already parsed) and uncached evaluations give identical verdicts,
    /// diagnostics and paths included.
    @Test func cachedVerdictsAreTheUncachedVerdicts() throws {
        let cached = try makeEvaluator(.default)
        let uncached = try makeEvaluator(.uncached)
        for request in requests {
            let cold = cached.evaluate(request)
            let warm = cached.evaluate(request)
            #expect(cold == uncached.evaluate(request), "\(cold)")
            #expect(warm == cold, "\(warm)")
        }
        expectTrusted(cached.evaluate(request([leaf, intermediate])), path: [leaf, intermediate, root])
        expectRejected(cached.evaluate(request([leaf, intermediate], at: leaf.certificate.notValidAfter + 1)), .expired, name: "X509_V_ERR_CERT_HAS_EXPIRED", depth: 0)
        expectRejected(cached.evaluate(request([leaf, intermediate], host: .dns("mail.example.com"))), .hostnameMismatch, name: "X509_V_ERR_HOSTNAME_MISMATCH", depth: 0)
    }

    @Test func pinnedLeafGivesTheSameVerdictsCached() throws {
        let cached = try makeEvaluator(.default, anchors: [leaf])
        let uncached = try makeEvaluator(.uncached, anchors: [leaf])
        for request in requests {
            #expect(cached.evaluate(request) == uncached.evaluate(request))
            #expect(cached.evaluate(request) == uncached.evaluate(request))
        }
    }

    /// However many chains pass through, the cache keeps at most its capacity and its verdicts stay
    /// the uncached ones. (Concurrent use, on every back end and every vector: LoadTests.)
    @Test(arguments: [1024, 2])
    func theCacheStaysWithinItsCapacity(capacity: Int) throws {
        let uncached = try makeEvaluator(.uncached)
        let shared = try makeEvaluator(BackendConfiguration(certificateCacheCapacity: capacity))
        for _ in 0..<3 {
            for request in requests {
                #expect(shared.evaluate(request) == uncached.evaluate(request))
                #expect(shared.cache.count <= capacity)
            }
        }
    }
}
