#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import HTTPClientWire

/// A `trust-http-client` process that stays up and makes one request per line it is sent
/// (`TRUST_HTTP_CLIENT_WORKER=1`), for one stack. Starting the client for every request cost about
/// 30 ms (process, dynamic loading, Foundation's and the stack's start-up); a worker pays that once.
///
/// Each request stays its own, as a one-shot process's was:
/// - **its clock**: libfaketime reads the time from the worker's timestamp file
///   (`FAKETIME_TIMESTAMP_FILE`, re-read at every call: `FAKETIME_NO_CACHE=1`), which is rewritten
///   before each request; the client reports the clock it read, and a request whose clock is not its
///   own is not taken for a verdict (the evaluator's `CLOCK_NOT_SET`);
/// - **its anchors**: the worker's `certs/ca-certificates.crt`, rewritten before each request, is
///   AsyncHTTPClient's trust roots file and, bound over `/etc/ssl/certs` in the URLSession worker's
///   own mount namespace, libcurl's only CA file and folder;
/// - **its server**: URLSession can be given a proxy only by libcurl's `https_proxy` variable, read
///   once; it names the worker's ``LoopbackTunnel``, pointed at each request's server in turn;
/// - **nothing shared**: the client makes a session (URLSession) or client (AsyncHTTPClient) per
///   request and ends it after, so no connection, TLS session or cache outlives it.
///
/// A worker that dies, overruns (the request's timeout and 5 s), or answers anything but one outcome
/// is ended, process group and all, and not used again: that request reports why (not a verdict of
/// the stack), and the next one gets a new worker. Each exchange runs on the calling thread with
/// blocking reads under `poll`: nothing waits for Swift's cooperative pool, which every evaluating
/// thread may be holding.
final class ClientWorker: @unchecked Sendable {
    // @unchecked Sendable: a worker serves one request at a time (the pool hands it to one caller);
    // what the stderr reader thread shares is lock-guarded.
    let stack: ClientStack
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let folder: URL
    private let clockFile: URL
    let anchorsFile: URL
    let tunnel: LoopbackTunnel
    private var pending: [UInt8] = []
    private let errors = ErrorTail()
    private var ended = false

