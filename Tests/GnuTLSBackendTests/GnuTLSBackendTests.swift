import Foundation
@testable import GnuTLSBackend
import TestPKI
import Testing
import TrustCore

@Suite("GnuTLS back end")
struct GnuTLSBackendTests {
    @Test func versionIsTheLoadedLibrary() throws {
        let version = GnuTLSBackend().libraryVersion
        // The Debian package follows when the library is the system's (issue 23: builds differ).
        let match = try #require(version.wholeMatch(of: /GnuTLS (\d+)\.(\d+)\.(\d+)( \(Debian libgnutls30 [^)]+\))?/))
        // The package builds against GnuTLS 3.x (libgnutls30).
        #expect(match.output.1 == "3")
    }

    /// GnuTLS's own answer to an anchor it cannot import (its evaluator without the kit's preflight,
    /// which refuses it first as not DER): the index, GnuTLS's error code and name.
    @Test func anchorThatDoesNotParseIsNamedByIndex() throws {
        let good = TestPKI.root.der
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
