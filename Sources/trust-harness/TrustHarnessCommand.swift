import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

@main
struct TrustHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust-harness",
        abstract: "Runs the same certificate vectors against every TLS trust back end (OpenSSL, GnuTLS) and reports how each conforms to RFC 5280 and RFC 9525.",
        subcommands: [RunCommand.self, PinsCommand.self, GenerateCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// Where the vectors are: `--vectors`, else `./Vectors`, else the checkout this tool was built from.
struct VectorsOption: ParsableArguments {
    @Option(name: .long, help: "The vectors folder (default: ./Vectors, else the source checkout's Vectors/).")
    var vectors: String?

    func directory() throws -> URL {
        if let vectors { return URL(fileURLWithPath: vectors) }
        let local = URL(fileURLWithPath: "Vectors")
        if FileManager.default.fileExists(atPath: local.appendingPathComponent("manifest.json").path) { return local }
        if let located = VectorSuite.locate() { return located }
        throw ValidationError("no Vectors/manifest.json in the current folder; pass --vectors PATH")
    }
}

/// Messages for people go to standard error, results to standard output.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
