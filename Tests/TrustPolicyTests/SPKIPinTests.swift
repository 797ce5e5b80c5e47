import Crypto
import SwiftASN1
import TestPKI
import Testing
@testable import TrustDER
@testable import TrustPolicy

@Suite struct SPKIPinTests {
    /// A certificate with a key of its own, and that key's SubjectPublicKeyInfo as swift-certificates
    /// encodes it (not as the DER reader under test finds it).
    static func certificate() throws -> (der: [UInt8], spki: [UInt8]) {
        let node = TestPKI.leaf("pin test", issuer: TestPKI.intermediate, names: nil)
        var serializer = DER.Serializer()
        try serializer.serialize(node.certificate.publicKey)
        return (node.der, serializer.serializedBytes)
    }

    @Test func pinIsSHA256OfTheSubjectPublicKeyInfo() throws {
        let (der, spki) = try Self.certificate()
        #expect(DERCertificate.subjectPublicKeyInfo(der).map(Array.init) == spki)
        let pin = try SPKIPin(certificate: der)
        #expect(pin.digest == Array(SHA256.hash(data: spki)))
        #expect(try SPKIPin(pin.description) == pin)
        #expect(pin.description.hasPrefix("sha256/") && pin.description.count == 7 + 44)
    }

    /// The RFC 7469 §2.1.1 example pin text parses to 32 bytes.
    @Test func parsesPinText() throws {
        let pin = try SPKIPin("sha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=")
        #expect(pin.digest.count == 32)
        #expect(pin.description == "sha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=")
    }

    @Test(arguments: [
        "d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=",            // no prefix
        "sha1/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=",       // other hash
        "sha256/not base64!",
        "sha256/AAAA",                                              // 3 bytes
        "sha256/",
    ])
    func refusesBadPins(text: String) {
        #expect(throws: PinError.self) { try SPKIPin(text) }
    }

    @Test func parsesPinListsWithCommentsAndNamesTheBadLine() throws {
        let text = """
        # pins for www.example.test
        sha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=  backup key

        sha256/E9CZ9INDbd+2eRQozYqqbQ2yXLVKB9+xcprMF+44U1g=
        """
        #expect(try SPKIPin.parseList(text).count == 2)
        #expect { try SPKIPin.parseList("sha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=\nsha256/oops") } throws: { error in
            (error as? PinError)?.problem.hasPrefix("line 2:") == true
        }
    }

    @Test(arguments: [[], [0x30], [0x30, 0x03, 0x02, 0x01, 0x01], [0x30, 0x84, 0xff, 0xff, 0xff, 0xff], Array(repeating: 0x30, count: 64)] as [[UInt8]])
    func noKeyInGarbage(bytes: [UInt8]) {
        #expect(DERCertificate.subjectPublicKeyInfo(bytes) == nil)
        #expect(SPKIPin.of(certificate: bytes) == nil)
    }

    @Test func truncatedCertificateHasNoKey() throws {
        let (der, _) = try Self.certificate()
        for length in stride(from: 0, to: der.count, by: 7) {
            #expect(DERCertificate.subjectPublicKeyInfo(Array(der.prefix(length))) == nil)
        }
    }

    @Test func policyRefusesAPinnedCertificateItCannotRead() {
        #expect(throws: PinError.self) { try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [[1, 2, 3]]) }
    }
}
