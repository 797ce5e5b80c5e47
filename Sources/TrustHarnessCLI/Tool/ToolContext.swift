import ArgumentParser
import Foundation
import Synchronization
import TrustBackendKit
import TrustHarness
import TrustProbe
import TrustVectors

/// What every subcommand runs with, given to it explicitly (``ToolCommand/run(in:)``): the back
/// ends and optional capabilities the composition root gave, and where results and messages go.
///
/// An executable makes one from its packages (``TrustHarnessTool/main(packages:)``); a test makes one
/// with ``init(packages:standardOutput:standardError:standardInput:)`` and its own sinks, and runs the
/// tool in process with ``TrustHarnessTool/execute(_:in:)``.
public struct ToolContext: Sendable {
    /// The back ends the tool runs.
    public var registry: BackendRegistry
    /// The raw loops and floors `bench` compares back ends with.
    public var benchmarks: BenchmarkBaselines
    /// Deviations files of back ends from other packages, added to the vectors' own.
    public var deviations: [URL]
    /// A TLS server on 127.0.0.1 for `probe --vector` and `run --handshake`, if there is one.
    public var loopbackServer: LoopbackServerMaker?
    /// Every package's recipes for reproducing a finding with the library alone, by back-end name.
    public var reproductions: [String: Reproduction]
    /// Each back end's own deviations file, for those whose package keeps one (`explore --adopt`
    /// records their deviations there); the others' go to the vectors' own.
    public var deviationsFileOf: [String: URL]
    /// Where results go (standard output). Throws when they cannot be written in full.
    public var standardOutput: @Sendable (String) throws -> Void
    /// Where messages for people go (standard error).
    public var standardError: @Sendable (String) -> Void
    /// Reads all of standard input (`--chain -`).
    public var standardInput: @Sendable () -> [UInt8]
    /// Whether standard error is a terminal: progress is then one line rewritten in place, and
    /// otherwise (a log, a file, a test's sink) a whole line at most every ten seconds. False
    /// unless set; ``TrustHarnessTool/main(packages:)`` asks the process's own standard error.
    public var standardErrorIsTerminal = false
    /// The clock progress lines are timed with (a test gives its own, to check the intervals
    /// without sleeping).
    var clock: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Reads a vectors folder (`VectorSuite.load(from:)` unless a caller that runs the tool many
    /// times over one unchanging folder, such as a test, keeps what it read).
    public var loadVectors: @Sendable (URL) throws -> VectorSuite = { try VectorSuite.load(from: $0) }
    /// Whether standard input was read already: only one flag may take it.
    let standardInputTaken = Flag()

    /// A flag set once, shared by the copies of a context.
    final class Flag: Sendable {
        private let value = Mutex(false)
        /// Sets the flag; whether it was set before.
        func take() -> Bool { value.withLock { taken in defer { taken = true }; return taken } }
    }

    /// A context of `packages`' back ends, in the order given, with its own sinks.
    /// - Throws: ``BackendRegistryError`` when two packages' back ends share a name.
    public init(
        packages: [BackendPackage],
        standardOutput: @escaping @Sendable (String) throws -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        standardInput: @escaping @Sendable () -> [UInt8] = { [] }
    ) throws(BackendRegistryError) {
        registry = try BackendPackage.registry(of: packages)
        benchmarks = BackendPackage.benchmarks(of: packages)
        deviations = packages.flatMap(\.deviations)
        loopbackServer = packages.lazy.compactMap(\.loopbackServer).first
        reproductions = packages.reduce(into: [:]) { all, package in all.merge(package.reproductions) { _, later in later } }
        var files: [String: URL] = [:]
        for package in packages {
            guard let file = package.deviations.first else { continue }
            for entry in package.entries { files[entry.name] = file }
        }
        deviationsFileOf = files
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInput = standardInput
    }

    /// The process's own standard output, error and input.
    static func standardStreams(packages: [BackendPackage]) throws(BackendRegistryError) -> ToolContext {
        var context = try ToolContext(
            packages: packages,
            standardOutput: { text in try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) },
            standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            standardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        )
        context.standardErrorIsTerminal = isatty(STDERR_FILENO) == 1
        return context
    }

    /// A message for people, on its own line (standard error).
    func error(_ message: String) {
        standardError(message + "\n")
    }

    /// Who made a report, when, and with which command line: in every report.
    var provenance: Provenance {
        Provenance(tool: "trust-harness \(TrustHarnessTool.version)", command: ["trust-harness"] + arguments)
    }

    /// The provenance of a report judged against `profile`.
    func provenance(judging profile: StandardsProfile) -> Provenance {
        var provenance = self.provenance
        provenance.profile = profile
        return provenance
    }

    /// The arguments the tool was run with (after the executable's name).
    var arguments: [String] = []

    /// Writes `text` to the file at `path`, or to ``standardOutput`` when `path` is nil.
    /// - Throws: `ExitCode(2)` after saying where the report could not be written and why (a full
    ///   disk, a closed pipe, a folder given as the file).
    func write(_ text: String, to path: String?) throws {
        var isDirectory: ObjCBool = false
        if let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            error("error: cannot write the report to \(path): it is a folder; give a file name")
            throw ExitCode(2)
        }
        do {
            if let path {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            } else {
                try standardOutput(text)
            }
        } catch {
            self.error("error: cannot write the report to \(path ?? "standard output"): \(FileProblem.systemReason(error))")
            throw ExitCode(2)
        }
    }
}

/// A subcommand: parsed by ArgumentParser, run with the context the tool was given.
protocol ToolCommand: AsyncParsableCommand {
    /// Runs the command. Throws `ExitCode` for a status with the message already written, or an
    /// error ArgumentParser reports (a `ValidationError` is a usage error, status 2).
    func run(in tool: ToolContext) async throws
}

extension ToolCommand {
    /// Subcommands run only through ``TrustHarnessTool/execute(_:in:)``, which gives them their context.
    func run() async throws {
        throw ValidationError("trust-harness subcommands run through TrustHarnessTool.execute(_:in:)")
    }
}
