/// What every back end refuses before its library sees a request, written once for all of them and
/// applied by ``GuardedBackend`` (so by every ``BackendRegistry``): a back end's own code starts
/// where its library does.
///
/// In this order, the first that applies answers:
/// 1. Input no back end may evaluate (``EvaluationRequest/inputRejection``): an empty or oversized
///    chain, a time X.509 cannot express, a host a library would read more loosely than it checks.
/// 2. Checks the back end cannot honour (``EvaluationRequest/rejection(unlessHonouredBy:backend:)``
///    with its ``TrustBackend/features``): a constraint is never silently dropped.
/// 3. Certificates that are not strict DER (``DERCertificate/encodingProblem(_:)``): a library that
///    also reads BER would accept byte-different copies of a certificate, defeating pins and deny
///    lists keyed by bytes; the diagnostic is `NOT_DER`, class `malformed`, naming the field and offset.
///
/// Anchors are checked once, when an evaluator is made (``anchorProblem(_:backend:)``).
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
    /// verdict must name a path from the presented leaf to one of `anchors`. `make` is called only
    /// when every anchor is DER. An evaluator already behind the guard is returned as it is.
    /// - Throws: ``TrustBackendError`` for an anchor that is not DER, or whatever `make` throws.
    public static func guardedEvaluator(of backend: some TrustBackend, anchors: [[UInt8]], make: () throws -> any TrustEvaluator) throws -> any TrustEvaluator {
        if let problem = anchorProblem(anchors, backend: backend.name) { throw problem }
        let evaluator = try make()
        if evaluator is GuardedEvaluator { return evaluator }
        return GuardedEvaluator(base: evaluator, backend: backend.name, features: backend.features, anchors: anchors)
    }

    /// The diagnostic name of a presented certificate that is not DER.
    public static let notDERName = "NOT_DER"

    /// The rejection of `request` before `backend`'s library sees it, or nil when the library may
    /// evaluate it. Costs about 0.5 µs per presented certificate (the DER reading).
    public static func refusal(of request: EvaluationRequest, features: Set<BackendFeature>, backend: String) -> Verdict? {
        if let rejection = request.inputRejection ?? request.rejection(unlessHonouredBy: features, backend: backend) {
            return rejection
        }
        for (index, der) in request.chain.enumerated() {
            if let problem = DERCertificate.encodingProblem(der) {
                return .failClosed(
                    .malformed, name: notDERName,
                    message: "presented certificate \(index) is not DER (\(problem)); refused before \(backend) reads it",
                    depth: index
                )
            }
        }
        return nil
    }

    /// Why `backend` must not make an evaluator of `anchors`, or nil: an anchor that is not strict DER
    /// (an anchor is what everything else is trusted through, so it is held to the same encoding).
    public static func anchorProblem(_ anchors: [[UInt8]], backend: String) -> TrustBackendError? {
        for (index, anchor) in anchors.enumerated() {
            if let problem = DERCertificate.encodingProblem(anchor) {
                return TrustBackendError(backend: backend, message: "anchor \(index) is not DER (\(problem)); refused before the library reads it")
            }
        }
        return nil
    }
}
