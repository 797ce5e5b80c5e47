import Crypto
import Foundation
import SwiftASN1
import X509

/// The one PKI the test targets mint their certificates from, in code, with every date relative to
/// one fixed instant, ``start`` (the model is swift-certificates' `TestPKI`, in
/// `Tests/X509Tests/RFC5280PolicyTests.swift`): ``root`` > ``intermediate`` (pathLenConstraint 0) >
/// ``leaf`` on P-256, ``unrelatedRoot``, and functions to mint the odd certificates single tests need.
///
/// Every certificate is a v3 certificate with subject and authority key identifiers, as strict
/// RFC 5280 checking wants; a test that needs something else says so with ``mint(_:issuer:key:signingKey:notBefore:notAfter:extensions:)``.
/// Keys are made afresh in each test process: no test may depend on a certificate's bytes.
///
/// The committed vectors are not minted here: they are data, written by TrustVectors' generator.
public enum TestPKI {
    /// 2026-01-01T00:00:00Z: the instant every date here is relative to, and the time a test's
    /// request is made at unless it says otherwise. Fixed, so that no test depends on the clock.
    public static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// `count` days, in seconds.
    public static func days(_ count: Double) -> TimeInterval { count * 86_400 }

    /// One minted certificate, with what is needed to issue from it.
    public struct Node: Sendable {
        public var certificate: Certificate
        public var der: [UInt8]
        /// The common name the subject was made from (``TestPKI/name(_:)``).
        public var commonName: String
        public var name: DistinguishedName
        public var key: Certificate.PrivateKey
        /// The subject key identifier of ``key``: what a certificate this one issues names in its
        /// authority key identifier.
        public var keyIdentifier: ArraySlice<UInt8>
    }

    /// A self-signed CA, valid from `start - 365 days` to `start + 365 days`.
    public static let root = ca("TrustHarness Test Root", issuer: nil)
    /// Issued by ``root``, with pathLenConstraint 0; valid from `start - 365 days` to `start + 365 days`.
    public static let intermediate = ca("TrustHarness Test Intermediate", issuer: root, pathLength: 0)
    /// Issued by ``intermediate`` for TLS servers; valid from `start - 1 day` to `start + 90 days`,
    /// for www.example.com, *.wild.example.com, 192.0.2.1 and 2001:db8::1.
    public static let leaf = TestPKI.leaf(
        "www.example.com", issuer: intermediate,
        names: [.dnsName("www.example.com"), .dnsName("*.wild.example.com"), .ipAddress(ip([192, 0, 2, 1])), .ipAddress(ip([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]))]
    )
    /// A root with the same shape as ``root`` that issued nothing here.
    public static let unrelatedRoot = ca("TrustHarness Unrelated Root", issuer: nil)

    /// The octets of an IP address as an iPAddress GeneralName holds them.
    public static func ip(_ bytes: [UInt8]) -> ASN1OctetString { ASN1OctetString(contentBytes: ArraySlice(bytes)) }

    /// The subject of every certificate here: O=TrustHarness, CN=`commonName`.
    public static func name(_ commonName: String) -> DistinguishedName {
        try! DistinguishedName {
            OrganizationName("TrustHarness")
            CommonName(commonName)
        }
    }

    /// A fresh P-256 key.
    public static func newKey() -> Certificate.PrivateKey { Certificate.PrivateKey(P256.Signing.PrivateKey()) }

    /// A CA certificate: critical basicConstraints cA (with `pathLength`, when given), critical
    /// keyUsage keyCertSign + cRLSign, critical `nameConstraints` when given, and key identifiers.
    /// Self-signed when `issuer` is `nil`; for `key` when given (to re-issue a CA), else a fresh key.
    public static func ca(
        _ commonName: String, issuer: Node?, pathLength: Int? = nil, nameConstraints: NameConstraints? = nil,
        key: Certificate.PrivateKey? = nil, notBefore: Date = start - days(365), notAfter: Date = start + days(365)
    ) -> Node {
        mint(commonName, issuer: issuer, key: key, notBefore: notBefore, notAfter: notAfter) { ski, aki in
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                if let nameConstraints { Critical(nameConstraints) }
                ski
                if let aki { aki }
            }
        }
    }

    /// A TLS server certificate: critical basicConstraints not-a-CA, critical keyUsage
    /// digitalSignature, the given extended key usages (none when `nil`), subjectAltNames (none when
    /// `nil`) and key identifiers, then whatever `adjust` changes (to add, replace or remove an extension).
    public static func leaf(
        _ commonName: String, issuer: Node, names: [GeneralName]?, usages: [ExtendedKeyUsage.Usage]? = [.serverAuth],
        notBefore: Date = start - days(1), notAfter: Date = start + days(90),
        adjusting adjust: (inout Certificate.Extensions) throws -> Void = { _ in }
    ) -> Node {
        mint(commonName, issuer: issuer, notBefore: notBefore, notAfter: notAfter) { ski, aki in
            var extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if let usages { try ExtendedKeyUsage(usages) }
                if let names { SubjectAlternativeNames(names) }
                ski
                if let aki { aki }
            }
            try adjust(&extensions)
            return extensions
        }
    }

    /// Mints one certificate for `key` (a fresh key when `nil`): self-signed when `issuer` is `nil`.
    /// `extensions` receives the subject key identifier of the key and the authority key identifier
    /// of the issuer (`nil` when self-signed). `signingKey` signs instead of the issuer's key, to
    /// forge a bad signature. Traps when swift-certificates cannot build the certificate: a test's mistake.
    public static func mint(
        _ commonName: String, issuer: Node?, key: Certificate.PrivateKey? = nil, signingKey: Certificate.PrivateKey? = nil,
        notBefore: Date, notAfter: Date,
        extensions: (SubjectKeyIdentifier, AuthorityKeyIdentifier?) throws -> Certificate.Extensions
    ) -> Node {
        let privateKey = key ?? newKey()
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
        return Node(
            certificate: certificate, der: serializer.serializedBytes, commonName: commonName, name: subject,
            key: privateKey, keyIdentifier: ski.keyIdentifier
        )
    }
}
