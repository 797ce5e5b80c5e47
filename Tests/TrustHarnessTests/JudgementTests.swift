import Testing
import TrustCore
@testable import TrustHarness
import TrustVectors

/// The comparison rules, on hand-made verdicts: these test the judge, not a back end.
@Suite struct JudgementTests {
    let expired = NativeDiagnostic(code: 10, name: "EXPIRED", message: "expired", failure: .expired)
    let host = NativeDiagnostic(code: 62, name: "HOST", message: "host", failure: .hostnameMismatch)

    @Test func trustedWithExpectedPathPasses() {
        let judgement = Judgement.judge(.trusted(path: [[1], [2]]), expected: .trusted(path: ["a", "b"]), expectedPath: [[1], [2]], deviation: nil)
        #expect(judgement.outcome == .pass)
    }

    @Test func trustedThroughAnotherPathFails() {
        let judgement = Judgement.judge(.trusted(path: [[1], [3]]), expected: .trusted(path: ["a", "b"]), expectedPath: [[1], [2]], deviation: nil)
        #expect(judgement.outcome == .fail)
        #expect(judgement.failureKind == .wrongPath)
    }

    @Test func acceptingWhatShouldBeRejectedFails() {
        let judgement = Judgement.judge(.trusted(path: [[1]]), expected: .rejected(.expired), expectedPath: nil, deviation: nil)
        #expect(judgement.failureKind == .acceptedShouldReject)
    }

    @Test func rejectingWhatShouldBeTrustedFails() {
        let judgement = Judgement.judge(.rejected([expired]), expected: .trusted(path: ["a"]), expectedPath: [[1]], deviation: nil)
        #expect(judgement.failureKind == .rejectedShouldTrust)
    }

    @Test func rejectionMustUseOnlyAllowedClasses() {
        #expect(Judgement.judge(.rejected([expired]), expected: .rejected(.expired), expectedPath: nil, deviation: nil).outcome == .pass)
        let extra = Judgement.judge(.rejected([expired, host]), expected: .rejected(.expired), expectedPath: nil, deviation: nil)
        #expect(extra.failureKind == .wrongReason)
        let other = Judgement.judge(.rejected([host]), expected: .rejected(.expired), expectedPath: nil, deviation: nil)
        #expect(other.failureKind == .wrongReason)
        #expect(Judgement.judge(.rejected([]), expected: .rejected(.expired), expectedPath: nil, deviation: nil).outcome == .fail)
    }

    @Test func matchingDeviationIsAcceptedExactly() {
        let deviation = Deviation(backend: "x", vector: "v", observed: ObservedOutcome(trusted: false, failures: [.hostnameMismatch]), reason: "because")
        let judgement = Judgement.judge(.rejected([host]), expected: .rejected(.expired), expectedPath: nil, deviation: deviation)
        #expect(judgement.outcome == .deviation)
    }

    @Test func changedDeviationFailsEitherWay() {
        let deviation = Deviation(backend: "x", vector: "v", observed: ObservedOutcome(trusted: true, failures: []), reason: "accepts it")
        let nowConforms = Judgement.judge(.rejected([expired]), expected: .rejected(.expired), expectedPath: nil, deviation: deviation)
        #expect(nowConforms.outcome == .fail)
        #expect(nowConforms.failureKind == .deviationChanged)
        let nowOther = Judgement.judge(.rejected([host]), expected: .rejected(.expired), expectedPath: nil, deviation: deviation)
        #expect(nowOther.failureKind == .deviationChanged)
    }
}

/// Verdicts that are not the library's answer are never judged as one.
@Suite struct OriginJudgementTests {
    @Test func aLimitIsItsOwnOutcomeAndTheHarnesssRefusalIsSkipped() {
        let limited = Verdict.failClosed(.other, name: "NAME_CONSTRAINTS_LIMIT", message: "too many", origin: .limit)
        let expected = Expectation(trusted: true, failures: [])
        #expect(Judgement.judge(limited, expected: expected, expectedPath: nil, deviation: nil).outcome == .limit)
        let refused = Verdict.failClosed(.other, name: "UNSUPPORTED_CONSTRAINT", message: "no", origin: .harness)
        #expect(Judgement.judge(refused, expected: expected, expectedPath: nil, deviation: nil).outcome == .skipped)
        // The layer's rejection is judged as any answer of its column (NAME+checks).
        let layered = Verdict.failClosed(.malformed, name: "NOT_DER", message: "BER", origin: .layer, layer: "checks")
        #expect(Judgement.judge(layered, expected: expected, expectedPath: nil, deviation: nil).outcome == .fail)
        #expect(layered.layer == "checks")
    }
}
