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
        let verdict = Verdict.failClosed(.malformed, name: "EMPTY_CHAIN", message: "the presented chain is empty", origin: .library)
        #expect(verdict.failures == [.malformed])
        #expect(verdict.diagnostics.first?.message == "the presented chain is empty")
    }

    @Test func taxonomyNamesAreStable() {
        #expect(FailureClass.allCases.map(\.rawValue) == [
            "expired", "notYetValid", "untrusted", "hostnameMismatch", "pathLengthExceeded", "notCA",
            "badSignature", "purposeMismatch", "revoked", "malformed", "other",
        ])
    }

    @Test func unixTimeRoundsDown() {
        let request = EvaluationRequest(chain: [], host: nil, time: Date(timeIntervalSince1970: 1_748_736_000.9))
        #expect(request.unixTime == 1_748_736_000)
        let before = EvaluationRequest(chain: [], host: nil, time: Date(timeIntervalSince1970: -0.5))
        #expect(before.unixTime == -1)
    }
}

/// Input every back end refuses the same way before calling its library.
@Suite struct InputRejectionTests {
    let time = Date(timeIntervalSince1970: 1_748_736_000)

    @Test func emptyChainIsMalformed() {
        let rejection = EvaluationRequest(chain: [], host: nil, time: time).inputRejection
        #expect(rejection?.failures == [.malformed])
        #expect(rejection?.diagnostics.first?.name == "EMPTY_CHAIN")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e19, -1e19, 253_402_300_800, -62_135_596_801])
    func timesX509CannotExpressAreMalformedAndNeverTrap(seconds: Double) {
        let request = EvaluationRequest(chain: [[0x30]], host: nil, time: Date(timeIntervalSince1970: seconds))
        #expect(request.inputRejection?.diagnostics.first?.name == "TIME_OUT_OF_RANGE")
        #expect(EvaluationRequest.validTimeRange.contains(request.unixTime))
    }

    /// A name with a NUL byte cannot be put to a library taking a C string: the harness's refusal.
    @Test(arguments: ["www.example.test\u{0}", "www.example.test\u{0}.evil.test"])
    func hostsNoCAPICanTakeAreRefused(name: String) {
        let request = EvaluationRequest(chain: [[0x30]], host: .dns(name), time: time)
        #expect(request.inputRejection?.diagnostics.first?.name == "HOST_REFUSED")
        #expect(request.inputRejection?.origin == .harness)
    }

    /// Names a library would widen reach it as given (they are the checks layer's to refuse), with a
    /// trailing dot kept.
    @Test(arguments: ["", ".example.test", "*.example.test", "w*w.example.test", "www.example.test."])
    func hostsALibraryWouldWidenAreTheLibrarysToRead(name: String) {
        let request = EvaluationRequest(chain: [[0x30]], host: .dns(name), time: time)
        #expect(request.inputRejection == nil)
        #expect(request.host == .dns(name))
    }

    /// An address of neither 4 (IPv4) nor 16 (IPv6) bytes never reaches a library, which would
    /// take its length on trust.
    @Test(arguments: [[192, 0, 2], [], [UInt8](repeating: 0, count: 15), [UInt8](repeating: 0, count: 17)] as [[UInt8]])
    func addressesOfAnotherLengthAreRefused(bytes: [UInt8]) {
        let request = EvaluationRequest(chain: [[0x30]], host: .ipAddress(bytes), time: time)
        #expect(request.inputRejection?.failures == [.malformed])
        #expect(request.inputRejection?.diagnostics.first?.name == "HOST_REFUSED")
    }

    @Test func ordinaryRequestsPass() {
        #expect(EvaluationRequest(chain: [[0x30]], host: HostIdentity("www.example.test"), time: time).inputRejection == nil)
        #expect(EvaluationRequest(chain: [[0x30]], host: HostIdentity("192.0.2.1"), time: time).inputRejection == nil)
        #expect(EvaluationRequest(chain: [[0x30]], host: nil, time: Date(timeIntervalSince1970: 253_402_300_799)).inputRejection == nil)
    }
}
