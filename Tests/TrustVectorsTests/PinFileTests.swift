import Foundation
import Testing
import TrustCore
import TrustVectors

@Suite struct PinFileTests {
    func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func readsPinListsAndCertificateFilesAlike() throws {
        let directory = try #require(VectorSuite.locate())
        let certificate = directory.appendingPathComponent("certs/p256/root.pem")
        let fromCertificate = try PinFile.read(certificate)
        #expect(fromCertificate.count == 1)
        let list = try write("# root\n\(fromCertificate[0])  root key\n")
        #expect(try PinFile.read(list) == fromCertificate)
    }

    @Test func badLinesAndFilesNameTheProblem() throws {
        let bad = try write("sha256/d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=\nsha256/short\n")
        #expect { try PinFile.read(bad) } throws: { error in
            "\(error)".contains("line 2")
        }
        #expect(throws: CertificateFileError.self) { try PinFile.read(URL(fileURLWithPath: "/nonexistent/pins")) }
        let garbage = try write("not a certificate or a pin")
        #expect(throws: CertificateFileError.self) { try PinFile.read(garbage) }
    }
}
