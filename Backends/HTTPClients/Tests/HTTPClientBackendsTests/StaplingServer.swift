import Foundation
@testable import HTTPClientBackends
import HTTPClientWire

/// OpenSSL's `s_server` on 127.0.0.1, a child process, presenting a chain with the leaf's key and
/// stapling one OCSP response (`-status_file`, DER) to every handshake whose client asks for one
/// (the status_request extension), answering `GET /` with `200 ok` and its status page (`-www`);
/// behind a ``LoopbackTunnel``, so a client reaches it under the vector's host as it reaches
/// ``LoopbackHTTPSServer``. NIOSSL's server cannot staple; this one can, and says on its standard
/// error (`-status_verbose`) each time a client asked: "cert_status: callback called". Without a
/// response it still logs each request and staples nothing: it looks for a response at the leaf's
/// OCSP address, and stops at once as the intermediate is not in its own store ("Can't retrieve
/// issuer certificate"), so nothing goes to the network.
///
/// ``stop()`` ends the process (and is the only way to read what it said), the tunnel and the
/// files: nothing is left behind.
final class StaplingServer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after init.

    /// The tunnel's port: the client's proxy (`CONNECT` to any host lands on the server).
    let port: UInt16
    /// `s_server`'s own port, for a client that needs no tunnel (`openssl s_client`).
    let serverPort: UInt16
    private let tunnel: LoopbackTunnel
    private let folder: URL
    private let process: Running

    /// What the server said, read once it is stopped.
    struct Log {
        /// Its standard error: handshake errors, and each status request with the response sent.
        var errors: String
        /// How many handshakes asked for a staple (status_request).
        var statusRequests: Int { errors.components(separatedBy: "cert_status: callback called").count - 1 }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// `openssl`, from `PATH`.
    /// - Throws: ``Problem`` saying how to install it when it is not there.
    static func openssl() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init)
        guard let found = folders.map({ "\($0)/openssl" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Problem(description: "the openssl command is not installed (looked in \(folders.joined(separator: ", "))): the revocation check needs OpenSSL's s_server to staple OCSP responses; apt-get install openssl (CI installs it)")
        }
        return found
    }

    /// Starts `openssl s_server` with `chain` (DER, leaf first), the leaf's `privateKey` (PKCS#8
    /// DER) and `staple` (a DER OCSP response, or nil for none), waits until it listens, and opens
    /// the tunnel to it.
    /// - Throws: ``Problem`` when openssl is missing, the files cannot be written, or the server
    ///   does not listen within 5 seconds (with what it said).
    init(chain: [[UInt8]], privateKey: [UInt8], staple: [UInt8]?) throws {
        let openssl = try Self.openssl()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-stapling-\(UUID().uuidString)")
        var arguments: [String]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let leaf = folder.appendingPathComponent("leaf.pem"), key = folder.appendingPathComponent("key.pem")
            try Data(HTTPClientEvaluator.pem(chain[0]).utf8).write(to: leaf)
            try Data(HTTPClientEvaluator.pem(privateKey, label: "PRIVATE KEY").utf8).write(to: key)
            arguments = ["-cert", leaf.path, "-key", key.path, "-status_verbose", "-www"]
            if chain.count > 1 {
                let rest = folder.appendingPathComponent("chain.pem")
                try Data(chain.dropFirst().map { HTTPClientEvaluator.pem($0) }.joined().utf8).write(to: rest)
                arguments += ["-cert_chain", rest.path]
            }
            if let staple {
                let response = folder.appendingPathComponent("response.der")
                try Data(staple).write(to: response)
                arguments += ["-status_file", response.path]
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw Problem(description: "cannot write the server's files in \(folder.path): \(error)")
        }
        // A free port, then s_server on it; another process may take it meanwhile, so up to 3 tries.
        var started: (process: Running, port: UInt16)?
        var said = ""
        for _ in 0..<3 where started == nil {
            let port = Self.freePort()
            let process = Running(openssl, ["s_server", "-accept", "127.0.0.1:\(port)"] + arguments)
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline, !process.hasEnded, !HTTPClientBackendsTests.connects(to: port) {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if !process.hasEnded && HTTPClientBackendsTests.connects(to: port) {
                started = (process, port)
            } else {
                said = process.end(SIGKILL)
            }
        }
        guard let started else {
            try? FileManager.default.removeItem(at: folder)
            throw Problem(description: "openssl s_server did not listen on 127.0.0.1: \(said.suffix(600))")
        }
        process = started.process
        serverPort = started.port
        do {
            tunnel = try LoopbackTunnel(to: started.port)
        } catch {
            _ = started.process.end(SIGKILL)
            try? FileManager.default.removeItem(at: folder)
            throw Problem(description: "cannot open the tunnel to s_server: \(error)")
        }
        port = tunnel.port
    }

    /// Ends the server, the tunnel and the files, and returns what the server said.
    func stop() -> Log {
        tunnel.stop()
        let errors = process.end(SIGTERM)
        try? FileManager.default.removeItem(at: folder)
        return Log(errors: errors)
    }

    /// A port on 127.0.0.1 no socket holds now.
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A child process running on a thread of its own (``ChildProcess/run`` waits for its end), until
/// ``end(_:)`` signals its process group.
private final class Running: @unchecked Sendable {
    // @unchecked Sendable: the pid and the exit are behind the lock.
    private let lock = NSLock()
    private var pid: pid_t = 0
    private var exit: Result<ChildProcess.Exit, ChildProcess.SpawnFailure>?
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `path` with `arguments` (at most 120 seconds) and returns once it runs or failed to start.
    init(_ path: String, _ arguments: [String]) {
        let running = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            let result = Result { () throws(ChildProcess.SpawnFailure) in
                try ChildProcess.run(path, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(120)) { pid in
                    self.lock.withLock { self.pid = pid }
                    running.signal()
                }
            }
            lock.withLock { exit = result }
            if case .failure = result { running.signal() }
            ended.signal()
        }
        running.wait()
    }

    var hasEnded: Bool { lock.withLock { exit != nil } }

    /// Sends `signal` to its process group, waits for its end, and returns its standard error (or
    /// why it could not start).
    func end(_ signal: Int32) -> String {
        // Not once it has been waited for: its process group id may then be another's.
        let (pid, waited) = lock.withLock { (self.pid, exit != nil) }
        if pid > 0 && !waited { kill(-pid, signal) }
        ended.wait()
        ended.signal()
        switch lock.withLock({ exit }) {
        case .success(let exit)?: return String(decoding: exit.errors, as: UTF8.self)
        case .failure(let failure)?: return failure.description
        case nil: return ""
        }
    }
}
