import Foundation
@testable import HTTPClientBackends
import HTTPClientWire
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// URLSession and AsyncHTTPClient, plugged in from outside, run TrustHarness's conformance, bad-input
/// and contract suites with this package's deviations file; below, what only a real request shows.
@Suite struct HTTPClientBackendsTests {
    /// Every chain vector under both profiles, each request asked once: a request here is a process
    /// and a handshake, and whether the same request gets the same verdict is asked of these back
    /// ends by `scripts/all-backends run` (three times each, on one task and on many) in CI.
    @Test func conformance() async throws {
        let registry = try BackendPackage.registry(of: [HTTPClientBackends.package])
        try await BackendTestKit.expectConformance(registry, suite: try BackendTestKit.suite(deviations: HTTPClientBackends.package.deviations.first), repetitions: 0)
    }

    /// The bad-input corpus (on every entry, variants included).
    @Test func badInput() async throws {
        try await BackendTestKit.expect(.badInput, of: HTTPClientBackends.package)
    }

    /// The back-end contract. It runs on a package's default entries, and these two run only when
    /// named (see HTTPClientBackends.package), so it is asked of them by name; without the cache
    /// checks, as they keep nothing between evaluations (each is a process and a server of its own)
    /// and take no cache setting; the checks under concurrency run.
    @Test func contract() async throws {
        try await BackendTestKit.expectContract(try BackendPackage.registry(of: [HTTPClientBackends.package]).includingVariants, caches: false)
    }

    static let backends: [any TrustBackend] = [URLSessionBackend(), AsyncHTTPClientBackend()]

    /// The vector's own time is the client's clock (libfaketime): the valid chain is trusted at its
    /// time, expired in 2200 and not yet valid in 1990, each in the stack's own words. URLSession
    /// passes on libcurl's text ("SSL certificate problem: certificate has expired"); AsyncHTTPClient
    /// says only CERTIFICATE_VERIFY_FAILED (its verdict's class is `other`), and only the alert its
    /// BoringSSL sent, which the server sees, names the date.
    @Test(arguments: [0, 1])
    func theVectorsTimeIsTheClientsClock(_ index: Int) throws {
        let backend = Self.backends[index]
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let evaluator = try backend.makeEvaluator(anchors: vector.anchors)
        #expect(evaluator.evaluate(vector.request).isTrusted)

        var later = vector.request
        later.time = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01
        var earlier = vector.request
        earlier.time = Date(timeIntervalSince1970: 631_152_000)  // 1990-01-01
        let expired = evaluator.evaluate(later)
        let early = evaluator.evaluate(earlier)
        #expect(!expired.isTrusted && !early.isTrusted)
        if backend.name == URLSessionBackend.backendName {
            #expect(expired.failures == [.expired])
            #expect(expired.diagnostics.first?.message == "SSL certificate problem: certificate has expired")
            #expect(early.failures == [.notYetValid])
            #expect(early.diagnostics.first?.message == "SSL certificate problem: certificate is not yet valid")
        } else {
            for verdict in [expired, early] {
                #expect(verdict.failures == [.other])
                #expect(verdict.diagnostics.map(\.name) == ["NIOSSLError.handshakeFailed [CERTIFICATE_VERIFY_FAILED]"])
            }
            // The date is in the alert BoringSSL sent, which only the server sees.
            let server = try LoopbackHTTPSServer(chain: vector.request.chain, privateKey: try #require(vector.request.leafPrivateKey))
            defer { server.stop() }
            let client = try HTTPClientEvaluator(stack: .asyncHTTPClient, backendName: backend.name, anchors: vector.anchors, launcher: try ClientLauncher.locate(), timeoutSeconds: 10)
            let request = ClientRequest(stack: .asyncHTTPClient, url: "https://www.example.test/", proxyPort: nil, anchorsFile: "", timeoutSeconds: 10)
            _ = client.launcher.run(request, at: later.unixTime, anchors: client.anchorsPEM, server: server.port)
            #expect(server.waitForClosedConnections(atLeast: 1, seconds: 10), "the client's connection did not close")
            #expect(server.connectionsSeen.last?.error?.contains("SSLV3_ALERT_CERTIFICATE_EXPIRED") == true)
        }
    }

    /// A wrong host is each stack's own host check: libcurl's message, NIOSSL's error.
    @Test(arguments: [0, 1])
    func aWrongHostIsTheStacksOwnCheck(_ index: Int) throws {
        let backend = Self.backends[index]
        let vector = try BackendTestKit.vector("valid-chain/rsa2048")
        var request = vector.request
        request.host = .dns("other.example.test")
        let verdict = try backend.makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.failures == [.hostnameMismatch])
        let expected = backend.name == URLSessionBackend.backendName
            ? "SSL: no alternative certificate subject name matches target host name 'other.example.test'"
            : "NIOSSLExtraError.failedToValidateHostname: Couldn't find other.example.test in certificate from peer"
        #expect(verdict.diagnostics.first?.message == expected)
    }

