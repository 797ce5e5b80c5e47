import Crypto
import Foundation
import SwiftASN1
import X509

extension BetterTLSExport {
    /// The path-building suite as an x509-limbo document (format version 1): every case of
    /// ``BetterTLSPathBuilding/cases()``, or those whose index `selected` admits, with the
    /// certificates made as BetterTLS's `generate_certs.go` makes them.
    ///
    /// Every node of a case's graph has a P-256 key and a name (O=bettertls.com, CN=<node>,
    /// serialNumber=<UUID>) of its own for the case, except the trust anchor, which is BetterTLS's
    /// trust root (the same root certificate as ``nameConstraints(_:seed:at:selected:)`` makes for
    /// the seed, as BetterTLS's `export-tests` uses one root for both suites). Each edge A→B is a
    /// certificate for B's name and key issued by A's name and key: a CA (keyUsage keyCertSign,
    /// basicConstraints cA, both critical) unless B is the leaf node, whose certificate has a name
    /// of its own (CN=<node>), keyUsage digitalSignature, extendedKeyUsage serverAuth, basicConstraints
    /// not a CA and the subjectAltName DNS `localhost`. The leaf's extendedKeyUsage is BetterTLS's
    /// master's (added in 859af10, as x509-limbo's converter has it); at a738c20 and 081fb7c, whose 81
    /// cases, expected results and features these are, the leaf had none, so the published results of
    /// those revisions were made with certificates that differ from these in that extension alone. The server presents the leaf edge's certificate
    /// and then every other edge's in the graph's order (``BetterTLSPathBuilding/Case/presentedEdges``);
    /// the trusted certificate is the root. An invalid edge is made for its reason as BetterTLS does
    /// (see ``BetterTLSPathBuilding/InvalidReason``): expired, notAfter an hour before `time`; name
    /// constraints, a critical permitted dNSName `bad.example.com`; bad EKU, extendedKeyUsage
    /// emailProtection; missing basicConstraints, no such extension; not a CA, basicConstraints with
    /// cA false; deprecated crypto, signed ecdsa-with-SHA1.
    ///
    /// Keys come from `seed`, so the same seed makes the same keys, names and serials; ECDSA
    /// signatures are randomised, so the bytes differ between runs and the verdicts do not. Every
    /// certificate is valid from a day before `time` to 366 days after it (BetterTLS's window around
    /// the moment it runs), and each case is evaluated at `time`.
    /// - Throws: when swift-certificates cannot encode or sign a certificate.
    public static func pathBuilding(seed: UInt64 = 1, at time: Date, selected: (Int) -> Bool = { _ in true }) throws -> Data {
        var maker = Maker(seed: seed, time: time)
        let rootKey = try maker.key("root")
        let root = try maker.certificate(commonName: "bettertls_trust_root", key: rootKey, issuer: nil, extensions: maker.caExtensions(key: rootKey, issuer: nil))
        var testcases: [[String: Any]] = []
        for (index, testcase) in BetterTLSPathBuilding.cases().enumerated() where selected(index) {
            let chain = try pathBuildingChain(testcase, index: index, maker: maker, root: (root, rootKey))
            let expected = testcase.expected
            testcases.append(try limboTestcase(
                // The suite has no soft results, so no case is only a warning.
                suite: "pathbuilding", index: index, features: [], description: "expected \(expected.rawValue)): \(testcase.summary)",
                trusted: try pem(root), intermediates: chain.dropFirst().map(Self.pem), peer: Self.pem(chain[0]),
                peerKey: try maker.key("pathbuilding \(index) \(testcase.leaf)"), time: time,
                success: expected == .pass, peerName: ("DNS", BetterTLSPathBuilding.hostname)))
        }
        return try limboDocument(testcases)
    }

