import TrustCore
/// The strict DER check of extensions (RFC 5280 §4.2, §5.2, §5.3): each extnValue is a DER OCTET
/// STRING; its value is exactly one element of the extension's schema where one is given here, one
/// element by the generic rules where a back end's library decodes an extension without a schema
/// here (``InterpretedExtension``), and opaque bytes otherwise.
extension DERCertificate {
    /// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension;
    /// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
    static func checkExtensions(_ extensions: DERElement, in reader: DERReader) throws(DERProblem) {
        try reader.sequences(extensions, "Extensions", of: "Extension") { (parts: inout DERReader) throws(DERProblem) in
            let id = try parts.next(0x06, "Extension.extnID")
            do throws(DERProblem) {
                try parts.objectIdentifier(id, "Extension.extnID")
                if let critical = try parts.optional(0x01, "Extension.critical"), try !parts.boolean(critical, "Extension.critical") {
                    throw DERProblem(reason: .explicitDefault("FALSE"), offset: critical.offset, field: "Extension.critical")
                }
                let value = try parts.next(0x04, "Extension.extnValue")
                try parts.expectEnd("Extension")
                try checkExtensionValue(value, id: id, in: parts)
            } catch {
                var problem = error
                problem.extensionID = id.content
                throw problem
            }
        }
    }

    /// One extension's value (the content of its extnValue OCTET STRING `octets`), by its extnID.
    /// The OCTET STRING itself has been read already, strictly: primitive, its length definite and
    /// minimal, exactly filling the Extension.
    ///
    /// - The value of an extension with a schema here must be exactly one element of that schema.
    /// - That of an extension without one that a back end's library decodes while verifying
    ///   (``InterpretedExtension``) must be empty or exactly one element read by the generic rules:
    ///   an empty value is no DER encoding of anything, but without the extension's type whether it
    ///   is acceptable is the library's call, and it has exactly one encoding, so it opens no second
    ///   encoding of the certificate, the threat this check exists for.
    /// - That of any other extension is opaque and not read at all. RFC 5280 §4.2: "A
    ///   certificate-using system MUST reject the certificate if it encounters a critical extension
    ///   it does not recognize or a critical extension that contains information that it cannot
    ///   process. A non-critical extension MAY be ignored if it is not recognized, but MUST be
    ///   processed if it is recognized." No library reads those bytes, so they cannot be read two
    ///   ways; refusing them would refuse a chain every library trusts (a critical one the library
    ///   refuses for being unrecognised, whatever its bytes). RFC 5280 §5.2 and §5.3 say the same of
    ///   CRL and CRL entry extensions, which are read by this function too.
    private static func checkExtensionValue(_ octets: DERElement, id: DERElement, in reader: DERReader) throws(DERProblem) {
        // RFC 5280 §4.1: extnValue is the DER encoding of one value, so nothing may follow it.
        func value() throws(DERProblem) -> DERElement { try reader.only(octets, "Extension.extnValue") }
        func unrecognised() throws(DERProblem) {
            guard InterpretedExtension.contains(id, in: reader) else { return }
            if !octets.content.isEmpty { try reader.checkAny(value(), "Extension.extnValue", depth: 0) }
        }
        let content = id.content
        if content.count == 3 && reader.bytes[content.lowerBound] == 0x55 && reader.bytes[content.lowerBound + 1] == 0x1D {
            // id-ce (2.5.29)
            switch reader.bytes[content.lowerBound + 2] {
            case 14: try value().require(0x04, "SubjectKeyIdentifier")
            // DER would drop trailing zero bits of this named-bit list (X.690 §11.2.2), but trusted
            // roots keep them (Trustwave Global ECC P256 and P384: 03 03 07 06 00), and as the bits
            // are signed, only the issuer could make such a variant; the generic BIT STRING rules hold.
            case 15: try value().require(0x03, "KeyUsage"); try reader.bitString(value(), "KeyUsage")
            case 17, 18, 29: try checkGeneralNames(value(), 0x30, in: reader, "GeneralNames")
            case 19: try checkBasicConstraints(value(), in: reader)
            case 20, 27: try value().require(0x02, "CRLNumber"); _ = try reader.naturalNumber(value(), "CRLNumber")
            case 21: try value().require(0x0A, "CRLReason"); try reader.integer(value(), "CRLReason")
            case 24: try value().require(0x18, "InvalidityDate"); try reader.time(value(), rfc5280: true, "InvalidityDate")
            case 28: try checkIssuingDistributionPoint(value(), in: reader)
            case 30: try checkNameConstraints(value(), in: reader)
            case 31, 46: try checkDistributionPoints(value(), in: reader)
            case 32: try checkCertificatePolicies(value(), in: reader)
            case 33: try checkPolicyMappings(value(), in: reader)
            case 35: try checkAuthorityKeyIdentifier(value(), in: reader)
            case 36: try checkPolicyConstraints(value(), in: reader)
            case 37: try checkSequenceOfOIDs(value(), in: reader, "ExtKeyUsageSyntax")
            case 54: try value().require(0x02, "InhibitAnyPolicy"); _ = try reader.naturalNumber(value(), "InhibitAnyPolicy")
            default: try unrecognised()
            }
        } else if reader.matches(id, OID.pkixAccessDescriptions, lastArc: 1...1) || reader.matches(id, OID.pkixAccessDescriptions, lastArc: 11...11) {
            try checkAccessDescriptions(value(), in: reader)
        } else {
            try unrecognised()
        }
    }

