import TrustBackendKit
import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import TrustProbe

/// The `trust-harness` command-line tool as a library: every subcommand (`run`, `compare`,
/// `evaluate`, `limbo`, `bad-input`, `stress`, `bench`, `pins`, `generate`), entered with the back ends
/// to use. An executable is a composition root of a few lines:
///
/// ```swift
/// import BuiltInBackends
/// import TrustHarness
/// import TrustHarnessCLI
///
/// let registry = try BackendRegistry(BuiltInBackends.registry.entries + [
///     .init { configuration in MyBackend(configuration: configuration) },
/// ])
/// await TrustHarnessTool.main(registry: registry)
/// ```
///
/// Every subcommand and `--backend` then works with those back ends, exactly as with the built-in ones.
public enum TrustHarnessTool {
    /// What the composition root gave: the back ends, and the optional capabilities of some
    /// subcommands (`bench`'s baselines, `probe`'s loopback server), bound for the duration of
    /// ``main(registry:benchmarks:deviations:loopbackServer:)`` (a task-local value, not global state).
    struct Context: Sendable {
        var registry: BackendRegistry
        var benchmarks: BenchmarkBaselines
        var deviations: [URL]
        var loopbackServer: LoopbackServerMaker?
        /// Each back end's own deviations file, by name, for the back ends of packages that keep one
        /// (`explore --adopt` records their deviations there); the others' go to the vectors' own.
        var deviationsFileOf: [String: URL] = [:]
    }

    @TaskLocal static var context: Context?

    private static var given: Context {
        guard let context else {
            preconditionFailure("TrustHarnessTool.main(registry:) binds the back ends before any command runs")
        }
        return context
    }

    /// The back ends the tool was entered with.
    static var registry: BackendRegistry { given.registry }

    /// The loopback TLS server the tool was given (`probe --vector`), if any.
    static var loopbackServer: LoopbackServerMaker? { given.loopbackServer }

    /// The deviations files the tool was entered with, added to the vectors' own.
    static var deviations: [URL] { given.deviations }

    /// Each back end's own deviations file, for those whose package keeps one.
    static var deviationsFileOf: [String: URL] { given.deviationsFileOf }

    /// The raw loops and floors `bench` compares back ends with.
    static var benchmarks: BenchmarkBaselines { given.benchmarks }

    /// Parses the process's arguments and runs the subcommand with the back ends of `registry`, then
    /// exits: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage.
    /// - Parameters:
    ///   - benchmarks: the raw library loops and signature floors `bench` compares back ends with,
    ///     by back-end name; optional.
    ///   - deviations: deviations files (`Vectors/deviations.json`'s format) of the caller's own back
    ///     ends, added to the vectors' own record for `run` and `compare` (as `--deviations` does).
    ///   - loopbackServer: makes a TLS server on 127.0.0.1 for `probe --vector`; optional.
    public static func main(registry: BackendRegistry, benchmarks: BenchmarkBaselines = BenchmarkBaselines(), deviations: [URL] = [], loopbackServer: LoopbackServerMaker? = nil) async -> Never {
        await main(Context(registry: registry, benchmarks: benchmarks, deviations: deviations, loopbackServer: loopbackServer))
    }

    private static func main(_ context: Context) async -> Never {
        await $context.withValue(context) {
            await run()
        }
        exit(0)
    }

    /// The tool over several packages of back ends side by side (the root's built-ins and each
    /// package under `Backends/`, as `scripts/all-backends` builds it): their entries in one registry
    /// in the order given, their baselines, their deviations files and the first loopback server.
    /// Two packages registering one name is a usage error (status 2), named in the message.
    public static func main(packages: [BackendPackage]) async -> Never {
        let registry: BackendRegistry
        do {
            registry = try BackendPackage.registry(of: packages)
        } catch {
            printError("error: the packages \(packages.map(\.name).joined(separator: ", ")) cannot run side by side: \(error)")
            exit(2)
        }
        var files: [String: URL] = [:]
        for package in packages {
            guard let file = package.deviations.first else { continue }
            for entry in package.entries { files[entry.name] = file }
        }
        await main(Context(
            registry: registry, benchmarks: BackendPackage.benchmarks(of: packages),
            deviations: packages.flatMap(\.deviations), loopbackServer: packages.lazy.compactMap(\.loopbackServer).first,
            deviationsFileOf: files
        ))
    }

