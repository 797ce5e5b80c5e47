import Foundation
@testable import GnuTLSBackend
import Testing
import TrustCore

@Suite("GnuTLS back end")
struct GnuTLSBackendTests {
    @Test func nameIsStable() {
        #expect(GnuTLSBackend().name == "gnutls")
    }

    @Test func versionIsTheLoadedLibrary() throws {
        let version = GnuTLSBackend().libraryVersion
        // The Debian package follows when the library is the system's (issue 23: builds differ).
        let match = try #require(version.wholeMatch(of: /GnuTLS (\d+)\.(\d+)\.(\d+)( \(Debian libgnutls30 [^)]+\))?/))
        // The package builds against GnuTLS 3.x (libgnutls30).
        #expect(match.output.1 == "3")
    }

    @Test func anchorThatDoesNotParseIsNamedByIndex() throws {
        let good = TestPKI.rootCertificate.derBytes
        let error = try #require(throws: TrustBackendError.self) {
            try GnuTLSEvaluator(anchors: [good, Array(good.prefix(40))], settings: GnuTLSBackend().settings, configuration: .default)
        }
        #expect(error.backend == "gnutls")
        #expect(error.message.contains("anchor 1"))
        let diagnostic = try #require(error.native.first)
        #expect(diagnostic.code < 0)
        #expect(diagnostic.name.hasPrefix("GNUTLS_E_"))
        #expect(diagnostic.failure == .malformed)
    }

    @Test func emptyAnchorIsRejected() throws {
        #expect(throws: TrustBackendError.self) {
            try GnuTLSBackend().makeEvaluator(anchors: [[]])
        }
    }

    @Test func garbageAnchorIsRejected() throws {
        let error = try #require(throws: TrustBackendError.self) {
            try GnuTLSBackend().makeEvaluator(anchors: [Array("not a certificate".utf8)])
        }
        #expect(error.message.contains("anchor 0"))
    }
}
