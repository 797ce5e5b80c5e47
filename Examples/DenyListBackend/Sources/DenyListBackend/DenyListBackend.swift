import TrustCore

/// A back end of one's own: any back end, with a deny list of public keys on top, the way a client
/// ships a blocklist of compromised or distrusted keys (Chrome's CRLSet, Mozilla's OneCRL) beside
/// the library that verifies chains.
///
/// A chain the wrapped back end trusts is rejected (`revoked`, `DENIED_KEY`) when any certificate of
/// the verified path has a public key on the list, named by its `sha256/` pin. Everything else is the
/// wrapped back end's verdict. The list is parsed once, when the back end is made.
public struct DenyListBackend: TrustBackend {
    let base: any TrustBackend
    let denied: Set<SPKIPin>
    public let name: String

    /// `base` with the keys of `denied` refused, under `name`.
    public init(name: String, wrapping base: any TrustBackend, denied: Set<SPKIPin>) {
        self.name = name
        self.base = base
        self.denied = denied
    }

    public var libraryVersion: String { "\(base.libraryVersion) + deny list of \(denied.count) keys" }
    public var features: Set<BackendFeature> { base.features }

    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        Evaluator(base: try base.makeEvaluator(anchors: anchors), denied: denied)
    }

    struct Evaluator: TrustEvaluator {
        let base: any TrustEvaluator
        let denied: Set<SPKIPin>

        func evaluate(_ request: EvaluationRequest) -> Verdict {
            let verdict = base.evaluate(request)
            guard case .trusted(let path) = verdict, !denied.isEmpty else { return verdict }
            for (depth, certificate) in path.enumerated() {
                // A key that cannot be found cannot be cleared: fail closed.
                guard let pin = SPKIPin.of(certificate: certificate) else {
                    return .failClosed(.malformed, name: "KEY_UNREADABLE", message: "certificate \(depth) of the verified path has no public key the deny list can check", depth: depth)
                }
                if denied.contains(pin) {
                    return .failClosed(.revoked, name: "DENIED_KEY", message: "certificate \(depth) of the verified path has a denied public key (\(pin))", depth: depth)
                }
            }
            return verdict
        }
    }
}
