/// The few fields of a DER certificate the pinning policy needs, found by walking the encoding
/// without building a model, so that pin matching costs well under a microsecond per certificate.
///
/// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
/// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... } (RFC 5280 §4.1).
/// Anything that does not have this shape yields nil: the caller treats it as "no match".
package enum DERCertificate {
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

    /// Why `der` is not in the Distinguished Encoding Rules, or nil when every element of it is:
    /// one element filling the bytes, every length definite and in its shortest form, every
    /// constructed element exactly filled by the elements inside it, at most 64 levels deep.
    ///
    /// RFC 5280 §4.1 requires certificates in DER. OpenSSL's `d2i_X509` also takes BER (an
    /// indefinite length, a padded length) and then verifies the signature over the bytes as sent,
    /// so the same certificate would have many encodings, and fingerprints, pins and deny lists
    /// keyed on the bytes could be sidestepped. Back ends refuse such a certificate as malformed.
    /// (Primitive contents, such as INTEGER minimality, are left to the libraries.)
    package static func encodingProblem(_ der: [UInt8]) -> String? {
        der.withUnsafeBufferPointer { buffer -> String? in
            var reader = Reader(buffer)
            if let problem = strictProblem(&reader, depth: 0) { return problem }
            return reader.atEnd ? nil : "\(buffer.count - reader.position) byte(s) follow the certificate"
        }
    }

    /// Reads one element strictly, descending into constructed ones.
    private static func strictProblem(_ reader: inout Reader, depth: Int) -> String? {
        guard depth < 64 else { return "nested more than 64 levels deep" }
        let start = reader.position
        guard reader.end - reader.position >= 2 else { return "truncated at offset \(start)" }
        let tag = reader.bytes[reader.position]
        var index = reader.position + 1
        if tag & 0x1F == 0x1F {  // high tag number form: base-128 digits, the last without bit 8
            while index < reader.end && reader.bytes[index] & 0x80 != 0 { index += 1 }
            index += 1
            guard index < reader.end else { return "truncated tag at offset \(start)" }
        }
        let first = Int(reader.bytes[index])
        index += 1
        var length = 0
        if first == 0x80 {
            return "indefinite length (BER, not DER) at offset \(start)"
        } else if first < 0x80 {
            length = first
        } else {
            let count = first & 0x7F
            guard count <= 4, reader.end - index >= count else { return "unsupported or truncated length at offset \(start)" }
            guard reader.bytes[index] != 0 else { return "length with a leading zero byte (not DER) at offset \(start)" }
            for _ in 0..<count {
                length = length << 8 | Int(reader.bytes[index])
                index += 1
            }
            guard length >= 0x80 else { return "long-form length for \(length) bytes (not DER) at offset \(start)" }
            guard length >> ((count - 1) * 8) != 0 else { return "length longer than needed (not DER) at offset \(start)" }
        }
        guard length <= reader.end - index else { return "length \(length) at offset \(start) runs past the end" }
        if tag & 0x20 != 0 {
            var inner = Reader(reader.bytes, index..<(index + length))
            while !inner.atEnd {
                if let problem = strictProblem(&inner, depth: depth + 1) { return problem }
            }
        }
        reader.position = index + length
        return nil
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
