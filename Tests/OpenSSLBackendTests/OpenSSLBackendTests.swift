@testable import OpenSSLBackend
import TestPKI
import Testing
import TrustCore

@Suite struct OpenSSLBackendTests {
    @Test func libraryVersionIsTheLoadedOpenSSL3() {
        let version = OpenSSLBackend().libraryVersion
        #expect(version.hasPrefix("OpenSSL 3"), "\(version)")
    }

    @Test func unparseableAnchorThrowsNamingItsIndex() throws {
        let error = try #require(throws: TrustBackendError.self) {
            try unguardedEvaluator(anchors: [TestPKI.root.der, [0x30, 0x03, 0x02, 0x01, 0x00]])
        }
        #expect(error.backend == "openssl")
        #expect(error.message.contains("anchor at index 1"), "\(error)")
        #expect(!error.native.isEmpty, "OpenSSL's error stack should be carried")
        #expect(error.native.allSatisfy { $0.failure == .malformed && $0.message.hasPrefix("error:") }, "\(error)")
    }

    @Test func truncatedAnchorThrows() throws {
        let error = try #require(throws: TrustBackendError.self) {
            try unguardedEvaluator(anchors: [Array(TestPKI.root.der.dropLast(5))])
        }
        #expect(error.message.contains("anchor at index 0"), "\(error)")
    }

    @Test func anchorWithTrailingBytesThrows() throws {
        let error = try #require(throws: TrustBackendError.self) {
            try unguardedEvaluator(anchors: [TestPKI.unrelatedRoot.der, TestPKI.root.der + [0]])
        }
        #expect(error.message.contains("anchor at index 1"), "\(error)")
        #expect(error.message.contains("1 trailing bytes"), "\(error)")
    }

    @Test func emptyAnchorThrows() throws {
        let error = try #require(throws: TrustBackendError.self) {
            try unguardedEvaluator(anchors: [[]])
        }
        #expect(error.message.contains("anchor at index 0"), "\(error)")
    }

    @Test func noAnchorsTrustNothing() throws {
        let evaluator = try makeEvaluator([])
        expectRejected(evaluator.evaluate(request([TestPKI.leaf, TestPKI.intermediate, TestPKI.root])), .untrusted, name: "X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", depth: 2)
    }

    @Test func duplicateAnchorsAreAccepted() throws {
        let evaluator = try makeEvaluator([TestPKI.root, TestPKI.root])
        expectTrusted(evaluator.evaluate(request([TestPKI.leaf, TestPKI.intermediate])), path: [TestPKI.leaf, TestPKI.intermediate, TestPKI.root])
    }
}
