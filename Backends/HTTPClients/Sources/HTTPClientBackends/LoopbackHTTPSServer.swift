import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// An HTTPS server on 127.0.0.1 presenting one chain, reached through an HTTP CONNECT front on the
/// same port: a connection first sends `CONNECT host:port`, gets `200 Connection established`, and
/// then speaks TLS to this server, which answers any HTTP request with `200 OK` and closes. The
/// proxy is what lets a URL carry the vector's host (a DNS name that resolves nowhere, or any IP
/// address) while every connection lands here; TLS stays end to end between the client and this
/// server, so the client checks the certificate against the URL's host as it would for the real one.
///
/// The TLS server is swift-nio-ssl's (BoringSSL) with the chain in the vector's order and the leaf's
/// key. It verifies nothing. ``stop()`` closes the listening socket and every connection: no port
/// stays open.
final class LoopbackHTTPSServer: @unchecked Sendable {
    // @unchecked Sendable: the channels are NIO's (thread-safe), the record is lock-guarded.

    /// What one connection showed: the first error on it, in NIOSSL's words (a client's TLS alert
    /// shows here; the tests read it, verdicts never do, as it depends on timing).
    struct Seen: Sendable {
        var error: String?
    }

    /// How the server misbehaves, for the fault tests; `.none` serves properly.
    enum Fault: Sendable {
        case none
        /// Closes each connection as soon as it is accepted.
        case closeOnAccept
        /// Accepts and never answers.
        case stall
        /// Answers the CONNECT (or the client's first TLS record), then sends bytes that are not TLS.
        case garbageAfterConnect
    }

    let port: UInt16
    private let channel: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    private let seen: NIOLockedValueBox<[Seen]>

