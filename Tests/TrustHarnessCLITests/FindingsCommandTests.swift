import Foundation
import Testing

/// `findings` writes, for every serious accept, a folder a maintainer can act on; nothing for what
/// is not serious enough; a bad severity is a usage error.
@Suite struct FindingsCommandTests {
    @Test func writesAReproducerPerSeriousAccept() async throws {
        let folder = Files.scratch("findings-cn")
        let run = try await ToolRun.of(["findings", "--repeat", "0", "--backend", "gnutls", "--backend", "openssl", "--id", "cn-only-no-san/*", "--output", folder])
        #expect(run.status == 0, "\(run)")
        // GnuTLS falls back to the CN (another-name, high); OpenSSL's column never checks the subject.
        let written = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/gnutls").sorted()
        #expect(written == ["cn-only-no-san__ed25519", "cn-only-no-san__p256", "cn-only-no-san__rsa2048"])
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/openssl"))
        let one = "\(folder)/gnutls/cn-only-no-san__p256"
        for file in ["leaf.pem", "intermediates.pem", "chain.pem", "anchors.pem", "leaf-key.pem", "reproduce.sh", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: "\(one)/\(file)"), "\(file)")
        }
        let readme = try String(contentsOfFile: "\(one)/README.md", encoding: .utf8)
        #expect(readme.contains("another name") && readme.contains("CWE-297") && readme.contains("2025-06-01T00:00:00Z") && readme.contains("RFC 9525 §2"))
        let script = try String(contentsOfFile: "\(one)/reproduce.sh", encoding: .utf8)
        #expect(script.contains("certtool --verify") && script.contains("'@1748736000'") && script.contains("--verify-hostname 'www.example.test'"))
        let index = try String(contentsOfFile: "\(folder)/README.md", encoding: .utf8)
        #expect(index.components(separatedBy: "| high · another-name").count - 1 == 3)
        #expect(run.output.contains("3 findings"))
    }

    @Test func nothingBelowTheSeverityAsked() async throws {
        let folder = Files.scratch("findings-critical")
        let run = try await ToolRun.of(["findings", "--repeat", "0", "--backend", "gnutls", "--id", "cn-only-no-san/*", "--severity", "critical", "--output", folder])
        #expect(run.status == 0 && run.output.hasPrefix("0 findings"), "\(run)")
        let bad = try await ToolRun.of(["findings", "--severity", "dire", "--output", folder])
        #expect(bad.status == 2 && bad.errors.contains("--severity"), "\(bad)")
    }
}
