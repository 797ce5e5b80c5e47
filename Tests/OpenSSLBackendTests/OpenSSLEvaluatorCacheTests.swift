import Foundation
@testable import OpenSSLBackend
import TestPKI
import Testing
import TrustCore
import TrustVectors

/// The evaluator's cache of parsed presented certificates: bounded, evicting the one-off, keeping
/// nothing it could not parse. That it never changes a verdict, alone or under concurrency, is the
/// test kit's contract suite, run on every back end (TrustHarnessTests' TestKitTests.contract).
@Suite struct OpenSSLEvaluatorCacheTests {
    let leaf = TestPKI.leaf, intermediate = TestPKI.intermediate, root = TestPKI.root

    func makeEvaluator(_ configuration: BackendConfiguration, anchors: [TestPKI.Node]? = nil) throws -> OpenSSLEvaluator {
        try unguardedEvaluator(OpenSSLBackend(configuration: configuration), anchors: (anchors ?? [root]).map(\.der))
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
}