    /// Starts a worker for `stack`.
    /// - Throws: ``ClientLauncher/LaunchProblem`` when its files, its tunnel or its process cannot be made.
    init(_ launcher: ClientLauncher, stack: ClientStack) throws(ClientLauncher.LaunchProblem) {
        self.stack = stack
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-http-worker-\(UUID().uuidString)")
        let certificates = folder.appendingPathComponent("certs")
        clockFile = folder.appendingPathComponent("clock")
        anchorsFile = certificates.appendingPathComponent("ca-certificates.crt")
        do {
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            try Data(ClientLauncher.faketimeValue(0).utf8).write(to: clockFile)
            try Data().write(to: anchorsFile)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw ClientLauncher.LaunchProblem(message: "cannot write the client worker's files in \(folder.path): \(error)")
        }
        self.folder = folder
        do {
            tunnel = try LoopbackTunnel(to: 0)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw ClientLauncher.LaunchProblem(message: "cannot open the client worker's tunnel on 127.0.0.1: \(error)")
        }
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LD_PRELOAD": launcher.faketime.path,
            "FAKETIME_TIMESTAMP_FILE": clockFile.path,
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "TZ": "UTC",
            "TRUST_HTTP_CLIENT_WORKER": "1",
        ]
        let path: String
        let arguments: [String]
        switch stack {
        case .urlSession:
            // libcurl's proxy variable; and the anchors' folder as the system's CA bundle and folder,
            // the only roots URLSession on Linux has (README: what an application cannot set), in a
            // private mount namespace made by util-linux's `unshare`.
            environment["https_proxy"] = "http://127.0.0.1:\(tunnel.port)"
            path = "/usr/bin/unshare"
            arguments = [
                "--mount", "--map-root-user", "--propagation", "private", "--",
                "/bin/sh", "-c", "mount --bind \"$1\" /etc/ssl/certs && exec \"$2\"", "sh", certificates.path, launcher.executable.path,
            ]
        case .asyncHTTPClient:
            path = launcher.executable.path
            arguments = []
        }
        let spawned: ChildProcess.Spawned
        do {
            spawned = try ChildProcess.spawn(path, arguments: arguments, environment: environment, withInput: true)
        } catch {
            tunnel.stop()
            try? FileManager.default.removeItem(at: folder)
            throw ClientLauncher.LaunchProblem(message: "cannot start \(path): \(error)")
        }
        pid = spawned.pid
        input = spawned.input!
        output = spawned.output
        let errorsFD = spawned.errors
        let tail = errors
        // What the worker writes on standard error, kept (its last 2 KiB) for a failure's message;
        // read on a thread of its own until the worker ends.
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(errorsFD, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                tail.append(buffer[0..<count])
            }
            close(errorsFD)
        }
    }

    deinit { end() }

    /// One request at `unixTime`, trusting `anchors` (PEM), its proxy's connections tunnelled to
    /// `server` (nil: the request names no proxy). Returns the outcome, or why there is none; in the
    /// second case the worker has been ended (``isUsable`` is false).
    func exchange(_ request: ClientRequest, at unixTime: Int64, anchors: String, server: UInt16?) -> ClientLauncher.Result {
        var request = request
        request.anchorsFile = anchorsFile.path
        if let server {
            tunnel.target = server
            request.proxyPort = tunnel.port
        } else {
            request.proxyPort = nil
        }
        do {
            // Written whole and renamed into place (`.atomic`): a thread of the worker that reads
            // the clock between requests (libfaketime re-reads the file at every call) sees the old
            // time or the new one, never a file cut short, which it would read as another time.
            try Data(ClientLauncher.faketimeValue(unixTime).utf8).write(to: clockFile, options: .atomic)
            try Data(anchors.utf8).write(to: anchorsFile, options: .atomic)
        } catch {
            end()
            return .failed("cannot write the client worker's clock and anchors: \(error)")
        }
        guard var line = try? JSONEncoder().encode(request) else {
            return .failed("the request cannot be encoded")
        }
        line.append(0x0A)
        guard writeAll(line) else {
            return fail("the client worker did not take the request (\(String(cString: strerror(errno))))")
        }
        let limit = request.timeoutSeconds + 5
        let deadline = ContinuousClock.now + .milliseconds(Int64(limit * 1000))
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let answer = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                guard pending.isEmpty, let outcome = try? JSONDecoder().decode(ClientOutcome.self, from: Data(answer)) else {
                    return fail("the client worker answered something that is not one outcome: \(String(decoding: answer.prefix(200), as: UTF8.self))")
                }
                return .outcome(outcome)
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                return fail("the client worker did not answer within \(Int(limit)) s and was killed")
            }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15 + 1, 60_000))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                return fail("the client worker ended before it answered")
            }
            pending += buffer[0..<count]
            if pending.count > 4 << 20 {
                return fail("the client worker wrote more than 4 MiB without an outcome")
            }
        }
    }

    /// Whether the worker can take another request.
    var isUsable: Bool { !ended }

    /// Ends the worker (process group, tunnel, files) and says why, with how it ended and what it
    /// wrote on standard error.
    private func fail(_ why: String) -> ClientLauncher.Result {
        let status = end()
        let said = errors.text.isEmpty ? "" : ": \(errors.text.suffix(400))"
        return .failed(why + (status.map { " (\($0))" } ?? "") + "; it is replaced" + said)
    }

    /// Kills the worker's process group and waits for it; nil when it had already been ended.
    @discardableResult
    func end() -> String? {
        guard !ended else { return nil }
        ended = true
        close(input)
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        close(output)
        tunnel.stop()
        try? FileManager.default.removeItem(at: folder)
        let signalled = (raw & 0x7f) != 0 && (raw & 0x7f) != 0x7f
        return signalled ? "signal \(raw & 0x7f)" : "exit status \((raw >> 8) & 0xff)"
    }

    /// Writes to the worker's input with `SIGPIPE` blocked on this thread: a worker that has died
    /// makes the write fail with `EPIPE` (and the pending signal is taken back), instead of the
    /// signal ending this process.
    private func writeAll(_ data: Data) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            if sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var bytes = [UInt8](data)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(input, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            bytes = bytes.dropFirst(count)
        }
        return true
    }

    /// The last 2 KiB a worker wrote on standard error.
    private final class ErrorTail: @unchecked Sendable {
        // @unchecked Sendable: every access holds the lock.
        private let lock = NSLock()
        private var bytes: [UInt8] = []

        func append(_ more: ArraySlice<UInt8>) {
            lock.withLock {
                bytes += more
                if bytes.count > 2048 { bytes.removeFirst(bytes.count - 2048) }
            }
        }

        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } }
    }
}

/// The idle workers of each stack, shared by every evaluator of the process: a request takes one
/// (or starts one, so there are as many as requests at once) and gives it back when it answered.
final class ClientWorkers: @unchecked Sendable {
    // @unchecked Sendable: the idle lists are lock-guarded.
    private let lock = NSLock()
    private var idle: [String: [ClientWorker]] = [:]

    static let shared = ClientWorkers()

    /// `request` by a worker of its stack: see ``ClientWorker/exchange(_:at:anchors:server:)``.
    /// `started` is told the worker's process id (it may have served other requests before).
    func run(_ request: ClientRequest, launcher: ClientLauncher, at unixTime: Int64, anchors: String, server: UInt16?, started: (pid_t) -> Void = { _ in }) -> ClientLauncher.Result {
        let key = request.stack.rawValue + "\u{0}" + launcher.executable.path + "\u{0}" + launcher.faketime.path
        let reused: ClientWorker? = lock.withLock { idle[key]?.popLast() }
        let worker: ClientWorker
        if let reused {
            worker = reused
        } else {
            do {
                worker = try ClientWorker(launcher, stack: request.stack)
            } catch {
                return .failed(error.message)
            }
        }
        started(worker.pid)
        let result = worker.exchange(request, at: unixTime, anchors: anchors, server: server)
        if worker.isUsable {
            lock.withLock { idle[key, default: []].append(worker) }
        }
        return result
    }

    /// Ends every idle worker (the tests' way to leave no process behind).
    func endIdle() {
        let all = lock.withLock { () -> [ClientWorker] in
            defer { idle = [:] }
            return idle.values.flatMap { $0 }
        }
        for worker in all { worker.end() }
    }
}
