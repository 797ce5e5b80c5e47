import Foundation
import GnuTLSBackend
import SwiftASN1
import TestPKI
import Testing
import TrustCore
import X509

/// What ``GnuTLSBackend/Settings`` change, for presented chains and for a leaf identical to an
/// anchor (which GnuTLS accepts after checking only the trusted copy, `check_ca_sanity` in
/// lib/x509/verify.c, and the leaf's name and key purpose), and what the two presets do differently.
@Suite struct GnuTLSBackendSettingsTests {
    let root = TestPKI.root.der
    let intermediate = TestPKI.intermediate.der
    let leaf = TestPKI.leaf.der

    func evaluate(
        _ chain: [[UInt8]],
        settings: GnuTLSBackend.Settings,
        anchors: [[UInt8]]? = nil,
        host: HostIdentity = .dns("www.example.com")
    ) throws -> Verdict {
        let evaluator = try GnuTLSBackend(settings: settings).makeEvaluator(anchors: anchors ?? [root])
        return evaluator.evaluate(EvaluationRequest(chain: chain, host: host, time: TestPKI.start))
    }

    /// The hardened settings with `change` applied.
    func hardened(_ change: (inout GnuTLSBackend.Settings) -> Void) -> GnuTLSBackend.Settings {
        var settings = GnuTLSBackend.Settings.hardened
        change(&settings)
        return settings
    }

    @Test func theNameComesFromTheSettings() {
        #expect(GnuTLSBackend().settings == .hardened)
        #expect(GnuTLSBackend().name == "gnutls")
        #expect(GnuTLSBackend(settings: .clientDefault).name == "gnutls-default")
        #expect(GnuTLSBackend.Settings.clientDefault.profile == .low)
        #expect(GnuTLSBackend.Settings.clientDefault.flags.isEmpty)
    }

    /// The one difference the presets make to a chain: GNUTLS_PROFILE_MEDIUM refuses a 1024-bit
    /// RSA key, GNUTLS_PROFILE_LOW (what the NORMAL priorities give a plain client) accepts it.
    @Test func theClientDefaultAcceptsARSA1024Leaf() throws {
        let weak = try Self.rsa1024Leaf()
        let hardened = try evaluate([weak, intermediate], settings: .hardened)
        #expect(hardened.diagnostics.map(\.name).contains("GNUTLS_CERT_INSECURE_ALGORITHM"), "\(hardened.diagnostics)")
        #expect(!hardened.isTrusted)
        #expect(try evaluate([weak, intermediate], settings: .clientDefault).path == [weak, intermediate, root])
    }

    /// P-256 keys give 128-bit security: GNUTLS_PROFILE_ULTRA (192 bits) refuses them, on a presented
    /// path and, through `check_ca_sanity`'s check of the trusted copy's signature, on a pinned leaf.
    @Test func theProfileBoundsKeySizesForPathsAndPinnedLeaves() throws {
        let ultra = hardened { $0.profile = .ultra }
        #expect(try evaluate([leaf, intermediate], settings: hardened { $0.profile = .high }).isTrusted)
        let presented = try evaluate([leaf, intermediate], settings: ultra)
        #expect(presented.diagnostics.map(\.name).contains("GNUTLS_CERT_INSECURE_ALGORITHM"), "\(presented.diagnostics)")
        #expect(try evaluate([leaf], settings: hardened { $0.profile = .high }, anchors: [leaf]).path == [leaf])
        let pinned = try evaluate([leaf], settings: ultra, anchors: [leaf])
        #expect(pinned.diagnostics.map(\.name).contains("GNUTLS_CERT_INSECURE_ALGORITHM"), "\(pinned.diagnostics)")
    }

