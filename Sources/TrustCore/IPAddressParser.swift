/// Strict textual IP address parsing in pure Swift (the core has no C): the forms `inet_pton` takes.
///
/// IPv4 is exactly four decimal octets without leading zeros; IPv6 is RFC 4291 §2.2 text with at most
/// one `::` and an optional trailing dotted quad, optionally inside brackets. Anything else is not an
/// address, so it is treated as a DNS name and will not match an IP SAN.
public enum IPAddressParser {
    /// The address `text` spells (4 bytes for IPv4, 16 for IPv6), or nil when it is not an address
    /// literal in one of the forms above.
    public static func parse(_ text: String) -> [UInt8]? {
        guard mayBeAddress(text) else { return nil }
        if let v4 = parseIPv4(Substring(text)) { return v4 }
        var body = Substring(text)
        if body.hasPrefix("[") && body.hasSuffix("]") && body.count >= 2 {
            body = body.dropFirst().dropLast()
        }
        return parseIPv6(body)
    }

    /// False when `text` has a byte no address literal has (anything but hex digits, ".", ":", "[",
    /// "]"), or is longer than any: most DNS names are turned away here without allocating, which
    /// keeps a host check on the hot path (a policy classifies its domain on every evaluation) cheap.
    static func mayBeAddress(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count += 1
            guard count <= 47 else { return false }  // "[" + 45 + "]"
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
                 UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// `bytes` as text: a dotted quad for 4 bytes, RFC 5952's canonical form for 16 (lowercase, the
    /// longest run of zero groups compressed), each byte in hex joined by ":" for any other length.
    public static func format(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        guard bytes.count == 16 else { return bytes.map { String($0, radix: 16) }.joined(separator: ":") }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        // RFC 5952: compress the longest run of two or more zero groups.
        var bestStart = -1, bestLen = 0, i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLen && j - i >= 2 { bestStart = i; bestLen = j - i }
                i = j
            } else { i += 1 }
        }
        func hex(_ range: Range<Int>) -> String { groups[range].map { String($0, radix: 16) }.joined(separator: ":") }
        if bestStart < 0 { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLen)..<8)
    }

    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            if part.count > 1 && part.first == "0" { return nil }
            guard let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.contains(":"), text.count <= 45 else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ s: String, allowTrailingV4: Bool) -> [UInt8]? {
            if s.isEmpty { return [] }
            let fields = s.split(separator: ":", omittingEmptySubsequences: false)
            var out: [UInt8] = []
            for (index, field) in fields.enumerated() {
                if index == fields.count - 1, allowTrailingV4, field.contains(".") {
                    guard let v4 = parseIPv4(field) else { return nil }
                    out += v4
                    continue
                }
                guard !field.isEmpty, field.count <= 4, let value = UInt16(field, radix: 16) else { return nil }
                out += [UInt8(value >> 8), UInt8(value & 0xff)]
            }
            return out
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowTrailingV4: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowTrailingV4: false),
              let tail = groups(halves[1], allowTrailingV4: true),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
