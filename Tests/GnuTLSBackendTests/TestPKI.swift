import Crypto
import Foundation
import SwiftASN1
import X509

/// A small PKI minted in code, with every date relative to one fixed instant (after swift-certificates'
/// `TestPKI`): a root, an intermediate with pathLenConstraint 0, and leaves for www.example.com.
enum TestPKI {
    /// The instant every date is relative to, and the default time of a request.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

    /// A name and private key that can sign certificates.
    struct Issuer: Sendable {
        var name: DistinguishedName
        var key: Certificate.PrivateKey
    }

    static func name(_ commonName: String) -> DistinguishedName {
        try! DistinguishedName {
            CountryName("US")
            OrganizationName("TrustHarness Tests")
            CommonName(commonName)
        }
    }

    static let rootKey = P256.Signing.PrivateKey()
    static let root = Issuer(name: name("Test Root"), key: .init(rootKey))
    static let rootCertificate = selfSigned(root, publicKey: .init(rootKey.publicKey), extensions: caExtensions(pathLength: nil))

    static let intermediateKey = P256.Signing.PrivateKey()
    static let intermediate = Issuer(name: name("Test Intermediate"), key: .init(intermediateKey))
    static let intermediateCertificate = issue(
        subject: intermediate.name, publicKey: .init(intermediateKey.publicKey), issuer: root,
        notBefore: now - days(365), notAfter: now + days(365), extensions: caExtensions(pathLength: 0)
    )

    /// The leaf: valid from `now - 30 days` through `now + 90 days`, for www.example.com and 10.0.0.1.
    static let leafNotBefore = now - days(30)
    static let leafNotAfter = now + days(90)
    static let leafCertificate = leaf(issuer: intermediate)

    static func days(_ count: Double) -> TimeInterval { count * 86_400 }

    static func caExtensions(pathLength: Int?) -> Certificate.Extensions {
        try! Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
    }

    static func leafExtensions(
        names: [GeneralName] = [.dnsName("www.example.com"), .ipAddress(ASN1OctetString(contentBytes: [10, 0, 0, 1]))],
        usages: [ExtendedKeyUsage.Usage] = [.serverAuth]
    ) -> Certificate.Extensions {
        try! Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage(usages)
            if !names.isEmpty {
                SubjectAlternativeNames(names)
            }
        }
    }

    static func leaf(
        issuer: Issuer,
        commonName: String = "Test Leaf",
        notBefore: Date = leafNotBefore,
        notAfter: Date = leafNotAfter,
        extensions: Certificate.Extensions = leafExtensions()
    ) -> Certificate {
        issue(
            subject: name(commonName), publicKey: .init(P256.Signing.PrivateKey().publicKey), issuer: issuer,
            notBefore: notBefore, notAfter: notAfter, extensions: extensions
        )
    }

    static func issue(
        subject: DistinguishedName,
        publicKey: Certificate.PublicKey,
        issuer: Issuer,
        notBefore: Date,
        notAfter: Date,
        extensions: Certificate.Extensions
    ) -> Certificate {
        try! Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: publicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: issuer.name,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: issuer.key
        )
    }

    static func selfSigned(
        _ issuer: Issuer,
        publicKey: Certificate.PublicKey,
        notBefore: Date = now - days(3650),
        notAfter: Date = now + days(3650),
        extensions: Certificate.Extensions
    ) -> Certificate {
        issue(subject: issuer.name, publicKey: publicKey, issuer: issuer, notBefore: notBefore, notAfter: notAfter, extensions: extensions)
    }

    /// A fresh self-signed CA and its issuer, unrelated to ``root``.
    static func makeRoot(_ commonName: String) -> (certificate: Certificate, issuer: Issuer) {
        let key = P256.Signing.PrivateKey()
        let issuer = Issuer(name: name(commonName), key: .init(key))
        return (selfSigned(issuer, publicKey: .init(key.publicKey), extensions: caExtensions(pathLength: nil)), issuer)
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

extension Certificate {
    var derBytes: [UInt8] { TestPKI.der(self) }
}