    static func pathBuildingChain(_ testcase: BetterTLSPathBuilding.Case, index: Int, maker: Maker, root: (certificate: Certificate, key: P256.Signing.PrivateKey)) throws -> [[UInt8]] {
        // Each node's name and key for this case (BetterTLS makes a self-signed certificate per
        // node and uses only its subject, key and key identifier); the anchor is the root.
        var names: [String: DistinguishedName] = [:]
        var keys: [String: P256.Signing.PrivateKey] = [:]
        for node in testcase.graph.nodes {
            if node == testcase.trustAnchor {
                names[node] = root.certificate.subject
                keys[node] = root.key
            } else {
                names[node] = try goName(commonName: node, serialNumber: uuid(seed: maker.seed, "pathbuilding \(index) \(node)"))
                keys[node] = try maker.key("pathbuilding \(index) \(node)")
            }
        }
        // The leaf's certificate has a name of its own (a new serialNumber), not its node's.
        let leafName = try goName(commonName: testcase.leaf, serialNumber: uuid(seed: maker.seed, "pathbuilding \(index) leaf"))
        var chain: [[UInt8]] = []
        for (number, edge) in testcase.presentedEdges.enumerated() {
            guard let issuerName = names[edge.source], let issuerKey = keys[edge.source], let subjectName = names[edge.destination], let subjectKey = keys[edge.destination] else {
                throw ASN1Error.invalidASN1Object(reason: "edge \(edge) names a node outside its graph")
            }
            let isLeaf = edge.destination == testcase.leaf
            let reason: BetterTLSPathBuilding.InvalidReason? = testcase.isInvalid(edge) ? testcase.invalidReason : nil
            // Go's template.IsCA: what basicConstraints says, and whether Go adds a subject key identifier.
            let isCA = !isLeaf && reason != .notACA
            // Go's order of extensions: keyUsage, extendedKeyUsage, basicConstraints, subject and
            // authority key identifiers, subjectAltName, nameConstraints.
            var extensions = Certificate.Extensions()
            try extensions.append(Certificate.Extension(isLeaf ? KeyUsage(digitalSignature: true) : KeyUsage(keyCertSign: true), critical: true))
            if reason == .badEKU {
                try extensions.append(Certificate.Extension(try ExtendedKeyUsage([.emailProtection]), critical: false))
            } else if isLeaf {
                try extensions.append(Certificate.Extension(try ExtendedKeyUsage([.serverAuth]), critical: false))
            }
            if reason != .missingBasicConstraints {
                try extensions.append(Certificate.Extension(isCA ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority, critical: true))
            }
            if isCA {
                try extensions.append(Certificate.Extension(SubjectKeyIdentifier(keyIdentifier: Maker.keyIdentifier(subjectKey)), critical: false))
            }
            try extensions.append(Certificate.Extension(AuthorityKeyIdentifier(keyIdentifier: Maker.keyIdentifier(issuerKey)), critical: false))
            if isLeaf {
                try extensions.append(Certificate.Extension(SubjectAlternativeNames([.dnsName(BetterTLSPathBuilding.hostname)]), critical: false))
            }
            if reason == .nameConstraints {
                let constraints = NameConstraints(permittedDNSDomains: [BetterTLSPathBuilding.nameConstraintsPermittedDNS])
                try extensions.append(Certificate.Extension(constraints, critical: true))
            }
            let digest = Array(SHA256.hash(data: Array("bettertls pathbuilding serial \(maker.seed) \(index) \(number)".utf8)))
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(bytes: ArraySlice([0x01] + digest.prefix(17))),
                publicKey: Certificate.PublicKey(subjectKey.publicKey),
                notValidBefore: maker.time.addingTimeInterval(-86_400),
                // Go's GetNotAfter(true) for an expired certificate: an hour ago.
                notValidAfter: maker.time.addingTimeInterval(reason == .expired ? -3_600 : 366 * 86_400),
                issuer: issuerName,
                subject: isLeaf ? leafName : subjectName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions,
                issuerPrivateKey: Certificate.PrivateKey(issuerKey)
            )
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            chain.append(reason == .deprecatedCrypto ? try resignedWithSHA1(serializer.serializedBytes, key: issuerKey) : serializer.serializedBytes)
        }
        return chain
    }

    /// The DER ecdsa-with-SHA1 AlgorithmIdentifier (1.2.840.10045.4.1, no parameters, as Go writes it).
    static let ecdsaWithSHA1: [UInt8] = [0x30, 0x09, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x01]

    /// `certificate` signed again by `key` with ECDSA over SHA-1, as BetterTLS signs a deprecated-crypto
    /// edge (Go's `x509.ECDSAWithSHA1`). swift-certificates neither signs nor parses ecdsa-with-SHA1,
    /// so the certificate is made with ecdsa-with-SHA256 and rewritten here: the algorithm inside the
    /// TBSCertificate and outside it replaced, the new TBSCertificate signed with swift-crypto over its
    /// SHA-1 digest, every other byte kept.
    static func resignedWithSHA1(_ certificate: [UInt8], key: P256.Signing.PrivateKey) throws -> [UInt8] {
        let parsed = try DER.parse(certificate)
        guard case .constructed(let parts) = parsed.content, let tbs = parts.first(where: { _ in true }), case .constructed(let fields) = tbs.content else {
            throw ASN1Error.invalidASN1Object(reason: "not a certificate")
        }
        // TBSCertificate: [0] version, serialNumber, signature (the algorithm), issuer, ...
        var content: [UInt8] = []
        for (position, field) in fields.enumerated() {
            content += position == 2 ? ecdsaWithSHA1 : Array(field.encodedBytes)
        }
        let newTBS = [0x30] + Maker.length(content.count) + content
        let signature = Array(try key.signature(for: Insecure.SHA1.hash(data: newTBS)).derRepresentation)
        let body = newTBS + ecdsaWithSHA1 + [0x03] + Maker.length(signature.count + 1) + [0x00] + signature
        return [0x30] + Maker.length(body.count) + body
    }

    /// A name as Go writes BetterTLS's `pkix.Name`: O, CN, serialNumber, each its own RDN, each a
    /// PrintableString when its characters allow and a UTF8String otherwise.
    static func goName(commonName: String, serialNumber: String) throws -> DistinguishedName {
        func attribute(_ type: ASN1ObjectIdentifier, _ value: String) throws -> RelativeDistinguishedName {
            let printable = value.unicodeScalars.allSatisfy { scalar in
                ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || " '()+,-./:=?".unicodeScalars.contains(scalar)
            }
            return RelativeDistinguishedName(printable ? try RelativeDistinguishedName.Attribute(type: type, printableString: value) : RelativeDistinguishedName.Attribute(type: type, utf8String: value))
        }
        return DistinguishedName([
            try attribute(.RDNAttributeType.organizationName, "bettertls.com"),
            try attribute(.RDNAttributeType.commonName, commonName),
            try attribute([2, 5, 4, 5], serialNumber),
        ])
    }

    /// A version 4 UUID as Go's `uuid.String()` writes it, from the seed and `name` instead of at random.
    static func uuid(seed: UInt64, _ name: String) -> String {
        var bytes = Array(SHA256.hash(data: Array("bettertls uuid \(seed) \(name)".utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return groups.joined(separator: "-")
    }

    static func pem(_ der: [UInt8]) -> String {
        PEMDocument(type: "CERTIFICATE", derBytes: der).pemString
    }
}