    @Test func doNotAllowWildcardsRefusesThemForPathsAndPinnedLeaves() throws {
        let wildcard = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("*.example.com")]).der
        let host = HostIdentity.dns("api.example.com")
        let noWildcards = hardened { $0.flags.insert(.doNotAllowWildcards) }
        #expect(try evaluate([wildcard, intermediate], settings: .hardened, host: host).isTrusted)
        #expect(try evaluate([wildcard, intermediate], settings: noWildcards, host: host).failures == [.hostnameMismatch])
        #expect(try evaluate([wildcard], settings: .hardened, anchors: [wildcard], host: host).path == [wildcard])
        #expect(try evaluate([wildcard], settings: noWildcards, anchors: [wildcard], host: host).failures == [.hostnameMismatch])
    }

    /// GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS lets through a critical extension GnuTLS does
    /// not know in a certificate it verifies, which it otherwise rejects (RFC 5280 §4.2). A leaf
    /// identical to an anchor is not verified but accepted as the trusted copy, whose extensions
    /// `check_ca_sanity` does not look at: GnuTLS 3.7 trusts it with or without the flag.
    @Test func ignoringUnknownCriticalExtensionsAppliesToVerifiedCertificates() throws {
        let unknown = TestPKI.leaf("www.example.com", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")]) {
            try $0.append(Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 1], critical: true, value: [0x05, 0x00]))
        }.der
        let ignoring = hardened { $0.flags.insert(.ignoreUnknownCriticalExtensions) }
        let presented = try evaluate([unknown, intermediate], settings: .hardened)
        #expect(presented.diagnostics.map(\.name) == ["GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS"], "\(presented.diagnostics)")
        #expect(try evaluate([unknown, intermediate], settings: ignoring).path == [unknown, intermediate, root])
        #expect(try evaluate([unknown], settings: .hardened, anchors: [unknown]).path == [unknown])
        #expect(try evaluate([unknown], settings: ignoring, anchors: [unknown]).path == [unknown])
    }

    /// The test leaf with a 1024-bit RSA key in place of its own, signed by the test intermediate.
    /// X509 refuses to handle RSA keys under 2048 bits, so the subjectPublicKeyInfo is swapped in the
    /// encoded tbsCertificate, which is then signed again.
    static func rsa1024Leaf() throws -> [UInt8] {
        let spki = try #require(Data(base64Encoded: """
            MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDDqMsC1NcPS6C6PvKTm/O1E6W6rNqA8HoyCvdXAqFlckFlFyihsR2w1lUY4ES9fFJHyScY1Ik4w07Y\
            IxxAYgSvQ+S8TfR10KafK7EDJ+4Mt9PoUpndEWNFJ+dqJn2Buce8FelMwupOrIlspocl7V2srBEQP75Sg9pkCrYw9ZElBwIDAQAB
            """))
        let template = TestPKI.leaf.certificate
        guard case .constructed(let fields) = try DER.parse(template.tbsCertificateBytes).content,
              case .constructed(let outer) = try DER.parse(TestPKI.leaf.der).content
        else { throw ASN1Error.invalidASN1Object(reason: "a certificate is a SEQUENCE") }
        // tbsCertificate: version, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, extensions.
        var tbs = DER.Serializer()
        tbs.appendConstructedNode(identifier: .sequence) { coder in
            for (index, field) in fields.enumerated() {
                coder.serializeRawBytes(index == 6 ? ArraySlice(spki) : field.encodedBytes)
            }
        }
        let signature = try TestPKI.intermediate.key.sign(bytes: tbs.serializedBytes, signatureAlgorithm: .ecdsaWithSHA256)
        let signatureAlgorithm = try #require(Array(outer).dropFirst().first).encodedBytes
        var certificate = DER.Serializer()
        try certificate.appendConstructedNode(identifier: .sequence) { coder in
            coder.serializeRawBytes(tbs.serializedBytes[...])
            coder.serializeRawBytes(signatureAlgorithm)
            try coder.serialize(ASN1BitString(bytes: signature.rawRepresentation[...]))
        }
        return certificate.serializedBytes
    }
}
