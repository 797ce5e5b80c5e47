import Foundation
import NIOSSLBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// swift-nio-ssl, plugged in from outside, runs TrustHarness's whole conformance, bad-input and
/// contract suites with this package's own deviations file, and what is NIOSSL's own below.
@Suite struct NIOSSLBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: NIOSSLBackend.package)
    }

    static func vector(_ id: String) throws -> BackendTestKit.Vector {
        try BackendTestKit.vector(id)
    }

    /// The request's time, not the clock: the valid chain is trusted at its vector's time, expired
    /// in 2200 and not yet valid in 1990, each with BoringSSL's own code.
    @Test func theRequestTimeIsTheValidationTime() throws {
        let vector = try Self.vector("valid-chain/p256")
        let evaluator = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors)
        let now = evaluator.evaluate(vector.request)
        #expect(now.isTrusted)
        #expect(now.path?.first == vector.request.chain.first)
        #expect(now.path?.last.map(vector.anchors.contains) == true)

        var later = vector.request
        later.time = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01
        let expired = evaluator.evaluate(later)
        #expect(expired.failures == [.expired])
        #expect(expired.diagnostics.map(\.name) == ["X509_V_ERR_CERT_HAS_EXPIRED"])

        var earlier = vector.request
        earlier.time = Date(timeIntervalSince1970: 631_152_000)  // 1990-01-01
        let early = evaluator.evaluate(earlier)
        #expect(early.failures == [.notYetValid])
        #expect(early.diagnostics.map(\.name) == ["X509_V_ERR_CERT_NOT_YET_VALID"])
    }

    /// A wrong host is NIOSSL's own failedToValidateHostname, at the leaf, after the chain verified.
    /// NIOSSL's host check reads the socket's address: a leaf naming only the address a DNS host
    /// was reached at is trusted for that host (what RFC 9525 forbids), and rejected when the request
    /// models no connection or another address; a leaf naming the host as a dNSName is trusted either way.
    @Test func theConnectedAddressIsNIOSSLsRemoteAddress() throws {
        let vector = try Self.vector("connected-address-only-ipv4/p256")
        let evaluator = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors)
        #expect(vector.request.connectedAddress == [127, 0, 0, 1])
        #expect(evaluator.evaluate(vector.request).isTrusted)
        var unconnected = vector.request
        unconnected.connectedAddress = nil
        #expect(evaluator.evaluate(unconnected).failures == [.hostnameMismatch])
        var elsewhere = vector.request
        elsewhere.connectedAddress = [192, 0, 2, 99]
        #expect(evaluator.evaluate(elsewhere).failures == [.hostnameMismatch])
        let beside = try Self.vector("connected-address-beside-dns-ipv6/p256")
        var noAddress = beside.request
        noAddress.connectedAddress = nil
        #expect(evaluator.evaluate(beside.request).isTrusted && evaluator.evaluate(noAddress).isTrusted)
    }

    @Test func aWrongHostIsNIOSSLsHostnameError() throws {
        let vector = try Self.vector("valid-chain/rsa2048")
        var request = vector.request
        request.host = .dns("other.example.test")
        let verdict = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.failures == [.hostnameMismatch])
        #expect(verdict.diagnostics.map(\.name) == ["NIOSSLExtraError.failedToValidateHostname"])
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    /// NIOSSL matches only hosts of letters, digits, "-" and ".": an underscore can match nothing.
    @Test func anUnderscoreHostCanMatchNothing() throws {
        let vector = try Self.vector("valid-chain/p256")
        var request = vector.request
        request.host = .dns("www_1.example.test")
        let verdict = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.diagnostics.map(\.name) == ["NIOSSLExtraError.serverHostnameImpossibleToMatch"])
    }

    /// Anchors are read once, when the evaluator is made: bytes that are no certificate are refused.
    @Test func anUnreadableAnchorIsRefused() throws {
        #expect(throws: TrustBackendError.self) { _ = try NIOSSLBackend().makeEvaluator(anchors: [[0x30, 0x03, 0x02, 0x01, 0x00]]) }
    }

    /// The same verdicts through the cache as without it.
    @Test func theCacheChangesNoVerdict() throws {
        let vector = try Self.vector("expired-leaf/p256")
        let cached = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors)
        let uncached = try NIOSSLBackend(configuration: .uncached).makeEvaluator(anchors: vector.anchors)
        let first = cached.evaluate(vector.request)
        #expect(cached.evaluate(vector.request) == first)
        #expect(uncached.evaluate(vector.request) == first)
        #expect(first.failures == [.expired])
    }

    /// Requests NIOSSL's TLSConfiguration cannot express are refused, never evaluated without them.
    @Test func constraintsNIOSSLCannotSetAreRefused() throws {
        let vector = try Self.vector("valid-chain/p256")
        var request = vector.request
        request.maximumChainDepth = 5
        let verdict = try NIOSSLBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
    }
}