    /// BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }.
    private static func checkBasicConstraints(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try value.require(0x30, "BasicConstraints")
        var parts = reader.inside(value)
        if let ca = try parts.optional(0x01, "BasicConstraints.cA"), try !parts.boolean(ca, "BasicConstraints.cA") {
            throw DERProblem(reason: .explicitDefault("FALSE"), offset: ca.offset, field: "BasicConstraints.cA")
        }
        if let length = try parts.optional(0x02, "BasicConstraints.pathLenConstraint") {
            _ = try parts.naturalNumber(length, "BasicConstraints.pathLenConstraint")
        }
        try parts.expectEnd("BasicConstraints")
    }

    /// AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] OCTET STRING OPTIONAL,
    /// authorityCertIssuer [1] GeneralNames OPTIONAL, authorityCertSerialNumber [2] INTEGER OPTIONAL }, IMPLICIT.
    private static func checkAuthorityKeyIdentifier(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try value.require(0x30, "AuthorityKeyIdentifier")
        var parts = reader.inside(value)
        _ = try parts.optional(0x80, "AuthorityKeyIdentifier.keyIdentifier")
        if let issuer = try parts.optional(0xA1, "AuthorityKeyIdentifier.authorityCertIssuer") {
            try checkGeneralNames(issuer, 0xA1, in: parts, "AuthorityKeyIdentifier.authorityCertIssuer")
        }
        if let serial = try parts.optional(0x82, "AuthorityKeyIdentifier.authorityCertSerialNumber") {
            try parts.integer(serial, "AuthorityKeyIdentifier.authorityCertSerialNumber")
        }
        try parts.expectEnd("AuthorityKeyIdentifier")
    }

    /// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName, under the identifier octet `tag`.
    static func checkGeneralNames(_ names: DERElement, _ tag: UInt8, in reader: DERReader, _ field: StaticString) throws(DERProblem) {
        try names.require(tag, field)
        try reader.nonEmpty(names, field) { (list: inout DERReader) throws(DERProblem) in
            try checkGeneralName(list.next("GeneralName"), in: list)
        }
    }

    /// GeneralName ::= CHOICE { otherName [0], rfc822Name [1] IA5String, dNSName [2] IA5String,
    /// x400Address [3], directoryName [4] Name, ediPartyName [5], uniformResourceIdentifier [6]
    /// IA5String, iPAddress [7] OCTET STRING, registeredID [8] OBJECT IDENTIFIER }; IMPLICIT except
    /// directoryName (a CHOICE, so EXPLICIT).
    static func checkGeneralName(_ name: DERElement, in reader: DERReader) throws(DERProblem) {
        switch name.tag {
        case 0x81, 0x82, 0x86, 0x87:
            return
        case 0x88:
            try reader.objectIdentifier(name, "GeneralName.registeredID")
        case 0xA0:
            // OtherName ::= SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }
            var parts = reader.inside(name)
            try parts.objectIdentifier(parts.next(0x06, "OtherName.type-id"), "OtherName.type-id")
            let tagged = try parts.next(0xA0, "OtherName.value")
            try parts.checkAny(parts.only(tagged, "OtherName.value"), "OtherName.value", depth: 0)
            try parts.expectEnd("OtherName")
        case 0xA3, 0xA5:
            try reader.checkEach(name, "GeneralName", depth: 0, sorted: false)
        case 0xA4:
            try checkName(reader.only(name, "GeneralName.directoryName"), in: reader, "GeneralName.directoryName")
        default:
            throw DERProblem(reason: .notAGeneralName(name.tag), offset: name.offset, field: "GeneralName")
        }
    }

