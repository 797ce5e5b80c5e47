/// A DER certificate as a tree of elements, for making BER variants of it: parse, change one
/// element, encode, and every enclosing length is fixed up. The bad-input corpus and the tests of
/// the strict DER check (TrustCore's `DERCertificate.encodingProblem`) make their variants with it.
///
/// Deliberately independent of TrustCore's DER reader, so that the variants that test it are made
/// by other code. It parses DER well enough for certificates that are DER; it is not a validator.
package struct DERTree: Equatable, Sendable {
    package var tag: UInt8
    /// A primitive element's content; for one that carries an encoding (`children` set on an OCTET
    /// or BIT STRING), the bytes before it (a BIT STRING's unused-bits octet).
    package var content: [UInt8]
    /// The elements inside a constructed element, or inside an OCTET or BIT STRING that carries them.
    package var children: [DERTree]?
    /// The length in a form DER forbids: long form for under 128 bytes, else a leading zero octet.
    package var paddedLength = false
    /// Bytes after the carried element inside an OCTET or BIT STRING.
    package var trailer: [UInt8] = []

    package struct ParseError: Error {}

    /// Parses exactly one element filling `bytes`.
    package init(_ bytes: ArraySlice<UInt8>) throws {
        var rest = bytes
        self = try Self.next(&rest)
        guard rest.isEmpty else { throw ParseError() }
    }

    private init(tag: UInt8, content: [UInt8], children: [DERTree]?) {
        self.tag = tag
        self.content = content
        self.children = children
    }

    /// A primitive element.
    package static func primitive(_ tag: UInt8, _ content: [UInt8]) -> DERTree {
        DERTree(tag: tag, content: content, children: nil)
    }

    /// A constructed element.
    package static func constructed(_ tag: UInt8, _ children: [DERTree]) -> DERTree {
        DERTree(tag: tag, content: [], children: children)
    }

    private static func next(_ bytes: inout ArraySlice<UInt8>) throws -> DERTree {
        guard bytes.count >= 2 else { throw ParseError() }
        let tag = bytes.removeFirst()
        let first = Int(bytes.removeFirst())
        var length = first
        if first > 0x80 {
            let count = first & 0x7F
            guard count <= 4, bytes.count >= count else { throw ParseError() }
            length = bytes.prefix(count).reduce(0) { $0 << 8 | Int($1) }
            bytes.removeFirst(count)
        } else if first == 0x80 {
            throw ParseError()
        }
        guard bytes.count >= length else { throw ParseError() }
        var content = bytes.prefix(length)
        bytes.removeFirst(length)
        guard tag & 0x20 != 0 else { return .primitive(tag, Array(content)) }
        var children: [DERTree] = []
        while !content.isEmpty { children.append(try next(&content)) }
        return .constructed(tag, children)
    }

    /// Reads this primitive OCTET or BIT STRING's content after `prefix` bytes as one element, so
    /// that variants can be made inside it.
    package mutating func carry(after prefix: Int) throws {
        let inner = try DERTree(content.dropFirst(prefix))
        content = Array(content.prefix(prefix))
        children = [inner]
    }

    package var encoded: [UInt8] {
        let body = children.map { content + $0.flatMap(\.encoded) + trailer } ?? content
        return [tag] + Self.length(body.count, padded: paddedLength) + body
    }

    package static func length(_ count: Int, padded: Bool) -> [UInt8] {
        guard count >= 0x80 || padded else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        if padded && count >= 0x80 { bytes.insert(0, at: 0) }
        if bytes.isEmpty { bytes = [0] }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    package subscript(path: [Int]) -> DERTree {
        get { path.reduce(self) { $0.children![$1] } }
        set {
            guard let first = path.first else { self = newValue; return }
            children![first][Array(path.dropFirst())] = newValue
        }
    }

    /// The path of every element, this one (`[]`) first, depth first.
    package var paths: [[Int]] {
        [[]] + (children ?? []).indices.flatMap { index in children![index].paths.map { [index] + $0 } }
    }
}

extension DERTree {
    /// The dotted form of an OBJECT IDENTIFIER's content octets (`2.5.29.19`).
    package static func dotted(_ content: [UInt8]) -> String {
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in content {
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    let first = min(value / 40, 2)
                    arcs += [first, value - first * 40]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    /// This TBSCertificate's extensions, in order: the dotted OID, whether it is marked critical,
    /// and the value parsed from the extnValue OCTET STRING (nil when its content is not one DER
    /// element). Empty without any.
    package var certificateExtensions: [(oid: String, critical: Bool, value: DERTree?)] {
        guard let list = children?.first(where: { $0.tag == 0xA3 })?.children?.first?.children else { return [] }
        return list.compactMap { node in
            guard let fields = node.children, let id = fields.first, id.tag == 0x06, let value = fields.last, value.tag == 0x04 else { return nil }
            let critical = fields.count == 3 && fields[1].tag == 0x01 && fields[1].content.first.map { $0 != 0 } == true
            return (Self.dotted(id.content), critical, try? DERTree(value.content[...]))
        }
    }
}
