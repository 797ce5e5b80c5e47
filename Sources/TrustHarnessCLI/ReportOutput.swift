import ArgumentParser
import Foundation

/// Where a report goes: `--output FILE`, or standard output. A report that cannot be written in
/// full (a full disk, a closed pipe, `/dev/full`, a folder given as the file) is an error, status 2
/// with the destination and the reason, never a silent success.
struct OutputOption: ParsableArguments {
    @Option(name: .customLong("output"), help: ArgumentHelp("Write the report to this file instead of standard output ('-': standard output).", valueName: "file"), completion: .file())
    var path: String?

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

    /// The system's words for a write error (`No space left on device`, `Is a directory`), found in
    /// the error or the POSIX error under it.
    static func reason(_ error: any Error) -> String {
        var current: NSError? = error as NSError
        while let ns = current {
            if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
            current = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return error.localizedDescription
    }
}
