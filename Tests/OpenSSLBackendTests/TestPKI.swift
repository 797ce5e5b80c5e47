import Crypto
import Foundation
import SwiftASN1
import X509

/// A small PKI minted in code, with every date relative to one fixed start date (the model is
/// swift-certificates' `TestPKI`): root > intermediate > leaf on P-256, plus helpers to mint the
/// odd certificates individual tests need.
enum TestPKI {
    /// 2026-01-01T00:00:00Z. Fixed, so that tests never depend on the clock.
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func days(_ count: Double) -> TimeInterval { count * 86_400 }

    /// One minted certificate with what is needed to issue from it.
    struct Node: Sendable {
        var certificate: Certificate
        var der: [UInt8]
        var name: DistinguishedName
        var key: Certificate.PrivateKey
        var keyIdentifier: ArraySlice<UInt8>
    }

    static let root = ca("TrustHarness Test Root", issuer: nil)
    static let intermediate = ca("TrustHarness Test Intermediate", issuer: root, pathLength: 0)
    /// Valid from `start - 1 day` to `start + 90 days`.
    static let leaf = TestPKI.leaf(
        "www.example.com", issuer: intermediate,
        names: [.dnsName("www.example.com"), .dnsName("*.wild.example.com"), .ipAddress(ip([192, 0, 2, 1])), .ipAddress(ip([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]))]
    )
    /// A root with the same shape as ``root`` that issued nothing here.
    static let unrelatedRoot = ca("TrustHarness Unrelated Root", issuer: nil)

    static func ip(_ bytes: [UInt8]) -> ASN1OctetString { ASN1OctetString(contentBytes: ArraySlice(bytes)) }

    static func name(_ commonName: String) -> DistinguishedName {
        try! DistinguishedName {
            OrganizationName("TrustHarness")
            CommonName(commonName)
        }
    }

    /// A CA certificate: critical basicConstraints cA, critical keyUsage keyCertSign + cRLSign,
    /// subject and (when issued) authority key identifiers, as strict RFC 5280 checking wants.
    static func ca(
        _ commonName: String, issuer: Node?, pathLength: Int? = nil,
        notBefore: Date = start - days(365), notAfter: Date = start + days(365)
    ) -> Node {
        mint(commonName, issuer: issuer, notBefore: notBefore, notAfter: notAfter) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                ski
                if let aki { aki }
            }
        }
    }

    /// A TLS server certificate: critical basicConstraints not-a-CA, critical keyUsage
    /// digitalSignature, the given extended key usages (none when `nil`) and subjectAltNames (none
    /// when `nil`).
    static func leaf(
        _ commonName: String, issuer: Node, names: [GeneralName]?, usages: [ExtendedKeyUsage.Usage]? = [.serverAuth],
        notBefore: Date = start - days(1), notAfter: Date = start + days(90)
    ) -> Node {
        mint(commonName, issuer: issuer, notBefore: notBefore, notAfter: notAfter) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if let usages { try ExtendedKeyUsage(usages) }
                if let names { SubjectAlternativeNames(names) }
                ski
                if let aki { aki }
            }
        }
    }

    /// Mints one certificate: self-signed when `issuer` is `nil`. `extensions` receives the subject
    /// key identifier of the new key and the authority key identifier of the issuer (`nil` when
    /// self-signed). `signingKey` signs instead of the issuer's key, to forge a bad signature.
    static func mint(
        _ commonName: String, issuer: Node?, signingKey: Certificate.PrivateKey? = nil,
        notBefore: Date, notAfter: Date,
        extensions: (SubjectKeyIdentifier, AuthorityKeyIdentifier?) throws -> Certificate.Extensions
    ) -> Node {
        let privateKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let subject = name(commonName)
        let ski = SubjectKeyIdentifier(hash: privateKey.publicKey)
        let aki = issuer.map { AuthorityKeyIdentifier(keyIdentifier: $0.keyIdentifier) }
        let certificate = try! Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: privateKey.publicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: issuer?.name ?? subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try! extensions(ski, aki),
            issuerPrivateKey: signingKey ?? issuer?.key ?? privateKey
        )
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return Node(certificate: certificate, der: serializer.serializedBytes, name: subject, key: privateKey, keyIdentifier: ski.keyIdentifier)
    }
}
