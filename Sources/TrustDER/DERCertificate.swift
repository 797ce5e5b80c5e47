import TrustCore
/// Certificates read as DER bytes, without building a model: the few fields the pinning policy
/// needs, so that pin matching costs well under a microsecond per certificate, and the strict DER
/// check every back end applies before trusting a certificate's bytes (public for back-end authors:
/// ``encodingProblem(_:)``).
///
/// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
/// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... } (RFC 5280 §4.1).
public enum DERCertificate {
    /// The complete DER encoding (tag and length included) of the SubjectPublicKeyInfo, or nil when
    /// `der` does not have the shape above with DER headers (the caller treats that as "no match").
    package static func subjectPublicKeyInfo(_ der: [UInt8]) -> ArraySlice<UInt8>? {
        withTBSFields(der) { fields -> Range<Int>? in
            guard (try? fields.next(0x02, "TBSCertificate.serialNumber")) != nil else { return nil }
            // signature, issuer, validity, subject (no array literal: no allocation).
            for _ in 0..<4 {
                guard (try? fields.next(0x30, "TBSCertificate")) != nil else { return nil }
            }
            return (try? fields.next(0x30, "TBSCertificate.subjectPublicKeyInfo"))?.whole
        }.map { der[$0] }
    }

    /// Whether `der` is self-issued in RFC 5280's sense (§6.1: the issuer and subject names are
    /// the same), compared as encoded; false when the certificate cannot be read. Independent of key
    /// identifiers: a self-issued certificate with a new key (a key rollover) is still self-issued.
    public static func isSelfIssued(_ der: [UInt8]) -> Bool {
        guard let names = names(der) else { return false }
        return names.issuer.elementsEqual(names.subject)
    }

