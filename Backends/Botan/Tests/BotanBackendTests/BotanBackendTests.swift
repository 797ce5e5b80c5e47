import BotanBackend
import Foundation
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// Botan, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file, and what is Botan's own below.
@Suite struct BotanBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: BotanBackend.package)
    }

    static func vector(_ id: String) throws -> BackendTestKit.Vector {
        try BackendTestKit.vector(id)
    }

    /// The request's time, not the clock: the valid chain is trusted at its vector's time, expired
    /// in 2200 and not yet valid in 1990, each with Botan's own status.
    /// A time past 2262 does not fit Botan's clock (nanoseconds in 64 bits): refused, not
    /// converted with an overflow (found by UndefinedBehaviorSanitizer while fuzzing at 9999-12-31).
    @Test func aTimeBotanCannotHoldIsRefused() throws {
        let vector = try Self.vector("valid-chain/p256")
        var request = vector.request
        request.time = Date(timeIntervalSince1970: 253_402_300_799)
        let verdict = try BotanBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.diagnostics.map(\.name) == ["UNSUPPORTED_TIME"])
    }

    @Test func theRequestTimeIsTheReferenceTime() throws {
        let vector = try Self.vector("valid-chain/p256")
        let evaluator = try BotanBackend().makeEvaluator(anchors: vector.anchors)
        let now = evaluator.evaluate(vector.request)
        #expect(now.isTrusted)
        #expect(now.path?.first == vector.request.chain.first)
        #expect(now.path?.last.map(vector.anchors.contains) == true)

        var later = vector.request
        later.time = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01
        let expired = evaluator.evaluate(later)
        #expect(expired.failures.contains(.expired))
        #expect(expired.diagnostics.contains { $0.name == "CERT_HAS_EXPIRED" && $0.code == 2001 })

        var earlier = vector.request
        earlier.time = Date(timeIntervalSince1970: 631_152_000)  // 1990-01-01
        let early = evaluator.evaluate(earlier)
        #expect(early.failures.contains(.notYetValid))
        #expect(early.diagnostics.contains { $0.name == "CERT_NOT_YET_VALID" && $0.code == 2000 })
    }

    /// Botan's CERT_NAME_NOMATCH (4008) is a host name mismatch at the leaf.
    @Test func aWrongHostIsCertNameNoMatch() throws {
        let vector = try Self.vector("valid-chain/rsa2048")
        var request = vector.request
        request.host = .dns("other.example.test")
        let verdict = try BotanBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.failures == [.hostnameMismatch])
        #expect(verdict.diagnostics.map(\.name) == ["CERT_NAME_NOMATCH"])
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    /// `botan` asks for TLS server usage (INVALID_USAGE for a client-only leaf); `botan-ffi`, like
    /// Botan's C interface, asks for none and trusts it.
    @Test func theUsageSettingDecidesTheLeafsPurposeCheck() throws {
        let vector = try Self.vector("client-auth-only-leaf/p256")
        let tls = try BotanBackend().makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(tls.failures == [.purposeMismatch])
        #expect(tls.diagnostics.map(\.name) == ["INVALID_USAGE"])
        let ffi = try BotanBackend(settings: .ffi).makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(ffi.isTrusted)
    }

    /// A CRL Botan cannot read means no revocation checking: not trusted.
    @Test func anUnreadableCRLFailsClosed() throws {
        let vector = try Self.vector("valid-chain/p256")
        var request = vector.request
        request.revocationLists = [[0x30, 0x03, 0x02, 0x01, 0x00]]
        let verdict = try BotanBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(!verdict.isTrusted)
        #expect(verdict.diagnostics.map(\.name) == ["BOTAN_CRL_DECODING_ERROR"])
    }

    /// Anchors are read once, when the evaluator is made: bytes that are no certificate are refused there.
    @Test func anUnreadableAnchorIsRefused() throws {
        #expect(throws: TrustBackendError.self) { _ = try BotanBackend().makeEvaluator(anchors: [[0x30, 0x03, 0x02, 0x01, 0x00]]) }
    }

    /// The same verdicts through the cache as without it.
    @Test func theCacheChangesNoVerdict() throws {
        let vector = try Self.vector("expired-leaf/p256")
        let cached = try BotanBackend().makeEvaluator(anchors: vector.anchors)
        let uncached = try BotanBackend(configuration: .uncached).makeEvaluator(anchors: vector.anchors)
        let first = cached.evaluate(vector.request)
        #expect(cached.evaluate(vector.request) == first)
        #expect(uncached.evaluate(vector.request) == first)
        #expect(first.failures == [.expired])
    }

    /// The path search limit refuses before Botan runs: the valid chain takes more than one unit
    /// (leaf, intermediate, root, then the path checked), and is trusted again with the default.
    @Test func thePathSearchLimitFailsClosed() throws {
        let vector = try Self.vector("valid-chain/p256")
        let tight = BotanBackend(settings: .init(name: "botan-tight", pathSearchLimit: 3))
        let verdict = try tight.makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(!verdict.isTrusted)
        #expect(verdict.diagnostics.map(\.name) == ["BOTAN_PATH_SEARCH_LIMIT"])
        let unlimited = BotanBackend(settings: .init(name: "botan-unlimited", pathSearchLimit: 0))
        #expect(try unlimited.makeEvaluator(anchors: vector.anchors).evaluate(vector.request).isTrusted)
    }
}
