import TrustVectors

/// Small DER builders and readers for the mutations: OIDs, integers, strings, times, booleans.
enum DER {
    static func oid(_ dotted: String) -> DERTree {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var bytes = base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { bytes += base128(arc) }
        return .primitive(0x06, bytes)
    }

    static func base128(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            out.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return out
    }

    /// The dotted form of an OID element's content.
    static func dotted(_ content: [UInt8]) -> String { DERTree.dotted(content) }

    /// A minimal two's-complement INTEGER.
    static func integer(_ value: Int) -> DERTree {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && bytes[0] & 0x80 == 0) && !(rest == -1 && bytes[0] & 0x80 != 0)
        return .primitive(0x02, bytes)
    }

    static func boolean(_ value: Bool) -> DERTree { .primitive(0x01, [value ? 0xFF : 0x00]) }
    static func sequence(_ children: [DERTree]) -> DERTree { .constructed(0x30, children) }
    static func set(_ children: [DERTree]) -> DERTree { .constructed(0x31, children) }
    static func octetString(_ inner: DERTree) -> DERTree { .primitive(0x04, inner.encoded) }
    static func ia5(_ text: String) -> DERTree { .primitive(0x16, Array(text.utf8)) }
    static func utf8(_ text: String) -> DERTree { .primitive(0x0C, Array(text.utf8)) }
    static func printable(_ text: String) -> DERTree { .primitive(0x13, Array(text.utf8)) }

    /// A BIT STRING of named bits (bit 0 the most significant), DER: trailing zero bits dropped.
    static func namedBits(_ bits: [Int]) -> DERTree {
        guard let highest = bits.max() else { return .primitive(0x03, [0]) }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        let unused = 7 - highest % 8
        return .primitive(0x03, [UInt8(unused)] + bytes)
    }
}
