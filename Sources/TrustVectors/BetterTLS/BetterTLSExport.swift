import Crypto
import Foundation
import SwiftASN1
import X509

/// BetterTLS's suites as x509-limbo test cases (`bettertls::<suite>::tc<index>`, the ids x509-limbo
/// gives them), with certificates made here as BetterTLS's `export-tests` makes them: a trust root,
/// a `local_root` CA under it, a `local_ica` CA carrying the case's name constraints (critical), and
/// the leaf with the case's common name and subjectAltNames (any GeneralName tag, raw, as Go's
/// `asn1.RawValue` writes it). All keys are P-256, derived from `seed`, so the same seed makes the
/// same keys; ECDSA signatures are randomised, so the bytes differ between runs and the verdicts do
/// not. Every certificate is valid from a day before `time` to 366 days after it, and each case is
/// evaluated at `time`.
public enum BetterTLSExport {
    /// The name-constraints suite of `revision` as an x509-limbo document (format version 1): every
    /// case, or those whose index `selected` admits.
    /// - Throws: when swift-certificates cannot encode or sign a certificate.
    public static func nameConstraints(_ revision: BetterTLSNameConstraints.Revision = .current, seed: UInt64 = 1, at time: Date, selected: (Int) -> Bool = { _ in true }) throws -> Data {
        var maker = Maker(seed: seed, time: time)
        let root = try maker.certificate(commonName: "bettertls_trust_root", key: maker.key("root"), issuer: nil, extensions: maker.caExtensions(key: maker.key("root"), issuer: nil))
        let localRootKey = try maker.key("local_root")
        let localRoot = try maker.certificate(commonName: "local_root", key: localRootKey, issuer: (root, try maker.key("root")), extensions: maker.caExtensions(key: localRootKey, issuer: try maker.key("root")))
        // One intermediate per combination of constraints (81), shared by the cases that have it.
        var intermediates: [String: (Certificate, P256.Signing.PrivateKey)] = [:]
        var testcases: [[String: Any]] = []
        for (index, testcase) in BetterTLSNameConstraints.cases(revision).enumerated() where selected(index) {
            let constraints = "\(testcase.permittedDNS) \(testcase.excludedDNS) \(testcase.permittedIP) \(testcase.excludedIP)"
            let intermediate: Certificate, intermediateKey: P256.Signing.PrivateKey
            if let made = intermediates[constraints] {
                (intermediate, intermediateKey) = made
            } else {
                intermediateKey = try maker.key("local_ica \(constraints)")
                var extensions = try maker.caExtensions(key: intermediateKey, issuer: localRootKey)
                if let nameConstraints = try Self.nameConstraints(testcase) {
                    try extensions.append(Certificate.Extension(nameConstraints, critical: true))
                }
                intermediate = try maker.certificate(commonName: "local_ica", key: intermediateKey, issuer: (localRoot, localRootKey), extensions: extensions)
                intermediates[constraints] = (intermediate, intermediateKey)
            }
            let leafKey = try maker.key("leaf \(index)")
            let leaf = try maker.certificate(
                commonName: Self.commonName(testcase), key: leafKey, issuer: (intermediate, intermediateKey),
                extensions: try Self.leafExtensions(testcase, key: leafKey, issuer: intermediateKey)
            )
            let expected = testcase.expected
            let soft = expected == .softFail || expected == .softPass
            testcases.append(try limboTestcase(
                suite: "nameconstraints", index: index,
                // BetterTLS's soft results: another result is only a warning.
                features: soft ? ["failure-is-warning"] : [],
                description: "expected \(expected.rawValue)\(soft ? ": a failure is only a warning" : "")): \(testcase.summary)",
                trusted: try pem(root), intermediates: [try pem(intermediate), try pem(localRoot)], peer: try pem(leaf), peerKey: leafKey, time: time,
                success: expected == .pass || expected == .softPass, peerName: (testcase.clientHost == .dns ? "DNS" : "IP", testcase.host)))
        }
        return try limboDocument(testcases)
    }

