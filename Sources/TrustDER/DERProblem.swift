import TrustCore
/// Why and where some bytes are not strict DER, as found by ``DERReader``.
///
/// It holds only a reason, an offset and static names, so finding a problem (and, above all, finding
/// none) allocates nothing; the text is made only when ``description(in:)`` is asked for it.
struct DERProblem: Error {
    /// What is wrong, with the values the message needs.
    enum Reason {
        case truncated
        case truncatedTag
        case tagNumberTooLarge
        case tagNumberNotMinimal
        case indefiniteLength
        case unsupportedLength
        case lengthLeadingZero
        case longFormLength(Int)
        case lengthLongerThanNeeded
        case runsPastEnd(Int)
        case tooDeep
        case missing
        case unexpectedTag(found: UInt8, expected: UInt8)
        case unexpectedElement(UInt8)
        case followingBytes(Int)
        case endOfContents
        case constructedPrimitiveType(UInt8)
        case primitiveConstructedType(UInt8)
        case unknownUniversalType(UInt8)
        case booleanLength
        case booleanValue(UInt8)
        case emptyInteger
        case integerNotMinimal
        case negativeInteger
        case integerTooLarge
        case emptyBitString
        case unusedBitCount(UInt8)
        case unusedBitsNotZero
        case bitStringNotOctets
        case nullNotEmpty
        case emptyObjectIdentifier
        case objectIdentifierNotMinimal
        case objectIdentifierTruncated
        case timeFormat(UInt8)
        case timeValue(UInt8)
        case setNotSorted
        case emptySequence
        case explicitDefault(StaticString)
        case unknownVersion(Int)
        case notInVersion(Int)
        case notAGeneralName(UInt8)
    }

    var reason: Reason
    /// Where the offending element (or byte) starts, from the start of the certificate.
    var offset: Int
    /// The ASN.1 field (`Type.component`) being read, as RFC 5280 names it.
    var field: StaticString
    /// The content of the extnID when the problem is inside an extension, for the message.
    var extensionID: Range<Int>? = nil

    /// The whole message, with the extension's OID read from `bytes` (the certificate).
    func description(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var prefix = ""
        if let extensionID {
            prefix = "extension \(Self.dotted(bytes, extensionID)): "
        }
        return "\(prefix)\(reason.text) in \(field) at offset \(offset)"
    }

    /// An OID's content in dotted decimal, or its hex when an arc does not fit 64 bits.
    static func dotted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var arcs: [String] = []
        var value: UInt64 = 0
        for index in range {
            guard value >> 57 == 0 else { return "0x" + range.map { String(bytes[$0], radix: 16) }.joined() }
            value = value << 7 | UInt64(bytes[index] & 0x7F)
            guard bytes[index] & 0x80 == 0 else { continue }
            if arcs.isEmpty {
                let first = min(value / 40, 2)
                arcs.append(String(first))
                arcs.append(String(value - first * 40))
            } else {
                arcs.append(String(value))
            }
            value = 0
        }
        return arcs.joined(separator: ".")
    }
}

extension DERProblem.Reason {
    var text: String {
        switch self {
        case .truncated: "truncated element"
        case .truncatedTag: "truncated tag"
        case .tagNumberTooLarge: "tag number too large"
        case .tagNumberNotMinimal: "high tag number form not minimal (not DER)"
        case .indefiniteLength: "indefinite length (BER, not DER)"
        case .unsupportedLength: "unsupported or truncated length"
        case .lengthLeadingZero: "length with a leading zero byte (not DER)"
        case .longFormLength(let length): "long-form length for \(length) bytes (not DER)"
        case .lengthLongerThanNeeded: "length longer than needed (not DER)"
        case .runsPastEnd(let length): "length \(length) runs past the end"
        case .tooDeep: "nested more than \(DERReader.maximumDepth) levels deep"
        case .missing: "missing element"
        case .unexpectedTag(let found, let expected): "tag \(Self.hex(found)) where \(Self.hex(expected)) is required"
        case .unexpectedElement(let tag): "unexpected element (tag \(Self.hex(tag))) after the last component"
        case .followingBytes(let count): "\(count) byte(s) follow the encoded value"
        case .endOfContents: "end-of-contents octets (BER, not DER)"
        case .constructedPrimitiveType(let number): "constructed encoding of universal type \(number) (BER, not DER)"
        case .primitiveConstructedType(let number): "primitive encoding of universal type \(number), which is constructed"
        case .unknownUniversalType(let number): "universal type \(number), which certificates do not use"
        case .booleanLength: "BOOLEAN not exactly one byte"
        case .booleanValue(let value): "BOOLEAN \(Self.hex(value)) (DER TRUE is 0xff)"
        case .emptyInteger: "empty INTEGER"
        case .integerNotMinimal: "INTEGER with a redundant leading byte (not DER)"
        case .negativeInteger: "negative INTEGER where 0..MAX is required"
        case .integerTooLarge: "INTEGER too large for this field"
        case .emptyBitString: "BIT STRING without its unused-bits octet"
        case .unusedBitCount(let count): "BIT STRING with \(count) unused bits (0 to 7, and 0 when empty)"
        case .unusedBitsNotZero: "BIT STRING with unused bits not zero (not DER)"
        case .bitStringNotOctets: "BIT STRING holding an encoding, with unused bits"
        case .nullNotEmpty: "NULL with content"
        case .emptyObjectIdentifier: "empty OBJECT IDENTIFIER"
        case .objectIdentifierNotMinimal: "OBJECT IDENTIFIER arc with a leading 0x80 byte (not DER)"
        case .objectIdentifierTruncated: "OBJECT IDENTIFIER whose last arc is unfinished"
        case .timeFormat(let tag): "\(tag == 0x17 ? "UTCTime" : "GeneralizedTime") not in the DER form \(tag == 0x17 ? "YYMMDDHHMMSSZ" : "YYYYMMDDHHMMSS[.f]Z")"
        case .timeValue(let tag): "\(tag == 0x17 ? "UTCTime" : "GeneralizedTime") that is not a valid date and time"
        case .setNotSorted: "SET OF elements not in ascending DER order"
        case .emptySequence: "empty SEQUENCE or SET where SIZE (1..MAX) is required"
        case .explicitDefault(let value): "explicitly encoded DEFAULT \(value) (DER omits it)"
        case .unknownVersion(let value): "unknown version value \(value)"
        case .notInVersion(let value): "field not allowed in version v\(value + 1)"
        case .notAGeneralName(let tag): "tag \(Self.hex(tag)) is not a GeneralName"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }
}