    /// FoundationNetworking on Linux delivers no server-trust challenge: the delegate of a trusted
    /// request sees none (challenges come only from a 401, URLSessionTask.swift), so a URLSession
    /// application cannot pin there.
    @Test func urlSessionDeliversNoServerTrustChallenge() throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let server = try LoopbackHTTPSServer(chain: vector.request.chain, privateKey: try #require(vector.request.leafPrivateKey))
        defer { server.stop() }
        let evaluator = try HTTPClientEvaluator(stack: .urlSession, backendName: "urlsession", anchors: vector.anchors, launcher: try ClientLauncher.locate(), timeoutSeconds: 10)
        let request = ClientRequest(stack: .urlSession, url: "https://www.example.test/", proxyPort: nil, anchorsFile: "", timeoutSeconds: 10)
        let result = evaluator.launcher.run(request, at: vector.request.unixTime, anchors: evaluator.anchorsPEM, server: server.port)
        guard case .outcome(let outcome) = result else {
            Issue.record("no outcome: \(result)")
            return
        }
        #expect(outcome.status == 200)
        #expect(outcome.challenges == [])
    }

    /// A server that closes at once, stalls, or answers the tunnel with bytes that are not TLS is a
    /// rejection that says so, within the request's timeout (plus the launcher's margin): no request
    /// hangs, the server's port is closed after, and a worker that had to be killed is gone (not even
    /// a zombie) while one that answered stays for the next request.
    @Test(arguments: [LoopbackHTTPSServer.Fault.closeOnAccept, .stall, .garbageAfterConnect])
    func aFaultyServerIsAClearOutcome(_ fault: LoopbackHTTPSServer.Fault) throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        for stack in ClientStack.allCases {
            let server = try LoopbackHTTPSServer(chain: vector.request.chain, privateKey: try #require(vector.request.leafPrivateKey), fault: fault)
            let evaluator = try HTTPClientEvaluator(stack: stack, backendName: stack.rawValue, anchors: vector.anchors, launcher: try ClientLauncher.locate(), timeoutSeconds: 2)
            let request = ClientRequest(stack: stack, url: "https://www.example.test/", proxyPort: nil, anchorsFile: "", timeoutSeconds: 2)
            let start = ContinuousClock.now
            var child: pid_t = 0
            let result = evaluator.launcher.run(request, at: vector.request.unixTime, anchors: evaluator.anchorsPEM, server: server.port) { child = $0 }
            let elapsed = ContinuousClock.now - start
            server.stop()
            #expect(elapsed < .seconds(9), "\(stack) \(fault) took \(elapsed)")
            switch result {
            case .outcome(let outcome):
                #expect(outcome.status == nil, "\(stack) \(fault): \(outcome)")
                let verdict = StackError.verdict(outcome, stack: stack)
                #expect(!verdict.isTrusted)
                #expect(verdict.diagnostics.first?.message.isEmpty == false)
            case .failed(let why):
                // Only a stalled server may outlast the client's own timeout (URLSession's timers do
                // not run under libfaketime): then the launcher killed it, and says so.
                #expect(fault == .stall && why.contains("killed"), "\(stack) \(fault): \(why)")
            }
            #expect(Self.connects(to: server.port) == false, "\(stack) \(fault): port \(server.port) still open")
            if case .failed = result {
                // The killed worker and its process group are gone (waited for: not even a zombie).
                #expect(child > 0 && kill(child, 0) == -1 && kill(-child, 0) == -1, "\(stack) \(fault): process \(child) left behind")
            } else {
                #expect(child > 0 && kill(child, 0) == 0, "\(stack) \(fault): the worker \(child) that answered is gone")
            }
        }
    }