    /// NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
    /// excludedSubtrees [1] GeneralSubtrees OPTIONAL }; GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF
    /// GeneralSubtree ::= SEQUENCE { base GeneralName, minimum [0] BaseDistance DEFAULT 0,
    /// maximum [1] BaseDistance OPTIONAL }, IMPLICIT.
    private static func checkNameConstraints(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try value.require(0x30, "NameConstraints")
        var parts = reader.inside(value)
        for tag: UInt8 in 0xA0...0xA1 {
            guard let subtrees = try parts.optional(tag, "NameConstraints") else { continue }
            try parts.sequences(subtrees, tag: tag, "GeneralSubtrees", of: "GeneralSubtree") { (subtree: inout DERReader) throws(DERProblem) in
                try checkGeneralName(subtree.next("GeneralSubtree.base"), in: subtree)
                if let minimum = try subtree.optional(0x80, "GeneralSubtree.minimum"), try subtree.naturalNumber(minimum, "GeneralSubtree.minimum") {
                    throw DERProblem(reason: .explicitDefault("0"), offset: minimum.offset, field: "GeneralSubtree.minimum")
                }
                if let maximum = try subtree.optional(0x81, "GeneralSubtree.maximum") {
                    _ = try subtree.naturalNumber(maximum, "GeneralSubtree.maximum")
                }
            }
        }
        try parts.expectEnd("NameConstraints")
    }

    /// CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint ::= SEQUENCE {
    /// distributionPoint [0] DistributionPointName OPTIONAL, reasons [1] ReasonFlags OPTIONAL,
    /// cRLIssuer [2] GeneralNames OPTIONAL }, IMPLICIT (FreshestCRL is the same).
    private static func checkDistributionPoints(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try reader.sequences(value, "CRLDistributionPoints", of: "DistributionPoint") { (point: inout DERReader) throws(DERProblem) in
            if let name = try point.optional(0xA0, "DistributionPoint.distributionPoint") {
                try checkDistributionPointName(point.only(name, "DistributionPoint.distributionPoint"), in: point)
            }
            if let reasons = try point.optional(0x81, "DistributionPoint.reasons") {
                try point.bitString(reasons, "DistributionPoint.reasons")
            }
            if let issuer = try point.optional(0xA2, "DistributionPoint.cRLIssuer") {
                try checkGeneralNames(issuer, 0xA2, in: point, "DistributionPoint.cRLIssuer")
            }
        }
    }

    /// DistributionPointName ::= CHOICE { fullName [0] GeneralNames, nameRelativeToCRLIssuer [1]
    /// RelativeDistinguishedName }, IMPLICIT.
    private static func checkDistributionPointName(_ name: DERElement, in reader: DERReader) throws(DERProblem) {
        if name.tag == 0xA1 {
            try checkRelativeDistinguishedName(name, in: reader, "DistributionPointName.nameRelativeToCRLIssuer")
        } else {
            try checkGeneralNames(name, 0xA0, in: reader, "DistributionPointName.fullName")
        }
    }

    /// IssuingDistributionPoint ::= SEQUENCE { distributionPoint [0] DistributionPointName OPTIONAL,
    /// onlyContainsUserCerts [1] BOOLEAN DEFAULT FALSE, onlyContainsCACerts [2] BOOLEAN DEFAULT FALSE,
    /// onlySomeReasons [3] ReasonFlags OPTIONAL, indirectCRL [4] BOOLEAN DEFAULT FALSE,
    /// onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }, IMPLICIT.
    private static func checkIssuingDistributionPoint(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try value.require(0x30, "IssuingDistributionPoint")
        var parts = reader.inside(value)
        if let name = try parts.optional(0xA0, "IssuingDistributionPoint.distributionPoint") {
            try checkDistributionPointName(parts.only(name, "IssuingDistributionPoint.distributionPoint"), in: parts)
        }
        for tag: UInt8 in 0x81...0x85 {
            guard let flag = try parts.optional(tag, "IssuingDistributionPoint") else { continue }
            if tag == 0x83 {
                try parts.bitString(flag, "IssuingDistributionPoint.onlySomeReasons")
            } else if try !parts.boolean(flag, "IssuingDistributionPoint") {
                throw DERProblem(reason: .explicitDefault("FALSE"), offset: flag.offset, field: "IssuingDistributionPoint")
            }
        }
        try parts.expectEnd("IssuingDistributionPoint")
    }

