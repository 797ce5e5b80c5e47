import Foundation
import Testing
import TrustCore

@Suite struct VerdictTests {
    @Test func rejectionFailuresAreDistinctAndOrdered() {
        let verdict = Verdict.rejected([
            NativeDiagnostic(code: 1, name: "B", message: "b", failure: .hostnameMismatch),
            NativeDiagnostic(code: 2, name: "A", message: "a", failure: .expired),
            NativeDiagnostic(code: 3, name: "C", message: "c", failure: .expired),
        ])
        #expect(!verdict.isTrusted)
        #expect(verdict.failures == [.expired, .hostnameMismatch])
        #expect(verdict.path == nil)
    }

    @Test func trustedCarriesPathAndNoFailures() {
        let verdict = Verdict.trusted(path: [[1], [2]])
        #expect(verdict.isTrusted)
        #expect(verdict.failures.isEmpty)
        #expect(verdict.path == [[1], [2]])
    }

    @Test func failClosedIsARejectionWithItsMessage() {
        let verdict = Verdict.failClosed(.malformed, name: "EMPTY_CHAIN", message: "the presented chain is empty")
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.message == "the presented chain is empty")
    }

    @Test func taxonomyNamesAreStable() {
        #expect(FailureClass.allCases.map(\.rawValue) == [
            "expired", "notYetValid", "untrusted", "hostnameMismatch", "pathLengthExceeded", "notCA",
            "badSignature", "purposeMismatch", "malformed", "other",
        ])
    }

    @Test func unixTimeRoundsDown() {
        let request = EvaluationRequest(chain: [], host: nil, time: Date(timeIntervalSince1970: 1_748_736_000.9))
        #expect(request.unixTime == 1_748_736_000)
        let before = EvaluationRequest(chain: [], host: nil, time: Date(timeIntervalSince1970: -0.5))
        #expect(before.unixTime == -1)
    }
}
