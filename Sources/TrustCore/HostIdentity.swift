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
    /// GnuTLS, and the refusal stands in for the U-label to A-label conversion RFC 9525 §6.3 puts on
    /// the client (a limit: the harness does not convert, it asks for the A-label); an empty or over-long label or name is not a DNS name (RFC 1035 §2.3.4); spaces and
    /// control characters are in no host name; and a name ending in a numeric label (`127.1`,
    /// `0x7f.0.0.1`, `010.0.0.1`) is an IP address in a spelling resolvers read differently
    /// (WHATWG URL "ends in a number"), never a name a certificate should match (`256.1.1.1`, a
    /// dotted quad with a number above 255, is named as such). A host followed by a port
    /// (`www.example.com:443`, `[::1]:443`) is told the port is not part of it, and a label that
    /// starts or ends with "-" is no host name's (RFC 952, RFC 1123 §2.1).
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
        if let reason = portReason(name) { return reason }
        if let other = utf8.first(where: { !Self.isHostNameByte($0) }) {
            return "the DNS name contains \"\(Character(Unicode.Scalar(other)))\", which no host name has (letters, digits, \"-\", \"_\" and \".\" only; an IPv6 zone such as \"%lo\" is not part of an address a certificate can name)"
        }
        if utf8.count > 253 { return "the DNS name is longer than 253 bytes" }
        // One pass over the bytes, no allocation: this runs on every evaluation.
        var labelLength = 0
        var lastLabelStart = utf8.startIndex
        var previous: UInt8 = 0
        for index in utf8.indices {
            let byte = utf8[index]
            if byte == UInt8(ascii: ".") {
                if labelLength == 0 { return "the DNS name has an empty label (\"..\")" }
                if previous == UInt8(ascii: "-") { return hyphenReason(utf8[lastLabelStart..<index]) }
                labelLength = 0
                lastLabelStart = utf8.index(after: index)
            } else {
                if labelLength == 0 && byte == UInt8(ascii: "-") { return hyphenReason(utf8[index...].prefix { $0 != UInt8(ascii: ".") }) }
                labelLength += 1
                if labelLength > 63 { return "a label of the DNS name is longer than 63 bytes" }
            }
            previous = byte
        }
        if labelLength == 0 { return "the DNS name has an empty label (\"..\")" }
        if previous == UInt8(ascii: "-") { return hyphenReason(utf8[lastLabelStart...]) }
        if endsInANumber(utf8[lastLabelStart...]) {
            if let octet = octetAbove255(name) {
                return "an IPv4 octet is above 255 (\"\(octet)\"): each of a dotted quad's four numbers is 0 to 255"
            }
            return "the DNS name ends in a numeric label, an IP address in a non-standard spelling (\"127.1\", \"0x7f.0.0.1\", \"010.0.0.1\"); write the address as a dotted quad or IPv6 literal"
        }
        return nil
    }

    /// Why `name` looks like a host with a port (`www.example.com:443`, `127.0.0.1:443`,
    /// `[::1]:443`), or nil: a host and one ":" followed by decimal digits, or a bracketed IPv6
    /// literal followed by ":" and digits. IPv6 literals without brackets never get here (they are
    /// addresses), and other colons keep the general message.
    private static func portReason(_ name: String) -> String? {
        let utf8 = name.utf8
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        let host = utf8[..<colon], port = utf8[utf8.index(after: colon)...]
        let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard !host.isEmpty, !port.isEmpty, port.allSatisfy(digit) else { return nil }
        let bracketed = host.first == UInt8(ascii: "[") && host.last == UInt8(ascii: "]") && host.count > 2
        guard bracketed || !host.contains(UInt8(ascii: ":")) else { return nil }
        let hostText = String(Substring(host)), portText = String(Substring(port))
        return "\"\(hostText)\" is followed by the port \":\(portText)\": a port is not part of a host; give \"\(hostText)\" alone and the port elsewhere"
    }

    /// The reason for a label that starts or ends with "-" (RFC 952, RFC 1123 §2.1: a label is
    /// letters, digits and hyphens, beginning and ending with a letter or digit).
    private static func hyphenReason(_ label: Substring.UTF8View) -> String {
        let text = String(Substring(label))
        let edge = label.first == UInt8(ascii: "-") ? "starts" : "ends"
        return "the DNS name's label \"\(text)\" \(edge) with \"-\", which no host name label does (RFC 952, RFC 1123 §2.1)"
    }

    /// The first number above 255 when `name` is four dot-separated decimal numbers written
    /// without leading zeros (`256.1.1.1`): meant as a dotted quad, not a non-standard spelling.
    private static func octetAbove255(_ name: String) -> Substring? {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count == 4,
              labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
              !labels.contains(where: { $0.count > 1 && $0.first == "0" }) else { return nil }
        return labels.first { $0.count > 3 || (Int($0) ?? 0) > 255 }
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

    /// The name as given, or the address in canonical text (``IPAddressParser/format(_:)``).
    public var description: String {
        switch self {
        case .dns(let name): return name
        case .ipAddress(let bytes): return IPAddressParser.format(bytes)
        }
    }
}
