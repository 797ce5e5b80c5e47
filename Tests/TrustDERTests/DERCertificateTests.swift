import TestPKI
import Testing
@testable import TrustDER
@testable import TrustVectors

/// The strict DER check back ends apply before trusting any certificate bytes (RFC 5280 §4.1):
/// one hand-made case per rule, each with the reason it must give.
@Suite struct DERCertificateTests {
    @Test func aDERCertificateHasNoEncodingProblem() throws {
        let der = TestPKI.leaf.der
        #expect(DERCertificate.encodingProblem(der) == nil)
    }

    @Test func berFormsAreRefusedWithTheReason() throws {
        let der = TestPKI.leaf.der
        // The outer length is long form; rewrap the content in the forms DER forbids.
        let (headerLength, content) = try #require(Self.split(der))
        #expect(headerLength > 0)
        let cases: [([UInt8], String)] = [
            ([0x30, 0x80] + content + [0x00, 0x00], "indefinite length"),
            ([0x30, 0x83, 0x00] + Self.twoBytes(content.count) + content, "leading zero"),
            (der + [0x00], "1 byte(s) follow the encoded value in Certificate at offset \(der.count)"),
            ([0x30, 0x81, 0x05, 0x02, 0x01, 0x01, 0x05, 0x00], "long-form length for 5 bytes"),
            ([0x30, 0x03, 0x02, 0x05, 0x01], "runs past the end"),
            (Array(repeating: [0x30, 0x80], count: 70).flatMap { $0 }, "indefinite length"),
            ([0x30], "truncated"),
            ([], "missing element in Certificate at offset 0"),
        ]
        for (bytes, problem) in cases {
            let found = DERCertificate.encodingProblem(bytes)
            #expect(found?.contains(problem) == true, "\(problem): \(String(describing: found))")
        }
        // Nesting is bounded, whatever the input.
        let deep = (0..<100).reduce([UInt8]()) { inner, _ in [0x30, UInt8(inner.count)] + inner }.suffix(200)
        #expect(DERCertificate.encodingProblem(Array(deep)) != nil)
    }

    /// The message says what, in which field and extension, and where.
    @Test func explicitCAFalseIsNamedWithItsOffset() throws {
        var leaf = try Self.leaf()
        try leaf.carrying(Self.extensionValue(0)) { $0[[0]].children!.insert(.primitive(0x01, [0x00]), at: 0) }
        let der = leaf.encoded
        let offset = try #require(der.firstRange(of: [0x30, 0x03, 0x01, 0x01, 0x00])).lowerBound + 2
        #expect(DERCertificate.encodingProblem(der) == "extension 2.5.29.19: explicitly encoded DEFAULT FALSE (DER omits it) in BasicConstraints.cA at offset \(offset)")
    }