    /// A worker serves request after request, each on its own: the same process trusts the valid
    /// chain at its time, rejects it as expired in 2200 (its clock), rejects it under another
    /// vector's anchors (its anchors), and trusts it again, with the first request's answer word for
    /// word; so nothing of one request (clock, roots, connection, session) reaches the next.
    @Test(arguments: ClientStack.allCases)
    func aWorkerKeepsEveryRequestOnItsOwn(_ stack: ClientStack) throws {
        let vector = try BackendTestKit.vector("valid-chain/p256")
        let other = try BackendTestKit.vector("valid-chain/rsa2048")
        let server = try LoopbackHTTPSServer(chain: vector.request.chain, privateKey: try #require(vector.request.leafPrivateKey))
        defer { server.stop() }
        let launcher = try ClientLauncher.locate()
        let own = try HTTPClientEvaluator(stack: stack, backendName: stack.rawValue, anchors: vector.anchors, launcher: launcher, timeoutSeconds: 10)
        let foreign = try HTTPClientEvaluator(stack: stack, backendName: stack.rawValue, anchors: other.anchors, launcher: launcher, timeoutSeconds: 10)
        var workers: [pid_t] = []
        func ask(_ evaluator: HTTPClientEvaluator, at unixTime: Int64) -> ClientOutcome? {
            let request = ClientRequest(stack: stack, url: "https://www.example.test/", proxyPort: nil, anchorsFile: "", timeoutSeconds: 10)
            guard case .outcome(let outcome) = evaluator.launcher.run(request, at: unixTime, anchors: evaluator.anchorsPEM, server: server.port, started: { workers.append($0) }) else { return nil }
            return outcome
        }
        let first = try #require(ask(own, at: vector.request.unixTime))
        let expired = try #require(ask(own, at: 7_258_118_400))
        let untrusted = try #require(ask(foreign, at: vector.request.unixTime))
        let again = try #require(ask(own, at: vector.request.unixTime))
        #expect(first.status == 200 && again.status == 200)
        #expect(expired.status == nil && untrusted.status == nil)
        #expect(abs((expired.clock ?? 0) - 7_258_118_400) < 5, "the worker's clock did not follow the request: \(expired.clock ?? 0)")
        #expect(first.errorDescription == again.errorDescription && first.challenges == again.challenges)
        #expect(Set(workers).count == 1, "\(stack): the requests were made by \(Set(workers).count) workers, not one reused: \(workers)")
    }

    /// A worker that dies, answers something other than an outcome, or never answers is ended (not
    /// even a zombie is left), the request says why (not a verdict: the harness's), and the next
    /// request gets a new worker. The misbehaving workers are real processes (shell scripts) in the
    /// client's place.
    @Test func aWorkerThatMisbehavesIsReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-http-misbehaving-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let faketime = try ClientLauncher.locate().faketime
        let scripts: [(name: String, body: String, says: String)] = [
            ("dies", "read line; kill -SEGV $$", "ended before it answered"),
            ("garbage", "read line; echo 'this is not an outcome'; exec sleep 30", "not one outcome"),
            ("silent", "read line; exec sleep 30", "did not answer within 5 s and was killed"),
        ]
        for script in scripts {
            let file = folder.appendingPathComponent(script.name)
            try Data("#!/bin/sh\n\(script.body)\n".utf8).write(to: file)
            chmod(file.path, 0o755)
            let launcher = ClientLauncher(executable: file, faketime: faketime)
            let request = ClientRequest(stack: .asyncHTTPClient, url: "https://127.0.0.1:9/", proxyPort: nil, anchorsFile: "", timeoutSeconds: 0.2)
            var pids: [pid_t] = []
            for _ in 0..<2 {
                let result = launcher.run(request, at: 1_748_736_000, anchors: "", server: nil) { pids.append($0) }
                guard case .failed(let why) = result else {
                    Issue.record("\(script.name): an outcome from a worker that gives none: \(result)")
                    continue
                }
                #expect(why.contains(script.says) && why.contains("replaced"), "\(script.name): \(why)")
            }
            #expect(pids.count == 2 && pids[0] != pids[1], "\(script.name): the broken worker was used again: \(pids)")
            for pid in pids {
                #expect(kill(pid, 0) == -1 && kill(-pid, 0) == -1, "\(script.name): process \(pid) left behind")
            }
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    static func connects(to port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
