/// A back end's answer to an ``EvaluationRequest``.
///
/// Either trusted, with the certification path the library verified (leaf first, ending with the
/// trust anchor, DER), or rejected, with every failure normalised into the ``FailureClass`` taxonomy
/// and the library's own diagnostics. A rejection always carries at least one diagnostic, so there is
/// no silent "no".
public enum Verdict: Sendable, Hashable {
    /// Trusted, through `path`: the certificates the library verified, DER, leaf first, ending with
    /// the trust anchor.
    case trusted(path: [[UInt8]])
    /// Rejected, with every failure the library reported (at least one).
    case rejected([NativeDiagnostic])

    /// Whether the chain is trusted.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// The distinct failure classes of a rejection, in taxonomy order; empty when trusted.
    public var failures: [FailureClass] {
        guard case .rejected(let diagnostics) = self else { return [] }
        return Set(diagnostics.map(\.failure)).sorted()
    }

    /// The diagnostics of a rejection, in the library's order; empty when trusted.
    public var diagnostics: [NativeDiagnostic] {
        guard case .rejected(let diagnostics) = self else { return [] }
        return diagnostics
    }

    /// The verified path when trusted.
    public var path: [[UInt8]]? {
        guard case .trusted(let path) = self else { return nil }
        return path
    }

    /// Who decided: ``DiagnosticOrigin/library`` for a trusted verdict and for a rejection the
    /// library gave; otherwise the origin of the rejection (a limit wherever one stopped the library,
    /// else the first diagnostic's).
    public var origin: DiagnosticOrigin {
        guard case .rejected(let diagnostics) = self else { return .library }
        if diagnostics.contains(where: { $0.origin == .limit }) { return .limit }
        return diagnostics.first?.origin ?? .library
    }

    /// The name of the layer that decided, when ``origin`` is ``DiagnosticOrigin/layer``.
    public var layer: String? {
        origin == .layer ? diagnostics.first?.layer : nil
    }

    /// A rejection for a reason found before or around the library call (bad input, an internal
    /// error). Back ends use it so that every surprise ends as "not trusted" with a specific message.
    /// There is no default `origin`: each call says who decided, the library (an error or status it
    /// returned), a named layer of ours, a limit of the library's own, or the harness (the request
    /// was not put to the library, or its answer could not be used), and `inferred` marks a reason
    /// the back end names where the library gave none.
    public static func failClosed(_ failure: FailureClass, code: Int = 0, name: String, message: String, depth: Int? = nil, origin: DiagnosticOrigin, layer: String? = nil, inferred: Bool = false) -> Verdict {
        .rejected([NativeDiagnostic(code: code, name: name, message: message, depth: depth, failure: failure, origin: origin, layer: layer, inferred: inferred)])
    }
}
