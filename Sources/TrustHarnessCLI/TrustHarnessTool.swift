import ArgumentParser
import Foundation
import Synchronization
import TrustHarness
import TrustVectors

/// The `trust-harness` command-line tool as a library: every subcommand (`run`, `compare`,
/// `evaluate`, `limbo`, `bad-input`, `stress`, `bench`, `pins`, `generate`), entered with the back ends
/// to use. An executable is a composition root of a few lines:
///
/// ```swift
/// import TrustHarness
/// import TrustHarnessCLI
///
/// let registry = try BackendRegistry([
///     .init(name: "mine") { configuration in MyBackend(configuration: configuration) },
/// ])
/// await TrustHarnessTool.main(registry: registry)
/// ```
///
/// Every subcommand and `--backend` then works with those back ends, exactly as with the built-in ones.
public enum TrustHarnessTool {
    /// What the composition root gave: the back ends and the optional raw signature loop of `bench`.
    struct Context: Sendable {
        var registry: BackendRegistry
        var signatureFloor: (any BaselineLoop)?
    }

    private static let context = Mutex<Context?>(nil)

    /// The back ends the tool was entered with.
    static var registry: BackendRegistry {
        guard let registry = context.withLock({ $0?.registry }) else {
            preconditionFailure("TrustHarnessTool.main(registry:) sets the back ends before any command runs")
        }
        return registry
    }

    /// The raw signature-verification loop `bench` reports as the floor, if the tool was given one.
    static var signatureFloor: (any BaselineLoop)? {
        context.withLock { $0?.signatureFloor }
    }

    /// Parses the process's arguments and runs the subcommand with the back ends of `registry`, then
    /// exits: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage.
    /// - Parameter signatureFloor: a raw loop of the signature verifications a path needs, which
    ///   `bench` reports as the floor every back end's warm figure is compared with; optional.
    public static func main(registry: BackendRegistry, signatureFloor: (any BaselineLoop)? = nil) async -> Never {
        context.withLock { $0 = Context(registry: registry, signatureFloor: signatureFloor) }
        await TrustHarnessCommand.main()
        exit(0)
    }
}

struct TrustHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust-harness",
        abstract: "Runs the same certificate vectors against every TLS trust back end (OpenSSL, GnuTLS, and any plugged in) and reports how each conforms to RFC 5280, RFC 9525 and the AFSecurityPolicy pinning semantics.",
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
