import Synchronization
import Foundation
import Testing
@testable import TrustBackendKit
import TrustVectors

/// The committed vectors, loaded once for this target.
enum KitFixtures {
    static func suite() throws -> VectorSuite { try loaded.get() }

    private static let loaded = Result { () throws -> VectorSuite in
        guard let directory = VectorSuite.locate() else {
            throw VectorLoadError(file: "Vectors/manifest.json", problem: "not found above this test file")
        }
        return try VectorSuite.load(from: directory)
    }
}

/// The one preflight every back end shares: what it refuses, in which order, and that nothing it
/// refuses reaches the library.
@Suite struct BackendPreflightTests {
    /// A back end whose evaluator counts what reaches it and trusts the presented chain up to the
    /// first anchor: here to see what the preflight lets through, not to judge anything.
    struct Counting: TrustBackend {
        let reached = Counter()
        var name: String { "counting" }
        var libraryVersion: String { "none" }
        var features: Set<BackendFeature> { [.anyPurpose] }
        func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
            try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { Evaluator(anchors: anchors, reached: reached) }
        }
        struct Evaluator: TrustEvaluator {
            let anchors: [[UInt8]]
            let reached: Counter
            func evaluate(_ request: EvaluationRequest) -> Verdict {
                reached.add(request.host)
                return .trusted(path: request.chain + anchors.prefix(1))
            }
        }
    }

    /// How many requests reached the library, and the host of the last one as the library got it.
    final class Counter: Sendable {
        private let value = Mutex((count: 0, host: HostIdentity?.none))
        func add(_ host: HostIdentity?) { value.withLock { $0 = ($0.count + 1, host) } }
        var count: Int { value.withLock { $0.count } }
        var lastHost: HostIdentity? { value.withLock { $0.host } }
    }

    static func valid() throws -> LoadedVector {
        try #require(try KitFixtures.suite().vectors.first { $0.id == "valid-chain/p256" })
    }

    /// The verdict on the valid vector's request changed by `change`, and how many requests
    /// reached the evaluator behind the preflight.
    static func evaluate(_ change: (inout EvaluationRequest) -> Void) throws -> (verdict: Verdict, reached: Int) {
        let vector = try valid()
        let backend = Counting()
        var request = vector.request
        change(&request)
        let verdict = try backend.makeEvaluator(anchors: vector.anchors).evaluate(request)
        return (verdict, backend.reached.count)
    }

    @Test func aValidRequestReachesTheEvaluator() throws {
        #expect(try Self.evaluate { _ in }.reached == 1)
    }

    /// The verdict of the checks layer in front of Counting on the valid vector's request changed
    /// by `change`, and how many requests reached the library behind it.
    static func evaluateChecked(_ change: (inout EvaluationRequest) -> Void) throws -> (verdict: Verdict, reached: Int) {
        let vector = try valid()
        let backend = Counting()
        var request = vector.request
        change(&request)
        let verdict = try CheckedBackend(backend).makeEvaluator(anchors: vector.anchors).evaluate(request)
        return (verdict, backend.reached.count)
    }

    @Test func aPresentedCertificateThatIsNotDERReachesTheLibrary() throws {
        // A trailing byte: BER readers take it, DER does not. Without the checks layer it is the
        // library's to read: the guard judges no certificate.
        let (verdict, reached) = try Self.evaluate { $0.chain[1] += [0] }
        #expect(verdict.isTrusted)
        #expect(reached == 1)
    }

    @Test func theChecksLayerRefusesCertificatesThatAreNotDERNamingItselfAndTheIndex() throws {
        let (verdict, reached) = try Self.evaluateChecked { $0.chain[1] += [0] }
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.map(\.name) == [HarnessChecks.notDERName])
        #expect(verdict.diagnostics.first?.depth == 1)
        #expect(verdict.origin == .layer)
        #expect(verdict.layer == HarnessChecks.name)
        #expect(verdict.diagnostics.first?.message.contains("presented certificate 1 is not DER") == true, "\(verdict)")
        #expect(reached == 0)
    }

    @Test func theChecksLayerRefusesHostsAndLimitsAndHandsOnTheNameWithoutItsTrailingDot() throws {
        let refused = try Self.evaluateChecked { $0.host = .dns("-www.example.test") }
        #expect(refused.verdict.diagnostics.map(\.name) == ["HOST_REFUSED"])
        #expect(refused.verdict.origin == .layer)
        #expect(refused.reached == 0)
        let long = try Self.evaluateChecked { $0.chain += Array(repeating: $0.chain[1], count: HarnessChecks.maximumPresentedCertificates) }
        #expect(long.verdict.diagnostics.map(\.name) == ["CHAIN_TOO_LONG"])
        // Without the layer, the same host reaches the library as given.
        let plain = try Self.evaluate { $0.host = .dns("-www.example.test") }
        #expect(plain.reached == 1)
        // The layer hands the library the name without its trailing dot; without the layer the
        // library gets it as given.
        let vector = try Self.valid()
        var dotted = vector.request
        dotted.host = .dns("www.example.test.")
        #expect(dotted.host == .dns("www.example.test."))
        let behindLayer = Counting()
        _ = try CheckedBackend(behindLayer).makeEvaluator(anchors: vector.anchors).evaluate(dotted)
        #expect(behindLayer.reached.lastHost == .dns("www.example.test"))
        let alone = Counting()
        _ = try alone.makeEvaluator(anchors: vector.anchors).evaluate(dotted)
        #expect(alone.reached.lastHost == .dns("www.example.test."))
    }

    @Test func theChecksLayerIsAColumnOfEveryRegisteredBackEnd() throws {
        let registry = try BackendRegistry([.init { _ in Counting() }])
        let backends = try registry.named(["counting+checks", "counting"])
        #expect(backends.map(\.name) == ["counting+checks", "counting"])
        #expect(throws: UnknownBackendError.self) { try registry.named(["nothing+checks"]) }
    }

    @Test func aRequestNoLibraryCanBeAskedIsTheHarnesssRefusalBeforeAnyCheck() throws {
        let (verdict, reached) = try Self.evaluateChecked {
            $0.chain[0] = [0x30, 0x00]
            $0.host = .dns("a\u{0}b.example")
        }
        #expect(verdict.diagnostics.map(\.name) == ["HOST_REFUSED"])
        #expect(verdict.origin == .harness)
        #expect(reached == 0)
    }

    @Test func aFeatureTheBackEndLacksIsRefused() throws {
        let (verdict, reached) = try Self.evaluate { $0.maximumChainDepth = 3 }
        #expect(!verdict.isTrusted)
        #expect(verdict.origin == .harness)
        #expect(reached == 0)
    }

    @Test func anAnchorThatIsNotDERIsRefusedByTheChecksLayerOnly() throws {
        let vector = try Self.valid()
        let anchors = vector.anchors + [vector.anchors[0] + [0]]
        let error = try #require(throws: TrustBackendError.self) {
            try CheckedBackend(Counting()).makeEvaluator(anchors: anchors)
        }
        #expect(error.backend == "counting+checks")
        #expect(error.layer == HarnessChecks.name)
        #expect(error.message.hasPrefix("anchor 1 is not DER"), "\(error)")
        #expect(Verdict.anchorsRefused(error).origin == .layer)
        _ = try Counting().makeEvaluator(anchors: anchors)
    }

    @Test func aGuardedEvaluatorIsNotGuardedTwice() throws {
        let vector = try Self.valid()
        // Counting's own makeEvaluator guards already; the registry's guard must not add a second.
        let guarded = try #require(try GuardedBackend(Counting()).makeEvaluator(anchors: vector.anchors) as? GuardedEvaluator)
        #expect(!(guarded.base is GuardedEvaluator))
        #expect(guarded.base is Counting.Evaluator)
        let again = try #require(try BackendPreflight.guardedEvaluator(of: Counting(), anchors: vector.anchors) { guarded } as? GuardedEvaluator)
        #expect(!(again.base is GuardedEvaluator))
    }
}
