import Foundation
import HTTPClientWire
import TrustBackendKit

/// Runs `trust-http-client` for a request, in a worker process of the request's stack
/// (``ClientWorker``), its clock set to the request's time by libfaketime (`LD_PRELOAD`, the time
/// frozen at `YYYY-MM-DD hh:mm:ss` in its timestamp file, in `TZ=UTC`, the monotonic clock left alone
/// so timeouts still run). The worker gets no environment of ours but `PATH` and what is set for it,
/// so no stray `SSL_CERT_FILE`, proxy or CA variable changes the stack. A worker that overruns is
/// killed, and waited for: none is left behind.
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

    /// Makes `request` at `unixTime`, trusting `anchors` (PEM), by a worker of its stack
    /// (``ClientWorkers``), its proxy's connections tunnelled to 127.0.0.1:`server` (nil: the
    /// request names no proxy); waits at most the request's timeout and 5 seconds more.
    /// - Parameter started: told the process id of the worker that makes the request.
    func run(_ request: ClientRequest, at unixTime: Int64, anchors: String, server: UInt16?, started: (pid_t) -> Void = { _ in }) -> Result {
        ClientWorkers.shared.run(request, launcher: self, at: unixTime, anchors: anchors, server: server, started: started)
    }
}

