/// One failure as the underlying library reported it, next to the class it was normalised to.
///
/// `code` is the library's own number (an `X509_V_ERR_*` value for OpenSSL, a `GNUTLS_CERT_*` status
/// bit or a negative `GNUTLS_E_*` error for GnuTLS); `name` its symbolic name where the back end knows
/// it; `message` the library's own text. `depth` is the position in the chain the library blamed, when
/// it says (0 is the leaf).
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

    /// A diagnostic with the library's `code`, `name` and `message`, blaming `depth` when known,
    /// normalised to `failure`.
    public init(code: Int, name: String, message: String, depth: Int? = nil, failure: FailureClass) {
        self.code = code
        self.name = name
        self.message = message
        self.depth = depth
        self.failure = failure
    }

    /// `NAME (code): message`, with ` at depth N` when the depth is known.
    public var description: String {
        let at = depth.map { " at depth \($0)" } ?? ""
        return "\(name) (\(code)): \(message)\(at)"
    }
}
