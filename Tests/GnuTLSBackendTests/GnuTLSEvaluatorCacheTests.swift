import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore

/// The evaluator's caches of imported presented certificates and of built paths: bounded, evicting
/// the one-off, keeping nothing it could not parse, never reusing a path at another time. That the
/// caches never change a verdict, alone or under concurrency, is the test kit's contract suite, run
/// on every back end (TrustHarnessTests' TestKitTests.contract).
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

    /// Two intermediates with one name and key, valid one after the other: the path depends on the
    /// request's time, so a path built at one time is never reused at another.
    @Test func pathChosenByTimeIsNotReusedAtAnotherTime() throws {
        func reissued(from notBefore: Date, to notAfter: Date) -> [UInt8] {
            TestPKI.ca(
                TestPKI.intermediate.commonName, issuer: TestPKI.root, pathLength: 0, key: TestPKI.intermediate.key,
                notBefore: notBefore, notAfter: notAfter
            ).der
        }
        let old = reissued(from: TestPKI.start - TestPKI.days(365), to: TestPKI.start - TestPKI.days(10))
        let new = reissued(from: TestPKI.start - TestPKI.days(5), to: TestPKI.start + TestPKI.days(365))
        // A leaf valid at both times.
        let leaf = TestPKI.leaf(
            "www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")], notBefore: TestPKI.start - TestPKI.days(30)
        ).der
        let cached = try makeEvaluator(.default)
        let uncached = try makeEvaluator(.uncached)
        let times = [TestPKI.start, TestPKI.start - TestPKI.days(20), TestPKI.start, TestPKI.start - TestPKI.days(20)]
        let paths = times.map { cached.evaluate(request([leaf, old, new], at: $0)).path }
        #expect(paths == [[leaf, new, root], [leaf, old, root], [leaf, new, root], [leaf, old, root]])
        for time in times {
            #expect(cached.evaluate(request([leaf, old, new], at: time)) == uncached.evaluate(request([leaf, old, new], at: time)))
        }
    }
}
