import BenchmarkSupport
import Testing

/// The C baselines measure the right work only if they reach the back ends' answers: the valid chain
/// verifies and the expired leaf does not, with each library, cold and warm.
@Suite struct CBaselinesTests {
    @Test(arguments: RawBaseline.Library.allCases, VectorPKI.KeyType.allCases)
    func validChainVerifiesAndExpiredLeafDoesNot(library: RawBaseline.Library, keyType: VectorPKI.KeyType) throws {
        let pki = try VectorPKI.load(keyType)
        for parseEachTime in [true, false] {
            let valid = try RawBaseline.evaluate(
                library, chain: pki.validChain, anchors: pki.anchors, host: VectorPKI.host,
                parseEachTime: parseEachTime, iterations: 3
            )
            #expect(valid.verified, "\(library) \(keyType) valid chain, parseEachTime \(parseEachTime)")
            let expired = try RawBaseline.evaluate(
                library, chain: pki.expiredChain, anchors: pki.anchors, host: VectorPKI.host,
                parseEachTime: parseEachTime, iterations: 3
            )
            #expect(!expired.verified, "\(library) \(keyType) expired leaf, parseEachTime \(parseEachTime)")
        }
    }

    @Test(arguments: RawBaseline.Library.allCases)
    func wrongHostAndOtherAnchorsAreRejected(library: RawBaseline.Library) throws {
        let pki = try VectorPKI.load(.p256)
        let otherRoot = try VectorPKI.load(.rsa2048).root
        let wrongHost = try RawBaseline.evaluate(
            library, chain: pki.validChain, anchors: pki.anchors, host: VectorPKI.wrongHost, parseEachTime: false, iterations: 1
        )
        #expect(!wrongHost.verified)
        let untrusted = try RawBaseline.evaluate(
            library, chain: pki.validChain, anchors: [otherRoot], host: VectorPKI.host, parseEachTime: true, iterations: 1
        )
        #expect(!untrusted.verified)
        let noHost = try RawBaseline.evaluate(
            library, chain: pki.validChain, anchors: pki.anchors, host: nil, parseEachTime: true, iterations: 1
        )
        #expect(noHost.verified)
    }

    @Test func gnuTLSLoopReadsTheValidationTimeThroughTheHook() throws {
        let pki = try VectorPKI.load(.ed25519)
        // One second past the leaf's notAfter (2026-05-02T00:00:00Z).
        let late = try RawBaseline.evaluate(
            .gnutls, chain: pki.validChain, anchors: pki.anchors, host: VectorPKI.host,
            unixTime: 1_777_680_001, parseEachTime: false, iterations: 1
        )
        #expect(!late.verified)
    }

    @Test(arguments: VectorPKI.KeyType.allCases)
    func signaturesAndParsing(keyType: VectorPKI.KeyType) throws {
        let pki = try VectorPKI.load(keyType)
        #expect(try RawBaseline.signatures(chain: pki.validChain, anchors: pki.anchors, iterations: 2).verified)
        let otherRoot = try VectorPKI.load(keyType == .p256 ? .rsa2048 : .p256).root
        #expect(try !RawBaseline.signatures(chain: pki.validChain, anchors: [otherRoot], iterations: 1).verified)
        #expect(try RawBaseline.swiftCryptoSignatures(chain: pki.validChain, anchors: pki.anchors, iterations: 2).verified)
        #expect(try !RawBaseline.swiftCryptoSignatures(chain: pki.validChain, anchors: [otherRoot], iterations: 1).verified)
        for library in RawBaseline.Library.allCases {
            #expect(try RawBaseline.parse(library, chain: pki.validChain, iterations: 2).verified)
        }
    }

    @Test(arguments: RawBaseline.Library.allCases)
    func badInputIsASetupError(library: RawBaseline.Library) throws {
        let pki = try VectorPKI.load(.rsa2048)
        #expect(throws: RawBaselineError.self) {
            try RawBaseline.evaluate(library, chain: [], anchors: pki.anchors, host: nil, parseEachTime: true, iterations: 1)
        }
        #expect(throws: RawBaselineError.self) {
            try RawBaseline.evaluate(library, chain: [[0x30, 0x03, 0x02, 0x01, 0x00]], anchors: pki.anchors, host: nil, parseEachTime: false, iterations: 1)
        }
        #expect(throws: RawBaselineError.self) {
            try RawBaseline.parse(library, chain: [Array(pki.leaf.dropLast())], iterations: 1)
        }
    }
}