    /// - Throws: when NIOSSL cannot load the chain or the key (``LoopbackHTTPSServer/Refusal``), or
    ///   the socket cannot be bound.
    init(chain: [[UInt8]], privateKey: [UInt8], fault: Fault = .none) throws {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try chain.map { try NIOSSLCertificate(bytes: $0, format: .der) }
        } catch {
            throw Refusal(message: "NIOSSL cannot read a certificate of the chain to serve it: \(error)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: privateKey, format: .der)
        } catch {
            throw Refusal(message: "NIOSSL cannot read the leaf's private key: \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw Refusal(message: "NIOSSL refuses to serve the chain with the leaf's key: \(error)")
        }
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let seen = NIOLockedValueBox<[Seen]>([])
        self.connections = connections
        self.seen = seen
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                connections.withLockedValue { $0[ObjectIdentifier(child)] = child }
                child.closeFuture.whenComplete { _ in _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(child)) } }
                let index = seen.withLockedValue { $0.append(Seen()); return $0.count - 1 }
                switch fault {
                case .closeOnAccept:
                    return child.close()
                case .stall:
                    return child.eventLoop.makeSucceededVoidFuture()
                case .none, .garbageAfterConnect:
                    return child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(ConnectFront(context: context, fault: fault, index: index, seen: seen))
                    }
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = UInt16(channel.localAddress?.port ?? 0)
    }

    /// What the connections showed so far, in order of acceptance.
    var connectionsSeen: [Seen] { seen.withLockedValue { $0 } }

    /// Waits until at least `count` connections were accepted and every one of them has closed (a
    /// client that ends the handshake with an alert closes after it, and the server records the alert
    /// before its side closes), at most `seconds`; returns whether that happened. A reader of
    /// ``connectionsSeen`` waits for this first: the client's answer reaches the harness before the
    /// server's event loop has necessarily read the alert (a test read nil there under CI's load).
    func waitForClosedConnections(atLeast count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if seen.withLockedValue({ $0.count }) >= count && connections.withLockedValue({ $0.isEmpty }) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Closes the listening socket and every open connection, and waits for both.
    func stop() {
        try? channel.close().wait()
        for open in connections.withLockedValue({ Array($0.values) }) {
            try? open.close().wait()
        }
    }

    /// Why a chain cannot be served: not a verdict on it.
    struct Refusal: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Reads `CONNECT ... \r\n\r\n`, answers 200, and turns the connection into the TLS server.
private final class ConnectFront: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let context: NIOSSLContext
    let fault: LoopbackHTTPSServer.Fault
    let index: Int
    let seen: NIOLockedValueBox<[LoopbackHTTPSServer.Seen]>
    private var buffered: ByteBuffer?

    init(context: NIOSSLContext, fault: LoopbackHTTPSServer.Fault, index: Int, seen: NIOLockedValueBox<[LoopbackHTTPSServer.Seen]>) {
        self.context = context
        self.fault = fault
        self.index = index
        self.seen = seen
    }

    func channelRead(context channelContext: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        // A client connecting to the server itself (no proxy, or through a client worker's tunnel,
        // which answers the CONNECT itself) starts with a TLS record at once.
        if let first = buffered?.readableBytesView.first, first == 0x16 {
            if fault == .garbageAfterConnect {
                channelContext.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "this is not TLS\r\n\r\n")), promise: nil)
                return
            }
            startTLS(channelContext, rest: buffered!)
            return
        }
        guard var all = buffered, let headLength = all.headLength() else {
            if (buffered?.readableBytes ?? 0) > 16_384 { channelContext.close(promise: nil) }
            return
        }
        let head = String(decoding: all.readBytes(length: headLength) ?? [], as: UTF8.self)
        let words = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard words.count >= 2, words[0] == "CONNECT" else {
            record { $0.error = "not a CONNECT request: \(head.prefix(80))" }
            channelContext.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")))
                .assumeIsolated().whenComplete { _ in channelContext.close(promise: nil) }
            return
        }
        channelContext.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n")), promise: nil)
        if fault == .garbageAfterConnect {
            channelContext.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "this is not TLS\r\n\r\n")), promise: nil)
            return
        }
        startTLS(channelContext, rest: all)
    }

    /// Becomes the TLS server, handing it what was read beyond the CONNECT request.
    private func startTLS(_ channelContext: ChannelHandlerContext, rest: ByteBuffer) {
        do {
            let tls = NIOSSLServerHandler(context: self.context)
            let sync = channelContext.pipeline.syncOperations
            try sync.addHandler(tls, position: .after(self))
            try sync.addHandler(HTTPAnswer(index: index, seen: seen), position: .after(tls))
        } catch {
            record { $0.error = "cannot start TLS: \(error)" }
            channelContext.close(promise: nil)
            return
        }
        // What was read so far goes to the TLS server first; then this front leaves the pipeline.
        buffered = nil
        if rest.readableBytes > 0 { channelContext.fireChannelRead(wrapInboundOut(rest)) }
        channelContext.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    func errorCaught(context channelContext: ChannelHandlerContext, error: any Error) {
        record { if $0.error == nil { $0.error = "\(error)" } }
        channelContext.close(promise: nil)
    }

    private func record(_ change: (inout LoopbackHTTPSServer.Seen) -> Void) {
        let index = self.index
        seen.withLockedValue { change(&$0[index]) }
    }
}

/// Inside TLS: answers the first complete HTTP request head with 200 and closes.
private final class HTTPAnswer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let index: Int
    let seen: NIOLockedValueBox<[LoopbackHTTPSServer.Seen]>
    private var received: ByteBuffer?

    init(index: Int, seen: NIOLockedValueBox<[LoopbackHTTPSServer.Seen]>) {
        self.index = index
        self.seen = seen
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
        guard let all = received, all.headLength() != nil else {
            if (received?.readableBytes ?? 0) > 65_536 { context.close(promise: nil) }
            return
        }
        let body = "trusted\n"
        let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let index = self.index
        seen.withLockedValue { if $0[index].error == nil { $0[index].error = "\(error)" } }
        context.close(promise: nil)
    }
}

extension ByteBuffer {
    /// The length of an HTTP head at the reader index, through its blank line, or nil while it is
    /// not complete.
    func headLength() -> Int? {
        let view = readableBytesView
        guard view.count >= 4 else { return nil }
        var index = view.startIndex
        while index + 3 < view.endIndex {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 {
                return index + 4 - view.startIndex
            }
            index += 1
        }
        return nil
    }
}