    /// One change to the P-256 (or RSA) leaf per rule, and the words the reason must contain.
    static var rules: [(name: String, keyType: String, change: (inout DERTree) throws -> Void, reason: String)] { [
        ("serial padded", "p256", { $0[serial].content.insert(0x00, at: 0) }, "INTEGER with a redundant leading byte (not DER) in TBSCertificate.serialNumber"),
        ("negative serial padded", "p256", { $0[serial].content = [0xFF, 0x80] }, "INTEGER with a redundant leading byte"),
        ("empty serial", "p256", { $0[serial].content = [] }, "empty INTEGER in TBSCertificate.serialNumber"),
        ("critical 0x01", "p256", { $0[extensionField(0, 1)].content = [0x01] }, "extension 2.5.29.19: BOOLEAN 0x01 (DER TRUE is 0xff) in Extension.critical"),
        ("BOOLEAN of two bytes", "p256", { $0[extensionField(0, 1)].content = [0xFF, 0xFF] }, "BOOLEAN not exactly one byte"),
        ("explicit critical FALSE", "p256", { $0[extensionAt(2)].children!.insert(.primitive(0x01, [0x00]), at: 1) },
         "extension 2.5.29.37: explicitly encoded DEFAULT FALSE (DER omits it) in Extension.critical"),
        ("explicit version v1", "p256", { $0[[0, 0, 0]].content = [0x00] }, "explicitly encoded DEFAULT version v1 (DER omits it) in TBSCertificate.version"),
        ("version v4", "p256", { $0[[0, 0, 0]].content = [0x03] }, "unknown version value 3"),
        ("extensions in v1", "p256", { $0[[0]].children!.removeFirst() }, "field not allowed in version v1 in TBSCertificate.extensions"),
        ("byte after extnValue", "p256", { try $0.carrying(extensionValue(5)) { $0.trailer = [0x00] } },
         "extension 2.5.29.17: 1 byte(s) follow the encoded value in Extension.extnValue"),
        ("empty extnValue", "p256", { $0[extensionValue(5)].content = [] }, "extension 2.5.29.17: missing element in Extension.extnValue"),
        ("element after extensions", "p256", { $0[[0]].children!.append(.primitive(0x05, [])) }, "unexpected element (tag 0x05) after the last component in TBSCertificate"),
        ("constructed extnValue", "p256", { $0[extensionValue(3)] = .constructed(0x24, [$0[extensionValue(3)]]) },
         "extension 2.5.29.14: tag 0x24 where 0x04 is required in Extension.extnValue"),
        ("ECDSA r padded", "p256", { try $0.carrying([2]) { $0[[0, 0]].content.insert(0x00, at: 0) } }, "INTEGER with a redundant leading byte (not DER) in ECDSA-Sig-Value"),
        ("ECDSA long-form length", "p256", { try $0.carrying([2]) { $0[[0]].paddedLength = true } }, "long-form length for"),
        ("ECDSA trailing byte", "p256", { try $0.carrying([2]) { $0.trailer = [0x00] } }, "1 byte(s) follow the encoded value in ECDSA-Sig-Value"),
        ("ECDSA three integers", "p256", { try $0.carrying([2]) { $0[[0]].children!.append(.primitive(0x02, [0x01])) } }, "unexpected element (tag 0x02) after the last component in ECDSA-Sig-Value"),
        ("signature unused bits 8", "ed25519", { $0[[2]].content[0] = 8 }, "BIT STRING with 8 unused bits"),
        ("UTCTime without seconds", "p256", { $0[notBefore].content.removeSubrange(10..<12) }, "UTCTime not in the DER form YYMMDDHHMMSSZ in Validity.notBefore"),
        ("UTCTime with an offset", "p256", { $0[notBefore].content = Array("250101000000+0000".utf8) }, "UTCTime not in the DER form"),
        ("UTCTime month 13", "p256", { $0[notBefore].content = Array("251301000000Z".utf8) }, "UTCTime that is not a valid date and time"),
        ("UTCTime 29 February 2025", "p256", { $0[notBefore].content = Array("250229000000Z".utf8) }, "not a valid date and time"),
        ("GeneralizedTime with a fraction", "p256", { $0[notAfter] = .primitive(0x18, Array("20500101000000.5Z".utf8)) }, "GeneralizedTime not in the DER form"),
        ("GeneralizedTime without Z", "p256", { $0[notAfter] = .primitive(0x18, Array("20500101000000".utf8)) }, "GeneralizedTime not in the DER form"),
        ("keyUsage unused bits set", "p256", { try $0.carrying(extensionValue(1)) { $0[[0]].content = [0x07, 0x81] } }, "extension 2.5.29.15: BIT STRING with unused bits not zero (not DER) in KeyUsage"),
        ("NULL with content", "rsa2048", { $0[[0, 6, 0, 1]].content = [0x00] }, "NULL with content in SubjectPublicKeyInfo.algorithm"),
        ("OID arc with 0x80", "p256", { $0[extensionField(2, 0)].content = [0x55, 0x80, 0x1D, 0x25] }, "OBJECT IDENTIFIER arc with a leading 0x80 byte (not DER) in Extension.extnID"),
        ("OID unfinished", "p256", { $0[[1, 0]].content[$0[[1, 0]].content.count - 1] |= 0x80 }, "OBJECT IDENTIFIER whose last arc is unfinished in Certificate.signatureAlgorithm"),
        ("empty OID", "p256", { $0[[0, 2, 0]].content = [] }, "empty OBJECT IDENTIFIER in TBSCertificate.signature"),
        ("constructed string in a name", "p256", { $0[subjectCommonName] = .constructed(0x2C, [$0[subjectCommonName]]) }, "constructed encoding of universal type 12 (BER, not DER) in AttributeTypeAndValue.value"),
        ("primitive SEQUENCE in a name", "p256", { $0[subjectCommonName] = .primitive(0x10, []) }, "primitive encoding of universal type 16"),
        ("RDN SET out of order", "p256", { $0[[0, 5]] = try multiValuedName($0[[0, 5]], sorted: false) }, "SET OF elements not in ascending DER order in TBSCertificate.subject"),
        ("empty RDN", "p256", { $0[[0, 5]].children![0].children = [] }, "empty SEQUENCE or SET where SIZE (1..MAX) is required in TBSCertificate.subject"),
        ("RSA modulus padded", "rsa2048", { try $0.carrying([0, 6, 1]) { $0[[0, 0]].content.insert(0x00, at: 0) } }, "INTEGER with a redundant leading byte (not DER) in RSAPublicKey"),
        ("RSA key with a byte after it", "rsa2048", { try $0.carrying([0, 6, 1]) { $0.trailer = [0x00] } }, "1 byte(s) follow the encoded value in RSAPublicKey"),
        ("two algorithm parameters", "rsa2048", { $0[[1]].children!.append(.primitive(0x05, [])) }, "unexpected element (tag 0x05) after the last component in Certificate.signatureAlgorithm"),
        ("nameConstraints minimum 0", "p256", { try addExtension(&$0, [0x55, 0x1D, 0x1E], nameConstraints(minimum: true)) },
         "extension 2.5.29.30: explicitly encoded DEFAULT 0 (DER omits it) in GeneralSubtree.minimum"),
        ("issuingDistributionPoint FALSE", "p256", { try addExtension(&$0, [0x55, 0x1D, 0x1C], .constructed(0x30, [.primitive(0x81, [0x00])])) },
         "extension 2.5.29.28: explicitly encoded DEFAULT FALSE (DER omits it) in IssuingDistributionPoint"),
        ("basicConstraints negative pathLen", "p256", { try addExtension(&$0, [0x55, 0x1D, 0x13], .constructed(0x30, [.primitive(0x01, [0xFF]), .primitive(0x02, [0xFF])])) },
         "negative INTEGER where 0..MAX is required in BasicConstraints.pathLenConstraint"),
        ("GeneralName of unknown tag", "p256", { try addExtension(&$0, [0x55, 0x1D, 0x12], .constructed(0x30, [.primitive(0x89, [0x00])])) },
         "extension 2.5.29.18: tag 0x89 is not a GeneralName in GeneralName"),
        ("interpreted extension with BOOLEAN 0x01", "p256", { try addExtension(&$0, netscapeCertTypeOID, .constructed(0x30, [.primitive(0x01, [0x01])])) },
         "extension 2.16.840.1.113730.1.1: BOOLEAN 0x01 (DER TRUE is 0xff) in Extension.extnValue"),
        ("interpreted extension with REAL", "p256", { try addExtension(&$0, netscapeCertTypeOID, .primitive(0x09, [0x40])) }, "universal type 9, which certificates do not use"),
        ("interpreted extension with end-of-contents", "p256", { try addExtension(&$0, netscapeCertTypeOID, .constructed(0x30, [.primitive(0x00, [])])) }, "end-of-contents octets"),
        ("interpreted extension nested 70 deep", "p256", { try addExtension(&$0, netscapeCertTypeOID, (0..<70).reduce(.primitive(0x05, [])) { inner, _ in .constructed(0x30, [inner]) }) },
         "nested more than 64 levels deep"),
        ("interpreted extension, high tag number 30", "p256", { try addExtension(&$0, netscapeCertTypeOID, .constructed(0x30, [.primitive(0x9F, [0x1E])])) }, "high tag number form not minimal"),
    ] }

