import Crypto
import Foundation
import SwiftASN1
import TrustCore
import X509

/// Mints the catalogue's certificates for one key type, in the manner of swift-certificates' own
/// `TestPKI`: every date relative to one validation time, every issuer known by name and key.
///
/// Everything except an ECDSA signature is a function of the spec and the keys: serial numbers come
/// from the file name, key identifiers from the keys. So a previously written certificate can be kept
/// when its TBSCertificate is byte-identical to the fresh one and its signature verifies, which makes
/// regeneration stable although ECDSA signing is randomised.
struct CertificateMinter {
    let keyType: KeyType
    let keys: KeyRing
    let validationTime: Date
    /// The certificates minted so far, by spec name.
    private(set) var certificates: [String: Certificate] = [:]
    /// Their DER, by spec name; for corrupted certificates the only form there is.
    private(set) var derEncodings: [String: [UInt8]] = [:]
    /// The key name of each minted certificate, to sign what it issues (and its CRLs and OCSP responses).
    private(set) var keyNames: [String: String] = [:]

    init(keyType: KeyType, keys: KeyRing, validationTime: Date) {
        self.keyType = keyType
        self.keys = keys
        self.validationTime = validationTime
    }

    /// Mints `spec`, or keeps `previous` (a certificate read from an earlier generation) when it is
    /// what minting would produce up to the randomness of the signature.
    /// - Throws: ``VectorGeneratorError`` when the spec names an issuer or a key not known yet, or
    ///   swift-certificates fails to encode or sign.
    mutating func mint(_ spec: CertificateSpec, previous: Certificate?) throws {
        switch spec.origin {
        case .minted(let minting):
            let certificate = try issue(spec.name, minting, previous: previous)
            certificates[spec.name] = certificate
            keyNames[spec.name] = minting.key
            derEncodings[spec.name] = try Self.derEncoding(of: certificate)
        case .flippedSignatureBit(let base):
            guard var bytes = derEncodings[base] else {
                throw VectorGeneratorError.catalogue("\(spec.name) is derived from \(base), which the catalogue must list before it")
            }
            // The signature BIT STRING ends the Certificate SEQUENCE, so the last octet of the DER
            // is the last octet of the signature value.
            bytes[bytes.count - 1] ^= 0x01
            derEncodings[spec.name] = bytes
        }
    }

    private func issue(_ name: String, _ minting: CertificateSpec.Minting, previous: Certificate?) throws -> Certificate {
        let subjectKey = try keys.privateKey(minting.key)
        let subjectName = try distinguishedName(minting.commonName)
        let issuerName: DistinguishedName
        let issuerKey: Certificate.PrivateKey
        if let issuer = minting.issuer {
            guard let issuerCertificate = certificates[issuer], let issuerKeyName = keyNames[issuer] else {
                throw VectorGeneratorError.catalogue("\(name) is issued by \(issuer), which the catalogue must list before it as a minted certificate")
            }
            issuerName = issuerCertificate.subject
            issuerKey = try keys.privateKey(issuerKeyName)
        } else {
            issuerName = subjectName
            issuerKey = subjectKey
        }

        let fresh = try Certificate(
            version: .v3,
            serialNumber: Self.serialNumber(for: Catalogue.certificatePath(name, keyType)),
            publicKey: subjectKey.publicKey,
            notValidBefore: validationTime + minting.notBefore,
            notValidAfter: validationTime + minting.notAfter,
            issuer: issuerName,
            subject: subjectName,
            signatureAlgorithm: keyType.signatureAlgorithm,
            extensions: try extensions(minting.profile, subjectKey: subjectKey.publicKey, issuerKey: issuerKey.publicKey),
            issuerPrivateKey: issuerKey
        )
        if let previous,
           previous.tbsCertificateBytes == fresh.tbsCertificateBytes,
           previous.signatureAlgorithm == fresh.signatureAlgorithm,
           issuerKey.publicKey.isValidSignature(previous.signature, for: previous) {
            return previous
        }
        return fresh
    }

    private func distinguishedName(_ commonName: String?) throws -> DistinguishedName {
        let unit = keyType.label
        return try DistinguishedName {
            OrganizationName(Catalogue.organization)
            OrganizationalUnitName(unit)
            if let commonName {
                CommonName(commonName)
            }
        }
    }

