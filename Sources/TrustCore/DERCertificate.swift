/// The few fields of a DER certificate the pinning policy needs, found by walking the encoding
/// without building a model, so that pin matching costs well under a microsecond per certificate.
///
/// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
/// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... } (RFC 5280 §4.1).
/// Anything that does not have this shape yields nil: the caller treats it as "no match".
enum DERCertificate {
    /// The complete DER encoding (tag and length included) of the SubjectPublicKeyInfo.
    static func subjectPublicKeyInfo(_ der: [UInt8]) -> ArraySlice<UInt8>? {
        der.withUnsafeBufferPointer { buffer -> Range<Int>? in
            var reader = Reader(buffer)
            guard let certificate = reader.element(tag: 0x30), reader.atEnd else { return nil }
            var outer = Reader(buffer, certificate.content)
            guard let tbs = outer.element(tag: 0x30) else { return nil }
            var fields = Reader(buffer, tbs.content)
            if fields.peekTag == 0xA0 { guard fields.element(tag: 0xA0) != nil else { return nil } }
            // serialNumber, signature, issuer, validity, subject (no array literal: no allocation).
            guard fields.element(tag: 0x02) != nil else { return nil }
            for _ in 0..<4 {
                guard fields.element(tag: 0x30) != nil else { return nil }
            }
            return fields.element(tag: 0x30)?.whole
        }.map { der[$0] }
    }

    private struct Element {
        var whole: Range<Int>
        var content: Range<Int>
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int
        let end: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>? = nil) {
            self.bytes = bytes
            self.position = range?.lowerBound ?? 0
            self.end = range?.upperBound ?? bytes.count
        }

        var atEnd: Bool { position == end }
        var peekTag: UInt8? { position < end ? bytes[position] : nil }

        /// Reads one element with the given single-byte tag and a definite DER length.
        mutating func element(tag: UInt8) -> Element? {
            let start = position
            guard end - position >= 2, bytes[position] == tag else { return nil }
            var index = position + 1
            let first = Int(bytes[index])
            index += 1
            var length = 0
            if first < 0x80 {
                length = first
            } else {
                let count = first & 0x7f
                guard count >= 1, count <= 4, end - index >= count else { return nil }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[index])
                    index += 1
                }
            }
            guard length <= end - index else { return nil }
            position = index + length
            return Element(whole: start..<position, content: index..<position)
        }
    }
}