    @Test func eachRuleIsEnforcedWithItsReason() throws {
        for rule in Self.rules {
            var leaf = try Self.leaf(rule.keyType)
            try rule.change(&leaf)
            let found = DERCertificate.encodingProblem(leaf.encoded)
            #expect(found?.contains(rule.reason) == true, "\(rule.name): \(found ?? "no problem found")")
        }
    }

    /// What the rules must not refuse: DER that is merely unusual.
    @Test func unusualDERPasses() throws {
        let cases: [(String, (inout DERTree) throws -> Void)] = [
            ("a multi-valued RDN in DER order", { $0[[0, 5]] = try Self.multiValuedName($0[[0, 5]], sorted: true) }),
            ("a negative serial number", { $0[Self.serial].content = [0xFF, 0x7F] }),
            ("GeneralizedTime after 2049", { $0[Self.notAfter] = .primitive(0x18, Array("20500101000000Z".utf8)) }),
            ("GeneralizedTime before 2050 (as Certum Trusted Network CA 2 has)", { $0[Self.notAfter] = .primitive(0x18, Array("20460101000000Z".utf8)) }),
            ("UTCTime on 29 February 2024", { $0[Self.notBefore].content = Array("240229235959Z".utf8) }),
            ("keyUsage with a trailing zero bit (as Trustwave's roots have)", { try $0.carrying(Self.extensionValue(1)) { $0[[0]].content = [0x07, 0x80, 0x00] } }),
            ("nameConstraints minimum 1", { try Self.addExtension(&$0, [0x55, 0x1D, 0x1E], Self.nameConstraints(minimum: false)) }),
            ("an interpreted extension of constructed context tags and a DER GeneralizedTime fraction", {
                try Self.addExtension(&$0, Self.netscapeCertTypeOID, .constructed(0x30, [.constructed(0xA0, [.primitive(0x80, [0x01])]), .primitive(0x18, Array("20250101000000.25Z".utf8))]))
            }),
            ("a GeneralizedTime fraction of 40 digits", {
                try Self.addExtension(&$0, Self.netscapeCertTypeOID, .primitive(0x18, Array("20250101000000.\(String(repeating: "9", count: 40))Z".utf8)))
            }),
        ]
        for (name, change) in cases {
            var leaf = try Self.leaf()
            try change(&leaf)
            #expect(DERCertificate.encodingProblem(leaf.encoded) == nil, "\(name)")
        }
    }

