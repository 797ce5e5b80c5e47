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

    public var description: String {
        switch self {
        case .dns(let name): return name
        case .ipAddress(let bytes): return IPAddressParser.format(bytes)
        }
    }
}
