/// A verification library behind one interface: the plugin point of TrustHarness.
///
/// A back end makes evaluators. Adding one, in this package or in another, means a type conforming
/// to this protocol and an entry in the `BackendRegistry` an executable passes to the harness (the
/// entry makes the back end for a ``BackendConfiguration``); nothing in the harness changes.
public protocol TrustBackend: Sendable {
    /// The short, stable name used in reports and deviations (`openssl`, `gnutls`).
    var name: String { get }
    /// The version of the library actually loaded at run time.
    var libraryVersion: String { get }
    /// The optional checks this back end's evaluators honour faithfully; they reject a request that
    /// needs any other (see ``EvaluationRequest/rejection(unlessHonouredBy:backend:)``).
    var features: Set<BackendFeature> { get }
    /// Whether a trusted verdict names the path the library verified (true for every library with a
    /// verification API). False for a back end judged by what a client's request gives (an HTTP
    /// client: the request succeeds or fails, and the stack never says through which path): its
    /// trusted verdicts carry an empty path, which the guard accepts and the harness does not judge.
    var reportsVerifiedPath: Bool { get }
    /// Parses `anchors` (DER certificates) once and returns an evaluator that trusts exactly them.
    ///
    /// An anchor does not have to be self-signed: a pinned intermediate or leaf is an anchor too, and
    /// a path ends at the first certificate that is one.
    /// - Throws: ``TrustBackendError`` when an anchor cannot be parsed or the library fails; an
    ///   evaluator is never made from anchors it could not read.
    func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator
}

extension TrustBackend {
    /// None, unless a back end says otherwise: a back end that does not know a feature never claims it.
    public var features: Set<BackendFeature> { [] }
    /// True, unless a back end says otherwise: every library with a verification API names its path.
    public var reportsVerifiedPath: Bool { true }
}

/// A back end that wraps another (the back-end kit's guard, a decorator such as a deny list): optional
/// capabilities a back end adopts (a TLS client, `TrustProbe.TLSClientProviding`) are looked up
/// through it.
public protocol BackendWrapper: TrustBackend {
    /// The back end this one wraps.
    var base: any TrustBackend { get }
}

/// Evaluates requests against a fixed set of anchors. Safe to call from many tasks at once.
public protocol TrustEvaluator: Sendable {
    /// Never throws and never traps on bad input: any error or surprise is a rejection with a
    /// specific diagnostic.
    func evaluate(_ request: EvaluationRequest) -> Verdict
}

/// Why a back end could not make an evaluator.
public struct TrustBackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The back end's name.
    public var backend: String
    /// What could not be done, and why: which anchor, what was wrong with it.
    public var message: String
    /// The library's own diagnostics, where it gave some.
    public var native: [NativeDiagnostic]
    /// Who refused: the library (the default), a layer of ours (``layer`` names it), or a limit
    /// that stops the library before it reads the anchors.
    public var origin: DiagnosticOrigin
    /// The layer that refused the anchors (`checks`), when it was not the library.
    public var layer: String?

    /// An error of `backend` saying `message`, with the library's own diagnostics where it gave some,
    /// raised by `layer` when a layer of ours, not the library, refused, or by `origin` when a limit
    /// or the harness did.
    public init(backend: String, message: String, native: [NativeDiagnostic] = [], layer: String? = nil, origin: DiagnosticOrigin? = nil) {
        self.backend = backend
        self.message = message
        self.native = native
        self.layer = layer
        self.origin = origin ?? (layer == nil ? .library : .layer)
    }

    /// `backend: message`, followed by the library's diagnostics in brackets when there are any.
    public var description: String {
        native.isEmpty ? "\(backend): \(message)" : "\(backend): \(message) [\(native.map(\.description).joined(separator: "; "))]"
    }
}

extension TrustBackend {
    /// An evaluator over `anchors` that never fails to exist: this back end's own, or, when it refuses
    /// the anchors, one that rejects every request with ``Verdict/anchorsRefused(_:)``. Every
    /// subcommand asks through it (`evaluate`, `run`, `explore`, `limbo`, `pkits`, `probe`, `stress`,
    /// the test kit), so a refused anchor gets one verdict and one failure class wherever the same
    /// request is asked.
    public func evaluatorFailingClosed(anchors: [[UInt8]]) -> any TrustEvaluator {
        do {
            return try makeEvaluator(anchors: anchors)
        } catch {
            return RefusedAnchors(verdict: .anchorsRefused(error))
        }
    }
}

/// The evaluator of anchors a back end refused: every request gets the same rejection.
struct RefusedAnchors: TrustEvaluator {
    let verdict: Verdict
    func evaluate(_ request: EvaluationRequest) -> Verdict { verdict }
}

extension Verdict {
    /// The verdict on any request when the back end refused the anchors (``TrustBackend/makeEvaluator(anchors:)``
    /// threw): not trusted, class ``FailureClass/malformed`` (the back end could not use the trusted
    /// certificates it was given), named `ANCHORS_REFUSED`, with the back end's error as the message.
    /// - Parameter error: the back end's error, or a description of it.
    public static func anchorsRefused(_ error: Any) -> Verdict {
        let refusal = error as? TrustBackendError
        return .failClosed(.malformed, name: anchorsRefusedName, message: "the anchors were refused, so nothing is trusted: \(error)", origin: refusal?.origin ?? .library, layer: refusal?.layer)
    }

    /// The diagnostic name of ``anchorsRefused(_:)``.
    public static let anchorsRefusedName = "ANCHORS_REFUSED"
}
