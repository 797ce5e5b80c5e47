import Foundation
import SwiftASN1
import Testing
import TrustCore
import X509
@testable import TrustVectors

/// Structural checks, with swift-certificates, on the committed certificates ``CertificateMinter``
/// wrote: each property a vector relies on is really in the bytes.
@Suite struct CertificateMinterTests {
    private static let time = Catalogue.validationTime

    @Test(arguments: KeyType.allCases)
    func signatureAlgorithmsAndKeysMatchTheKeyType(_ keyType: KeyType) throws {
        for spec in Catalogue.certificates {
            let certificate = try Self.load(spec.name, keyType)
            #expect(certificate.signatureAlgorithm == keyType.signatureAlgorithm, "\(spec.name)")
            #expect(keyType.matches(certificate.publicKey), "\(spec.name)")
            #expect(certificate.version == .v3, "\(spec.name)")
        }
    }

    @Test(arguments: KeyType.allCases)
    func everyExpectedPathChainsAndVerifies(_ keyType: KeyType) throws {
        for vectorCase in Catalogue.cases {
            guard case .trusted(let names) = vectorCase.outcome else { continue }
            let path = try names.map { try Self.load($0, keyType) }
            for (subject, issuer) in zip(path, path.dropFirst()) {
                #expect(subject.issuer == issuer.subject, "\(vectorCase.name)")
                #expect(issuer.publicKey.isValidSignature(subject.signature, for: subject), "\(vectorCase.name)")
                let authorityKeyIdentifier = try subject.extensions.authorityKeyIdentifier?.keyIdentifier
                let subjectKeyIdentifier = try issuer.extensions.subjectKeyIdentifier?.keyIdentifier
                #expect(authorityKeyIdentifier != nil && authorityKeyIdentifier == subjectKeyIdentifier, "\(vectorCase.name)")
            }
            for certificate in path {
                #expect(certificate.notValidBefore <= Self.time && Self.time <= certificate.notValidAfter, "\(vectorCase.name)")
            }
            // A one-certificate path is a leaf that is itself the anchor: either self-signed, or a
            // pinned leaf whose issuer is among the presented certificates.
            if path.count == 1, let only = path.first {
                if only.subject == only.issuer {
                    #expect(only.publicKey.isValidSignature(only.signature, for: only), "\(vectorCase.name) is self-signed")
                } else {
                    #expect(vectorCase.anchors.first == names[0], "\(vectorCase.name): a non-self-signed path of one must be an anchor")
                }
            }
        }
    }

    @Test(arguments: KeyType.allCases)
    func validityPeriodsSitWhereTheCasesSay(_ keyType: KeyType) throws {
        let t = Self.time
        #expect(try Self.load("expired-leaf", keyType).notValidAfter < t)
        #expect(try Self.load("expired-intermediate", keyType).notValidAfter < t)
        #expect(try Self.load("not-yet-valid-leaf", keyType).notValidBefore > t)
        #expect(try Self.load("not-yet-valid-intermediate", keyType).notValidBefore > t)
        #expect(try Self.load("leaf-not-after-equals-time", keyType).notValidAfter == t)
        #expect(try Self.load("leaf-not-after-one-second-before", keyType).notValidAfter == t - 1)
        #expect(try Self.load("leaf-not-before-equals-time", keyType).notValidBefore == t)
        #expect(try Self.load("leaf-not-before-one-second-after", keyType).notValidBefore == t + 1)
        for name in ["expired-intermediate-leaf", "not-yet-valid-intermediate-leaf"] {
            let leaf = try Self.load(name, keyType)
            #expect(leaf.notValidBefore <= t && t <= leaf.notValidAfter, "\(name) is itself valid")
        }
    }

    @Test(arguments: KeyType.allCases)
    func issuerConstraintsAreEncoded(_ keyType: KeyType) throws {
        let pathLengthZero = try Self.load("pathlen-zero-intermediate", keyType).extensions
        #expect(try pathLengthZero.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        let below = try Self.load("pathlen-zero-sub-intermediate", keyType).extensions
        #expect(try below.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try Self.load("chain4-intermediate-1", keyType).extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 1))

        let notCA = try Self.load("not-ca-intermediate", keyType).extensions
        #expect(try notCA.basicConstraints == .notCertificateAuthority)
        #expect(try notCA.keyUsage?.keyCertSign == true)

        let noBasicConstraints = try Self.load("no-basic-constraints-intermediate", keyType)
        #expect(try noBasicConstraints.extensions.basicConstraints == nil)
        #expect(try noBasicConstraints.extensions.keyUsage?.keyCertSign == true)
        #expect(noBasicConstraints.version == .v3)

        let noCertSign = try Self.load("no-keycertsign-intermediate", keyType).extensions
        #expect(try noCertSign.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try noCertSign.keyUsage?.keyCertSign == false)

        let root = try Self.load("root", keyType)
        #expect(try root.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
        #expect(root.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
    }

    @Test(arguments: KeyType.allCases, ["leaf", "intermediate"])
    func flippedSignatureDiffersOnlyInOneSignatureBit(_ keyType: KeyType, _ base: String) throws {
        let valid = try Self.der(base, keyType)
        let broken = try Self.der("bad-signature-\(base)", keyType)
        #expect(valid.count == broken.count)
        let differing = zip(valid, broken).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(differing.count == 1)
        #expect(differing.first.map { ($0.element.0 ^ $0.element.1).nonzeroBitCount } == 1)

        let validCertificate = try Certificate(derEncoded: valid)
        let brokenCertificate = try Certificate(derEncoded: broken)
        #expect(validCertificate.tbsCertificateBytes == brokenCertificate.tbsCertificateBytes)
        #expect(validCertificate.signatureAlgorithm == brokenCertificate.signatureAlgorithm)
        #expect(validCertificate.signature != brokenCertificate.signature)
        let issuer = try Self.load(base == "leaf" ? "intermediate" : "root", keyType)
        #expect(issuer.publicKey.isValidSignature(validCertificate.signature, for: validCertificate))
        #expect(!issuer.publicKey.isValidSignature(brokenCertificate.signature, for: brokenCertificate))
    }

