@testable import GnuTLSBackend
import Testing
import TrustCore

@Suite("GnuTLS status mapping")
struct GnuTLSStatusTests {
    @Test func invalidAloneIsOther() {
        let diagnostics = GnuTLSStatus(rawValue: 1 << 1).diagnostics { false }
        #expect(diagnostics.map(\.name) == ["GNUTLS_CERT_INVALID"])
        #expect(diagnostics.map(\.failure) == [.other])
        #expect(diagnostics.first?.message == "The certificate is NOT trusted.")
    }

    @Test func invalidIsFoldedIntoSpecificBits() {
        let diagnostics = GnuTLSStatus(rawValue: 1 << 1 | 1 << 10 | 1 << 14).diagnostics { false }
        #expect(diagnostics.map(\.name) == ["GNUTLS_CERT_EXPIRED", "GNUTLS_CERT_UNEXPECTED_OWNER"])
        #expect(diagnostics.map(\.failure) == [.expired, .hostnameMismatch])
        #expect(diagnostics.map(\.code) == [1 << 10, 1 << 14])
        #expect(diagnostics.allSatisfy { $0.message.hasPrefix("The certificate is NOT trusted. ") })
    }

    @Test func eachSpecificBitHasItsClass() {
        let expected: [(UInt32, FailureClass)] = [
            (1 << 5, .revoked),  // REVOKED
            (1 << 6, .untrusted),
            (1 << 7, .notCA),
            (1 << 8, .other),  // INSECURE_ALGORITHM
            (1 << 9, .notYetValid),
            (1 << 10, .expired),
            (1 << 11, .badSignature),
            (1 << 14, .hostnameMismatch),
            (1 << 17, .other),  // MISMATCH
            (1 << 18, .purposeMismatch),
            (1 << 21, .other),  // UNKNOWN_CRIT_EXTENSIONS
        ]
        for (bit, failure) in expected {
            let diagnostics = GnuTLSStatus(rawValue: bit | 1 << 1).diagnostics { false }
            #expect(diagnostics.map(\.failure) == [failure], "bit \(bit)")
            #expect(diagnostics.first?.name.hasPrefix("GNUTLS_CERT_") == true)
        }
    }

    @Test func signerConstraintsFailureIsPathLengthOnlyWhenThePathSaysSo() {
        let bit: UInt32 = 1 << 16
        #expect(GnuTLSStatus(rawValue: bit | 2).diagnostics { true }.map(\.failure) == [.pathLengthExceeded])
        #expect(GnuTLSStatus(rawValue: bit | 2).diagnostics { false }.map(\.failure) == [.other])
    }

    @Test func unknownBitIsOtherWithItsNumber() {
        let diagnostics = GnuTLSStatus(rawValue: 1 << 30 | 2).diagnostics { false }
        #expect(diagnostics.map(\.failure) == [.other])
        #expect(diagnostics.first?.code == 1 << 30)
        #expect(diagnostics.first?.name == "GNUTLS_CERT_(\(1 << 30))")
    }
}
