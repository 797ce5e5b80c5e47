import Foundation
import HTTPClientWire
import TrustBackendKit

/// Runs `trust-http-client` in a child process for one request, with its clock set to the request's
/// time by libfaketime (`LD_PRELOAD`, `FAKETIME="YYYY-MM-DD hh:mm:ss"` frozen, in `TZ=UTC`, the
/// monotonic clock left alone so timeouts still run). The child gets no environment of ours but
/// `PATH` and what is set here, so no stray `SSL_CERT_FILE`, proxy or CA variable changes the stack.
/// A child that overruns its time is killed, and waited for: none is left behind.
struct ClientLauncher: Sendable {
    /// The child executable.
    let executable: URL
    /// `libfaketimeMT.so.1` (the multithreaded build: both stacks run threads).
    let faketime: URL

    /// The executable and libfaketime, found as documented in the README.
    /// - Throws: a message saying what is missing and how to get it.
    static func locate() throws(LaunchProblem) -> ClientLauncher {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let path = environment["TRUST_HTTP_CLIENT"], !path.isEmpty { candidates.append(URL(fileURLWithPath: path)) }
        // Beside this module's resource bundle, which SwiftPM puts in the products folder of the build
        // that linked it, as the executable of the same build.
        candidates.append(Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("trust-http-client"))
        if let main = Bundle.main.executableURL {
            candidates.append(main.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("trust-http-client"))
        }
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LaunchProblem(message: "the client executable trust-http-client is not built: looked at \(candidates.map(\.path).joined(separator: ", ")). Build it in the same build folder (swift build --product trust-http-client; scripts/all-backends does) or set TRUST_HTTP_CLIENT to its path")
        }
        var libraries: [String] = []
        if let path = environment["TRUST_HARNESS_FAKETIME"], !path.isEmpty { libraries.append(path) }
        for folder in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"] {
            libraries.append("\(folder)/faketime/libfaketimeMT.so.1")
        }
        guard let faketime = libraries.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw LaunchProblem(message: "libfaketime is not installed (looked for \(libraries.joined(separator: ", "))): apt-get install faketime, or set TRUST_HARNESS_FAKETIME to libfaketimeMT.so.1")
        }
        return ClientLauncher(executable: executable, faketime: URL(fileURLWithPath: faketime))
    }

    struct LaunchProblem: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// What became of the child.
    enum Result: Sendable {
        /// It printed an outcome; `clock` is the time it read when it started.
        case outcome(ClientOutcome)
        /// It could not be started, died, overran or printed no outcome: not a verdict of the stack.
        case failed(String)
    }

    /// `FAKETIME`'s absolute form for `unixTime`, in UTC (the child runs with `TZ=UTC`).
    static func faketimeValue(_ unixTime: Int64) -> String {
        var seconds = time_t(unixTime)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Runs `request` at `unixTime`, with `environment` added (the stack's own variables), and
    /// waits at most the request's timeout and 5 seconds more.
    /// - Parameter systemCertificates: a folder to stand in for `/etc/ssl/certs` in the child's view
    ///   of the file system (a private mount namespace made by util-linux's `unshare`, with the
    ///   folder bound over it), or nil to leave the file system as it is.
    /// - Parameter started: told the child's process id once it runs (its process group's too).
    func run(_ request: ClientRequest, at unixTime: Int64, environment extra: [String: String], systemCertificates: URL? = nil, started: (pid_t) -> Void = { _ in }) -> Result {
        // The request is in the client's environment (it is short), so nothing is written to a pipe;
        // not an argument: under libfaketime, Swift's CommandLine.arguments comes out empty.
        let encoded = (try? JSONEncoder().encode(request)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let path: String
        let arguments: [String]
        if let systemCertificates {
            path = "/usr/bin/unshare"
            arguments = [
                "--mount", "--map-root-user", "--propagation", "private", "--",
                "/bin/sh", "-c", "mount --bind \"$1\" /etc/ssl/certs && exec \"$2\"", "sh", systemCertificates.path, executable.path,
            ]
        } else {
            path = executable.path
            arguments = []
        }
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LD_PRELOAD": faketime.path,
            "FAKETIME": Self.faketimeValue(unixTime),
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "TZ": "UTC",
            "TRUST_HTTP_CLIENT_REQUEST": encoded,
        ]
        environment.merge(extra) { $1 }
        let limit = request.timeoutSeconds + 5
        let exit: ChildProcess.Exit
        do {
            exit = try ChildProcess.run(path, arguments: arguments, environment: environment, limit: .milliseconds(Int64(limit * 1000)), started: started)
        } catch {
            return .failed("cannot start \(path): \(error)")
        }
        let stderr = String(decoding: exit.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let said = stderr.isEmpty ? "" : ": \(stderr.suffix(400))"
        if exit.killed {
            return .failed("the client process did not finish within \(Int(limit)) s and was killed\(said)")
        }
        if let signal = exit.signal {
            return .failed("the client process died (signal \(signal))\(said)")
        }
        guard let line = String(decoding: exit.output, as: UTF8.self).split(separator: "\n").last,
              let outcome = try? JSONDecoder().decode(ClientOutcome.self, from: Data(line.utf8)) else {
            return .failed("the client process exited with status \(exit.status ?? -1) without an outcome\(said)")
        }
        return .outcome(outcome)
    }
}

