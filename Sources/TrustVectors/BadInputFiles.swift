import Crypto
import Foundation
import SwiftASN1
import X509

/// The generated files of the bad-input corpus (`Vectors/bad-input/generated/`): hostile or broken
/// inputs made deterministically, so `trust-harness generate --check` proves the committed set. The
/// cases that use them, with their expected answers, are the hand-written
/// `Vectors/bad-input/manifest.json` (``BadInputCorpus``).
///
/// Everything is derived from the vectors and fixed seeds, never from randomness: the same bytes on
/// every run (what is signed anew is signed with Ed25519, whose signatures are deterministic).
enum BadInputFiles {
    static let folder = "bad-input/generated"

    /// Relative path -> content, for `VectorGenerator`: `leaf` and `intermediate` are the Ed25519
    /// PKI's DER, `intermediateKey` the key of that intermediate, `p256Leaf` the P-256 leaf's DER.
    static func render(leaf: [UInt8], intermediate intermediateDER: [UInt8], intermediateKey: Certificate.PrivateKey, p256Leaf: [UInt8]) throws -> [String: Data] {
        var files: [String: Data] = [:]
        func put(_ name: String, _ bytes: [UInt8]) { files["\(folder)/\(name)"] = Data(bytes) }
        func pem(_ der: [UInt8]) -> [UInt8] { Array(PEMText.encode(type: "CERTIFICATE", der: der).utf8) }

        put("empty.der", [])
        for length in [1, 2, 16, leaf.count / 2, leaf.count - 1] {
            put("truncated-leaf-\(length).der", Array(leaf.prefix(length)))
        }
        var random = SplitMix64(seed: 0x5452_5553_5448_524E)  // "TRUSTHRN"
        put("random-1.bin", random.bytes(1))
        put("random-100.bin", random.bytes(100))
        put("random-2000.bin", random.bytes(2000))
        // Random content under a plausible outer SEQUENCE header claiming 1,000 bytes.
        put("random-sequence.bin", [0x30, 0x82, 0x03, 0xE8] + random.bytes(1000))
        // A DER length that claims far more than there is, and an indefinite (BER) length.
        put("length-overflow.der", [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] + Array(leaf.dropFirst(4).prefix(64)))
        put("indefinite-length.der", [0x30, 0x80] + Array(leaf.dropFirst(4)) + [0x00, 0x00])
        put("not-a-certificate.txt", Array("This is a text file, not a certificate.\n".utf8))
        put("broken-base64.pem", Array("-----BEGIN CERTIFICATE-----\nMIIB!!not*base64@@\n-----END CERTIFICATE-----\n".utf8))
        put("no-certificate.pem", Array("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n".utf8))
        put("empty.pem", [])
        put("unterminated.pem", Array(pem(leaf).prefix(200)))

        let intermediate = try Certificate(derEncoded: intermediateDER)
        let time = Catalogue.validationTime
        // A leaf with 10,000 dNSName SANs, issued by the Ed25519 intermediate.
        let names = (0..<10_000).map { GeneralName.dnsName("host\($0).many.example.test") }
        let manyNames = try certificate(
            subject: "many names", issuer: intermediate.subject, key: .init(try Curve25519.Signing.PrivateKey(rawRepresentation: seed("many-sans")).publicKey),
            issuerKey: intermediateKey, authorityKey: intermediate, ca: false, names: names, time: time
        )
        put("many-sans-leaf.pem", pem(manyNames))

        // Two CAs that issue each other (A by B, B by A) and a leaf issued by A: an issuer loop.
        let loopA = try Curve25519.Signing.PrivateKey(rawRepresentation: seed("loop-a"))
        let loopB = try Curve25519.Signing.PrivateKey(rawRepresentation: seed("loop-b"))
        let nameA = try DistinguishedName { CommonName("Loop CA A") }
        let nameB = try DistinguishedName { CommonName("Loop CA B") }
        let a = try certificate(subject: "Loop CA A", issuer: nameB, key: .init(loopA.publicKey), issuerKey: .init(loopB), authorityKeyFrom: .init(loopB.publicKey), ca: true, names: [], time: time)
        let b = try certificate(subject: "Loop CA B", issuer: nameA, key: .init(loopB.publicKey), issuerKey: .init(loopA), authorityKeyFrom: .init(loopA.publicKey), ca: true, names: [], time: time)
        let loopLeaf = try certificate(
            subject: "loop leaf", issuer: nameA, key: .init(try Curve25519.Signing.PrivateKey(rawRepresentation: seed("loop-leaf")).publicKey),
            issuerKey: .init(loopA), authorityKeyFrom: .init(loopA.publicKey), ca: false, names: [.dnsName("www.example.test")], time: time
        )
        put("loop-a.pem", pem(a))
        put("loop-b.pem", pem(b))
        put("loop-leaf.pem", pem(loopLeaf))

        for (name, bytes) in try berSignatures(p256Leaf) { put(name, bytes) }
        for (name, bytes) in try berLeaves(leaf, issuerKey: intermediateKey) { put(name, bytes) }
        return files
    }

