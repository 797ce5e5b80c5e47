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

    /// A rejection for a reason found before or around the library call (bad input, an internal
    /// error). Back ends use it so that every surprise ends as "not trusted" with a specific message.
    public static func failClosed(_ failure: FailureClass, code: Int = 0, name: String, message: String, depth: Int? = nil) -> Verdict {
        .rejected([NativeDiagnostic(code: code, name: name, message: message, depth: depth, failure: failure)])
    }
}
