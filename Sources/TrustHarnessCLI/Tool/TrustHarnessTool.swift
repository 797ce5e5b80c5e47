import TrustBackendKit
import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import TrustProbe

/// The `trust-harness` command-line tool as a library: every subcommand (`run`, `compare`,
/// `evaluate`, the suites, `explore`, `bench`, `report`, ...: `trust-harness --help` lists them,
/// docs/cli.md gives each one's help), entered with the back ends to use. An executable is a composition root of a few lines:
///
/// ```swift
/// import BuiltInBackends
/// import TrustHarnessCLI
///
/// await TrustHarnessTool.main(packages: [BuiltInBackends.package, MyBackend.package])
/// ```
///
/// Every subcommand and `--backend` then works with those back ends, exactly as with the built-in
/// ones. ``execute(_:in:)`` runs the tool in process (for tests), with a ``ToolContext`` of one's own.
public enum TrustHarnessTool {
    /// Runs the tool on the process's arguments with `packages`' back ends (in the order given),
    /// then exits: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage. Two
    /// packages registering one name is a usage error (status 2), named in the message.
    public static func main(packages: [BackendPackage]) async -> Never {
        // A closed pipe (`trust-harness run | head -1`) is a write error with a message and status 2,
        // not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let context: ToolContext
        do {
            context = try ToolContext.standardStreams(packages: packages)
        } catch {
            FileHandle.standardError.write(Data("error: the packages \(packages.map(\.name).joined(separator: ", ")) cannot run side by side: \(error)\n".utf8))
            exit(2)
        }
        exit(await execute(Array(CommandLine.arguments.dropFirst()), in: context))
    }

    /// Runs the tool on `arguments` (without the executable's name) in this process, with the back
    /// ends, output and input of `context`, and returns its exit status: 0 success, 1 a rejection or
    /// a conformance failure, 2 bad input or usage. Help and completion scripts go to the context's
    /// standard output, every message to its standard error.
    public static func execute(_ arguments: [String], in context: ToolContext) async -> Int32 {
        var tool = context
        tool.arguments = arguments
        if arguments == ["--version"] || arguments == ["-V"] {
            do { try tool.write(versionText(tool.registry), to: nil) } catch { return 2 }
            return 0
        }
        var named = arguments.first
        if named == "help", arguments.count > 1 { named = arguments[1] }
        if let named, let message = unknownSubcommand(named) {
            tool.error("error: \(message)\nUsage: trust-harness <subcommand>\n  See 'trust-harness --help' for more information.")
            return 2
        }
        if let message = repeatedValue(arguments) {
            tool.error("error: \(message)")
            return 2
        }
        let command: any ParsableCommand
        do {
            command = try TrustHarnessCommand.parseAsRoot(arguments)
        } catch {
            return finish(error, as: TrustHarnessCommand.self, in: tool)
        }
        guard let subcommand = command as? any ToolCommand else {
            // ArgumentParser's own commands (`help`, --help) answer by throwing CleanExit.
            do {
                var command = command
                try command.run()
            } catch {
                return finish(error, as: TrustHarnessCommand.self, in: tool)
            }
            return finish(ValidationError("give a subcommand: trust-harness --help lists them"), as: TrustHarnessCommand.self, in: tool)
        }
        do {
            try await subcommand.run(in: tool)
            return 0
        } catch {
            // An error a subcommand throws while running (an unknown --backend, an --id matching
            // nothing) is reported with that subcommand's usage line, not the root's.
            return finish(error, as: type(of: subcommand), in: tool)
        }
    }

    /// The exit status for `error`, after writing ArgumentParser's message for it (a subcommand's
    /// names it as typed, `trust-harness run`, through its configuration's `_superCommandName`),
    /// except that help and completion scripts are written like any report (one that cannot be
    /// written is status 2 with a message), every message starts `error:` as the tool's own do, and
    /// usage errors are status 2 (ArgumentParser's is 64), so that 1 always means "rejected or failed".
    static func finish(_ error: any Error, as command: any ParsableCommand.Type, in tool: ToolContext) -> Int32 {
        let code = command.exitCode(for: error)
        var message = command.fullMessage(for: error)
        if code == .success {
            // --help, `help`, --generate-completion-script: the answer goes to standard output.
            if !message.isEmpty {
                do { try tool.write(message.hasSuffix("\n") ? message : message + "\n", to: nil) } catch { return 2 }
            }
            return 0
        }
        if error is ExitCode { return code.rawValue }
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty { tool.error(message) }
        return code == .validationFailure ? 2 : code.rawValue
    }

    /// This tool's version.
    public static let version = "0.14.0"

