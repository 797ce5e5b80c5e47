import Foundation
@testable import HTTPClientBackends
import HTTPClientWire
import Testing
import TrustBackendKit
import TrustHarnessTestKit

/// `revocation.json` (this package's folder): what each client does when the server staples an OCSP
/// response, found by a real request, and the source lines that say why. Neither client declares
/// a revocation feature, so the harness never asks them its revocation vectors; this is the one
/// place their revocation checking is asked, and the README's "Revocation" section shows it.
struct RevocationFinding: Codable {
    /// One server set-up: a vector's chain, anchors and time, and its OCSP response stapled or not.
    struct Case: Codable {
        /// `revoked`, `good` (the control), `missing`, or `must-staple-missing` (a leaf declaring the
        /// RFC 7633 TLS feature status_request, served with no staple).
        var name: String
        /// The vector (`revocation-ocsp-revoked/p256`).
        var vector: String
        /// Whether the server staples the vector's OCSP response.
        var stapled: Bool
    }

    enum Outcome: String, Codable {
        /// The request got the server's response: the client did not refuse the certificate.
        case completed
        /// The request failed: the client refused.
        case refused
    }

    /// A source line that says why, in the version this package builds with.
    struct Citation: Codable {
        var repository: String
        var version: String
        var file: String
        var lines: String
        var says: String
    }

    struct Client: Codable {
        /// The back end's name, a ``ClientStack`` raw value.
        var backend: String
        /// Whether its handshake asks for a staple (the status_request extension), as the server saw.
        var asksForStaple: Bool
        /// Each case's outcome, by the case's name.
        var outcomes: [String: Outcome]
        /// Whether it checks revocation at all: it refuses the revoked staple.
        var checksRevocation: Bool
        /// What an application can set to have it checked, and what that would be.
        var applicationCanAsk: String
        var sources: [Citation]
    }

    var cases: [Case]
    var clients: [Client]

    /// `revocation.json` beside this package's `Package.swift`.
    static func load(from file: StaticString = #filePath) throws -> RevocationFinding {
        let url = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("revocation.json")
        do {
            return try JSONDecoder().decode(RevocationFinding.self, from: Data(contentsOf: url))
        } catch {
            throw StaplingServer.Problem(description: "cannot read the recorded finding \(url.path): \(error)")
        }
    }
}

/// Whether the HTTP clients check revocation, by a real request: OpenSSL's `s_server` presents the
/// vector's chain and staples its OCSP response (``StaplingServer``), and the back end's own request
/// (``HTTPClientEvaluator/ask(port:host:at:)``: the child `trust-http-client` at the vector's time,
/// trusting its anchors, through the CONNECT front) fetches from it. A completed request did not
/// check; a refusal did. Each outcome, and whether the client asked for a staple, is compared with
/// `revocation.json`: a client that starts (or stops) checking fails here, either way.
@Suite struct HTTPClientRevocationTests {
    static func server(for testCase: RevocationFinding.Case) throws -> (StaplingServer, BackendTestKit.Vector) {
        let vector = try BackendTestKit.vector(testCase.vector)
        let staple: [UInt8]?
        if testCase.stapled {
            let response: [UInt8] = try #require(vector.request.ocspResponses.first, "\(testCase.vector) has no OCSP response")
            staple = response
        } else {
            staple = nil
        }
        let server = try StaplingServer(chain: vector.request.chain, privateKey: try #require(vector.request.leafPrivateKey, "\(testCase.vector) has no leaf key"), staple: staple)
        return (server, vector)
    }

    /// The set-up is right: asked for a staple (`openssl s_client -status`), the server sends the
    /// vector's response, which says what the case says, or none in the `missing` case, and logs
    /// the request in every case. So a client's completed request cannot be a server that never
    /// stapled, and a client that asks is seen asking.
    @Test func theServerStaplesWhenAsked() throws {
        let openssl = try StaplingServer.openssl()
        for testCase in try RevocationFinding.load().cases {
            let (server, _) = try Self.server(for: testCase)
            let exit = try ChildProcess.run(openssl, arguments: ["s_client", "-connect", "127.0.0.1:\(server.serverPort)", "-servername", "www.example.test", "-status"], environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(10))
            let log = server.stop()
            let said = String(decoding: exit.output, as: UTF8.self)
            let expected = testCase.stapled ? "Cert Status: \(testCase.name)" : "OCSP response: no response sent"
            #expect(said.contains(expected), "\(testCase.name): s_client -status did not show \"\(expected)\": \(said.prefix(1200))")
            #expect(log.statusRequests == 1, "\(testCase.name): the server logged \(log.statusRequests) status requests for s_client's one: \(log.errors.prefix(600))")
        }
    }

    /// Each case through each client's normal request path; the outcomes and whether it asked for a
    /// staple are the recorded ones. The good staple is the control: a client must complete it, else
    /// the request fails for something other than revocation and the set-up is wrong.
    @Test(arguments: ClientStack.allCases)
    func revocationByARealRequest(_ stack: ClientStack) throws {
        let finding = try RevocationFinding.load()
        let recorded = try #require(finding.clients.first { $0.backend == stack.rawValue }, "revocation.json records nothing for \(stack.rawValue)")
        #expect(Set(recorded.outcomes.keys) == Set(finding.cases.map(\.name)), "\(stack.rawValue): revocation.json's outcomes name other cases than its cases")
        #expect(recorded.checksRevocation == (recorded.outcomes["revoked"] == .refused), "\(stack.rawValue): checksRevocation contradicts the recorded revoked outcome")
        var asked: [String] = []
        for testCase in finding.cases {
            let (server, vector) = try Self.server(for: testCase)
            let evaluator = try HTTPClientEvaluator(stack: stack, backendName: stack.rawValue, anchors: vector.anchors, launcher: try ClientLauncher.locate(), timeoutSeconds: 10)
            let verdict = evaluator.ask(port: server.port, host: vector.request.host, at: vector.request.unixTime)
            let log = server.stop()
            if log.statusRequests > 0 { asked.append(testCase.name) }
            let said = verdict.diagnostics.first.map { "\($0.name): \($0.message)" } ?? "a response"
            guard verdict.isTrusted || verdict.origin != .harness else {
                Issue.record("\(stack.rawValue) \(testCase.name): the request was not made: \(said)")
                continue
            }
            let outcome: RevocationFinding.Outcome = verdict.isTrusted ? .completed : .refused
            if testCase.name == "good" {
                #expect(outcome == .completed, "\(stack.rawValue): the control failed: a good staple was refused (\(said)), so the request fails for something other than revocation; the set-up is wrong")
            }
            #expect(outcome == recorded.outcomes[testCase.name], "\(stack.rawValue) \(testCase.name): recorded \(recorded.outcomes[testCase.name]?.rawValue ?? "nothing"), now \(outcome.rawValue) (\(said)): the client's revocation checking changed; find the change in its source, then update revocation.json and the README's Revocation section")
        }
        let all = finding.cases.map(\.name)
        #expect(asked == (recorded.asksForStaple ? all : []), "\(stack.rawValue): asked for a staple in \(asked) of \(all), recorded asksForStaple \(recorded.asksForStaple): update revocation.json and the README")
    }
}
