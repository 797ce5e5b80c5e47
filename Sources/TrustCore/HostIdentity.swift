/// The identity a request checks the end-entity certificate against (RFC 9525): a DNS name or an
/// IP address.
///
/// ``init(_:)`` decides which from the text the way TLS clients do: a string that is a valid IPv4
/// dotted quad or an IPv6 literal (optionally in brackets) is an address, anything else a DNS name.
public enum HostIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A DNS name, as given (back ends compare case-insensitively).
    case dns(String)
    /// An IP address: 4 bytes for IPv4, 16 for IPv6.
    case ipAddress([UInt8])

    /// Classifies `text` as an IP address or a DNS name.
    public init(_ text: String) {
        if let bytes = IPAddressParser.parse(text) {
            self = .ipAddress(bytes)
        } else {
            self = .dns(text)
        }
    }

    /// Why `name` must not be checked as a reference identifier, or nil when it may.
    ///
    /// Each refused form would make a library check less than the name says: an empty name turns
    /// OpenSSL's host check off, a NUL byte is refused or (when last) silently dropped, a leading "."
    /// matches any subdomain in OpenSSL (`X509_check_host`'s documented extension) and `.example.com`
    /// matches `*.example.com` in GnuTLS, and a "*" is not a DNS name but would be compared literally
    /// with a wildcard subjectAltName. Anything else is passed on unchanged.
    public static func unusableDNSNameReason(_ name: String) -> String? {
        let utf8 = name.utf8
        if utf8.isEmpty { return "the DNS name is empty (a library would skip the host check)" }
        if utf8.contains(0) { return "the DNS name contains a NUL byte" }
        if utf8.first == UInt8(ascii: ".") { return "the DNS name starts with \".\" (a library would match any subdomain)" }
        if utf8.contains(UInt8(ascii: "*")) { return "the DNS name contains \"*\" (a wildcard is not a reference identifier)" }
        return nil
    }

    public var description: String {
        switch self {
        case .dns(let name): return name
        case .ipAddress(let bytes): return IPAddressParser.format(bytes)
        }
    }
}
