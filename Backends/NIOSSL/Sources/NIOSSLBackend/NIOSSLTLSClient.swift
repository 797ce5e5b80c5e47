import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import TrustBackendKit
import TrustProbe

/// NIOSSL's own TLS client: a `ClientBootstrap` channel with `NIOSSLClientHandler`, a `NIOSSLContext`
/// made from `TLSConfiguration.makeClientConfiguration()` with `trustRoots: .certificates(anchors)`
/// and `.fullVerification` (`.noHostnameVerification` for a request without a host), and the
/// request's host as `serverHostname` (an IP address is checked against the address connected to,
/// as NIOSSL does; it may not be a `serverHostname`).
///
/// The chain is checked at the request's time through NIOSSL's public hook for that,
/// `customVerificationCallback`, which replaces BoringSSL's verification in the handshake: the
/// callback asks this back end's evaluator (BoringSSL's verifier with NIOSSL's settings, at the
/// request's time, no host) about the certificates the server sent. Everything else is NIOSSL's
/// handshake: the protocol and signature checks, and the host check `NIOSSLHandler` makes after
/// the handshake (`validateHostname`), the real one, not this package's copy. So a handshake verdict
/// that differs from the chain verdict shows what the TLS layer or NIOSSL's own host check decides.
struct NIOSSLTLSClient: TLSClient {
    let backend: NIOSSLBackend

    func handshake(_ target: TLSTarget, anchors: [[UInt8]], request: EvaluationRequest, timeout: Duration) -> HandshakeReport {
        let clock = HandshakeClock()
        if let refusal = clock.refusal(request) { return refusal }
        let roots: [NIOSSLCertificate]
        let evaluator: any TrustEvaluator
        do {
            roots = try anchors.map { try NIOSSLCertificate(bytes: $0, format: .der) }
            evaluator = try backend.makeEvaluator(anchors: anchors)
        } catch {
            return clock.failed("anchors", "an anchor NIOSSL cannot read: \(error)", userError: true)
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(roots)
        configuration.certificateVerification = request.host == nil ? .noHostnameVerification : .fullVerification
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            return clock.failed("setup", "NIOSSLContext: \(error)", userError: false)
        }
        let serverHostname: String? = if case .dns(let name)? = request.host { name } else { nil }
        let observed = NIOLockedValueBox(Observed())
        let chainRequest = request
        let milliseconds = max(1, Int64(timeout.components.seconds) * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = group.any().makePromise(of: TLSVersion?.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.milliseconds(milliseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname) { certificates, promise in
                        let ders = certificates.compactMap { try? $0.toDERBytes() }
                        var checked = chainRequest
                        checked.chain = ders
                        checked.host = nil
                        let verdict = ders.count == certificates.count && !ders.isEmpty
                            ? evaluator.evaluate(checked)
                            : .failClosed(.malformed, name: "NIOSSLCertificate.toDERBytes", message: "a certificate the server sent could not be re-encoded", origin: .library)
                        observed.withLockedValue {
                            $0.peerChain = ders
                            $0.chainVerdict = verdict
                        }
                        promise.succeed(verdict.isTrusted ? .certificateVerified : .failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHandler(HandshakeObserver(outcome: outcome, handler: handler))
                }
            }
        let channel: any Channel
        do {
            channel = try bootstrap.connect(host: target.address, port: Int(target.port)).wait()
        } catch {
            outcome.fail(error)
            return clock.failed("connect", "cannot connect to \(target): \(error)", userError: true)
        }
        let deadline = channel.eventLoop.scheduleTask(in: .milliseconds(milliseconds)) {
            outcome.fail(HandshakeTimeout())
        }
        let result = Result { try outcome.futureResult.wait() }
        deadline.cancel()
        try? channel.close().wait()
        let seen = observed.withLockedValue { $0 }
        switch result {
        case .success(let version):
            let protocolVersion = version.map(Self.name)
            guard case .trusted(let path)? = seen.chainVerdict else {
                return clock.report(nil, .failClosed(.other, name: "NO_VERIFIED_CHAIN", message: "the handshake completed without the chain being verified", origin: .harness), protocolVersion: protocolVersion, chain: seen.peerChain)
            }
            return clock.report(nil, .trusted(path: path), protocolVersion: protocolVersion, forwardSecret: version.map { _ in true }, chain: seen.peerChain)
        case .failure(let error):
            if error is HandshakeTimeout {
                return clock.failed("handshake", "the server did not complete the handshake within \(timeout)", userError: true)
            }
            if let verdict = seen.chainVerdict, !verdict.isTrusted {
                return clock.report(nil, verdict, chain: seen.peerChain)
            }
            if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname || extra == .serverHostnameImpossibleToMatch {
                return clock.report(nil, .failClosed(.hostnameMismatch, name: "NIOSSLExtraError.\(extra == .failedToValidateHostname ? "failedToValidateHostname" : "serverHostnameImpossibleToMatch")", message: "NIOSSLHandler.validateHostname after the handshake: \(extra)", depth: 0, origin: .library), chain: seen.peerChain)
            }
            let notTLS = "\(error)".contains("WRONG_VERSION_NUMBER") || error as? NIOSSLError == .uncleanShutdown
            return clock.report(.init(stage: "handshake", message: "\(error)", userError: notTLS), .failClosed(.other, name: "NIOSSL_HANDSHAKE_FAILED", message: "\(error)", origin: .library), chain: seen.peerChain)
        }
    }

    static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLSv1"
        case .tlsv11: "TLSv1.1"
        case .tlsv12: "TLSv1.2"
        case .tlsv13: "TLSv1.3"
        }
    }

    /// What the verification callback saw.
    struct Observed {
        var peerChain: [[UInt8]] = []
        var chainVerdict: Verdict?
    }

    struct HandshakeTimeout: Error {}
}

/// Completes `outcome` when NIOSSL reports the handshake done (with the negotiated version) or
/// fails it with the first error the pipeline sees (a handshake or host-check error).
private final class HandshakeObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    let outcome: EventLoopPromise<TLSVersion?>
    let handler: NIOSSLClientHandler

    init(outcome: EventLoopPromise<TLSVersion?>, handler: NIOSSLClientHandler) {
        self.outcome = outcome
        self.handler = handler
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted? = event as? TLSUserEvent {
            outcome.succeed(handler.tlsVersion)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        outcome.fail(NIOSSLError.uncleanShutdown)
        context.fireChannelInactive()
    }
}

extension NIOSSLBackend: TLSClientProviding {
    /// NIOSSL's TLS client with this back end's settings (see ``NIOSSLTLSClient``).
    public var tlsClient: any TLSClient { NIOSSLTLSClient(backend: self) }
}
