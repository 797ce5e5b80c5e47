import Foundation
import HTTPClientWire
import TrustBackendKit

/// A stack's own loop for `trust-http-client`'s `bench`: the same plain request made `iterations`
/// times in a row inside one worker (each with a session, or a client, of its own, as an evaluation
/// makes it), against one loopback server presenting the chain: what the stack costs per request
/// with nothing of the harness around it (no server set up per request, no files, no exchange with
/// the worker). The back end's evaluation beside it is the same request as the harness makes it.
struct HTTPClientLoop: BaselineLoop {
    let stack: ClientStack

    var label: String { "\(stack.rawValue)-loop" }
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        nil  // a request needs the leaf's key: see the other `run`
    }

    func run(chain: [[UInt8]], anchors: [[UInt8]], leafPrivateKey: [UInt8]?, revocationLists: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        guard revocationLists == nil, let key = leafPrivateKey,
              let launcher = try? ClientLauncher.locate(),
              let evaluator = try? HTTPClientEvaluator(stack: stack, backendName: stack.rawValue, anchors: anchors, launcher: launcher, timeoutSeconds: 30),
              let server = try? LoopbackHTTPSServer(chain: chain, privateKey: key) else { return nil }
        defer { server.stop() }
        let identity = host.map { HostIdentity($0) }
        guard case .success(let route) = evaluator.route(identity, port: server.port) else { return nil }
        var request = ClientRequest(stack: stack, url: route.url, proxyPort: nil, verifyHost: route.verifyHost, anchorsFile: "", timeoutSeconds: 30)
        request.repetitions = Int(iterations)
        guard case .outcome(let outcome) = launcher.run(request, at: unixTime, anchors: evaluator.anchorsPEM, server: route.proxied ? server.port : nil),
              outcome.status != nil else { return nil }
        return UInt64(outcome.seconds * 1e9)
    }
}
