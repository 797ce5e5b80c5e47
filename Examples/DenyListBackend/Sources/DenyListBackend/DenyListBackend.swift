import TrustBackendKit
import TrustPolicy

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
    let configuration: BackendConfiguration
    public let name: String

    /// `base` with the keys of `denied` refused, under `name`; each evaluator keeps the pins of up to
    /// `configuration.certificateCacheCapacity` certificates it has checked.
    public init(name: String, wrapping base: any TrustBackend, denied: Set<SPKIPin>, configuration: BackendConfiguration = .default) {
        self.name = name
        self.base = base
        self.denied = denied
        self.configuration = configuration
    }

    public var libraryVersion: String { "\(base.libraryVersion) + deny list of \(denied.count) keys" }
    public var features: Set<BackendFeature> { base.features }

    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        Evaluator(base: try base.makeEvaluator(anchors: anchors), denied: denied, pins: BoundedCache(configuration))
    }

    struct Evaluator: TrustEvaluator {
        let base: any TrustEvaluator
        let denied: Set<SPKIPin>
        /// The pin of each certificate checked before, by its exact bytes (the kit's cache, as the
        /// built-in back ends keep their parsed certificates).
        let pins: BoundedCache<DERBytes, SPKIPin>

        struct Unreadable: Error {
            var reason: String
        }

        func evaluate(_ request: EvaluationRequest) -> Verdict {
            let verdict = base.evaluate(request)
            guard case .trusted(let path) = verdict, !denied.isEmpty else { return verdict }
            for (depth, certificate) in path.enumerated() {
                let pin: SPKIPin
                do throws(Unreadable) {
                    pin = try pins.certificate(for: certificate) { der throws(Unreadable) in
                        // The list is keyed by bytes: a BER copy of a certificate must not slip past
                        // it, whatever the wrapped back end accepts.
                        if let problem = DERCertificate.encodingProblem(der) { throw Unreadable(reason: "is not DER: \(problem)") }
                        guard let pin = SPKIPin.of(certificate: der) else { throw Unreadable(reason: "has no public key the deny list can check") }
                        return pin
                    }
                } catch {
                    // A key that cannot be read cannot be cleared: fail closed.
                    return .failClosed(.malformed, name: "KEY_UNREADABLE", message: "certificate \(depth) of the verified path \(error.reason)", depth: depth, origin: .layer, layer: "deny-list")
                }
                if denied.contains(pin) {
                    return .failClosed(.revoked, name: "DENIED_KEY", message: "certificate \(depth) of the verified path has a denied public key (\(pin))", depth: depth, origin: .layer, layer: "deny-list")
                }
            }
            return verdict
        }
    }
}
