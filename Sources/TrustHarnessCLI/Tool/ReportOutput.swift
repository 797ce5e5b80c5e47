import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Where a report goes: `--output FILE`, or standard output. A report that cannot be written in
/// full (a full disk, a closed pipe, `/dev/full`, a folder given as the file) is an error, status 2
/// with the destination and the reason, never a silent success.
/// `--report` is the same flag on every command; `--output` is its other name, except on `limbo`,
/// whose `--output` is the folder of x509-limbo result files (``ReportFileOption``).
struct OutputOption: ParsableArguments {
    @Option(name: [.customLong("output"), .customLong("report")], help: ArgumentHelp("Write the report to this file instead of standard output ('-': standard output); --report is the same.", valueName: "file"), completion: .file())
    var path: String?

    func validate() throws {
        if path?.isEmpty == true { throw ValidationError("--output: give a file name ('-' for standard output)") }
    }

    func write(_ text: String) throws {
        try ReportOutput.write(text, to: path == "-" ? nil : path)
    }
}

/// `--report FILE` alone, for commands whose `--output` names a folder of result files.
struct ReportFileOption: ParsableArguments {
    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report to this file instead of standard output ('-': standard output).", valueName: "file"), completion: .file())
    var path: String?

    func validate() throws {
        if path?.isEmpty == true { throw ValidationError("--report: give a file name ('-' for standard output)") }
    }

    func write(_ text: String) throws {
        try ReportOutput.write(text, to: path == "-" ? nil : path)
    }
}

enum ReportOutput {
    /// Writes `text` to the file at `path`, or to standard output when `path` is nil.
    /// - Throws: `ExitCode(2)` after saying where the report could not be written and why.
    static func write(_ text: String, to path: String?) throws {
        let data = Data(text.utf8)
        var isDirectory: ObjCBool = false
        if let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            printError("error: cannot write the report to \(path): it is a folder; give a file name")
            throw ExitCode(2)
        }
        do {
            if let path {
                try data.write(to: URL(fileURLWithPath: path))
            } else {
                try FileHandle.standardOutput.write(contentsOf: data)
            }
        } catch {
            printError("error: cannot write the report to \(path ?? "standard output"): \(reason(error))")
            throw ExitCode(2)
        }
    }

    static func reason(_ error: any Error) -> String { FileProblem.systemReason(error) }
}

/// A JSON body with the back ends (name and library version) beside its own keys: how `stress`,
/// `bench` and `bad-input` say which libraries they measured.
struct WithBackends<Body: Encodable>: Encodable {
    var backends: [BackendInfo]
    var body: Body

    enum Key: String, CodingKey { case backends }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(backends, forKey: .backends)
    }

    /// The back ends as the text reports list them, one `  name: version` line each.
    static func lines(_ backends: [BackendInfo]) -> String {
        backends.map { "  \($0.name): \($0.version)\n" }.joined()
    }
}
