/// What the harness refuses to put to any library, written once for all back ends and applied by
/// ``GuardedBackend`` (so by every ``BackendRegistry``): requests that cannot be asked at all, never
/// a judgement of the certificates. A back end's own code starts where its library does, and what
/// the library makes of any certificate, however malformed, is its verdict.
///
/// In this order, the first that applies answers, with a diagnostic whose origin is
/// ``DiagnosticOrigin/harness``:
/// 1. Requests no library can be asked (``EvaluationRequest/inputRejection``): no
///    certificate, a time X.509 cannot express, a negative depth, an address of the wrong length, a
///    DNS name with a NUL byte.
/// 2. Checks the back end cannot honour (``EvaluationRequest/rejection(unlessHonouredBy:backend:)``
///    with its ``TrustBackend/features``): a constraint is never silently dropped.
///
/// TrustHarness's stricter checks (strict DER, the certificate schema, host syntax, input limits)
/// are not here: they are the `checks` layer (``HarnessChecks``, ``CheckedBackend``), a column of
/// its own (`openssl+checks`), so that a refusal of ours is never shown as the library's.
///
/// A back end applies it in one line, so that it is safe even when used without a registry:
///
/// ```swift
/// public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
///     try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try MyEvaluator(anchors: anchors) }
/// }
/// ```
///
/// Its evaluator then sees only requests that passed, and ``GuardedBackend`` (which every
/// ``BackendRegistry`` puts around every back end) does not check them twice.
public enum BackendPreflight {
    /// The evaluator `make` returns, behind the guard (``GuardedEvaluator``): every request first
    /// passes ``refusal(of:features:backend:)`` with `backend`'s name and features, and a "trusted"
    /// verdict must name a path from the presented leaf to one of `anchors`. An evaluator already
    /// behind the guard is returned as it is.
    /// - Throws: whatever `make` throws.
    public static func guardedEvaluator(of backend: some TrustBackend, anchors: [[UInt8]], make: () throws -> any TrustEvaluator) throws -> any TrustEvaluator {
        let evaluator = try make()
        if evaluator is GuardedEvaluator { return evaluator }
        return GuardedEvaluator(base: evaluator, backend: backend.name, features: backend.features, reportsVerifiedPath: backend.reportsVerifiedPath, anchors: anchors)
    }

    /// The diagnostic name of a presented certificate that is not DER: the checks layer's now.
    @available(*, deprecated, renamed: "HarnessChecks.notDERName", message: "strict DER is the checks layer's (HarnessChecks), not the guard's")
    public static let notDERName = HarnessChecks.notDERName

    /// Why the checks layer would not make an evaluator of `anchors`: the guard no longer checks
    /// anchors' encoding.
    @available(*, deprecated, renamed: "HarnessChecks.anchorProblem(_:backend:)", message: "strict DER is the checks layer's (HarnessChecks), not the guard's")
    public static func anchorProblem(_ anchors: [[UInt8]], backend: String) -> TrustBackendError? {
        HarnessChecks.anchorProblem(anchors, backend: backend)
    }

    /// The rejection of `request` before `backend`'s library sees it, or nil when the library may
    /// be asked: a request no library can be asked, or one that needs a feature `features` lacks.
    public static func refusal(of request: EvaluationRequest, features: Set<BackendFeature>, backend: String) -> Verdict? {
        request.inputRejection ?? request.rejection(unlessHonouredBy: features, backend: backend)
    }
}
