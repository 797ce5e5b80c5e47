import Testing
@testable import TrustCore

/// The strict DER check back ends apply before trusting any certificate bytes (RFC 5280 §4.1).
@Suite struct DERCertificateTests {
    @Test func aDERCertificateHasNoEncodingProblem() throws {
        let der = try SPKIPinTests.certificate().der
        #expect(DERCertificate.encodingProblem(der) == nil)
    }

    @Test func berFormsAreRefusedWithTheReason() throws {
        let der = try SPKIPinTests.certificate().der
        // The outer length is long form; rewrap the content in the forms DER forbids.
        let (headerLength, content) = try #require(Self.split(der))
        #expect(headerLength > 0)
        let cases: [([UInt8], String)] = [
            ([0x30, 0x80] + content + [0x00, 0x00], "indefinite length"),
            ([0x30, 0x83, 0x00] + Self.twoBytes(content.count) + content, "leading zero"),
            (der + [0x00], "follow the certificate"),
            ([0x30, 0x81, 0x05, 0x02, 0x01, 0x01, 0x05, 0x00], "long-form length for 5 bytes"),
            ([0x30, 0x03, 0x02, 0x05, 0x01], "runs past the end"),
            (Array(repeating: [0x30, 0x80], count: 70).flatMap { $0 }, "indefinite length"),
            ([0x30], "truncated"),
        ]
        for (bytes, problem) in cases {
            let found = DERCertificate.encodingProblem(bytes)
            #expect(found?.contains(problem) == true, "\(problem): \(String(describing: found))")
        }
        // Nesting is bounded, whatever the input.
        let deep = (0..<100).reduce([UInt8]()) { inner, _ in [0x30, UInt8(inner.count)] + inner }.suffix(200)
        #expect(DERCertificate.encodingProblem(Array(deep)) != nil)
    }

    static func split(_ der: [UInt8]) -> (Int, [UInt8])? {
        guard der.count > 4, der[0] == 0x30, der[1] == 0x82 else { return nil }
        return (4, Array(der.dropFirst(4)))
    }

    static func twoBytes(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