    @Test(arguments: KeyType.allCases)
    func impostorRootHasTheTrustedNameButAnotherKey(_ keyType: KeyType) throws {
        let root = try Self.load("root", keyType)
        let impostor = try Self.load("impostor-root", keyType)
        #expect(impostor.subject == root.subject)
        #expect(impostor.publicKey != root.publicKey)
        let intermediate = try Self.load("impostor-intermediate", keyType)
        #expect(intermediate.issuer == root.subject)
        #expect(!root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
    }

    @Test(arguments: KeyType.allCases)
    func leavesCarryTheirIdentitiesAndPurposes(_ keyType: KeyType) throws {
        let leaf = try Self.load("leaf", keyType).extensions
        #expect(try leaf.subjectAlternativeNames == SubjectAlternativeNames([.dnsName("www.example.test")]))
        #expect(try leaf.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(try leaf.keyUsage == KeyUsage(digitalSignature: true, keyEncipherment: keyType == .rsa2048))
        #expect(try leaf.basicConstraints == .notCertificateAuthority)

        let ip = try Self.load("ip-leaf", keyType).extensions
        #expect(try ip.subjectAlternativeNames == SubjectAlternativeNames([
            .ipAddress(ASN1OctetString(contentBytes: [192, 0, 2, 10])),
            .ipAddress(ASN1OctetString(contentBytes: [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10])),
        ]))

        let cnOnly = try Self.load("cn-only-leaf", keyType)
        #expect(try cnOnly.extensions.subjectAlternativeNames == nil)
        #expect(cnOnly.subject.description.contains("CN=www.example.test"))

        #expect(try Self.load("client-auth-leaf", keyType).extensions.extendedKeyUsage == ExtendedKeyUsage([.clientAuth]))
        #expect(try Self.load("no-eku-leaf", keyType).extensions.extendedKeyUsage == nil)

        let unknown = try Self.load("unknown-critical-extension-leaf", keyType).extensions
        #expect(unknown[oid: CertificateMinter.unknownExtensionOID]?.critical == true)

        let selfSigned = try Self.load("self-signed-leaf", keyType)
        #expect(selfSigned.issuer == selfSigned.subject)
        #expect(selfSigned.publicKey.isValidSignature(selfSigned.signature, for: selfSigned))
        #expect(try selfSigned.extensions.keyUsage?.keyCertSign == false)
    }

    @Test(arguments: KeyType.allCases)
    func reissuedLeafDiffersFromTheLeafOnlyInSerialAndValidity(_ keyType: KeyType) throws {
        let leaf = try Self.load("leaf", keyType)
        let reissued = try Self.load("reissued-leaf", keyType)
        #expect(reissued.publicKey == leaf.publicKey)
        #expect(reissued.subject == leaf.subject)
        #expect(reissued.issuer == leaf.issuer)
        #expect(try reissued.extensions.subjectAlternativeNames == leaf.extensions.subjectAlternativeNames)
        #expect(reissued.serialNumber != leaf.serialNumber)
        #expect(reissued.notValidBefore != leaf.notValidBefore && reissued.notValidAfter != leaf.notValidAfter)
        #expect(reissued.notValidBefore <= Self.time && Self.time <= reissued.notValidAfter)
        let intermediate = try Self.load("intermediate", keyType)
        #expect(intermediate.publicKey.isValidSignature(reissued.signature, for: reissued))
    }

    @Test(arguments: KeyType.allCases)
    func selfSignedNoNamesNamesNoHostAndHasItsOwnKey(_ keyType: KeyType) throws {
        let certificate = try Self.load("self-signed-no-names", keyType)
        #expect(certificate.issuer == certificate.subject)
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(try certificate.extensions.subjectAlternativeNames == nil)
        let attributes = certificate.subject.flatMap { $0 }
        #expect(!attributes.isEmpty)
        #expect(!attributes.contains { $0.type == .RDNAttributeType.commonName })
        #expect(certificate.notValidBefore <= Self.time && Self.time <= certificate.notValidAfter)
        for other in ["leaf", "self-signed-leaf"] {
            #expect(try certificate.publicKey != Self.load(other, keyType).publicKey, "\(other)")
        }
    }

    @Test func serialNumbersArePositiveShortAndUnique() throws {
        var seen = Set<Certificate.SerialNumber>()
        for keyType in KeyType.allCases {
            for spec in Catalogue.certificates {
                guard case .minted = spec.origin else { continue }
                let serial = try Self.load(spec.name, keyType).serialNumber
                #expect(serial.bytes.count <= 20 && (serial.bytes.first ?? 0x80) < 0x80, "\(spec.name)")
                #expect(seen.insert(serial).inserted, "\(keyType.rawValue)/\(spec.name)")
            }
        }
    }

    private static func der(_ name: String, _ keyType: KeyType) throws -> [UInt8] {
        try VectorsFolder.certificate(name, keyType)
    }

    private static func load(_ name: String, _ keyType: KeyType) throws -> Certificate {
        try Certificate(derEncoded: der(name, keyType))
    }
}