    /// `--version`: the tool's version, then every registered back end's library version, as loaded.
    static func versionText(_ registry: BackendRegistry) -> String {
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
    /// `run`. Lists the subcommands.
    static func unknownSubcommand(_ argument: String) -> String? {
        guard !argument.hasPrefix("-") else { return nil }
        let names = TrustHarnessCommand.configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(argument) else { return nil }
        if argument == "version" { return "unknown subcommand 'version'; the tool's and the back ends' versions: trust-harness --version (or -V)" }
        return "unknown subcommand '\(argument)' (subcommands: \(names.dropLast().joined(separator: ", ")))"
    }

    /// A message when an option that takes one value is given twice with different values, else
    /// nil: which one was meant is a guess (ArgumentParser keeps the last), and for `--host` a wrong
    /// guess checks another name. Which options take one value is read from ArgumentParser's own
    /// model of the subcommand named (or `run`), not from a list kept here.
    static func repeatedValue(_ arguments: [String]) -> String? {
        let subcommand = TrustHarnessCommand.configuration.subcommands.first { $0._commandName == arguments.first } ?? RunCommand.self
        let singleValued = singleValuedOptions(of: subcommand)
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

    /// The long names of `command`'s options that take one value (not repeatable, not flags), from
    /// ArgumentParser's own description of the tool (what `--experimental-dump-help` prints).
    static func singleValuedOptions(of command: any ParsableCommand.Type) -> Set<String> {
        let info = toolInfo.command.subcommands?.first { $0.commandName == command._commandName }
        var names = Set<String>()
        for argument in info?.arguments ?? [] where argument.kind == "option" && argument.isRepeating == false {
            for name in argument.names ?? [] where name.kind == "long" { names.insert(name.name) }
        }
        return names
    }

    /// ArgumentParser's description of the tool, read once.
    static let toolInfo: ToolInfo = {
        var json = ""
        do {
            _ = try TrustHarnessCommand.parseAsRoot(["--experimental-dump-help"])
        } catch {
            json = TrustHarnessCommand.fullMessage(for: error)
        }
        return (try? JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8))) ?? ToolInfo(command: .init(commandName: "trust-harness", subcommands: nil, arguments: nil))
    }()

    /// The part of ArgumentParser's `ToolInfoV0` (its `--experimental-dump-help` JSON) read here.
    struct ToolInfo: Decodable {
        struct Command: Decodable {
            var commandName: String
            var subcommands: [Command]?
            var arguments: [Argument]?
        }
        struct Argument: Decodable {
            struct Name: Decodable { var kind: String; var name: String }
            var kind: String
            var names: [Name]?
            var isRepeating: Bool?
        }
        var command: Command
    }
}

struct TrustHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust-harness",
        abstract: "Runs the same certificate vectors against every TLS trust back end (OpenSSL, GnuTLS, swift-certificates, and any plugged in) and reports how each conforms to RFC 5280, RFC 9525 and the AFSecurityPolicy pinning semantics.",
        discussion: "Exit status: 0 success, 1 a rejection or a conformance failure, 2 bad input or usage. --version (-V): the tool's and every back end's library version.",
        subcommands: [RunCommand.self, CompareCommand.self, EvaluateCommand.self, LimboCommand.self, PKITSCommand.self, BetterTLSCommand.self, BadInputCommand.self, FidelityCommand.self, ExploreCommand.self, ProbeCommand.self, StressCommand.self, BenchCommand.self, PinsCommand.self, GenerateCommand.self, ReportCommand.self, FindingsCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Answered before parsing (``TrustHarnessTool/execute(_:in:)``)
    /// when it is the only argument; declared here so that help and the completion scripts offer it.
    @Flag(name: [.customLong("version"), .customShort("V")], help: "Show the tool's version and every back end's library version, as loaded.")
    var version = false

    func validate() throws {
        if version { throw ValidationError("--version (-V) takes no other arguments: trust-harness --version") }
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

    /// Loads the suite with the packages' deviations files (``ToolContext/deviations``) and
    /// `files` added; a broken vectors folder or deviations file is bad input (exit 2) with the file
    /// and the problem.
    func load(in tool: ToolContext, adding files: [URL] = []) throws -> VectorSuite {
        do {
            var suite = try tool.loadVectors(try directory())
            for file in tool.deviations + files {
                suite = try suite.adding(deviationsFrom: file)
            }
            return suite
        } catch let error as VectorLoadError {
            tool.error("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// `--profile`: the standard verdicts are judged against, one definition for every command that
/// judges (`run`, `compare`, `limbo`, `explore`).
struct ProfileOption: ParsableArguments {
    @Option(name: .customLong("profile"), help: ArgumentHelp("The standard verdicts are judged against: rfc5280 (RFC 5280 path validation with RFC 9525 host names; the default) or webpki (the CA/Browser Forum Baseline Requirements as a TLS client enforces them, on top of RFC 5280). Every report names it.", valueName: "profile"))
    var profile: StandardsProfile = .default
}

extension StandardsProfile: ExpressibleByArgument {}
