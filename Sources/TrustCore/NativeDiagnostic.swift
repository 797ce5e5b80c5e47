/// One failure as the underlying library reported it, next to the class it was normalised to.
///
/// `code` is the library's own number (an `X509_V_ERR_*` value for OpenSSL, a `GNUTLS_CERT_*` status
/// bit or a negative `GNUTLS_E_*` error for GnuTLS); `name` its symbolic name where the back end knows
/// it; `message` the library's own text. `depth` is the position in the chain the library blamed, when
/// it says (0 is the leaf).
public struct NativeDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: Int
    public var name: String
    public var message: String
    public var depth: Int?
    public var failure: FailureClass

    public init(code: Int, name: String, message: String, depth: Int? = nil, failure: FailureClass) {
        self.code = code
        self.name = name
        self.message = message
        self.depth = depth
        self.failure = failure
    }

    public var description: String {
        let at = depth.map { " at depth \($0)" } ?? ""
        return "\(name) (\(code)): \(message)\(at)"
    }
}