    /// certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation ::= SEQUENCE {
    /// policyIdentifier OBJECT IDENTIFIER, policyQualifiers SEQUENCE SIZE (1..MAX) OF
    /// PolicyQualifierInfo OPTIONAL }; PolicyQualifierInfo ::= SEQUENCE { policyQualifierId
    /// OBJECT IDENTIFIER, qualifier ANY }.
    private static func checkCertificatePolicies(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try reader.sequences(value, "CertificatePolicies", of: "PolicyInformation") { (policy: inout DERReader) throws(DERProblem) in
            try policy.objectIdentifier(policy.next(0x06, "PolicyInformation.policyIdentifier"), "PolicyInformation.policyIdentifier")
            if let qualifiers = try policy.optional(0x30, "PolicyInformation.policyQualifiers") {
                try policy.sequences(qualifiers, "PolicyInformation.policyQualifiers", of: "PolicyQualifierInfo") { (qualifier: inout DERReader) throws(DERProblem) in
                    try qualifier.objectIdentifier(qualifier.next(0x06, "PolicyQualifierInfo.policyQualifierId"), "PolicyQualifierInfo.policyQualifierId")
                    try qualifier.checkAny(qualifier.next("PolicyQualifierInfo.qualifier"), "PolicyQualifierInfo.qualifier", depth: 0)
                }
            }
        }
    }

    /// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE { issuerDomainPolicy, subjectDomainPolicy }.
    private static func checkPolicyMappings(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try reader.sequences(value, "PolicyMappings", of: "PolicyMappings") { (mapping: inout DERReader) throws(DERProblem) in
            try mapping.objectIdentifier(mapping.next(0x06, "PolicyMappings.issuerDomainPolicy"), "PolicyMappings.issuerDomainPolicy")
            try mapping.objectIdentifier(mapping.next(0x06, "PolicyMappings.subjectDomainPolicy"), "PolicyMappings.subjectDomainPolicy")
        }
    }

    /// PolicyConstraints ::= SEQUENCE { requireExplicitPolicy [0] SkipCerts OPTIONAL,
    /// inhibitPolicyMapping [1] SkipCerts OPTIONAL }, IMPLICIT; SkipCerts ::= INTEGER (0..MAX).
    private static func checkPolicyConstraints(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try value.require(0x30, "PolicyConstraints")
        var parts = reader.inside(value)
        for tag: UInt8 in 0x80...0x81 {
            guard let skip = try parts.optional(tag, "PolicyConstraints") else { continue }
            _ = try parts.naturalNumber(skip, "PolicyConstraints")
        }
        try parts.expectEnd("PolicyConstraints")
    }

    /// ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId (an OBJECT IDENTIFIER).
    private static func checkSequenceOfOIDs(_ value: DERElement, in reader: DERReader, _ field: StaticString) throws(DERProblem) {
        try value.require(0x30, field)
        try reader.nonEmpty(value, field) { (list: inout DERReader) throws(DERProblem) in
            try list.objectIdentifier(list.next(0x06, field), field)
        }
    }

    /// AuthorityInfoAccessSyntax and SubjectInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF
    /// AccessDescription ::= SEQUENCE { accessMethod OBJECT IDENTIFIER, accessLocation GeneralName }.
    private static func checkAccessDescriptions(_ value: DERElement, in reader: DERReader) throws(DERProblem) {
        try reader.sequences(value, "AuthorityInfoAccessSyntax", of: "AccessDescription") { (description: inout DERReader) throws(DERProblem) in
            try description.objectIdentifier(description.next(0x06, "AccessDescription.accessMethod"), "AccessDescription.accessMethod")
            try checkGeneralName(description.next("AccessDescription.accessLocation"), in: description)
        }
    }
}

extension OID {
    /// 1.3.6.1.5.5.7.1 (id-pe): .1 authorityInfoAccess, .11 subjectInfoAccess.
    static let pkixAccessDescriptions: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01]
}
