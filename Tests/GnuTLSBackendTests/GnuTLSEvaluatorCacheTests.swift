import Crypto
import Foundation
@testable import GnuTLSBackend
import Testing
import TrustCore

/// The evaluator's caches of imported presented certificates and of built paths: bounded, never
/// changing a verdict, and safe under concurrent evaluations.
@Suite("GnuTLS evaluator cache")
struct GnuTLSEvaluatorCacheTests {
    let root = TestPKI.rootCertificate.derBytes
    let intermediate = TestPKI.intermediateCertificate.derBytes
    let leaf = TestPKI.leafCertificate.derBytes

    func makeEvaluator(_ configuration: BackendConfiguration, anchors: [[UInt8]]? = nil) throws -> GnuTLSEvaluator {
        let evaluator = try GnuTLSBackend(configuration: configuration).makeEvaluator(anchors: anchors ?? [root])
        return try #require(evaluator as? GnuTLSEvaluator)
    }

    func request(_ chain: [[UInt8]], host: HostIdentity? = .dns("www.example.com"), at time: Date = TestPKI.now) -> EvaluationRequest {
        EvaluationRequest(chain: chain, host: host, time: time)
    }

    /// Requests whose verdicts span trusted, expired, not yet valid, wrong host, a repeated
    /// certificate, a missing intermediate and an unparseable certificate.
    var requests: [EvaluationRequest] {
        let other = TestPKI.leaf(issuer: TestPKI.intermediate, extensions: TestPKI.leafExtensions(names: [.dnsName("other.example.com")])).derBytes
        return [
            request([leaf, intermediate]),
            request([leaf, intermediate, root]),
            request([leaf, intermediate], at: TestPKI.leafNotAfter + 1),
            request([leaf, intermediate], at: TestPKI.leafNotBefore - 1),
            request([leaf, intermediate], host: .dns("mail.example.com")),
            request([leaf, intermediate, intermediate, leaf]),
            request([other, intermediate], host: .dns("other.example.com")),
            request([leaf]),
            request([leaf, [0x30, 0x03, 0x01, 0x01, 0xFF]]),
        ]
    }

    @Test func cacheHoldsAtMostItsCapacity() throws {
        let evaluator = try makeEvaluator(BackendConfiguration(certificateCacheCapacity: 4))
        for _ in 0..<10 {
            let leaf = TestPKI.leaf(issuer: TestPKI.intermediate).derBytes
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

    /// Cold (first sight), warm (already imported, path already built) and uncached evaluations give
    /// identical verdicts, diagnostics and paths included.
    @Test func cachedVerdictsAreTheUncachedVerdicts() throws {
        let cached = try makeEvaluator(.default)
        let uncached = try makeEvaluator(.uncached)
        for request in requests {
            let cold = cached.evaluate(request)
            let warm = cached.evaluate(request)
            #expect(cold == uncached.evaluate(request), "\(cold)")
            #expect(warm == cold, "\(warm)")
        }
        #expect(cached.evaluate(request([leaf, intermediate])).path == [leaf, intermediate, root])
        #expect(cached.evaluate(request([leaf, intermediate], at: TestPKI.leafNotAfter + 1)).failures == [.expired])
        #expect(cached.evaluate(request([leaf, intermediate], host: .dns("mail.example.com"))).failures == [.hostnameMismatch])
    }

    @Test func pinnedLeafGivesTheSameVerdictsCached() throws {
        let cached = try makeEvaluator(.default, anchors: [leaf])
        let uncached = try makeEvaluator(.uncached, anchors: [leaf])
        for request in requests {
            #expect(cached.evaluate(request) == uncached.evaluate(request))
            #expect(cached.evaluate(request) == uncached.evaluate(request))
        }
    }

    /// Two intermediates with one name and key, valid one after the other: the path depends on the
    /// request's time, so a path built at one time is never reused at another.
    @Test func pathChosenByTimeIsNotReusedAtAnotherTime() throws {
        func reissued(from notBefore: Date, to notAfter: Date) -> [UInt8] {
            TestPKI.issue(
                subject: TestPKI.intermediate.name, publicKey: .init(TestPKI.intermediateKey.publicKey), issuer: TestPKI.root,
                notBefore: notBefore, notAfter: notAfter, extensions: TestPKI.caExtensions(pathLength: 0)
            ).derBytes
        }
        let old = reissued(from: TestPKI.now - TestPKI.days(365), to: TestPKI.now - TestPKI.days(10))
        let new = reissued(from: TestPKI.now - TestPKI.days(5), to: TestPKI.now + TestPKI.days(365))
        let cached = try makeEvaluator(.default)
        let uncached = try makeEvaluator(.uncached)
        let times = [TestPKI.now, TestPKI.now - TestPKI.days(20), TestPKI.now, TestPKI.now - TestPKI.days(20)]
        let paths = times.map { cached.evaluate(request([leaf, old, new], at: $0)).path }
        #expect(paths == [[leaf, new, root], [leaf, old, root], [leaf, new, root], [leaf, old, root]])
        for time in times {
            #expect(cached.evaluate(request([leaf, old, new], at: time)) == uncached.evaluate(request([leaf, old, new], at: time)))
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

    @Test func validationTimeScopesGnuTLSClockOnThisThread() throws {
        #expect(GnuTLSBackend.withValidationTime(42) { EvaluationScope.timeHook(nil) } == 42)
        let nested = GnuTLSBackend.withValidationTime(7) {
            (GnuTLSBackend.withValidationTime(9) { EvaluationScope.timeHook(nil) }, EvaluationScope.timeHook(nil))
        }
        #expect(nested.0 == 9 && nested.1 == 7)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try GnuTLSBackend.withValidationTime(1) { throw Failure() }
        }
        #expect(abs(EvaluationScope.timeHook(nil) - time(nil)) <= 2)
    }
}