    /// Why `der` is not one certificate in the Distinguished Encoding Rules, or nil when it is.
    ///
    /// The whole certificate is read against its schema (RFC 5280 §4.1), down to the values inside
    /// the signature and every extension, and each element is held to X.690's DER rules:
    /// - every length definite and in its shortest form, every element exactly filling the one
    ///   around it, nothing after the certificate;
    /// - BOOLEAN one byte, 0x00 or 0xFF; INTEGER and ENUMERATED not empty and minimal; BIT STRING
    ///   primitive, its unused-bit count 0 to 7 (0 when empty) and the unused bits zero; NULL empty;
    ///   OBJECT IDENTIFIER arcs minimal and finished; only SEQUENCE and SET constructed among
    ///   universal types; UTCTime `YYMMDDHHMMSSZ` and GeneralizedTime `YYYYMMDDHHMMSSZ` (a DER
    ///   fraction only inside values of unknown syntax) with a valid date; SET OF in ascending order;
    /// - no DEFAULT value written out: version v1, Extension.critical FALSE, BasicConstraints.cA
    ///   FALSE, GeneralSubtree.minimum 0, the FALSE flags of IssuingDistributionPoint;
    /// - the schema's components, in order, none missing, none unknown: a version only v2 or v3,
    ///   unique identifiers only from v2, extensions only in v3, SEQUENCE OFs that must not be empty
    ///   not empty;
    /// - each extnValue a DER OCTET STRING, whose value is: exactly one element of the extension's
    ///   schema for the extensions given one here (all of RFC 5280's own but
    ///   subjectDirectoryAttributes); exactly one element by the generic rules for those without one
    ///   that a back end's library decodes while verifying (`InterpretedExtension.all`: Netscape
    ///   certificate type, proxyCertInfo, the RFC 3779 address and AS blocks, TLS feature, OCSP
    ///   no-check, subjectDirectoryAttributes); and opaque bytes, not read, for every other
    ///   extension, critical or not. RFC 5280 §4.2: "A certificate-using system MUST reject the
    ///   certificate if it encounters a critical extension it does not recognize or a critical
    ///   extension that contains information that it cannot process. A non-critical extension MAY
    ///   be ignored if it is not recognized, but MUST be processed if it is recognized." No library
    ///   reads such a value, so it cannot be read two ways, and whether it is "the DER encoding of an
    ///   ASN.1 value corresponding to the extension type" (§4.1) cannot be told without the type;
    ///   refusing it would refuse chains every library trusts;
    /// - an ECDSA or DSA signature, an RSA or DSA public key exactly one DER value of their own schema.
    /// Values of unknown syntax (ANY, the extensions above read by the generic rules) are held to the
    /// generic rules to 64 levels deep; a universal type certificates never use (REAL, EXTERNAL, ...)
    /// is a problem: a limit of this check, which implements no DER rules for those types and so
    /// cannot tell their DER from BER, not a rule of X.690.
    /// Not enforced, as trusted roots break them and only an issuer can (the bytes are signed):
    /// dropping trailing zero bits of keyUsage (X.690 §11.2.2), and UTCTime for 1950 to 2049 (an
    /// RFC 5280 profile rule, not DER). Nor are the characters of strings (IA5String,
    /// PrintableString) checked: their values, not their encoding.
    ///
    /// A CRL (CertificateList, RFC 5280 §5.1) is read by the same rules against its own schema,
    /// since the OpenSSL back end checks the CRLs of a request with this function too: a
    /// TBSCertList is told apart by the time (thisUpdate) where a certificate has its validity.
    ///
    /// RFC 5280 §4.1 has the data to be signed (the TBSCertificate) in DER, and RFC 8446 §4.4.2 sends
    /// each certificate "DER-encoded". OpenSSL's `d2i_X509` and GnuTLS also take BER
    /// (an indefinite length, a padded INTEGER, BOOLEAN 0x01, an explicit DEFAULT, bytes after a
    /// known extension's value) and then verify the signature over the bytes as sent, so the same
    /// certificate would have many encodings, and fingerprints, pins and deny lists keyed on the
    /// bytes could be sidestepped. Back ends refuse such a certificate as malformed.
    ///
    /// Never traps and allocates nothing when the certificate is DER; the message (what, in which
    /// field, at which byte offset, and in which extension) is made only for a problem.
    public static func encodingProblem(_ der: [UInt8]) -> String? {
        der.withUnsafeBufferPointer { buffer -> String? in
            do throws(DERProblem) {
                try checkSigned(DERReader(buffer))
                return nil
            } catch {
                return error.description(in: buffer)
            }
        }
    }

    /// Certificate and CertificateList ::= SEQUENCE { tbs, signatureAlgorithm, signatureValue }.
    private static func checkSigned(_ reader: DERReader) throws(DERProblem) {
        var reader = reader
        let signed = try reader.next(0x30, "Certificate")
        guard reader.atEnd else {
            throw DERProblem(reason: .followingBytes(reader.end - reader.position), offset: reader.position, field: "Certificate")
        }
        var fields = reader.inside(signed)
        let tbs = try fields.next(0x30, "Certificate.tbsCertificate")
        let algorithm = try fields.next(0x30, "Certificate.signatureAlgorithm")
        let signature = try fields.next(0x03, "Certificate.signatureValue")
        try fields.expectEnd("Certificate")
        if try isCertificateList(fields.inside(tbs)) {
            try checkTBSCertList(fields.inside(tbs))
        } else {
            try checkTBSCertificate(fields.inside(tbs))
        }
        let algorithmID = try checkAlgorithmIdentifier(fields.inside(algorithm), "Certificate.signatureAlgorithm")
        try checkSignatureValue(fields, signature, algorithm: algorithmID)
    }

    /// Whether a TBS is a TBSCertList: it has a time where a TBSCertificate has its validity (the
    /// third SEQUENCE after the serial number), or starts with a SEQUENCE where a certificate has
    /// its serial number.
    private static func isCertificateList(_ reader: DERReader) throws(DERProblem) -> Bool {
        var reader = reader
        guard let first = reader.peekTag, first != 0xA0 else { return false }
        if first == 0x30 { return true }
        for _ in 0..<3 { _ = try reader.next("TBSCertificate") }
        return reader.peekTag == 0x17 || reader.peekTag == 0x18
    }

