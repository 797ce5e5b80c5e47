#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A back end with the kit's guard around every evaluator it makes, so that no back end, built in
/// or plugged in from another package, can skip it.
///
/// Before a request reaches the wrapped evaluator, the guard applies ``BackendPreflight``: it refuses
/// what no back end may evaluate, what this back end cannot honour, and certificates that are not
/// strict DER (anchors once, when the evaluator is made). After it, a "trusted" verdict must name a path that starts at the presented leaf and ends at one
/// of the evaluator's anchors; any other is turned into a rejection (`UNEXPECTED_SUCCESS`, fail
/// closed), since a verdict that cannot be explained is not one to act on.
///
/// ``BackendRegistry`` hands out only guarded back ends; wrapping twice wraps once.
public struct GuardedBackend: BackendWrapper {
    /// The back end inside the guard.
    public let base: any TrustBackend

    /// `base` behind the guard (`base` itself when it already is a ``GuardedBackend``).
    public init(_ base: any TrustBackend) {
        if let guarded = base as? GuardedBackend {
            self = guarded
        } else {
            self.base = base
        }
    }

    /// The wrapped back end's name: the guard is never named in reports.
    public var name: String { base.name }
    /// The wrapped back end's library version.
    public var libraryVersion: String { base.libraryVersion }
    /// The wrapped back end's features: the guard refuses requests that need any other.
    public var features: Set<BackendFeature> { base.features }
    /// Whether the wrapped back end names its verified path.
    public var reportsVerifiedPath: Bool { base.reportsVerifiedPath }

    /// The wrapped back end's evaluator for `anchors`, behind the guard.
    /// - Throws: ``TrustBackendError`` for an anchor that is not DER, or whatever the wrapped back end
    ///   throws.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: base, anchors: anchors) { try base.makeEvaluator(anchors: anchors) }
    }
}

/// An evaluator behind the guard of ``GuardedBackend``.
public struct GuardedEvaluator: TrustEvaluator {
    /// Whether `a` and `b` hold the same bytes, compared with memcmp: `==` on two `[UInt8]` that do
    /// not share storage compares element by element (about 5,000 instructions for a 1 KB root, on
    /// every trusted verdict; `bench --instructions`, issue 47).
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    let base: any TrustEvaluator
    let backend: String
    let features: Set<BackendFeature>
    /// Whether a trusted verdict must name its path (``TrustCore/TrustBackend/reportsVerifiedPath``):
    /// when not, an empty path is accepted, and only an empty one.
    let reportsVerifiedPath: Bool
    /// The anchors' DER grouped by length: a trusted path's last certificate is compared only with
    /// anchors of its length, so the check costs a comparison or two, not a hash of the DER.
    let anchorsByLength: [Int: [[UInt8]]]

    init(base: any TrustEvaluator, backend: String, features: Set<BackendFeature>, reportsVerifiedPath: Bool = true, anchors: [[UInt8]]) {
        self.base = base
        self.backend = backend
        self.features = features
        self.reportsVerifiedPath = reportsVerifiedPath
        self.anchorsByLength = Dictionary(grouping: anchors, by: \.count)
    }

    /// The preflight's refusal (``BackendPreflight/refusal(of:features:backend:)``), or else the
    /// wrapped evaluator's verdict, turned into a rejection when it cannot be explained: a trusted
    /// path that does not start at the presented leaf or does not end at one of the anchors
    /// (`UNEXPECTED_SUCCESS`), or a rejection without a diagnostic (`UNEXPLAINED_REJECTION`).
    public func evaluate(_ request: EvaluationRequest) -> Verdict {
        if let rejection = BackendPreflight.refusal(of: request, features: features, backend: backend) {
            return rejection
        }
        let verdict = base.evaluate(request)
        guard case .trusted(let path) = verdict else {
            if verdict.diagnostics.isEmpty {
                return .failClosed(.other, name: "UNEXPLAINED_REJECTION", message: "\(backend) rejected the chain without saying why; every rejection must carry a diagnostic", origin: .library, inferred: true)
            }
            return verdict
        }
        if path.isEmpty && !reportsVerifiedPath {
            return verdict
        }
        guard let first = path.first, let last = path.last, Self.sameBytes(first, request.chain[0]) else {
            return .failClosed(
                .other, name: "UNEXPECTED_SUCCESS",
                message: "\(backend) reported the chain trusted through a path that does not start at the presented leaf; rejected to fail closed", origin: .harness
            )
        }
        guard anchorsByLength[last.count]?.contains(where: { Self.sameBytes($0, last) }) == true else {
            return .failClosed(
                .other, name: "UNEXPECTED_SUCCESS",
                message: "\(backend) reported the chain trusted through a path that does not end at one of its anchors; rejected to fail closed", origin: .harness
            )
        }
        return verdict
    }
}
