import Foundation
import Testing
import TrustExplore

/// Explore's JSON carries certificates as base64 DER strings, and still reads the arrays of numbers
/// it wrote before (schema 2).
@Suite struct Base64CertificatesTests {
    struct Holder: Codable, Equatable {
        @Base64Certificates var chain: [[UInt8]]
    }

    @Test func certificatesAreBase64StringsAndReadBothWays() throws {
        let holder = Holder(chain: [[0x30, 0x03, 0x02, 0x01, 0x01], [0xFF]])
        let json = String(decoding: try JSONEncoder().encode(holder), as: UTF8.self)
        #expect(json == #"{"chain":["MAMCAQE=","\/w=="]}"#)
        #expect(try JSONDecoder().decode(Holder.self, from: Data(json.utf8)) == holder)
        #expect(try JSONDecoder().decode(Holder.self, from: Data(#"{"chain":[[48,3,2,1,1],[255]]}"#.utf8)) == holder)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Holder.self, from: Data(#"{"chain":["not base64!"]}"#.utf8)) }
    }
}