    /// TBSCertificate (RFC 5280 §4.1).
    private static func checkTBSCertificate(_ reader: DERReader) throws(DERProblem) {
        var reader = reader
        // Version ::= INTEGER { v1(0), v2(1), v3(2) }, [0] EXPLICIT, DEFAULT v1.
        var version = 0
        if let tagged = try reader.optional(0xA0, "TBSCertificate.version") {
            let value = try reader.only(tagged, "TBSCertificate.version")
            version = try checkVersion(reader, value, "TBSCertificate.version", allowed: 1...2)
        }
        try reader.integer(reader.next(0x02, "TBSCertificate.serialNumber"), "TBSCertificate.serialNumber")
        try checkAlgorithmIdentifier(reader.inside(reader.next(0x30, "TBSCertificate.signature")), "TBSCertificate.signature")
        try checkName(reader.next(0x30, "TBSCertificate.issuer"), in: reader, "TBSCertificate.issuer")
        var validity = reader.inside(try reader.next(0x30, "TBSCertificate.validity"))
        try checkTime(&validity, "Validity.notBefore")
        try checkTime(&validity, "Validity.notAfter")
        try validity.expectEnd("Validity")
        try checkName(reader.next(0x30, "TBSCertificate.subject"), in: reader, "TBSCertificate.subject")
        try checkSubjectPublicKeyInfo(reader.inside(reader.next(0x30, "TBSCertificate.subjectPublicKeyInfo")))
        // UniqueIdentifier ::= BIT STRING, [1] and [2] IMPLICIT, only in v2 and v3 (RFC 5280 §4.1.2.8).
        try checkUniqueIdentifier(&reader, 0x81, version: version, "TBSCertificate.issuerUniqueID")
        try checkUniqueIdentifier(&reader, 0x82, version: version, "TBSCertificate.subjectUniqueID")
        if let tagged = try reader.optional(0xA3, "TBSCertificate.extensions") {
            guard version == 2 else { throw DERProblem(reason: .notInVersion(version), offset: tagged.offset, field: "TBSCertificate.extensions") }
            try checkExtensions(reader.only(tagged, "TBSCertificate.extensions"), in: reader)
        }
        try reader.expectEnd("TBSCertificate")
    }

    /// TBSCertList (RFC 5280 §5.1).
    private static func checkTBSCertList(_ reader: DERReader) throws(DERProblem) {
        var reader = reader
        // Version OPTIONAL, and if present v2 (RFC 5280 §5.1.2.1): absent is v1.
        var version = 0
        if let value = try reader.optional(0x02, "TBSCertList.version") {
            version = try checkVersion(reader, value, "TBSCertList.version", allowed: 1...1)
        }
        try checkAlgorithmIdentifier(reader.inside(reader.next(0x30, "TBSCertList.signature")), "TBSCertList.signature")
        try checkName(reader.next(0x30, "TBSCertList.issuer"), in: reader, "TBSCertList.issuer")
        try checkTime(&reader, "TBSCertList.thisUpdate")
        if reader.peekTag == 0x17 || reader.peekTag == 0x18 { try checkTime(&reader, "TBSCertList.nextUpdate") }
        if let revoked = try reader.optional(0x30, "TBSCertList.revokedCertificates") {
            try reader.sequences(revoked, "TBSCertList.revokedCertificates", of: "revokedCertificates") { (entry: inout DERReader) throws(DERProblem) in
                try entry.integer(entry.next(0x02, "revokedCertificates.userCertificate"), "revokedCertificates.userCertificate")
                try checkTime(&entry, "revokedCertificates.revocationDate")
                if let extensions = try entry.optional(0x30, "revokedCertificates.crlEntryExtensions") {
                    guard version == 1 else { throw DERProblem(reason: .notInVersion(version), offset: extensions.offset, field: "revokedCertificates.crlEntryExtensions") }
                    try checkExtensions(extensions, in: entry)
                }
            }
        }
        if let tagged = try reader.optional(0xA0, "TBSCertList.crlExtensions") {
            guard version == 1 else { throw DERProblem(reason: .notInVersion(version), offset: tagged.offset, field: "TBSCertList.crlExtensions") }
            try checkExtensions(reader.only(tagged, "TBSCertList.crlExtensions"), in: reader)
        }
        try reader.expectEnd("TBSCertList")
    }

