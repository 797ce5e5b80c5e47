@testable import TrustVectors

/// Systematic BER (or explicit DEFAULT) variants of a DER certificate, each one change away from
/// it, with every enclosing length fixed up: the generated cases the strict DER check must refuse.
struct BERMutant {
    enum Kind: String, CaseIterable, Comparable {
        case longFormLength = "long-form length"
        case paddedInteger = "INTEGER padded with a sign byte"
        case booleanOne = "BOOLEAN TRUE as 0x01"
        case timeWithoutSeconds = "time without seconds"
        case constructedOctetString = "constructed OCTET STRING"
        case explicitCriticalFalse = "explicit critical FALSE"
        case extensionTrailingByte = "byte after an extnValue"
        case explicitCAFalse = "explicit cA FALSE"
        case explicitVersionOne = "explicit version v1"

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    var kind: Kind
    /// The path (child indices from the certificate) of the element changed.
    var path: [Int]
    var der: [UInt8]

    /// Every variant of `der`. The values a certificate carries as DER inside an OCTET or BIT
    /// STRING (every extnValue, an ECDSA signature, an RSA public key) are varied too.
    static func all(of der: [UInt8]) throws -> [BERMutant] {
        var certificate = try DERTree(der[...])
        let extensions = try carryEncodings(&certificate)
        var mutants: [BERMutant] = []
        func add(_ kind: Kind, _ path: [Int], _ change: (inout DERTree) -> Void) {
            var mutant = certificate
            change(&mutant)
            mutants.append(BERMutant(kind: kind, path: path, der: mutant.encoded))
        }
        for path in certificate.paths {
            let element = certificate[path]
            add(.longFormLength, path) { $0[path].paddedLength = true }
            guard element.children == nil else { continue }
            switch element.tag {
            case 0x02 where !element.content.isEmpty:
                let sign: UInt8 = element.content[0] < 0x80 ? 0x00 : 0xFF
                add(.paddedInteger, path) { $0[path].content.insert(sign, at: 0) }
            case 0x01 where element.content == [0xFF]:
                add(.booleanOne, path) { $0[path].content = [0x01] }
            case 0x17, 0x18:
                // YYMMDDHHMMSSZ -> YYMMDDHHMMZ: BER allows the seconds to be left out.
                add(.timeWithoutSeconds, path) { $0[path].content.removeSubrange((element.content.count - 3)..<(element.content.count - 1)) }
            case 0x04:
                add(.constructedOctetString, path) { $0[path] = .constructed(0x24, [.primitive(0x04, element.content)]) }
            default:
                break
            }
        }
        for path in extensions {
            let fields = certificate[path].children!
            let value = path + [fields.count - 1]
            if fields.count == 2 {
                add(.explicitCriticalFalse, path) { $0[path].children!.insert(.primitive(0x01, [0x00]), at: 1) }
            } else {
                add(.explicitCriticalFalse, path + [1]) { $0[path + [1]].content = [0x00] }
            }
            add(.extensionTrailingByte, value) { $0[value].trailer = [0x00] }
            // basicConstraints (2.5.29.19): cA written out as FALSE.
            if fields[0].content == [0x55, 0x1D, 0x13] {
                let constraints = value + [0]
                if certificate[constraints].children?.first?.tag == 0x01 {
                    add(.explicitCAFalse, constraints + [0]) { $0[constraints + [0]].content = [0x00] }
                } else {
                    add(.explicitCAFalse, constraints) { $0[constraints].children!.insert(.primitive(0x01, [0x00]), at: 0) }
                }
            }
        }
        if certificate[[0, 0]].tag == 0xA0 {
            add(.explicitVersionOne, [0, 0, 0]) { $0[[0, 0, 0]].content = [0x00] }
        }
        return mutants
    }

    /// Reads the DER values inside the signature (ECDSA), the public key (RSA) and every
    /// extnValue as elements; returns the path of every Extension.
    private static func carryEncodings(_ certificate: inout DERTree) throws -> [[Int]] {
        let ecdsa: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04]
        if certificate[[1, 0]].content.starts(with: ecdsa) { try certificate[[2]].carry(after: 1) }
        let tbs = certificate[[0]].children!
        let versioned = tbs[0].tag == 0xA0 ? 1 : 0
        let key = [0, versioned + 5, 1]
        let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        if certificate[[0, versioned + 5, 0, 0]].content == rsaEncryption { try certificate[key].carry(after: 1) }
        guard let last = tbs.last, last.tag == 0xA3 else { return [] }
        let list = [0, tbs.count - 1, 0]
        let paths = certificate[list].children!.indices.map { list + [$0] }
        for path in paths {
            try certificate[path + [certificate[path].children!.count - 1]].carry(after: 0)
        }
        return paths
    }
}