    /// The tool with its context bound.
    private static func run() async {
        // A closed pipe (`trust-harness run | head -1`) is a write error with a message and status 2,
        // not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] || arguments == ["-V"] {
            do {
                try ReportOutput.write(versionText(), to: nil)
            } catch {
                exit(2)
            }
            exit(0)
        }
        var named = arguments.first
        if named == "help", arguments.count > 1 { named = arguments[1] }
        if let named, let message = unknownSubcommand(named) {
            printError("error: \(message)\nUsage: trust-harness <subcommand>\n  See 'trust-harness --help' for more information.")
            exit(2)
        }
        if let message = repeatedValue(arguments) {
            printError("error: \(message)")
            exit(2)
        }
        await TrustHarnessCommand.main()
    }

    /// This tool's version.
    public static let version = "0.13.0"

    /// Who made a report, when, and with which command line: in every report.
    static var provenance: Provenance {
        Provenance(tool: "trust-harness \(version)", command: ["trust-harness"] + CommandLine.arguments.dropFirst())
    }

    /// The provenance of a report judged against `profile`.
    static func provenance(judging profile: StandardsProfile) -> Provenance {
        var provenance = self.provenance
        provenance.profile = profile
        return provenance
    }

    /// `--version`: the tool's version, then every registered back end's library version, as loaded.
    static func versionText() -> String {
        var out = "trust-harness \(version)\n"
        let entries = registry.entries
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let backend = entry.make(.uncached)
            out += "  \(entry.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(backend.libraryVersion)\(entry.isDefault ? "" : "  (runs when named)")\n"
        }
        return out
    }

    /// A first argument that is neither an option nor a subcommand: with `run` the default
    /// subcommand, `evalute --chain x` would otherwise be reported as an unknown `--chain` option of
    /// `run`. Names the nearest subcommand.
    static func unknownSubcommand(_ argument: String) -> String? {
        guard !argument.hasPrefix("-") else { return nil }
        let names = TrustHarnessCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]
        guard !names.contains(argument) else { return nil }
        if argument == "version" { return "unknown subcommand 'version'; the tool's and the back ends' versions: trust-harness --version (or -V)" }
        let nearest = names.min { distance($0, argument) < distance($1, argument) } ?? ""
        let hint = distance(nearest, argument) <= max(2, argument.count / 3) ? "; did you mean '\(nearest)'?" : ""
        return "unknown subcommand '\(argument)'\(hint) (subcommands: \(names.dropLast().joined(separator: ", ")))"
    }

    /// Options that take one value: given twice with different values, which one was meant is a
    /// guess (ArgumentParser keeps the last), and for `--host` a wrong guess checks another name.
    static let singleValued: Set<String> = [
        "host", "at", "format", "output", "report", "seconds", "tasks", "rounds", "seed", "cases", "pairs",
        "pinning", "vectors", "suite", "record-file", "benchmarks",
    ]

    /// A message when a single-valued option is given twice with different values, else nil.
    static func repeatedValue(_ arguments: [String]) -> String? {
        var seen: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let body = argument.dropFirst(2)
            let name: String
            let value: String
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
                guard singleValued.contains(name), index < arguments.count else { continue }
                value = arguments[index]
                index += 1
            }
            guard singleValued.contains(name) else { continue }
            if let earlier = seen[name], earlier != value {
                return "--\(name) is given twice, as \(Provenance.quoted(earlier)) and \(Provenance.quoted(value)): give it once"
            }
            seen[name] = value
        }
        return nil
    }

    /// Levenshtein distance between two short strings.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

