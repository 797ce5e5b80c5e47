@testable import OpenSSLBackend
import TestPKI
import Testing
import TrustCore

/// Presented chains that are not all DER certificates, as OpenSSL's evaluator answers them behind
/// the kit's preflight (which refuses them first): always a malformed rejection naming the index,
/// never a crash or a partial verification.
@Suite struct PresentedChainTests {
    let evaluator: any TrustEvaluator

    init() throws {
        evaluator = try unguardedEvaluator(anchors: [TestPKI.root.der])
    }

    func evaluate(_ chain: [[UInt8]]) -> Verdict {
        evaluator.evaluate(EvaluationRequest(chain: chain, host: .dns("www.example.com"), time: TestPKI.start))
    }

    @Test func emptyChainIsMalformed() {
        expectRejected(evaluate([]), .malformed, name: "EMPTY_CHAIN")
    }

    @Test func garbageIsMalformedWithOpenSSLsReason() throws {
        let verdict = evaluate([TestPKI.leaf.der, [0xde, 0xad, 0xbe, 0xef]])
        expectRejected(verdict, .malformed, name: "DER_NOT_A_CERTIFICATE", depth: 1)
        let diagnostic = try #require(verdict.diagnostics.first)
        #expect(diagnostic.message.contains("index 1"), "\(diagnostic)")
        #expect(diagnostic.message.contains("error:"), "OpenSSL's error stack should be in the message: \(diagnostic)")
        #expect(diagnostic.code != 0, "the first OpenSSL error code should be kept")
    }

    @Test func truncatedLeafIsMalformed() throws {
        let verdict = evaluate([Array(TestPKI.leaf.der.dropLast(10)), TestPKI.intermediate.der])
        expectRejected(verdict, .malformed, name: "DER_NOT_A_CERTIFICATE", depth: 0)
        #expect(try #require(verdict.diagnostics.first).message.contains("index 0 (the leaf)"))
    }

    @Test func trailingBytesAreMalformed() throws {
        let verdict = evaluate([TestPKI.leaf.der, TestPKI.intermediate.der, TestPKI.root.der + [0x00, 0x00]])
        expectRejected(verdict, .malformed, name: "DER_TRAILING_BYTES", depth: 2)
        let message = try #require(verdict.diagnostics.first).message
        #expect(message.contains("index 2"), "\(message)")
        #expect(message.contains("2 trailing bytes"), "\(message)")
    }

    @Test func emptyCertificateIsMalformed() throws {
        let verdict = evaluate([TestPKI.leaf.der, []])
        expectRejected(verdict, .malformed, name: "EMPTY_DER", depth: 1)
        #expect(try #require(verdict.diagnostics.first).message.contains("index 1"))
    }

    /// A bad certificate fails the request even when the path would not need it.
    @Test func unneededBadCertificateStillFailsClosed() {
        expectRejected(evaluate([TestPKI.leaf.der, TestPKI.intermediate.der, [0x30, 0x00]]), .malformed, name: "DER_NOT_A_CERTIFICATE", depth: 2)
    }

    @Test func errorQueueIsLeftEmpty() {
        _ = evaluate([TestPKI.leaf.der, [0x30, 0x82, 0xff]])
        #expect(OpenSSLErrorQueue.drain() == [])
    }
}
