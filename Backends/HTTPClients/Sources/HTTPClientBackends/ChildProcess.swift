#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with `posix_spawn`, in a process group of its own, its standard input
/// `/dev/null` (nothing is ever written to it, so no `SIGPIPE` can reach this process), its output
/// and error on pipes that no other child inherits (`O_CLOEXEC`). Foundation's `Process`
/// crashed here (in `memcpy`, inside `Process.run`) when evaluations on other threads ran at the
/// same time, and its pipes leak into children started meanwhile (a pipe then never reaches end
/// of file); this does neither.
struct ChildProcess {
    let pid: pid_t

    /// What the child left.
    struct Exit: Sendable {
        /// Exit status, or nil when a signal ended it.
        var status: Int32?
        /// The signal that ended it.
        var signal: Int32?
        var output: [UInt8]
        var errors: [UInt8]
        /// Whether it was killed for overrunning.
        var killed: Bool
    }

    /// glibc's `pipe2` (Swift's Glibc module leaves it out: it is a GNU extension), so a pipe is
    /// close-on-exec from the start and no child started meanwhile on another thread inherits it.
    private static let pipe2Function: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
    }()

    private static func pipe2(_ fds: inout [Int32], _ flags: Int32) -> Int32 {
        guard let function = pipe2Function else { errno = ENOSYS; return -1 }
        return fds.withUnsafeMutableBufferPointer { function($0.baseAddress, flags) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; also a GNU extension): the
    /// child closes every descriptor from 3 up, so no socket of this process (a loopback server's
    /// listening socket, SwiftNIO's, which are not close-on-exec) stays open in a child.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
    }()

    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A started child's ends of its pipes.
    struct Spawned {
        let pid: pid_t
        /// Its standard input, when asked for (else `/dev/null`).
        let input: Int32?
        let output: Int32
        let errors: Int32
    }

    /// Starts `path` with `arguments` (argv[1...]) and exactly `environment`, in a process group of
    /// its own, every descriptor of this process from 3 up closed in it, its output and error on
    /// close-on-exec pipes, and its input a pipe (`withInput`) or `/dev/null`.
    static func spawn(_ path: String, arguments: [String], environment: [String: String], withInput: Bool) throws(SpawnFailure) -> Spawned {
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [0, 0], stderrPipe: [Int32] = [0, 0]
        guard pipe2(&stdoutPipe, O_CLOEXEC) == 0 else {
            throw SpawnFailure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        guard pipe2(&stderrPipe, O_CLOEXEC) == 0 else {
            for fd in stdoutPipe { close(fd) }
            throw SpawnFailure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        if withInput, pipe2(&stdinPipe, O_CLOEXEC) != 0 {
            for fd in stdoutPipe + stderrPipe { close(fd) }
            throw SpawnFailure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        func closeAll() { for fd in stdoutPipe + stderrPipe + stdinPipe where fd >= 0 { close(fd) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withInput {
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        guard let addCloseFrom = Self.addCloseFrom, addCloseFrom(&actions, 3) == 0 else {
            closeAll()
            throw SpawnFailure(description: "posix_spawn_file_actions_addclosefrom_np is not in this C library (glibc 2.34 or later has it): a child would inherit this process's sockets")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(stdoutPipe[1]); close(stderrPipe[1])
        if withInput { close(stdinPipe[0]) }
        guard spawned == 0 else {
            close(stdoutPipe[0]); close(stderrPipe[0])
            if withInput { close(stdinPipe[1]) }
            throw SpawnFailure(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))")
        }
        return Spawned(pid: pid, input: withInput ? stdinPipe[1] : nil, output: stdoutPipe[0], errors: stderrPipe[0])
    }

    /// Runs `path` with `arguments` (argv[1...]) and exactly `environment`, its input `/dev/null`,
    /// and waits at most `limit`; on overrun the whole process group is killed (`SIGKILL`) and
    /// waited for. Never leaves a process or a descriptor behind.
    static func run(_ path: String, arguments: [String], environment: [String: String], limit: Duration, started: (pid_t) -> Void = { _ in }) throws(SpawnFailure) -> Exit {
        let child = try spawn(path, arguments: arguments, environment: environment, withInput: false)
        let pid = child.pid
        let stdoutPipe = [child.output], stderrPipe = [child.errors]
        started(pid)

        let group = DispatchGroup()
        let collected = Collected()
        for (fd, isOutput) in [(stdoutPipe[0], true), (stderrPipe[0], false)] {
            group.enter()
            DispatchQueue.global().async {
                let bytes = readAll(fd)
                close(fd)
                collected.set(bytes, output: isOutput)
                group.leave()
            }
        }
        let exited = DispatchSemaphore(value: 0)
        let status = Collected()
        DispatchQueue.global().async {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status.setStatus(raw)
            exited.signal()
        }
        var killed = false
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            killed = true
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            exited.wait()
        }
        // The group may outlive the child (a grandchild holding the pipes): end it too.
        kill(-pid, SIGKILL)
        group.wait()
        let raw = status.status
        let signalled = (raw & 0x7f) != 0 && (raw & 0x7f) != 0x7f
        return Exit(status: signalled ? nil : (raw >> 8) & 0xff, signal: signalled ? raw & 0x7f : nil,
                    output: collected.output, errors: collected.errors, killed: killed)
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 { if errno == EINTR { continue }; break }
            if count == 0 { break }
            bytes += buffer[0..<count]
            // A client prints one short line; more than 4 MiB is not a client's.
            if bytes.count > 4 << 20 { break }
        }
        return bytes
    }

    private final class Collected: @unchecked Sendable {
        // @unchecked Sendable: every access holds the lock.
        private let lock = NSLock()
        private var _output: [UInt8] = []
        private var _errors: [UInt8] = []
        private var _status: Int32 = 0

        func set(_ bytes: [UInt8], output: Bool) { lock.withLock { if output { _output = bytes } else { _errors = bytes } } }
        func setStatus(_ raw: Int32) { lock.withLock { _status = raw } }
        var output: [UInt8] { lock.withLock { _output } }
        var errors: [UInt8] { lock.withLock { _errors } }
        var status: Int32 { lock.withLock { _status } }
    }
}