struct TrustHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust-harness",
        abstract: "Runs the same certificate vectors against every TLS trust back end (OpenSSL, GnuTLS, swift-certificates, and any plugged in) and reports how each conforms to RFC 5280, RFC 9525 and the AFSecurityPolicy pinning semantics.",
        discussion: "Exit status: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage. --version (-V): the tool's and every back end's library version.",
        subcommands: [RunCommand.self, CompareCommand.self, EvaluateCommand.self, LimboCommand.self, PKITSCommand.self, BadInputCommand.self, ExploreCommand.self, ProbeCommand.self, StressCommand.self, BenchCommand.self, PinsCommand.self, GenerateCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Answered before parsing (``TrustHarnessTool/main(registry:benchmarks:deviations:loopbackServer:)``)
    /// when it is the only argument; declared here so that help and the completion scripts offer it.
    @Flag(name: [.customLong("version"), .customShort("V")], help: "Show the tool's version and every back end's library version, as loaded.")
    var version = false

    func validate() throws {
        if version { throw ValidationError("--version (-V) takes no other arguments: trust-harness --version") }
    }

    /// Parses and runs like ArgumentParser's own entry point, but maps usage errors to exit status 2
    /// (ArgumentParser uses 64), so that 1 always means "rejected or failed" and 2 "fix your input".
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            finish(error, as: Self.self)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            // An error a subcommand throws while running (an unknown --backend, an --id matching
            // nothing) is reported with that subcommand's usage line, not the root's.
            finish(error, as: type(of: command))
        }
    }

    /// Ends the process for `error` as ArgumentParser would, but: help and completion scripts are
    /// written like any report, so one that cannot be written is an error (status 2 with a
    /// message), not a silent success; every message starts `error:` as the tool's own do; usage
    /// errors exit 2.
    static func finish(_ error: any Error, as command: any ParsableCommand.Type) -> Never {
        let code = command.exitCode(for: error)
        var message = command.fullMessage(for: error)
        if code == .success {
            // --help, `help`, --generate-completion-script: the answer goes to standard output.
            if !message.isEmpty {
                do { try ReportOutput.write(message.hasSuffix("\n") ? message : message + "\n", to: nil) } catch { Foundation.exit(2) }
            }
            Foundation.exit(0)
        }
        if error is ExitCode { Foundation.exit(code.rawValue) }
        if command != Self.self, let name = command.configuration.commandName {
            // The subcommand's own message names it alone; say it as it is typed.
            message = message.replacingOccurrences(of: "Usage: \(name) ", with: "Usage: trust-harness \(name) ")
                .replacingOccurrences(of: "See '\(name) --help'", with: "See 'trust-harness \(name) --help'")
        }
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
    }
}

/// Where the vectors are: `--vectors`, else `$TRUST_HARNESS_VECTORS`, else `./Vectors`, else the
/// checkout this tool was built from, else the resource bundle or a copy installed beside the
/// executable.
struct VectorsOption: ParsableArguments {
    @Option(name: .long, help: "The vectors folder (default: $TRUST_HARNESS_VECTORS, else ./Vectors, else the source checkout's Vectors/, else beside the executable: the resource bundle TrustHarness_TrustVectorsResources.resources, Vectors/ or ../share/trust-harness/Vectors).", completion: .directory)
    var vectors: String?

    func directory() throws -> URL {
        if let vectors { return URL(fileURLWithPath: vectors) }
        if let named = VectorSuite.named() { return named }
        let local = URL(fileURLWithPath: "Vectors")
        if FileManager.default.fileExists(atPath: local.appendingPathComponent("manifest.json").path) { return local }
        if let located = VectorSuite.defaultDirectory() { return located }
        throw ValidationError("no vectors found: no Vectors/manifest.json here or in the source checkout, and no TrustHarness_TrustVectorsResources.resources, Vectors/ or ../share/trust-harness/Vectors beside the executable; pass --vectors PATH or set \(VectorSuite.environmentVariable)")
    }

    @Option(name: .customLong("deviations"), help: ArgumentHelp("A deviations file (deviations.json's format) of other back ends, added to the vectors' own record; repeatable.", valueName: "file"), completion: .file())
    var deviationFiles: [String] = []

    /// Loads the suite with every deviations file added; a broken vectors folder or deviations file
    /// is bad input (exit 2) with the file and the problem.
    func load() throws -> VectorSuite {
        do {
            var suite = try VectorSuite.load(from: try directory())
            for file in TrustHarnessTool.deviations + deviationFiles.map({ URL(fileURLWithPath: $0) }) {
                suite = try suite.adding(deviationsFrom: file)
            }
            return suite
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

/// `--profile`: the standard verdicts are judged against, one definition for every command that
/// judges (`run`, `compare`, `limbo`, `explore`).
struct ProfileOption: ParsableArguments {
    @Option(name: .customLong("profile"), help: ArgumentHelp("The standard verdicts are judged against: rfc5280 (RFC 5280 path validation with RFC 9525 host names; the default) or webpki (the CA/Browser Forum Baseline Requirements as a TLS client enforces them, on top of RFC 5280). Every report names it.", valueName: "profile"))
    var profile: StandardsProfile = .default
}

extension StandardsProfile: ExpressibleByArgument {}