    /// The value of an extension the check has no schema for and no library decodes is opaque (RFC
    /// 5280 §4.2: a verifier may ignore a non-critical extension it does not recognise, and must
    /// refuse a critical one, which the library does for being unrecognised, whatever its bytes).
    @Test func unrecognisedExtensionValuesAreOpaque() throws {
        let values: [(String, [UInt8])] = [
            ("01 02 03 04 (a BOOLEAN of two octets)", [0x01, 0x02, 0x03, 0x04]),
            ("an indefinite length", [0x30, 0x80, 0x05, 0x00, 0x00, 0x00]),
            ("BOOLEAN 0x01", [0x01, 0x01, 0x01]),
            ("two elements", [0x05, 0x00, 0x05, 0x00]),
            ("a long-form length", [0x04, 0x81, 0x01, 0x00]),
            ("a truncated element", [0x30, 0x05, 0x02]),
        ]
        for (name, value) in values {
            for critical in [false, true] {
                var leaf = try Self.leaf()
                Self.addExtension(&leaf, Self.privateOID, critical: critical, extnValue: .primitive(0x04, value))
                #expect(DERCertificate.encodingProblem(leaf.encoded) == nil, "\(critical ? "critical" : "non-critical") with \(name)")
            }
        }
    }

    /// Where a library decodes the value (``InterpretedExtension``) or the check has its schema, the
    /// same bytes are refused, and the message names the extension.
    @Test func interpretedAndSchemaExtensionValuesAreStillRead() throws {
        let schemas: [[UInt8]] = [
            [0x55, 0x1D, 0x0E], [0x55, 0x1D, 0x0F], [0x55, 0x1D, 0x11], [0x55, 0x1D, 0x12], [0x55, 0x1D, 0x13],
            [0x55, 0x1D, 0x1E], [0x55, 0x1D, 0x1F], [0x55, 0x1D, 0x20], [0x55, 0x1D, 0x21], [0x55, 0x1D, 0x23],
            [0x55, 0x1D, 0x24], [0x55, 0x1D, 0x25], [0x55, 0x1D, 0x2E], [0x55, 0x1D, 0x36],
            OID.pkixAccessDescriptions + [0x01], OID.pkixAccessDescriptions + [0x0B],
        ]
        #expect(InterpretedExtension.all.count == 7)
        for oid in schemas + InterpretedExtension.all.map(\.oid) {
            for critical in [false, true] {
                var leaf = try Self.leaf()
                Self.addExtension(&leaf, oid, critical: critical, extnValue: .primitive(0x04, [0x01, 0x02, 0x03, 0x04]))
                let found = DERCertificate.encodingProblem(leaf.encoded)
                #expect(found?.hasPrefix("extension \(DERTree.dotted(oid)): ") == true, "\(DERTree.dotted(oid)): \(found ?? "no problem found")")
            }
        }
        // Each entry's name starts with its OID, so the table says what it holds.
        for entry in InterpretedExtension.all {
            #expect("\(entry.name)".hasPrefix(DERTree.dotted(entry.oid) + " "), "\(entry.name)")
        }
    }

