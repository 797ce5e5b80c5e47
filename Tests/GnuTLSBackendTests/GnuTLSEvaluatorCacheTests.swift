import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore

/// The evaluator's cache of imported presented certificates: bounded, evicting the one-off, keeping
/// nothing it could not parse, sharing one handle for the same bytes. That the cache never changes a
/// verdict, alone or under concurrency, is the test kit's contract suite, run on every back end
/// (TrustHarnessTests' TestKitTests.contract).
@Suite("GnuTLS evaluator cache")
struct GnuTLSEvaluatorCacheTests {
    let root = TestPKI.root.der
    let intermediate = TestPKI.intermediate.der
    let leaf = TestPKI.leaf.der

    func makeEvaluator(_ configuration: BackendConfiguration, anchors: [[UInt8]]? = nil) throws -> GnuTLSEvaluator {
        let backend = GnuTLSBackend(configuration: configuration)
        return try GnuTLSEvaluator(anchors: anchors ?? [root], settings: backend.settings, configuration: configuration)
    }

    func request(_ chain: [[UInt8]], host: HostIdentity? = .dns("www.example.com"), at time: Date = TestPKI.start) -> EvaluationRequest {
        EvaluationRequest(chain: chain, host: host, time: time)
    }

    @Test func cacheHoldsAtMostItsCapacity() throws {
        let evaluator = try makeEvaluator(BackendConfiguration(certificateCacheCapacity: 4))
        for _ in 0..<10 {
            let leaf = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")]).der
            #expect(evaluator.evaluate(request([leaf, intermediate])).path == [leaf, intermediate, root])
            #expect(evaluator.cache.count <= 4)
        }
        #expect(evaluator.cache.count == 4)
        // Presented every time, the intermediate outlives the one-off leaves (CLOCK eviction).
        #expect(evaluator.cache.value(for: DERBytes(intermediate)) != nil)
    }

    @Test func uncachedEvaluatorKeepsNothing() throws {
        let evaluator = try makeEvaluator(.uncached)
        #expect(evaluator.evaluate(request([leaf, intermediate])).isTrusted)
        #expect(evaluator.cache.count == 0)
    }

    @Test func unparseableCertificateIsNeverKept() throws {
        let evaluator = try makeEvaluator(.default)
        let garbage: [UInt8] = [0x30, 0x03, 0x01, 0x01, 0xFF]
        let first = evaluator.evaluate(request([leaf, garbage]))
        #expect(first.failures == [.malformed])
        #expect(first.diagnostics.first?.depth == 1)
        #expect(evaluator.evaluate(request([leaf, garbage])) == first)
        #expect(evaluator.cache.value(for: DERBytes(garbage)) == nil)
        #expect(evaluator.cache.count == 1)
    }

    /// The same bytes presented twice in one chain are one certificate to GnuTLS, which compares
    /// certificates by content and drops the duplicate (`gnutls_x509_trust_list_verify_crt2`), so
    /// they may share one cached handle: the verdict is the uncached one, and the path names the
    /// intermediate once.
    @Test func theSameCertificateTwiceSharesOneHandle() throws {
        let cached = try makeEvaluator(.default)
        let uncached = try makeEvaluator(.uncached)
        let chain = [leaf, intermediate, intermediate]
        #expect(cached.evaluate(request(chain)).path == [leaf, intermediate, root])
        #expect(cached.evaluate(request(chain)) == uncached.evaluate(request(chain)))
        #expect(cached.cache.count == 2)
    }
}
