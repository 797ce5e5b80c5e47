import ArgumentParser
import Foundation
import TrustCore
import TrustVectors
import X509

struct PinsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        abstract: "Print the sha256/ public-key pin of every certificate in the given files, with its subject.",
        discussion: "Files may be PEM bundles or single DER certificates. The output lines can be pasted into a pin file for --pin or SecurityPolicy."
    )

    @Argument(help: "Certificate files (PEM bundle or DER).")
    var files: [String]

    @OptionGroup var output: OutputOption

    func run() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one certificate file") }
        var failed = false
        var text = ""
        for file in files {
            let certificates: [[UInt8]]
            do {
                certificates = try CertificateFile.read(URL(fileURLWithPath: file))
            } catch {
                printError("error: \(error)")
                failed = true
                continue
            }
            for (index, der) in certificates.enumerated() {
                guard let pin = SPKIPin.of(certificate: der) else {
                    printError("error: \(file): certificate \(index + 1) is not a DER certificate (no SubjectPublicKeyInfo found)")
                    failed = true
                    continue
                }
                let subject = (try? Certificate(derEncoded: der)).map { "\($0.subject)" } ?? "(subject unreadable)"
                text += "\(pin)  # \(subject)  [\(file)#\(index + 1)]\n"
            }
        }
        try output.write(text)
        if failed { throw ExitCode(2) }
    }
}
