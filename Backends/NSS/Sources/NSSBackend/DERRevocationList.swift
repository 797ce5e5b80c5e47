/// A CRL read as DER bytes for the one field ``NSSWorkers`` needs: the issuer name NSS's CRL cache
/// files it under. Not a check of the CRL: NSS reads it (CERT_CacheCRL) and judges it.
///
/// CertificateList ::= SEQUENCE { tbsCertList SEQUENCE { version INTEGER OPTIONAL, signature
/// AlgorithmIdentifier, issuer Name, ... }, ... } (RFC 5280 §5.1).
enum DERRevocationList {
    /// The complete encoding (tag and length included) of the issuer Name, or nil when `der` does
    /// not begin with the shape above.
    static func issuer(_ der: [UInt8]) -> ArraySlice<UInt8>? {
        guard let list = element(der, at: 0), list.tag == 0x30,
              let tbs = element(der, at: list.contentStart), tbs.tag == 0x30,
              var field = element(der, at: tbs.contentStart) else { return nil }
        if field.tag == 0x02 {
            guard let next = element(der, at: field.end) else { return nil }
            field = next
        }
        // signature, then issuer.
        guard field.tag == 0x30, let issuer = element(der, at: field.end), issuer.tag == 0x30,
              issuer.end <= tbs.end else { return nil }
        return der[issuer.start..<issuer.end]
    }

    private struct Element {
        let tag: UInt8
        let start: Int
        let contentStart: Int
        let end: Int
    }

    /// The element at `offset`: a one-byte tag and a definite length (short or long form, up to four
    /// length bytes), inside `der`.
    private static func element(_ der: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= der.count else { return nil }
        let tag = der[offset]
        var index = offset + 1
        let first = Int(der[index])
        index += 1
        var length = 0
        if first < 0x80 {
            length = first
        } else {
            let count = first & 0x7F
            guard count >= 1, count <= 4, index + count <= der.count else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(der[index])
                index += 1
            }
        }
        guard length <= der.count - index else { return nil }
        return Element(tag: tag, start: offset, contentStart: index, end: index + length)
    }
}
