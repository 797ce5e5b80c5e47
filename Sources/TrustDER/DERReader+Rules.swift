import TrustCore
/// The DER rules for the content of each universal type (X.690 §8 and §11), and the descent into
/// elements whose schema is not known (ANY, the extensions of ``InterpretedExtension``), where
/// only these rules apply.
extension DERReader {
    private func problem(_ reason: DERProblem.Reason, _ element: DERElement, _ field: StaticString) -> DERProblem {
        DERProblem(reason: reason, offset: element.offset, field: field)
    }

    /// A BOOLEAN's value: one byte, 0x00 or 0xFF (X.690 §11.1).
    func boolean(_ element: DERElement, _ field: StaticString) throws(DERProblem) -> Bool {
        guard element.content.count == 1 else { throw problem(.booleanLength, element, field) }
        switch bytes[element.content.lowerBound] {
        case 0x00: return false
        case 0xFF: return true
        case let value: throw problem(.booleanValue(value), element, field)
        }
    }

    /// An INTEGER or ENUMERATED: at least one byte, and no first nine bits all equal (X.690 §8.3.2).
    func integer(_ element: DERElement, _ field: StaticString) throws(DERProblem) {
        let content = element.content
        guard let first = content.first.map({ bytes[$0] }) else { throw problem(.emptyInteger, element, field) }
        guard content.count >= 2 else { return }
        let second = bytes[content.lowerBound + 1]
        if (first == 0x00 && second < 0x80) || (first == 0xFF && second >= 0x80) {
            throw problem(.integerNotMinimal, element, field)
        }
    }

    /// An INTEGER of the type `INTEGER (0..MAX)` (pathLenConstraint, SkipCerts, BaseDistance,
    /// CRLNumber): minimal and not negative. Returns whether it is zero, for DEFAULT 0.
    func naturalNumber(_ element: DERElement, _ field: StaticString) throws(DERProblem) -> Bool {
        try integer(element, field)
        let first = bytes[element.content.lowerBound]
        guard first < 0x80 else { throw problem(.negativeInteger, element, field) }
        return element.content.count == 1 && first == 0
    }

    /// A BIT STRING (X.690 §8.6, §11.2): the unused-bit count first, 0 to 7, 0 when there are no
    /// bits, and the unused bits zero. Returns the count.
    @discardableResult
    func bitString(_ element: DERElement, _ field: StaticString) throws(DERProblem) -> UInt8 {
        let content = element.content
        guard let first = content.first else { throw problem(.emptyBitString, element, field) }
        let unused = bytes[first]
        guard unused <= 7, unused == 0 || content.count > 1 else { throw problem(.unusedBitCount(unused), element, field) }
        guard bytes[content.upperBound - 1] & ((1 << unused) &- 1) == 0 else {
            throw problem(.unusedBitsNotZero, element, field)
        }
        return unused
    }

    /// A BIT STRING that carries the encoding of a value (a signature, a public key): whole
    /// octets, so no unused bits. Returns where the carried bytes start.
    func octetBitString(_ element: DERElement, _ field: StaticString) throws(DERProblem) -> Int {
        guard try bitString(element, field) == 0 else { throw problem(.bitStringNotOctets, element, field) }
        return element.content.lowerBound + 1
    }

    /// NULL has no content (X.690 §8.8).
    func null(_ element: DERElement, _ field: StaticString) throws(DERProblem) {
        guard element.content.isEmpty else { throw problem(.nullNotEmpty, element, field) }
    }

    /// An OBJECT IDENTIFIER (or RELATIVE-OID): at least one arc, each in the fewest base-128 digits
    /// (no leading 0x80), the last finished (X.690 §8.19).
    func objectIdentifier(_ element: DERElement, _ field: StaticString) throws(DERProblem) {
        let content = element.content
        guard !content.isEmpty else { throw problem(.emptyObjectIdentifier, element, field) }
        var arcStarts = true
        for index in content {
            let byte = bytes[index]
            if arcStarts && byte == 0x80 { throw problem(.objectIdentifierNotMinimal, element, field) }
            arcStarts = byte & 0x80 == 0
        }
        guard arcStarts else { throw problem(.objectIdentifierTruncated, element, field) }
    }

    /// Whether the OBJECT IDENTIFIER `element` is exactly `oid` (content octets), or, with
    /// `prefix`, starts with them and has more.
    func matches(_ element: DERElement, _ oid: [UInt8], prefix: Bool = false) -> Bool {
        let count = oid.count
        guard prefix ? element.content.count > count : element.content.count == count else { return false }
        let start = element.content.lowerBound
        for offset in 0..<count where bytes[start + offset] != oid[offset] { return false }
        return true
    }

    /// Whether the OBJECT IDENTIFIER `element` is `oid` (content octets) and one more arc in
    /// `lastArc`.
    func matches(_ element: DERElement, _ oid: [UInt8], lastArc: ClosedRange<UInt8>) -> Bool {
        element.content.count == oid.count + 1 && matches(element, oid, prefix: true)
            && lastArc.contains(bytes[element.content.upperBound - 1])
    }

