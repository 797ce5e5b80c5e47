import Foundation

/// Small DER builders and readers for the explorer's mutations and the revocation data the generator
/// makes: OIDs, integers, strings, times, booleans.
package enum DERBuilder {
    package static func oid(_ dotted: String) -> DERTree {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var bytes = base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { bytes += base128(arc) }
        return .primitive(0x06, bytes)
    }

    package static func base128(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            out.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return out
    }

    /// The dotted form of an OID element's content.
    package static func dotted(_ content: [UInt8]) -> String { DERTree.dotted(content) }

    /// A minimal two's-complement INTEGER.
    package static func integer(_ value: Int) -> DERTree {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && bytes[0] & 0x80 == 0) && !(rest == -1 && bytes[0] & 0x80 != 0)
        return .primitive(0x02, bytes)
    }

    package static func boolean(_ value: Bool) -> DERTree { .primitive(0x01, [value ? 0xFF : 0x00]) }
    package static func sequence(_ children: [DERTree]) -> DERTree { .constructed(0x30, children) }
    package static func set(_ children: [DERTree]) -> DERTree { .constructed(0x31, children) }
    package static func octetString(_ inner: DERTree) -> DERTree { .primitive(0x04, inner.encoded) }
    package static func ia5(_ text: String) -> DERTree { .primitive(0x16, Array(text.utf8)) }
    package static func utf8(_ text: String) -> DERTree { .primitive(0x0C, Array(text.utf8)) }
    package static func printable(_ text: String) -> DERTree { .primitive(0x13, Array(text.utf8)) }

    /// A BIT STRING of named bits (bit 0 the most significant), DER: trailing zero bits dropped.
    package static func namedBits(_ bits: [Int]) -> DERTree {
        guard let highest = bits.max() else { return .primitive(0x03, [0]) }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        let unused = 7 - highest % 8
        return .primitive(0x03, [UInt8(unused)] + bytes)
    }

    /// An INTEGER of the given big-endian two's-complement content (a certificate's serial number).
    package static func integer(bytes: [UInt8]) -> DERTree { .primitive(0x02, bytes) }

    /// An ENUMERATED value (a CRL reason code, an OCSP response status).
    package static func enumerated(_ value: UInt8) -> DERTree { .primitive(0x0A, [value]) }

    package static let null = DERTree.primitive(0x05, [])

    /// RFC 5280 §4.1.2.5's Time: UTCTime for 1950 through 2049, GeneralizedTime otherwise.
    package static func time(_ date: Date) -> DERTree {
        let text = generalizedTimeText(date)
        let year = Int(text.prefix(4))!
        return (1950..<2050).contains(year) ? .primitive(0x17, Array(text.dropFirst(2).utf8)) : .primitive(0x18, Array(text.utf8))
    }

    /// A GeneralizedTime in whole seconds, `Z` (RFC 5280 §4.1.2.5.2; RFC 6960's times).
    package static func generalizedTime(_ date: Date) -> DERTree {
        .primitive(0x18, Array(generalizedTimeText(date).utf8))
    }

    /// `YYYYMMDDHHMMSSZ`.
    private static func generalizedTimeText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02d%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// A constructed context-specific element `[number]`: EXPLICIT, or IMPLICIT of a constructed type.
    package static func tagged(_ number: UInt8, _ children: [DERTree]) -> DERTree {
        .constructed(0xA0 | number, children)
    }

    /// An Extension (RFC 5280 §4.1): critical only when true (DER omits the default).
    package static func extensionField(_ oid: String, critical: Bool = false, value: DERTree) -> DERTree {
        sequence([self.oid(oid)] + (critical ? [boolean(true)] : []) + [octetString(value)])
    }
}
