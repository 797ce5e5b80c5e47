import TrustCore
import Foundation

/// Where a TLS client connects: an address (a DNS name or an IP literal) and a port, and the server
/// name to send (SNI), if any.
public struct TLSTarget: Sendable, Hashable, CustomStringConvertible {
    public var address: String
    public var port: UInt16
    /// Server Name Indication (RFC 6066); nil sends none (an IP address never gets one).
    public var serverName: String?

    public init(address: String, port: UInt16, serverName: String?) {
        self.address = address
        self.port = port
        self.serverName = serverName
    }

    public var description: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }
}

/// What one TLS handshake gave: whether it completed, what was negotiated, the chain the server
/// sent, and the verdict of the verification the library made during the handshake.
public struct HandshakeReport: Sendable {
    /// Why the connection or the handshake failed before a verdict could be reached. `userError`:
    /// the target was wrong (refused, unreachable, a name that does not resolve, a server that does
    /// not speak TLS, a timeout), which is not a verdict on a chain.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var stage: String
        public var message: String
        public var userError: Bool

        public init(stage: String, message: String, userError: Bool) {
            self.stage = stage
            self.message = message
            self.userError = userError
        }

        public var description: String { "\(stage): \(message)" }
    }

    /// nil when the handshake completed.
    public var failure: Failure?
    /// `TLSv1.3`, `TLSv1.2`, ...
    public var protocolVersion: String?
    /// The negotiated cipher suite, in the library's spelling.
    public var cipher: String?
    /// Whether the key exchange was ephemeral (forward secret): every TLS 1.3 handshake, and TLS 1.2
    /// with (EC)DHE.
    public var forwardSecret: Bool?
    /// The certificates the server sent, DER, in its order (leaf first).
    public var peerChain: [[UInt8]]
    /// The library's verification during the handshake, with the evaluator's settings, the request's
    /// host and time. A handshake that failed before the chain was verified is a rejection that says why.
    public var verdict: Verdict
    public var milliseconds: Double
    /// The OCSP response the server stapled (RFC 6066 status_request; in TLS 1.3 the Certificate
    /// message's extension), DER, as the client's library kept it; nil when none arrived (the client
    /// did not ask, the server sent none, or the library cannot say).
    public var stapledResponse: [UInt8]?

    public init(failure: Failure?, protocolVersion: String?, cipher: String?, forwardSecret: Bool?, peerChain: [[UInt8]], verdict: Verdict, milliseconds: Double, stapledResponse: [UInt8]? = nil) {
        self.failure = failure
        self.protocolVersion = protocolVersion
        self.cipher = cipher
        self.forwardSecret = forwardSecret
        self.peerChain = peerChain
        self.verdict = verdict
        self.milliseconds = milliseconds
        self.stapledResponse = stapledResponse
    }
}

/// A back end's TLS client: connects with its own library's TLS stack and verifies the server's
/// chain during the handshake with the same settings as the back end's evaluator. Every network
/// wait is bounded by `timeout`; no error escapes as a throw or a trap.
public protocol TLSClient: Sendable {
    /// - Parameters:
    ///   - anchors: DER trust anchors, as for ``TrustBackend/makeEvaluator(anchors:)``.
    ///   - request: the host to check and the validation time (its `chain` is ignored).
    func handshake(_ target: TLSTarget, anchors: [[UInt8]], request: EvaluationRequest, timeout: Duration) -> HandshakeReport
}

/// A TLS server on the loopback interface presenting a chain, made by a composition root (the
/// built-in one is OpenSSL's `LoopbackTLSServer`) for `trust-harness probe --vector` and the
/// handshake comparison. ``stop()`` ends it; it must be called.
public protocol LoopbackServing: Sendable {
    var port: UInt16 { get }
    func stop()
}

/// A loopback server that can staple an OCSP response to its handshakes (RFC 6066 §8
/// status_request: in TLS 1.2 a CertificateStatus message, in TLS 1.3 the leaf's entry in the
/// Certificate message, RFC 8446 §4.4.2.1), for the revocation vectors' handshakes.
public protocol OCSPStapling: LoopbackServing {
    /// Staples `response` (DER `OCSPResponse`, sent as given, unchecked) to every later handshake
    /// whose client asks for status; nil staples nothing (the server declines the request).
    func staple(_ response: [UInt8]?)
}

/// Makes a loopback server presenting `chain` (DER, leaf first) with the leaf's private key (DER).
public typealias LoopbackServerMaker = @Sendable (_ chain: [[UInt8]], _ privateKey: [UInt8]) throws -> any LoopbackServing

extension HostIdentity {
    /// Whether this is a DNS name (not an IP address).
    public var isDNS: Bool {
        if case .dns = self { return true }
        return false
    }
}

/// What every ``TLSClient`` does around its library's handshake: time it, turn a failure into a
/// fail-closed rejection that says why, and refuse a host or time no request may carry.
public struct HandshakeClock: Sendable {
    private let start = ContinuousClock.now

    public init() {}

    /// A report timed from this clock's start.
    public func report(_ failure: HandshakeReport.Failure?, _ verdict: Verdict, protocolVersion: String? = nil, cipher: String? = nil, forwardSecret: Bool? = nil, chain: [[UInt8]] = [], stapledResponse: [UInt8]? = nil) -> HandshakeReport {
        let elapsed = ContinuousClock.now - start
        return HandshakeReport(failure: failure, protocolVersion: protocolVersion, cipher: cipher, forwardSecret: forwardSecret, peerChain: chain, verdict: verdict,
                               milliseconds: Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15,
                               stapledResponse: stapledResponse)
    }

    /// A handshake that failed at `stage` before a verdict: not trusted, with the reason.
    public func failed(_ stage: String, _ message: String, userError: Bool) -> HandshakeReport {
        report(.init(stage: stage, message: message, userError: userError), .failClosed(.other, name: "HANDSHAKE_FAILED", message: "\(stage): \(message)", origin: .library))
    }

    /// The request's host and time refused as for any request (the chain comes from the server,
    /// so it is not checked here), or nil when they are usable.
    public func refusal(_ request: EvaluationRequest) -> HandshakeReport? {
        var checked = request
        checked.chain = [[0x30, 0x00]]
        guard let rejection = checked.inputRejection else { return nil }
        return report(.init(stage: "request", message: rejection.diagnostics.map(\.message).joined(separator: "; "), userError: true), rejection)
    }
}

/// An optional capability: a back end whose library has its own TLS client adopts this, and `probe`
/// and `run --handshake` then compare the handshake's verdict with the chain's. Not part of the
/// back-end contract (`TrustBackend`): a back end without a client simply does not adopt it.
public protocol TLSClientProviding: TrustBackend {
    /// The library's own TLS client, verifying during the handshake with the back end's settings.
    var tlsClient: any TLSClient { get }
}

/// Finding a back end's optional TLS client.
public enum TLSClients {
    /// `backend`'s TLS client, looked up through wrappers (``BackendWrapper``) such as the harness's
    /// guard; nil when it has none (`trust-harness probe` says so).
    public static func of(_ backend: any TrustBackend) -> (any TLSClient)? {
        if let providing = backend as? any TLSClientProviding { return providing.tlsClient }
        if let wrapper = backend as? any BackendWrapper { return of(wrapper.base) }
        return nil
    }
}