    /// An opaque value is still carried in a DER OCTET STRING: its header is the certificate's.
    @Test func anOpaqueValuesOctetStringMustBeDER() throws {
        var longForm = DERTree.primitive(0x04, [0x01, 0x02, 0x03, 0x04])
        longForm.paddedLength = true
        let cases: [(DERTree, String)] = [
            (longForm, "extension 1.3.6.1.4.1.99999.1: long-form length for 4 bytes (not DER) in Extension.extnValue"),
            (.constructed(0x24, [.primitive(0x04, [0x01, 0x02, 0x03, 0x04])]), "extension 1.3.6.1.4.1.99999.1: tag 0x24 where 0x04 is required in Extension.extnValue"),
            (.primitive(0x05, [0x01, 0x02, 0x03, 0x04]), "tag 0x05 where 0x04 is required in Extension.extnValue"),
        ]
        for (octets, reason) in cases {
            var leaf = try Self.leaf()
            Self.addExtension(&leaf, Self.privateOID, critical: false, extnValue: octets)
            let found = DERCertificate.encodingProblem(leaf.encoded)
            #expect(found?.contains(reason) == true, "\(reason): \(found ?? "no problem found")")
        }
        // An element after the OCTET STRING inside the Extension.
        var leaf = try Self.leaf()
        Self.addExtension(&leaf, Self.privateOID, critical: false, extnValue: .primitive(0x04, [0x01, 0x02, 0x03, 0x04]))
        let added = [0, 7, 0, leaf[[0, 7, 0]].children!.count - 1]
        leaf[added].children!.append(.primitive(0x05, []))
        #expect(DERCertificate.encodingProblem(leaf.encoded)?.contains("unexpected element (tag 0x05) after the last component in Extension") == true)
        // An indefinite length (the OCTET STRING's length octet 0x01 made 0x80).
        leaf = try Self.leaf()
        Self.addExtension(&leaf, Self.privateOID, critical: false, extnValue: .primitive(0x04, [0xEE]))
        var bytes = leaf.encoded
        let value = try #require(bytes.firstRange(of: [0x06, UInt8(Self.privateOID.count)] + Self.privateOID + [0x04, 0x01, 0xEE]))
        bytes[value.upperBound - 2] = 0x80
        #expect(DERCertificate.encodingProblem(bytes)?.contains("indefinite length (BER, not DER) in Extension.extnValue") == true)
    }

    /// The public key is found without a version too (a v1 certificate), and not in BER.
    @Test func subjectPublicKeyInfoOfAVersionOneCertificate() throws {
        var leaf = try Self.leaf()
        leaf[[0]].children!.removeLast()
        leaf[[0]].children!.removeFirst()
        #expect(DERCertificate.subjectPublicKeyInfo(leaf.encoded).map(Array.init) == leaf[[0, 5]].encoded)
        leaf[[0, 1]].paddedLength = true
        #expect(DERCertificate.subjectPublicKeyInfo(leaf.encoded) == nil)
    }

    /// A CRL (read by the OpenSSL back end through the same check) is held to the same rules.
    @Test func revocationListsAreCheckedToo() throws {
        let crl = try #require(CertificateCorpus.limbo().first { $0.name == "crl::revoked-certificate-with-crl crl[0]" }).der
        #expect(DERCertificate.encodingProblem(crl) == nil)
        var tree = try DERTree(crl[...])
        // version, signature, issuer, thisUpdate, nextUpdate, revokedCertificates, [0] crlExtensions.
        #expect(tree[[0]].children?.count == 7)
        tree[[0, 5, 0, 0]].content.insert(0x00, at: 0)
        #expect(DERCertificate.encodingProblem(tree.encoded)?.contains("INTEGER with a redundant leading byte (not DER) in revokedCertificates.userCertificate") == true)
        tree = try DERTree(crl[...])
        tree[[0, 0]].content = [0x00]
        #expect(DERCertificate.encodingProblem(tree.encoded)?.contains("explicitly encoded DEFAULT version v1") == true)
    }

