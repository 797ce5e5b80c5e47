import Foundation
import MbedTLSBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit
#if canImport(Glibc)
import Glibc
#endif

/// mbedTLS, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file, and what is mbedTLS's own below.
@Suite struct MbedTLSBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: MbedTLSBackend.package)
    }

    static func vector(_ id: String) throws -> BackendTestKit.Vector {
        try BackendTestKit.vector(id)
    }

    /// The request's time, not the clock: the valid chain is trusted at its vector's time, expired
    /// in 2200 and not yet valid in 1990, each with mbedTLS's own flag.
    @Test func theRequestTimeIsTheValidationTime() throws {
        let vector = try Self.vector("valid-chain/p256")
        let evaluator = try MbedTLSBackend().makeEvaluator(anchors: vector.anchors)
        let now = evaluator.evaluate(vector.request)
        #expect(now.isTrusted)
        #expect(now.path?.first == vector.request.chain.first)
        #expect(now.path?.last.map(vector.anchors.contains) == true)

        var later = vector.request
        later.time = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01
        let expired = evaluator.evaluate(later)
        #expect(expired.failures.contains(.expired))
        #expect(expired.diagnostics.contains { $0.name == "MBEDTLS_X509_BADCERT_EXPIRED" && $0.depth == 0 })

        var earlier = vector.request
        earlier.time = Date(timeIntervalSince1970: 631_152_000)  // 1990-01-01
        let early = evaluator.evaluate(earlier)
        #expect(early.failures.contains(.notYetValid))
        #expect(early.diagnostics.contains { $0.name == "MBEDTLS_X509_BADCERT_FUTURE" && $0.depth == 0 })
    }

    /// The pinned clock is the verifying thread's alone: the process's time() still reads the real
    /// clock, here and while other tasks verify at other times.
    @Test func theRestOfTheProcessKeepsTheRealClock() async throws {
        let vector = try Self.vector("valid-chain/p256")
        let evaluator = try MbedTLSBackend().makeEvaluator(anchors: vector.anchors)
        var request = vector.request
        request.time = Date(timeIntervalSince1970: 631_152_000)
        let past = request
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<200 { _ = evaluator.evaluate(past) } }
            }
            for _ in 0..<200 {
                let real = Int64(Date().timeIntervalSince1970)
                #expect(abs(Int64(time(nil)) - real) <= 2)
            }
            try await group.waitForAll()
        }
    }

    /// The pin is libmbedx509's alone: after a pinned verification, the process's own `time` (as
    /// every other library and the program resolve it) is still glibc's, not the bridge's clock.
    @Test func noOtherCodeReachesTheBridgesClock() throws {
        let vector = try Self.vector("valid-chain/p256")
        var request = vector.request
        request.time = Date(timeIntervalSince1970: 631_152_000)
        #expect(try MbedTLSBackend().makeEvaluator(anchors: vector.anchors).evaluate(request).failures.contains(.notYetValid))
        // What the program and every library resolve `time` to, against glibc's own definition.
        let resolved = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "time"))
        let libc = try #require(dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD))
        defer { dlclose(libc) }
        // AddressSanitizer and ThreadSanitizer interpose time() themselves (their interceptor calls
        // glibc's), so under them the process resolves it to the interceptor: what is left to check
        // is that it still reads the real clock, not the pin.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil {
            #expect(abs(Int64(time(nil)) - Int64(Date().timeIntervalSince1970)) <= 2, "time() under the sanitizer's interceptor reads the pinned clock")
        } else {
            #expect(resolved == dlsym(libc, "time"), "time() does not resolve to glibc's definition: something interposes it")
        }
    }

    /// mbedTLS's CN_MISMATCH is a host name mismatch at the leaf.
    @Test func aWrongHostIsCNMismatch() throws {
        let vector = try Self.vector("valid-chain/rsa2048")
        var request = vector.request
        request.host = .dns("other.example.test")
        let verdict = try MbedTLSBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.failures == [.hostnameMismatch])
        #expect(verdict.diagnostics.map(\.name) == ["MBEDTLS_X509_BADCERT_CN_MISMATCH"])
        #expect(verdict.diagnostics.first?.depth == 0)
    }

    /// The TLS client's usage check refuses a client-only leaf (EXT_KEY_USAGE); validation for any
    /// purpose, and the back end without the usage check, trust it.
    @Test func theUsageCheckIsTheTLSClients() throws {
        let vector = try Self.vector("client-auth-only-leaf/p256")
        let tls = try MbedTLSBackend().makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(tls.failures == [.purposeMismatch])
        #expect(tls.diagnostics.map(\.name) == ["MBEDTLS_X509_BADCERT_EXT_KEY_USAGE"])
        var any = vector.request
        any.purpose = .anyPurpose
        #expect(try MbedTLSBackend().makeEvaluator(anchors: vector.anchors).evaluate(any).isTrusted)
        let bare = MbedTLSBackend(settings: .init(name: "mbedtls-bare", checksServerUsage: false))
        #expect(try bare.makeEvaluator(anchors: vector.anchors).evaluate(vector.request).isTrusted)
    }

    /// Anchors are read once, when the evaluator is made: bytes that are no certificate are refused there.
    @Test func anUnreadableAnchorIsRefused() throws {
        #expect(throws: TrustBackendError.self) { _ = try MbedTLSBackend().makeEvaluator(anchors: [[0x30, 0x03, 0x02, 0x01, 0x00]]) }
    }

    /// The Suite B profile refuses RSA where the default profile trusts it.
    @Test func theSuiteBProfileRefusesRSA() throws {
        let vector = try Self.vector("valid-chain/rsa2048")
        #expect(try MbedTLSBackend().makeEvaluator(anchors: vector.anchors).evaluate(vector.request).isTrusted)
        let suiteB = try MbedTLSBackend(settings: .suiteB).makeEvaluator(anchors: vector.anchors).evaluate(vector.request)
        #expect(!suiteB.isTrusted)
        #expect(suiteB.diagnostics.contains { $0.name == "MBEDTLS_X509_BADCERT_BAD_PK" })
    }
}
