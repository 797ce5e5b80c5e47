import TrustCore
import TrustVectors
import TrustPolicy

/// The comparison of one observation with an expectation and, where one is recorded, a deviation.
public struct Judgement: Sendable, Hashable {
    public var outcome: Outcome
    public var failureKind: FailureKind?
    /// One line for a person: why this outcome.
    public var detail: String
    /// A recorded deviation whose reason is still a draft (``TrustVectors/Deviation/draft``): it
    /// matches, but its cause is not named, and every summary counts it as unexplained.
    public var unexplained = false

    public init(outcome: Outcome, failureKind: FailureKind?, detail: String, unexplained: Bool = false) {
        self.outcome = outcome
        self.failureKind = failureKind
        self.detail = detail
        self.unexplained = unexplained
    }

    /// Judges a chain verdict against `expected`; `expectedPath` is the DER path a trusted verdict
    /// must carry.
    ///
    /// A rejection conforms when it names at least one failure class and every class it names is
    /// one the expectation allows. A recorded deviation turns a non-conforming verdict into
    /// ``Outcome/deviation`` only when the observation is exactly the recorded one; any other
    /// observation, including a now-conforming one, fails so that the record is updated deliberately.
    public static func judge(_ verdict: Verdict, expected: Expectation, expectedPath: [[UInt8]]?, deviation: Deviation?) -> Judgement {
        if let unjudged = notTheLibrarys(verdict) { return unjudged }
        return applying(deviation, to: conformance(verdict, expected: expected, expectedPath: expectedPath), observed: ObservedOutcome(verdict))
    }

    /// Judges a chain verdict against a profile's answer: as above, or, where the profile leaves the
    /// answer open, ``Outcome/open`` (neither pass nor fail). A verdict recorded for the back end on
    /// an open vector must still be the one observed, or the result fails (the record is updated
    /// deliberately, as for any deviation).
    public static func judge(_ verdict: Verdict, answer: ProfileAnswer, expectedPath: [[UInt8]]?, deviation: Deviation?) -> Judgement {
        guard let open = answer.open else {
            return judge(verdict, expected: answer.expected, expectedPath: expectedPath, deviation: deviation)
        }
        if let unjudged = notTheLibrarys(verdict) { return unjudged }
        let observed = ObservedOutcome(verdict)
        if let deviation, deviation.observed != observed {
            return Judgement(outcome: .fail, failureKind: .deviationChanged,
                             detail: "recorded verdict on a vector the standards leave open (\(describe(deviation.observed))) no longer matches: now observes \(describe(observed)); update the deviations file that records it")
        }
        return Judgement(outcome: .open, failureKind: nil, detail: "\(describe(observed)); the standards leave this open: \(open)")
    }

    /// Judges a policy decision: it conforms when the step the semantics call for decided.
    public static func judge(_ decision: PolicyDecision, expected: PolicyExpectation, deviation: Deviation?) -> Judgement {
        let conformance: Judgement
        if decision.step == expected.step {
            conformance = Judgement(outcome: .pass, failureKind: nil, detail: "decided at \(expected.step.rawValue) as expected")
        } else {
            let kind: FailureKind = decision.trusted == expected.trusted ? .wrongReason
                : (decision.trusted ? .acceptedShouldReject : .rejectedShouldTrust)
            conformance = Judgement(outcome: .fail, failureKind: kind, detail: "decided at \(decision.step.rawValue) but the policy semantics give \(expected.step.rawValue)")
        }
        return applying(deviation, to: conformance, observed: ObservedOutcome(trusted: decision.trusted, failures: decision.failures, step: decision.step))
    }

    /// The judgement of a verdict that is not an answer to judge: a limit stopped the library
    /// (``Outcome/limit``), or the harness could not ask it (``Outcome/skipped``); nil for an answer
    /// of the library or of a named layer, judged as any other.
    static func notTheLibrarys(_ verdict: Verdict) -> Judgement? {
        let first = verdict.diagnostics.first.map { "\($0.name): \($0.message)" } ?? ""
        switch verdict.origin {
        case .limit:
            return Judgement(outcome: .limit, failureKind: nil, detail: "stopped by a limit before the library answered (\(verdict.diagnostics.first { $0.origin == .limit }.map { "\($0.name): \($0.message)" } ?? first)); neither a pass nor its verdict")
        case .harness:
            return Judgement(outcome: .skipped, failureKind: nil, detail: "not put to the library: \(first)")
        case .library, .layer:
            return nil
        }
    }

    static func applying(_ deviation: Deviation?, to conformance: Judgement, observed: ObservedOutcome) -> Judgement {
        guard let deviation else { return conformance }
        if observed == deviation.observed && conformance.outcome != .pass {
            // The direction stays: a recorded acceptance of what should be rejected is still one.
            let draft = deviation.draft ? ", unexplained: its reason is a draft that names no cause" : ""
            return Judgement(outcome: .deviation, failureKind: conformance.failureKind,
                             detail: "recorded deviation\(conformance.failureKind.map { " (\($0.rawValue))" } ?? "")\(draft): \(deviation.reason)",
                             unexplained: deviation.draft)
        }
        let now = conformance.outcome == .pass ? "now conforms" : "now observes \(describe(observed)) (\(conformance.detail))"
        return Judgement(
            outcome: .fail,
            failureKind: .deviationChanged,
            detail: "recorded deviation (\(describe(deviation.observed))) no longer matches: \(now); update the deviations file that records it (Vectors/deviations.json or a --deviations file)"
        )
    }

    static func conformance(_ verdict: Verdict, expected: Expectation, expectedPath: [[UInt8]]?) -> Judgement {
        switch (expected.trusted, verdict) {
        case (true, .trusted(let path)):
            // An empty path: the back end cannot see which path was verified (TrustBackend.reportsVerifiedPath).
            if let expectedPath, !path.isEmpty, path != expectedPath {
                return Judgement(outcome: .fail, failureKind: .wrongPath, detail: "trusted through a path of \(path.count) certificates, expected the path of \(expectedPath.count) given in the manifest")
            }
            return Judgement(outcome: .pass, failureKind: nil, detail: "trusted as expected")
        case (true, .rejected):
            return Judgement(outcome: .fail, failureKind: .rejectedShouldTrust, detail: "rejected \(verdict.failures.map(\.rawValue)) although the standards say trusted")
        case (false, .trusted):
            return Judgement(outcome: .fail, failureKind: .acceptedShouldReject, detail: "trusted although the standards say rejected \(expected.failures.map(\.rawValue))")
        case (false, .rejected):
            let observed = verdict.failures
            if expected.admits(trusted: false, failures: observed) {
                return Judgement(outcome: .pass, failureKind: nil, detail: "rejected as expected")
            }
            return Judgement(outcome: .fail, failureKind: .wrongReason, detail: "rejected \(observed.map(\.rawValue)) but the standards give \(expected.failures.map(\.rawValue))")
        }
    }

    static func describe(_ outcome: ObservedOutcome) -> String {
        let step = outcome.step.map { " at \($0.rawValue)" } ?? ""
        return (outcome.trusted ? "trusted" : "rejected \(outcome.failures.map(\.rawValue))") + step
    }
}
