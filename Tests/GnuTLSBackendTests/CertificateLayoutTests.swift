@testable import GnuTLSBackend
import SwiftASN1
import TestPKI
import Testing
import X509

@Suite("Certificate layout")
struct CertificateLayoutTests {
    @Test func findsSubjectAndPublicKeyOfAV3Certificate() throws {
        let certificate = TestPKI.intermediate.certificate
        let der = TestPKI.intermediate.der
        let layout = try #require(CertificateLayout(der: der))
        var subject = DER.Serializer()
        try subject.serialize(certificate.subject)
        var key = DER.Serializer()
        try key.serialize(certificate.publicKey)
        #expect(Array(der[layout.subject]) == subject.serializedBytes)
        #expect(Array(der[layout.subjectPublicKeyInfo]) == key.serializedBytes)
    }

    @Test func rejectsTruncatedAndNonSequenceInput() {
        let der = TestPKI.leaf.der
        #expect(CertificateLayout(der: Array(der.prefix(60))) == nil)
        #expect(CertificateLayout(der: []) == nil)
        #expect(CertificateLayout(der: [0x02, 0x01, 0x00]) == nil)
        #expect(CertificateLayout(der: [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
    }
}
