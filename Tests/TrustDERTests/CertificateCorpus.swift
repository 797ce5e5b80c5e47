import Foundation
import SwiftASN1
import TrustVectors

/// Real certificates to hold the strict DER check to: the committed vectors, the x509-limbo
/// suite and the system's trust store.
enum CertificateCorpus {
    struct Entry {
        /// Where it comes from: a path, or a limbo case id and the certificate's role in it.
        var name: String
        var der: [UInt8]
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static func vectorsFolder(filePath: String = #filePath) throws -> URL {
        guard let folder = VectorSuite.locate(from: filePath) else { throw Missing(description: "no Vectors/ above \(filePath)") }
        return folder
    }

    /// The certificate at `path` under `Vectors/`.
    static func vector(_ path: String) throws -> [UInt8] {
        try CertificateFile.read(try vectorsFolder().appendingPathComponent(path))[0]
    }

    /// Every certificate under `Vectors/certs/`, all key types, sorted by path.
    static func vectors() throws -> [Entry] {
        let certs = try vectorsFolder().appendingPathComponent("certs")
        let paths = (FileManager.default.enumerator(atPath: certs.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".pem") }.sorted()
        return try paths.map { Entry(name: $0, der: try CertificateFile.read(certs.appendingPathComponent($0))[0]) }
    }

    /// Every certificate and CRL of the vendored x509-limbo cases, named `id role`.
    static func limbo() throws -> [Entry] {
        guard let url = LimboSuite.locateVendored() else { throw Missing(description: "no vendored limbo.json") }
        var entries: [Entry] = []
        for testcase in try LimboSuite.load(from: url).testcases {
            var parts = [("peer", testcase.peerCertificate, "CERTIFICATE")]
            parts += testcase.untrustedIntermediates.enumerated().map { ("untrusted[\($0)]", $1, "CERTIFICATE") }
            parts += testcase.trustedCerts.enumerated().map { ("trusted[\($0)]", $1, "CERTIFICATE") }
            parts += testcase.crls.enumerated().map { ("crl[\($0)]", $1, "X509 CRL") }
            for (role, pem, type) in parts {
                for der in try CertificateFile.decode(Array(pem.utf8), file: testcase.id, blockType: type) {
                    entries.append(Entry(name: "\(testcase.id) \(role)", der: der))
                }
            }
        }
        return entries
    }

    /// Every `/etc/ssl/certs/*.pem`; none where there is no such folder.
    static func systemStore() throws -> [Entry] {
        let folder = URL(fileURLWithPath: "/etc/ssl/certs")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return try names.filter { $0.hasSuffix(".pem") }.sorted().flatMap { name in
            try CertificateFile.read(folder.appendingPathComponent(name)).map { Entry(name: name, der: $0) }
        }
    }
}
