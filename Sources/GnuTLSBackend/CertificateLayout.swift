/// Where the subject name and the subject public key info sit inside a DER certificate.
///
/// The path builder compares these byte for byte, the way GnuTLS itself recognises a presented
/// certificate as a trusted one with "the same name and key" (`_gnutls_check_if_same_key`). Finding
/// them needs only the TLV headers of the first seven fields, so it is done here without allocating
/// rather than by asking GnuTLS for copies. GnuTLS has already accepted the certificate; a layout this
/// reader does not understand just yields `nil`, and the certificate is then only ever matched to an
/// anchor by identical bytes.
struct CertificateLayout: Hashable {
    /// The complete `subject` Name TLV.
    let subject: Range<Int>
    /// The complete `subjectPublicKeyInfo` TLV.
    let subjectPublicKeyInfo: Range<Int>

    init?(der: [UInt8]) {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
        //   signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }
        guard let certificate = Self.element(in: der, at: 0, end: der.count), certificate.tag == 0x30,
              let tbs = Self.element(in: der, at: certificate.content.lowerBound, end: certificate.content.upperBound),
              tbs.tag == 0x30
        else { return nil }
        var cursor = tbs.content.lowerBound
        var found: (subject: Range<Int>?, spki: Range<Int>?) = (nil, nil)
        var index = 0
        while cursor < tbs.content.upperBound, found.spki == nil {
            guard let field = Self.element(in: der, at: cursor, end: tbs.content.upperBound) else { return nil }
            if index == 0 && field.tag == 0xA0 {
                // The explicit version tag is optional; it does not count as one of the positional fields.
                cursor = field.whole.upperBound
                continue
            }
            // Positional fields after the version: 0 serial, 1 signature, 2 issuer, 3 validity, 4 subject, 5 spki.
            switch index {
            case 4:
                guard field.tag == 0x30 else { return nil }
                found.subject = field.whole
            case 5:
                guard field.tag == 0x30 else { return nil }
                found.spki = field.whole
            default:
                break
            }
            index += 1
            cursor = field.whole.upperBound
        }
        guard let subject = found.subject, let spki = found.spki else { return nil }
        self.subject = subject
        self.subjectPublicKeyInfo = spki
    }

    private struct Element {
        var tag: UInt8
        var content: Range<Int>
        var whole: Range<Int>
    }

    /// Reads one DER TLV with a low tag number and a definite length of at most four length octets.
    private static func element(in der: [UInt8], at start: Int, end: Int) -> Element? {
        guard start >= 0, end <= der.count, start + 2 <= end else { return nil }
        let tag = der[start]
        guard tag & 0x1F != 0x1F else { return nil }
        var cursor = start + 1
        let first = der[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), cursor + count <= end else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(der[cursor])
                cursor += 1
            }
        }
        guard length <= end - cursor else { return nil }
        return Element(tag: tag, content: cursor..<(cursor + length), whole: start..<(cursor + length))
    }
}
