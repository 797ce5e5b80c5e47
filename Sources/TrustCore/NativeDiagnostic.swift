/// One failure as the underlying library reported it, next to the class it was normalised to.
///
/// `code` is the library's own number (an `X509_V_ERR_*` value for OpenSSL, a `GNUTLS_CERT_*` status
/// bit or a negative `GNUTLS_E_*` error for GnuTLS); `name` its symbolic name where the back end knows
/// it; `message` the library's own text. `depth` is the position in the chain the library blamed, when
/// it says (0 is the leaf). ``origin`` says who gave it: the library (the default), a named layer of
/// ours composed around it, a limit that stopped it, or the harness, which could not put the request
/// to it at all.
public struct NativeDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The library's own number (0 where the back end's own check, not the library, failed).
    public var code: Int
    /// The symbolic name (`X509_V_ERR_CERT_HAS_EXPIRED`, `NOT_DER`); the test kit's contract suite
    /// fails a rejection whose name is empty.
    public var name: String
    /// The library's own text, or the back end's where the library gave none.
    public var message: String
    /// The position in the presented chain the library blamed (0: the leaf), when it says.
    public var depth: Int?
    /// The class of the taxonomy the failure was normalised to.
    public var failure: FailureClass
    /// Who gave this diagnostic: ``DiagnosticOrigin/library`` unless a layer, a limit or the harness
    /// did.
    public var origin: DiagnosticOrigin
    /// The name of the layer that gave it, when ``origin`` is ``DiagnosticOrigin/layer`` (`checks`).
    public var layer: String?
    /// Whether the reason is inferred rather than the library's own: the library decided (it
    /// rejected) but said nothing specific, and the back end named a reason from the facts it could
    /// see (no reason at all, a status it could not decode). Shown as ` [inferred]` wherever the
    /// diagnostic is, so an inferred reason is never read as the library's word.
    public var inferred: Bool

    /// A diagnostic with the library's `code`, `name` and `message`, blaming `depth` when known,
    /// normalised to `failure`, given by `origin` (the library unless said).
    public init(code: Int, name: String, message: String, depth: Int? = nil, failure: FailureClass, origin: DiagnosticOrigin = .library, layer: String? = nil, inferred: Bool = false) {
        self.code = code
        self.name = name
        self.message = message
        self.depth = depth
        self.failure = failure
        self.origin = origin
        self.layer = origin == .layer ? layer : nil
        self.inferred = inferred
    }

    /// `NAME (code): message`, with ` at depth N` when the depth is known and, when the library did
    /// not give it, who did (`[layer checks]`, `[limit]`, `[harness]`).
    public var description: String {
        let at = depth.map { " at depth \($0)" } ?? ""
        return "\(name) (\(code)): \(message)\(at)\(origin.tag(layer: layer))\(inferred ? " [inferred]" : "")"
    }

    private enum CodingKeys: String, CodingKey {
        case code, name, message, depth, failure, origin, layer, inferred
    }

    /// Reads a diagnostic; one written before origins existed (no `origin`) is the library's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            code: try container.decode(Int.self, forKey: .code),
            name: try container.decode(String.self, forKey: .name),
            message: try container.decode(String.self, forKey: .message),
            depth: try container.decodeIfPresent(Int.self, forKey: .depth),
            failure: try container.decode(FailureClass.self, forKey: .failure),
            origin: try container.decodeIfPresent(DiagnosticOrigin.self, forKey: .origin) ?? .library,
            layer: try container.decodeIfPresent(String.self, forKey: .layer),
            inferred: try container.decodeIfPresent(Bool.self, forKey: .inferred) ?? false
        )
    }

    /// Writes the library's diagnostics as they always were written; `origin` (and `layer`) only
    /// when someone else gave it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(name, forKey: .name)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(depth, forKey: .depth)
        try container.encode(failure, forKey: .failure)
        if origin != .library {
            try container.encode(origin, forKey: .origin)
            try container.encodeIfPresent(layer, forKey: .layer)
        }
        if inferred { try container.encode(true, forKey: .inferred) }
    }
}

/// Who decided a rejection: the library, or something of ours around it. A column of the
/// conformance matrix is the library's, so a result is only ever the library's verdict when its
/// origin is ``library``; the others are reported as what they are.
public enum DiagnosticOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// The library, through its public API with the back end's settings.
    case library
    /// A named layer of TrustHarness's own composed in front of the library (such as `checks`,
    /// ``NativeDiagnostic/layer`` names it): our verdict, reported as ours.
    case layer
    /// The library's own work limit, or a bound its documentation states (GnuTLS's client verify
    /// depth), stopped it before it answered: neither a pass nor the library's verdict. An
    /// evaluation that does not return is not a limit but a hang, an error of the harness's own
    /// (one limit for every evaluation, `GuardedEvaluation` in TrustHarness).
    case limit
    /// The harness could not put the request to the library (a check the back end cannot honour, no
    /// certificate at all, a time X.509 cannot express, an input it refuses because the library
    /// has no bound on the work it would take), or could not use the library's answer (an internal
    /// surprise of the back end's own code): not the library's verdict, so not trusted.
    case harness

    /// ` [layer NAME]`, ` [limit]`, ` [harness]`, or nothing for the library.
    public func tag(layer: String?) -> String {
        switch self {
        case .library: return ""
        case .layer: return " [layer \(layer ?? "?")]"
        case .limit: return " [limit]"
        case .harness: return " [harness]"
        }
    }
}
