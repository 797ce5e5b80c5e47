import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

@main
struct TrustHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust-harness",
        abstract: "Runs the same certificate vectors against every TLS trust back end (OpenSSL, GnuTLS) and reports how each conforms to RFC 5280, RFC 9525 and the AFSecurityPolicy pinning semantics.",
        discussion: "Exit status: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage.",
        subcommands: [RunCommand.self, CompareCommand.self, EvaluateCommand.self, LimboCommand.self, BadInputCommand.self, StressCommand.self, BenchCommand.self, PinsCommand.self, GenerateCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Parses and runs like ArgumentParser's own entry point, but maps usage errors to exit status 2
    /// (ArgumentParser uses 64), so that 1 always means "rejected or failed" and 2 "fix your input".
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
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

    /// Loads the suite; a broken vectors folder is bad input (exit 2) with the file and the problem.
    func load() throws -> VectorSuite {
        do {
            return try VectorSuite.load(from: try directory())
        } catch let error as VectorLoadError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// Messages for people go to standard error, results to standard output.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