    /// The P-256 leaf with its ECDSA-Sig-Value re-encoded in BER inside the signature BIT STRING:
    /// the TBSCertificate is untouched, so a parser that takes BER there still verifies the
    /// signature, and one certificate would have many encodings (issue 11).
    static func berSignatures(_ der: [UInt8]) throws -> [(String, [UInt8])] {
        var certificate = try DERTree(der[...])
        try certificate[[2]].carry(after: 1)
        let r = [2, 0, 0]
        var paddedR = certificate
        // A sign-extension byte: the value is the same, the encoding no longer minimal.
        paddedR[r].content.insert(paddedR[r].content[0] < 0x80 ? 0x00 : 0xFF, at: 0)
        var longForm = certificate
        longForm[[2, 0]].paddedLength = true
        return [("p256-leaf-ecdsa-padded-r.der", paddedR.encoded), ("p256-leaf-ecdsa-long-form-length.der", longForm.encoded)]
    }

    /// The Ed25519 leaf with one BER (or explicit DEFAULT) form in its TBSCertificate, each signed
    /// anew by `issuerKey` so that only the encoding is wrong.
    static func berLeaves(_ der: [UInt8], issuerKey: Certificate.PrivateKey) throws -> [(String, [UInt8])] {
        let certificate = try DERTree(der[...])
        let tbs = certificate[[0]]
        // [0] version, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, [3] extensions.
        guard tbs.children?.count == 8, let extensions = tbs[[7, 0]].children, extensions.count == 6 else {
            throw VectorGeneratorError.catalogue("the bad-input corpus expects the Ed25519 leaf to be v3 with 6 extensions")
        }
        let basicConstraints = [7, 0, 0], extendedKeyUsage = [7, 0, 2], subjectAlternativeName = [7, 0, 5]
        var variants: [(String, DERTree)] = []

        var serial = tbs
        serial[[1]].content.insert(0x00, at: 0)
        variants.append(("leaf-serial-padded.der", serial))

        var booleanOne = tbs
        booleanOne[basicConstraints + [1]].content = [0x01]
        variants.append(("leaf-critical-boolean-01.der", booleanOne))

        var explicitFalse = tbs
        explicitFalse[extendedKeyUsage].children!.insert(.primitive(0x01, [0x00]), at: 1)
        variants.append(("leaf-explicit-critical-false.der", explicitFalse))

        var trailing = tbs
        trailing[subjectAlternativeName + [1]].content.append(0x00)
        variants.append(("leaf-extension-trailing-byte.der", trailing))

        // A v1 certificate has no extensions; its version, DEFAULT v1, is written out.
        var versionOne = tbs
        versionOne.children!.removeLast()
        versionOne[[0, 0]].content = [0x00]
        variants.append(("leaf-explicit-version-v1.der", versionOne))

        return try variants.map { name, tbs in
            var signed = certificate
            signed[[0]] = tbs
            let signature = try issuerKey.sign(bytes: tbs.encoded, signatureAlgorithm: .ed25519)
            signed[[2]] = .primitive(0x03, [0x00] + signature.rawRepresentation)
            return (name, signed.encoded)
        }
    }

    private static func seed(_ label: String) -> [UInt8] {
        Array(SHA256.hash(data: Data("TrustHarness bad-input \(label)".utf8)))
    }

    private static func certificate(
        subject: String, issuer: DistinguishedName, key: Certificate.PublicKey, issuerKey: Certificate.PrivateKey,
        authorityKey authority: Certificate? = nil, authorityKeyFrom authorityPublicKey: Certificate.PublicKey? = nil,
        ca: Bool, names: [GeneralName], time: Date
    ) throws -> [UInt8] {
        let issuerPublicKey = authority?.publicKey ?? authorityPublicKey ?? issuerKey.publicKey
        var extensions = Certificate.Extensions()
        if ca {
            try extensions.append(.init(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
            try extensions.append(.init(KeyUsage(keyCertSign: true, cRLSign: true), critical: true))
        } else {
            try extensions.append(.init(BasicConstraints.notCertificateAuthority, critical: true))
            try extensions.append(.init(KeyUsage(digitalSignature: true), critical: true))
            try extensions.append(.init(ExtendedKeyUsage([.serverAuth]), critical: false))
        }
        try extensions.append(.init(SubjectKeyIdentifier(hash: key), critical: false))
        try extensions.append(.init(AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerPublicKey).keyIdentifier), critical: false))
        if !names.isEmpty {
            try extensions.append(.init(SubjectAlternativeNames(names), critical: false))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: CertificateMinter.serialNumber(for: "bad-input/\(subject)"), publicKey: key,
            notValidBefore: time.addingTimeInterval(-86_400 * 365), notValidAfter: time.addingTimeInterval(86_400 * 365),
            issuer: issuer, subject: try DistinguishedName { CommonName(subject) },
            signatureAlgorithm: .ed25519, extensions: extensions, issuerPrivateKey: issuerKey
        )
        return try CertificateMinter.derEncoding(of: certificate)
    }
}

/// A small deterministic generator (SplitMix64): the same seed, the same sequence on every platform
/// (the bad-input corpus's bytes, the explorer's mutant order).
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
