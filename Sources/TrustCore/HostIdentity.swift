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

    /// The form back ends compare: a DNS name without its one trailing dot (an absolute name,
    /// `www.example.com.`, names the same host; Go, rustls and curl match it the same way, while
    /// OpenSSL and GnuTLS would compare the dot and never match). Addresses are unchanged.
    public var forComparison: HostIdentity {
        guard case .dns(let name) = self, name.utf8.count > 1, name.utf8.last == UInt8(ascii: ".") else { return self }
        return .dns(String(name.dropLast()))
    }

    /// Why `name` (already ``forComparison``) must not be checked as a reference identifier, or nil
    /// when it may.
    ///
    /// Each refused form would make a library check less than the name says, or the two libraries
    /// check it differently: an empty name turns OpenSSL's host check off; a NUL byte is refused or
    /// (when last) silently dropped; a leading "." matches any subdomain in OpenSSL
    /// (`X509_check_host`'s documented extension) and `.example.com` matches `*.example.com` in
    /// GnuTLS; a "*" is not a DNS name but would be compared literally with a wildcard
    /// subjectAltName; non-ASCII text is compared byte for byte by OpenSSL but IDNA-converted by
    /// GnuTLS; an empty or over-long label or name is not a DNS name (RFC 1035 §2.3.4); spaces and
    /// control characters are in no host name; and a name ending in a numeric label (`127.1`,
    /// `0x7f.0.0.1`, `010.0.0.1`) is an IP address in a spelling resolvers read differently
    /// (WHATWG URL "ends in a number"), never a name a certificate should match.
    public static func unusableDNSNameReason(_ name: String) -> String? {
        let utf8 = name.utf8
        if utf8.isEmpty { return "the DNS name is empty (a library would skip the host check)" }
        if utf8.contains(0) { return "the DNS name contains a NUL byte" }
        if utf8.first == UInt8(ascii: ".") { return "the DNS name starts with \".\" (a library would match any subdomain)" }
        if utf8.contains(UInt8(ascii: "*")) { return "the DNS name contains \"*\" (a wildcard is not a reference identifier)" }
        if utf8.contains(where: { $0 >= 0x80 }) {
            return "the DNS name is not ASCII: give its A-label (punycode, \"xn--\") form; the libraries would compare it differently"
        }
        if utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }) { return "the DNS name contains a space or a control character" }
        if let other = utf8.first(where: { !Self.isHostNameByte($0) }) {
            return "the DNS name contains \"\(Character(Unicode.Scalar(other)))\", which no host name has (letters, digits, \"-\", \"_\" and \".\" only; an IPv6 zone such as \"%lo\" is not part of an address a certificate can name)"
        }
        if utf8.count > 253 { return "the DNS name is longer than 253 bytes" }
        // One pass over the bytes, no allocation: this runs on every evaluation.
        var labelLength = 0
        var lastLabelStart = utf8.startIndex
        for index in utf8.indices {
            if utf8[index] == UInt8(ascii: ".") {
                if labelLength == 0 { return "the DNS name has an empty label (\"..\")" }
                labelLength = 0
                lastLabelStart = utf8.index(after: index)
            } else {
                labelLength += 1
                if labelLength > 63 { return "a label of the DNS name is longer than 63 bytes" }
            }
        }
        if labelLength == 0 { return "the DNS name has an empty label (\"..\")" }
        if endsInANumber(utf8[lastLabelStart...]) {
            return "the DNS name ends in a numeric label, an IP address in a non-standard spelling (\"127.1\", \"0x7f.0.0.1\", \"010.0.0.1\"); write the address as a dotted quad or IPv6 literal"
        }
        return nil
    }

    /// An ASCII letter or digit, "-", "_" (found in real host names, e.g. service records) or ".".
    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// Decimal digits only, or `0x` followed by hex digits only: what a resolver would read as part
    /// of an IPv4 address.
    private static func endsInANumber(_ label: Substring.UTF8View) -> Bool {
        let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if label.allSatisfy(digit) { return true }
        var bytes = label.makeIterator()
        guard bytes.next() == UInt8(ascii: "0"), let x = bytes.next(), x | 0x20 == UInt8(ascii: "x"), label.count >= 2 else { return false }
        while let byte = bytes.next() {
            guard digit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) else { return false }
        }
        return true
    }

    public var description: String {
        switch self {
        case .dns(let name): return name
        case .ipAddress(let bytes): return IPAddressParser.format(bytes)
        }
    }
}