    /// One case in x509-limbo's form (`bettertls::<suite>::tc<index>`), a server validation with
    /// no further constraint.
    static func limboTestcase(suite: String, index: Int, features: [String], description: String, trusted: String, intermediates: [String], peer: String,
                              peerKey: P256.Signing.PrivateKey, time: Date, success: Bool, peerName: (kind: String, value: String)) throws -> [String: Any] {
        [
            // Not in x509-limbo's format: the peer's private key (PKCS#8 PEM), so that a back end
            // judged by a real handshake can serve the chain (LimboTestcase.peerPrivateKey).
            "peer_private_key": peerKey.pemRepresentation,
            "id": "bettertls::\(suite)::tc\(index)",
            "conflicts_with": [String](),
            "features": features,
            "importance": "undetermined",
            // `description` goes on from the opening parenthesis: "expected FAIL): the case".
            "description": "Testcase `\(index)` from the BetterTLS `\(suite)` suite (\(description).",
            "validation_kind": "SERVER",
            "trusted_certs": [trusted],
            "untrusted_intermediates": intermediates,
            "peer_certificate": peer,
            "validation_time": Timestamp.format(time),
            "signature_algorithms": [String](),
            "key_usage": [String](),
            "extended_key_usage": [String](),
            "expected_result": success ? "SUCCESS" : "FAILURE",
            "expected_peer_name": ["kind": peerName.kind, "value": peerName.value],
            "expected_peer_names": [[String: String]](),
            "max_chain_depth": NSNull(),
            "crls": [String](),
        ]
    }