    private func extensions(
        _ profile: CertificateSpec.Profile,
        subjectKey: Certificate.PublicKey,
        issuerKey: Certificate.PublicKey
    ) throws -> Certificate.Extensions {
        var extensions = Certificate.Extensions()
        switch profile.basicConstraints {
        case .authority(let pathLength):
            try extensions.append(.init(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength), critical: true))
        case .endEntity:
            try extensions.append(.init(BasicConstraints.notCertificateAuthority, critical: true))
        case .absent:
            break
        }

        let keyUsage: KeyUsage
        switch profile.keyUsage {
        case .authority: keyUsage = KeyUsage(keyCertSign: true, cRLSign: true)
        case .authorityWithoutCertificateSigning: keyUsage = KeyUsage(digitalSignature: true, cRLSign: true)
        case .endEntity: keyUsage = KeyUsage(digitalSignature: true, keyEncipherment: keyType.encryptsKeys)
        case .contentCommitmentOnly: keyUsage = KeyUsage(nonRepudiation: true)
        }
        try extensions.append(.init(keyUsage, critical: true))

        if let purposes = profile.extendedKeyUsage {
            let usages = purposes.map { purpose -> ExtendedKeyUsage.Usage in
                switch purpose {
                case .serverAuthentication: return .serverAuth
                case .clientAuthentication: return .clientAuth
                case .ocspSigning: return .ocspSigning
                }
            }
            try extensions.append(.init(ExtendedKeyUsage(usages), critical: false))
        }

        try extensions.append(.init(SubjectKeyIdentifier(hash: subjectKey), critical: false))
        let authorityKeyIdentifier = AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerKey).keyIdentifier)
        try extensions.append(.init(authorityKeyIdentifier, critical: false))

        if !profile.subjectAlternativeNames.isEmpty {
            let names = try profile.subjectAlternativeNames.map { name -> GeneralName in
                switch name {
                case .dns(let dnsName):
                    return .dnsName(dnsName)
                case .ipAddress(let text):
                    guard let octets = IPAddressParser.parse(text) else {
                        throw VectorGeneratorError.catalogue("\(text) is not an IP address")
                    }
                    return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets)))
                }
            }
            try extensions.append(.init(SubjectAlternativeNames(names), critical: false))
        }

        if profile.unknownCriticalExtension {
            // Value: DER NULL. The OID sits under 32473, the enterprise number RFC 5612 reserves for
            // documentation, so no verifier can know it.
            try extensions.append(.init(oid: Self.unknownExtensionOID, critical: true, value: [0x05, 0x00]))
        }
        if profile.unknownNonDERExtension {
            // Value: 01 02 03 04, not DER; swift-certificates writes it as given.
            try extensions.append(.init(oid: Self.unknownNonDERExtensionOID, critical: false, value: [0x01, 0x02, 0x03, 0x04]))
        }
        if let url = profile.ocspResponderURL {
            let access = AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier(url))])
            try extensions.append(.init(access, critical: false))
        }
        if profile.mustStaple {
            // Features ::= SEQUENCE OF INTEGER, here status_request (5) alone (RFC 7633 §4.1).
            try extensions.append(.init(oid: Self.tlsFeatureOID, critical: false, value: [0x30, 0x03, 0x02, 0x01, 0x05]))
        }
        if profile.criticalPolicyConstraints {
            // PolicyConstraints ::= SEQUENCE { inhibitPolicyMapping [1] IMPLICIT SkipCerts 5 }.
            try extensions.append(.init(oid: Self.policyConstraintsOID, critical: true, value: [0x30, 0x03, 0x81, 0x01, 0x05]))
        }
        return extensions
    }

    static let policyConstraintsOID: ASN1ObjectIdentifier = [2, 5, 29, 36]

    /// id-pe-tlsfeature (RFC 7633 §6).
    static let tlsFeatureOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 24]

    static let unknownExtensionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 32473, 1]

    /// The non-critical extension with a value that is not DER, also under RFC 5612's
    /// documentation arc.
    static let unknownNonDERExtensionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 32473, 2]

    /// A positive serial number of at most 16 octets: the first 16 octets of SHA-256 over the
    /// certificate's path, top bit cleared (RFC 5280 §4.1.2.2 allows up to 20).
    static func serialNumber(for path: String) -> Certificate.SerialNumber {
        var octets = Array(SHA256.hash(data: Data(path.utf8)).prefix(16))
        octets[0] &= 0x7F
        return Certificate.SerialNumber(bytes: octets)
    }

    static func derEncoding(of certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
