import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import X509
import TrustPolicy

struct PinsCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        _superCommandName: "trust-harness",
        abstract: "Print the sha256/ public-key pin of every certificate in the given files, with its subject.",
        discussion: """
        Files may be PEM bundles, single DER certificates, folders of them, or '-' (standard input). The \
        output is a pin file for --pin or SecurityPolicy. Any unreadable file: status 2, nothing written.
        Examples:
          trust-harness pins server.pem > pins.txt
          openssl s_client -connect example.com:443 -showcerts </dev/null \\
              | trust-harness pins -
          trust-harness pins /etc/ssl/certs --format json
        """
    )

    @Argument(help: "Certificate files (PEM bundle or DER).", completion: .file())
    var files: [String]

    typealias Format = PinFileFormat

    @OptionGroup var formatOption: FormatOption<Format>
    var format: Format { formatOption.value }

    @OptionGroup var output: OutputOption

    struct Entry: Encodable {
        var pin: String
        var subject: String
        var file: String
        /// 1-based position of the certificate in its file.
        var index: Int
    }

    func run(in tool: ToolContext) async throws {
        guard !files.isEmpty else { throw ValidationError("give at least one certificate file") }
        var failed = false
        var entries: [Entry] = []
        for file in files {
            let certificates: [[UInt8]]
            do {
                // `-` is standard input, a folder every certificate file in it, as for --anchors.
                certificates = try CertificateInput.read([file], role: "pins", folders: true, in: tool)
            } catch {
                failed = true
                continue
            }
            for (index, der) in certificates.enumerated() {
                guard let pin = SPKIPin.of(certificate: der) else {
                    tool.error("error: \(file): certificate \(index + 1) is not a DER certificate (no SubjectPublicKeyInfo found)")
                    failed = true
                    continue
                }
                let subject = SubjectText.of(der)
                entries.append(Entry(pin: "\(pin)", subject: subject, file: file, index: index + 1))
            }
        }
        // Bad input writes no report, as for every other subcommand: a partial pin list would
        // look complete.
        if failed {
            tool.error("no pins written: fix the file(s) above")
            throw ExitCode(2)
        }
        switch format {
        case .text:
            // A comment line, so the output stays a pin file (`--pin` reads it as one).
            try output.write(in: tool, (entries.isEmpty ? "" : "# \(tool.provenance.line)\n") + entries.map { "\($0.pin)  # \($0.subject)  [\($0.file)#\($0.index)]\n" }.joined())
        case .json:
            try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: ["pins": entries])) + "\n")
        }
    }
}