    /// An x509-limbo document (version 1) of `testcases`.
    static func limboDocument(_ testcases: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["version": 1, "testcases": testcases], options: [.sortedKeys])
    }

    /// The common name of the case's leaf ("" when it has none, as Go writes an empty name).
    static func commonName(_ testcase: BetterTLSNameConstraints.Case) -> String {
        switch (testcase.commonName, testcase.commonNameType) {
        case (.none, _): return ""
        case (.valid, .dns): return BetterTLSNameConstraints.validDNSName
        case (.valid, .ip): return BetterTLSNameConstraints.validIP
        case (.invalid, .dns): return BetterTLSNameConstraints.invalidDNSName
        case (.invalid, .ip): return BetterTLSNameConstraints.invalidIP
        }
    }

    /// The intermediate's name constraints, as Go's x509 writes BetterTLS's template (an excluded
    /// "invalid" DNS constraint is the other host name itself, not its tree); nil when it has none.
    static func nameConstraints(_ testcase: BetterTLSNameConstraints.Case) throws -> NameConstraints? {
        typealias NC = BetterTLSNameConstraints
        func range(_ cidr: String) -> ASN1OctetString {
            let parts = cidr.split(separator: "/")
            let address = parts[0].split(separator: ".").compactMap { UInt8($0) }
            let bits = Int(parts[1]) ?? 32
            let mask = (0..<4).map { byte -> UInt8 in
                let ones = max(0, min(8, bits - byte * 8))
                return UInt8(truncatingIfNeeded: 0xFF << (8 - ones))
            }
            return ASN1OctetString(contentBytes: ArraySlice(address + mask))
        }
        let permittedDNS = [NC.Value.valid: [NC.validDNSTree], .invalid: [NC.invalidDNSTree]][testcase.permittedDNS] ?? []
        let excludedDNS = [NC.Value.valid: [NC.validDNSTree], .invalid: [NC.invalidDNSName]][testcase.excludedDNS] ?? []
        let permittedIP = [NC.Value.valid: [range(NC.validIPRange)], .invalid: [range(NC.invalidIPRange)]][testcase.permittedIP] ?? []
        let excludedIP = [NC.Value.valid: [range(NC.validIPRange)], .invalid: [range(NC.invalidIPRange)]][testcase.excludedIP] ?? []
        if permittedDNS.isEmpty && excludedDNS.isEmpty && permittedIP.isEmpty && excludedIP.isEmpty { return nil }
        return NameConstraints(permittedDNSDomains: permittedDNS, excludedDNSDomains: excludedDNS, permittedIPRanges: permittedIP, excludedIPRanges: excludedIP)
    }

    /// The leaf's extensions: keyUsage digitalSignature (critical, as Go marks it), serverAuth,
    /// basicConstraints not a CA (critical), the authority key identifier, and the subjectAltNames
    /// (DNS, IP, then the case's extra one) as raw context-tagged values.
    static func leafExtensions(_ testcase: BetterTLSNameConstraints.Case, key: P256.Signing.PrivateKey, issuer: P256.Signing.PrivateKey) throws -> Certificate.Extensions {
        typealias NC = BetterTLSNameConstraints
        var names: [(tag: Int, value: [UInt8])] = []
        switch testcase.dnsSAN {
        case .valid: names.append((2, Array(NC.validDNSName.utf8)))
        case .invalid: names.append((2, Array(NC.invalidDNSName.utf8)))
        case .none: break
        }
        switch testcase.ipSAN {
        case .valid: names.append((7, [127, 0, 0, 1]))
        case .invalid: names.append((7, [1, 1, 1, 1]))
        case .none: break
        }
        if let extra = testcase.extraSAN { names.append((extra.tag, extra.value)) }
        var extensions = try Certificate.Extensions {
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            Critical(BasicConstraints.notCertificateAuthority)
            AuthorityKeyIdentifier(keyIdentifier: Maker.keyIdentifier(issuer))
        }
        if !names.isEmpty {
            // SEQUENCE OF [tag] IMPLICIT primitive: Go's asn1.RawValue{Class: 2, Tag: tag, Bytes: value}.
            var content: [UInt8] = []
            for name in names {
                content += [0x80 | UInt8(name.tag)] + Maker.length(name.value.count) + name.value
            }
            let value = [0x30] + Maker.length(content.count) + content
            try extensions.append(Certificate.Extension(oid: [2, 5, 29, 17], critical: false, value: ArraySlice(value)))
        }
        return extensions
    }

    static func pem(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return pem(serializer.serializedBytes)
    }

    /// Keys, serial numbers and certificates, all from the seed.
    struct Maker {
        let seed: UInt64
        let time: Date
        var count = 0

        init(seed: UInt64, time: Date) {
            self.seed = seed
            self.time = time
        }

        /// The P-256 key named `name`: the same seed and name give the same key.
        func key(_ name: String) throws -> P256.Signing.PrivateKey {
            var material = Array(SHA256.hash(data: Array("bettertls \(seed) \(name)".utf8)))
            // A scalar below the group order: clearing the top bit is enough for P-256.
            material[0] &= 0x7F
            return try P256.Signing.PrivateKey(rawRepresentation: material)
        }

        static func keyIdentifier(_ key: P256.Signing.PrivateKey) -> ArraySlice<UInt8> {
            ArraySlice(Insecure.SHA1.hash(data: key.publicKey.x963Representation))
        }

        static func length(_ count: Int) -> [UInt8] {
            if count < 0x80 { return [UInt8(count)] }
            if count < 0x100 { return [0x81, UInt8(count)] }
            return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        }

        func caExtensions(key: P256.Signing.PrivateKey, issuer: P256.Signing.PrivateKey?) throws -> Certificate.Extensions {
            try Certificate.Extensions {
                Critical(KeyUsage(keyCertSign: true))
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectKeyIdentifier(keyIdentifier: Self.keyIdentifier(key))
                if let issuer { AuthorityKeyIdentifier(keyIdentifier: Self.keyIdentifier(issuer)) }
            }
        }

        /// A certificate for `key`, self-signed when `issuer` is nil, with a serial and a subject
        /// serialNumber of its own (BetterTLS's are random; these come from the seed and a count).
        mutating func certificate(commonName: String, key: P256.Signing.PrivateKey, issuer: (certificate: Certificate, key: P256.Signing.PrivateKey)?, extensions: Certificate.Extensions) throws -> Certificate {
            count += 1
            let digest = Array(SHA256.hash(data: Array("bettertls serial \(seed) \(count)".utf8)))
            let serial = [0x01] + digest.prefix(17)
            let uuid = digest.suffix(16).map { String(format: "%02x", $0) }.joined()
            // Go's order for BetterTLS's pkix.Name: O, CN (when there is one), serialNumber.
            var names = [RelativeDistinguishedName(RelativeDistinguishedName.Attribute(type: .RDNAttributeType.organizationName, utf8String: "bettertls.com"))]
            if !commonName.isEmpty {
                names.append(RelativeDistinguishedName(RelativeDistinguishedName.Attribute(type: .RDNAttributeType.commonName, utf8String: commonName)))
            }
            names.append(RelativeDistinguishedName(try RelativeDistinguishedName.Attribute(type: [2, 5, 4, 5], printableString: uuid)))
            let subject = DistinguishedName(names)
            return try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(bytes: ArraySlice(serial)),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: time.addingTimeInterval(-86_400),
                notValidAfter: time.addingTimeInterval(366 * 86_400),
                issuer: issuer?.certificate.subject ?? subject,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions,
                issuerPrivateKey: Certificate.PrivateKey(issuer?.key ?? key)
            )
        }
    }
}