    /// A UTCTime (tag 0x17) or GeneralizedTime (0x18) in its DER form (X.690 §11.7, §11.8): in UTC
    /// with a `Z`, seconds present, digits only, a valid date and time, and for GeneralizedTime a
    /// fraction only where X.690 allows it, without trailing zeros. `rfc5280` forbids the fraction
    /// too (RFC 5280 §4.1.2.5.2, §5.3.2).
    ///
    /// RFC 5280's rule that years 1950-2049 be UTCTime is not enforced: it is a profile rule, not
    /// DER (both are DER of their own type), and trusted roots break it (Certum Trusted Network CA 2).
    func time(_ element: DERElement, rfc5280: Bool, _ field: StaticString) throws(DERProblem) {
        let tag = element.tag
        let content = element.content
        let format = problem(.timeFormat(tag), element, field)
        let yearDigits = tag == 0x17 ? 2 : 4
        let digits = yearDigits + 10
        guard content.count >= digits + 1, bytes[content.upperBound - 1] == UInt8(ascii: "Z") else { throw format }
        func number(_ at: Int, _ count: Int) throws(DERProblem) -> Int {
            var value = 0
            for index in (content.lowerBound + at)..<(content.lowerBound + at + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { throw format }
                value = value * 10 + Int(digit)
            }
            return value
        }
        var year = try number(0, yearDigits)
        if tag == 0x17 { year += year < 50 ? 2000 : 1900 }
        let month = try number(yearDigits, 2), day = try number(yearDigits + 2, 2)
        let hour = try number(yearDigits + 4, 2), minute = try number(yearDigits + 6, 2), second = try number(yearDigits + 8, 2)
        let fraction = (content.lowerBound + digits)..<(content.upperBound - 1)
        if !fraction.isEmpty {
            // Only GeneralizedTime has one: ".d+", the last digit not 0 (X.690 §11.7.3).
            guard tag == 0x18, !rfc5280, fraction.count >= 2, bytes[fraction.lowerBound] == UInt8(ascii: "."),
                  bytes[fraction.upperBound - 1] != UInt8(ascii: "0") else { throw format }
            // Digits only, not summed: a fraction may be longer than any integer.
            for index in fraction.dropFirst() where bytes[index] &- UInt8(ascii: "0") > 9 { throw format }
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (leap ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        guard (1...12).contains(month), (1...days).contains(day), hour < 24, minute < 60, second < 60 else {
            throw problem(.timeValue(tag), element, field)
        }
    }

    // MARK: Elements no schema describes

    /// Applies the rule of its type to `element` and to everything inside it: universal types
    /// other than SEQUENCE and SET primitive (a constructed string is BER), SET OF in ascending
    /// order, the universal types certificates never use refused. Content of other classes is
    /// opaque when primitive (it may be anything IMPLICIT), and read as elements when constructed.
    func checkAny(_ element: DERElement, _ field: StaticString, depth: Int) throws(DERProblem) {
        guard depth < Self.maximumDepth else { throw problem(.tooDeep, element, field) }
        let tag = element.tag
        guard tag & 0xC0 == 0 else {
            if element.isConstructed { try checkEach(element, field, depth: depth, sorted: false) }
            return
        }
        let number = tag & 0x1F
        if number == 0x10 || number == 0x11 {
            guard element.isConstructed else { throw problem(.primitiveConstructedType(number), element, field) }
            try checkEach(element, field, depth: depth, sorted: number == 0x11)
            return
        }
        guard !element.isConstructed else { throw problem(.constructedPrimitiveType(number), element, field) }
        switch number {
        case 0x00: throw problem(.endOfContents, element, field)
        case 0x01: _ = try boolean(element, field)
        case 0x02, 0x0A: try integer(element, field)
        case 0x03: try bitString(element, field)
        case 0x05: try null(element, field)
        case 0x06, 0x0D: try objectIdentifier(element, field)
        case 0x17, 0x18: try time(element, rfc5280: false, field)
        // OCTET STRING, ObjectDescriptor and the character strings: any content.
        case 0x04, 0x07, 0x0C, 0x12...0x16, 0x19...0x1C, 0x1E: return
        default: throw problem(.unknownUniversalType(number), element, field)
        }
    }

    /// ``checkAny(_:_:depth:)`` for each element inside `element`; with `sorted`, also that each
    /// encoding is not above the next (SET OF, X.690 §11.6).
    func checkEach(_ element: DERElement, _ field: StaticString, depth: Int, sorted: Bool) throws(DERProblem) {
        var inner = inside(element)
        var previous: Range<Int>? = nil
        while !inner.atEnd {
            let child = try inner.next(field)
            try checkAny(child, field, depth: depth + 1)
            if sorted {
                if let previous, !ascending(previous, child.whole) { throw problem(.setNotSorted, child, field) }
                previous = child.whole
            }
        }
    }

    /// Whether encoding `a` sorts at or before encoding `b`: compared as octet strings, the shorter
    /// padded at its end with zero octets (X.690 §11.6).
    func ascending(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let common = min(a.count, b.count)
        for offset in 0..<common {
            let x = bytes[a.lowerBound + offset], y = bytes[b.lowerBound + offset]
            if x != y { return x < y }
        }
        // Equal so far: `a` is above `b` only if `a` goes on with a non-zero octet.
        for index in (a.lowerBound + common)..<a.upperBound where bytes[index] != 0 { return false }
        return true
    }
}