    /// Hostile bytes: every truncation and many random changes of real certificates end in an
    /// answer, never a trap.
    @Test func arbitraryBytesNeverTrap() throws {
        var random = SplitMix64(seed: 0x4445_5254_4553_54)
        for vector in try CertificateCorpus.vectors().prefix(12) {
            for length in 0..<vector.der.count {
                #expect(DERCertificate.encodingProblem(Array(vector.der.prefix(length))) != nil)
            }
            for _ in 0..<2_000 {
                var bytes = vector.der
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 3 {
                    case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                    case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                    default: bytes.remove(at: index)
                    }
                }
                _ = DERCertificate.encodingProblem(bytes)
            }
        }
    }

    // MARK: Building the cases

    static let serial = [0, 1]
    static let notBefore = [0, 4, 0]
    static let notAfter = [0, 4, 1]
    static let subjectCommonName = [0, 5, 2, 0, 1]
    /// 1.3.6.1.4.1.99999.1: no library knows it.
    static let privateOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x86, 0x8D, 0x1F, 0x01]
    /// 2.16.840.1.113730.1.1, Netscape certificate type: no schema here, decoded by libraries, so
    /// read by the generic rules.
    static let netscapeCertTypeOID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x86, 0xF8, 0x42, 0x01, 0x01]

    static func split(_ der: [UInt8]) -> (Int, [UInt8])? {
        guard der.count > 4, der[0] == 0x30, der[1] == 0x82 else { return nil }
        return (4, Array(der.dropFirst(4)))
    }

    static func twoBytes(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func leaf(_ keyType: String = "p256") throws -> DERTree {
        try DERTree(CertificateCorpus.vector("certs/\(keyType)/leaf.pem")[...])
    }

    /// The leaf's extensions: basicConstraints, keyUsage, extKeyUsage, subjectKeyIdentifier,
    /// authorityKeyIdentifier, subjectAltName.
    static func extensionAt(_ index: Int) -> [Int] { [0, 7, 0, index] }
    static func extensionField(_ index: Int, _ field: Int) -> [Int] { extensionAt(index) + [field] }
    /// The extnValue OCTET STRING: the leaf's first two extensions are critical, so it is third.
    static func extensionValue(_ index: Int) -> [Int] { extensionAt(index) + [index < 2 ? 2 : 1] }

    static func addExtension(_ certificate: inout DERTree, _ id: [UInt8], _ value: DERTree) throws {
        certificate[[0, 7, 0]].children!.append(.constructed(0x30, [.primitive(0x06, id), .primitive(0x04, value.encoded)]))
    }

    /// Appends an Extension whose extnValue element (normally an OCTET STRING) is `extnValue`.
    static func addExtension(_ certificate: inout DERTree, _ id: [UInt8], critical: Bool, extnValue: DERTree) {
        let flag: [DERTree] = critical ? [.primitive(0x01, [0xFF])] : []
        certificate[[0, 7, 0]].children!.append(.constructed(0x30, [.primitive(0x06, id)] + flag + [extnValue]))
    }

    static func nameConstraints(minimum: Bool) -> DERTree {
        let subtree = DERTree.constructed(0x30, [.primitive(0x82, Array("example.test".utf8))] + (minimum ? [.primitive(0x80, [0x00])] : [.primitive(0x80, [0x01])]))
        return .constructed(0x30, [.constructed(0xA0, [subtree])])
    }

    /// The name with its first two RDNs made one, their attributes in DER order or not.
    static func multiValuedName(_ name: DERTree, sorted: Bool) throws -> DERTree {
        var name = name
        let first = name.children!.removeFirst().children!, second = name.children!.removeFirst().children!
        let attributes = (first + second).sorted { $0.encoded.lexicographicallyPrecedes($1.encoded) }
        name.children!.insert(.constructed(0x31, sorted ? attributes : attributes.reversed()), at: 0)
        return name
    }
}

extension DERTree {
    /// Changes the value carried in the OCTET or BIT STRING at `path`.
    mutating func carrying(_ path: [Int], _ change: (inout DERTree) -> Void) throws {
        try self[path].carry(after: self[path].tag == 0x03 ? 1 : 0)
        change(&self[path])
    }
}
