import TrustCore
/// A strict reader of DER (X.690 §8, §10, §11) over borrowed bytes: every header it reads has a
/// definite length in its shortest form that fits inside the enclosing element, and every rule for a
/// primitive type is one method, so schema walkers (``DERCertificate``) and the generic descent into
/// values no schema describes apply the same rules.
///
/// Nothing here allocates: positions are indices into the caller's buffer and failures are
/// ``DERProblem`` values thrown with typed throws.
struct DERReader {
    /// How deep ``checkAny(_:field:depth:)`` descends into elements no schema describes. A
    /// certificate's own structure is a fixed depth; this bounds what an extension value may nest.
    static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes, 0..<bytes.count)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// A reader over the content of `element`, which this reader read.
    func inside(_ element: DERElement) -> DERReader {
        DERReader(bytes, element.content)
    }

    var atEnd: Bool { position >= end }

    /// The first identifier octet of the next element, or nil at the end.
    var peekTag: UInt8? { position < end ? bytes[position] : nil }

    // MARK: Headers

    /// Reads the next element's header strictly and moves past the whole element.
    mutating func next(_ field: StaticString) throws(DERProblem) -> DERElement {
        let start = position
        func problem(_ reason: DERProblem.Reason) -> DERProblem { DERProblem(reason: reason, offset: start, field: field) }
        guard start < end else { throw problem(.missing) }
        guard end - start >= 2 else { throw problem(.truncated) }
        let tag = bytes[start]
        var index = start + 1
        if tag & 0x1F == 0x1F {
            // High tag number form: base-128 digits, the last without bit 8, for numbers of 31 and up.
            guard bytes[index] != 0x80 else { throw problem(.tagNumberNotMinimal) }
            var number = 0
            while true {
                guard index < end else { throw problem(.truncatedTag) }
                let digit = bytes[index]
                index += 1
                number = number << 7 | Int(digit & 0x7F)
                guard number < 1 << 28 else { throw problem(.tagNumberTooLarge) }
                if digit & 0x80 == 0 { break }
            }
            guard number >= 31 else { throw problem(.tagNumberNotMinimal) }
            guard index < end else { throw problem(.truncated) }
        }
        let first = Int(bytes[index])
        index += 1
        var length = 0
        if first < 0x80 {
            length = first
        } else if first == 0x80 {
            throw problem(.indefiniteLength)
        } else {
            let count = first & 0x7F
            guard count <= 4, end - index >= count else { throw problem(.unsupportedLength) }
            guard bytes[index] != 0 else { throw problem(.lengthLeadingZero) }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            guard length >= 0x80 else { throw problem(.longFormLength(length)) }
            guard length >> ((count - 1) * 8) != 0 else { throw problem(.lengthLongerThanNeeded) }
        }
        guard length <= end - index else { throw problem(.runsPastEnd(length)) }
        position = index + length
        return DERElement(tag: tag, offset: start, content: index..<position)
    }

    /// Reads the next element, which must have the identifier octet `tag`.
    mutating func next(_ tag: UInt8, _ field: StaticString) throws(DERProblem) -> DERElement {
        let element = try next(field)
        try element.require(tag, field)
        return element
    }

    /// Reads the next element when it has the identifier octet `tag` (an OPTIONAL or DEFAULT
    /// component), or nil without moving.
    mutating func optional(_ tag: UInt8, _ field: StaticString) throws(DERProblem) -> DERElement? {
        peekTag == tag ? try next(field) : nil
    }

    /// Requires that nothing is left: `field` is the structure that should have ended.
    func expectEnd(_ field: StaticString) throws(DERProblem) {
        guard position < end else { return }
        throw DERProblem(reason: .unexpectedElement(bytes[position]), offset: position, field: field)
    }

    /// Requires that the content of `element` is exactly one element, and returns it: for values
    /// encoded inside an OCTET STRING or BIT STRING, or under an EXPLICIT tag.
    func only(_ element: DERElement, from start: Int? = nil, _ field: StaticString) throws(DERProblem) -> DERElement {
        var inner = DERReader(bytes, (start ?? element.content.lowerBound)..<element.content.upperBound)
        let value = try inner.next(field)
        guard inner.atEnd else {
            throw DERProblem(reason: .followingBytes(inner.end - inner.position), offset: inner.position, field: field)
        }
        return value
    }

    /// Reads the content of `element`, a SEQUENCE or SET SIZE (1..MAX) OF, by calling `body` until
    /// it is used up; `body` reads one element from the reader it is given each time.
    func nonEmpty(_ element: DERElement, _ field: StaticString, _ body: (inout DERReader) throws(DERProblem) -> Void) throws(DERProblem) {
        var inner = inside(element)
        guard !inner.atEnd else { throw DERProblem(reason: .emptySequence, offset: element.offset, field: field) }
        while !inner.atEnd { try body(&inner) }
    }

    /// Reads `element`, SEQUENCE SIZE (1..MAX) OF `component` ::= SEQUENCE under the identifier
    /// octet `tag`: `body` reads the components of each `component`, which must then be used up.
    func sequences(_ element: DERElement, tag: UInt8 = 0x30, _ field: StaticString, of component: StaticString,
                   _ body: (inout DERReader) throws(DERProblem) -> Void) throws(DERProblem) {
        try element.require(tag, field)
        try nonEmpty(element, field) { (list: inout DERReader) throws(DERProblem) in
            var components = list.inside(try list.next(0x30, component))
            try body(&components)
            try components.expectEnd(component)
        }
    }
}

/// One element a ``DERReader`` read: its identifier octet and where it and its content lie.
struct DERElement {
    /// The first identifier octet (class, constructed bit, tag number or 0x1F).
    var tag: UInt8
    var offset: Int
    var content: Range<Int>

    var whole: Range<Int> { offset..<content.upperBound }
    var isConstructed: Bool { tag & 0x20 != 0 }

    /// Requires the identifier octet `tag`.
    func require(_ tag: UInt8, _ field: StaticString) throws(DERProblem) {
        guard self.tag == tag else {
            throw DERProblem(reason: .unexpectedTag(found: self.tag, expected: tag), offset: offset, field: field)
        }
    }
}