    private static func checkUniqueIdentifier(_ reader: inout DERReader, _ tag: UInt8, version: Int, _ field: StaticString) throws(DERProblem) {
        guard let unique = try reader.optional(tag, field) else { return }
        guard version >= 1 else { throw DERProblem(reason: .notInVersion(version), offset: unique.offset, field: field) }
        try reader.bitString(unique, field)
    }

    /// A version INTEGER: DER, not the DEFAULT v1 written out, and one of `allowed`.
    private static func checkVersion(_ reader: DERReader, _ value: DERElement, _ field: StaticString, allowed: ClosedRange<Int>) throws(DERProblem) -> Int {
        try value.require(0x02, field)
        try reader.integer(value, field)
        let number = value.content.count == 1 ? Int(reader.bytes[value.content.lowerBound]) : -1
        if number == 0 { throw DERProblem(reason: .explicitDefault("version v1"), offset: value.offset, field: field) }
        guard allowed.contains(number) else { throw DERProblem(reason: .unknownVersion(number), offset: value.offset, field: field) }
        return number
    }

    /// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }, as RFC 5280 §4.1.2.5 encodes it.
    private static func checkTime(_ reader: inout DERReader, _ field: StaticString) throws(DERProblem) {
        let time = try reader.next(field)
        guard time.tag == 0x17 || time.tag == 0x18 else {
            throw DERProblem(reason: .unexpectedTag(found: time.tag, expected: 0x17), offset: time.offset, field: field)
        }
        try reader.time(time, rfc5280: true, field)
    }

    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }.
    /// Returns the algorithm element.
    @discardableResult
    static func checkAlgorithmIdentifier(_ reader: DERReader, _ field: StaticString) throws(DERProblem) -> DERElement {
        var reader = reader
        let algorithm = try reader.next(0x06, field)
        try reader.objectIdentifier(algorithm, field)
        if !reader.atEnd { try reader.checkAny(reader.next(field), field, depth: 0) }
        try reader.expectEnd(field)
        return algorithm
    }

    /// Name ::= SEQUENCE OF RelativeDistinguishedName (RFC 5280 §4.1.2.4); may be empty.
    static func checkName(_ name: DERElement, in reader: DERReader, _ field: StaticString) throws(DERProblem) {
        var names = reader.inside(name)
        while !names.atEnd {
            try checkRelativeDistinguishedName(names.next(0x31, field), in: names, field)
        }
    }

    /// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue, in DER order;
    /// AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }.
    static func checkRelativeDistinguishedName(_ set: DERElement, in reader: DERReader, _ field: StaticString) throws(DERProblem) {
        var previous: Range<Int>? = nil
        try reader.nonEmpty(set, field) { (attributes: inout DERReader) throws(DERProblem) in
            let attribute = try attributes.next(0x30, field)
            var parts = attributes.inside(attribute)
            try parts.objectIdentifier(parts.next(0x06, "AttributeTypeAndValue.type"), "AttributeTypeAndValue.type")
            try parts.checkAny(parts.next("AttributeTypeAndValue.value"), "AttributeTypeAndValue.value", depth: 0)
            try parts.expectEnd("AttributeTypeAndValue")
            if let previous, !attributes.ascending(previous, attribute.whole) {
                throw DERProblem(reason: .setNotSorted, offset: attribute.offset, field: field)
            }
            previous = attribute.whole
        }
    }

    /// SubjectPublicKeyInfo ::= SEQUENCE { algorithm, subjectPublicKey BIT STRING }; an RSA key is
    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 A.1.1), a
    /// DSA key an INTEGER (RFC 3279 §2.3.2), each exactly filling the BIT STRING.
    private static func checkSubjectPublicKeyInfo(_ reader: DERReader) throws(DERProblem) {
        var reader = reader
        let algorithm = try checkAlgorithmIdentifier(reader.inside(reader.next(0x30, "SubjectPublicKeyInfo.algorithm")), "SubjectPublicKeyInfo.algorithm")
        let key = try reader.next(0x03, "SubjectPublicKeyInfo.subjectPublicKey")
        try reader.expectEnd("SubjectPublicKeyInfo")
        if reader.matches(algorithm, OID.rsaEncryption) || reader.matches(algorithm, OID.rsassaPSS) {
            let start = try reader.octetBitString(key, "SubjectPublicKeyInfo.subjectPublicKey")
            try checkIntegers(reader.only(key, from: start, "RSAPublicKey"), in: reader, "RSAPublicKey")
        } else if reader.matches(algorithm, OID.dsa) {
            let start = try reader.octetBitString(key, "SubjectPublicKeyInfo.subjectPublicKey")
            let value = try reader.only(key, from: start, "DSAPublicKey")
            try value.require(0x02, "DSAPublicKey")
            try reader.integer(value, "DSAPublicKey")
        } else {
            try reader.bitString(key, "SubjectPublicKeyInfo.subjectPublicKey")
        }
    }

    /// The signature BIT STRING; for ECDSA and DSA, whose signatures are DER themselves
    /// (ECDSA-Sig-Value, Dss-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, RFC 3279 §2.2), that
    /// value exactly filling it: a BER signature would give one certificate many encodings.
    private static func checkSignatureValue(_ reader: DERReader, _ signature: DERElement, algorithm: DERElement) throws(DERProblem) {
        let field: StaticString = "Certificate.signatureValue"
        guard reader.matches(algorithm, OID.ecdsaSignatures, prefix: true) || reader.matches(algorithm, OID.dsaWithSHA1)
            || reader.matches(algorithm, OID.nistSignatures, lastArc: 1...12)
        else {
            try reader.bitString(signature, field)
            return
        }
        let start = try reader.octetBitString(signature, field)
        try checkIntegers(reader.only(signature, from: start, "ECDSA-Sig-Value"), in: reader, "ECDSA-Sig-Value")
    }

    /// SEQUENCE { INTEGER, INTEGER }, exactly.
    private static func checkIntegers(_ sequence: DERElement, in reader: DERReader, _ field: StaticString) throws(DERProblem) {
        try sequence.require(0x30, field)
        var values = reader.inside(sequence)
        try values.integer(values.next(0x02, field), field)
        try values.integer(values.next(0x02, field), field)
        try values.expectEnd(field)
    }
}

/// The content octets of the OBJECT IDENTIFIERs the walker gives a schema to.
enum OID {
    /// 1.2.840.113549.1.1.1
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// 1.2.840.113549.1.1.10, whose keys are RSAPublicKey too (RFC 4055 §1.2).
    static let rsassaPSS: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0A]
    /// 1.2.840.10040.4.1
    static let dsa: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x01]
    /// 1.2.840.10040.4.3
    static let dsaWithSHA1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x03]
    /// 1.2.840.10045.4: ecdsa-with-SHA1 (.1), ecdsa-with-SHA2 (.3.*) (RFC 5758 §3.2).
    static let ecdsaSignatures: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04]
    /// 2.16.840.1.101.3.4.3: dsa-with-sha224 (.1) to id-ecdsa-with-sha3-512 (.12); from .13 on,
    /// RSA PKCS #1 v1.5 with SHA-3, whose signatures are not DER.
    static let nistSignatures: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03]
}
