import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An HTTP CONNECT front on 127.0.0.1 that tunnels every connection to another port on 127.0.0.1:
/// how a client reaches, under the vector's host name, a TLS server that is not
/// ``LoopbackHTTPSServer`` (OpenSSL's `s_server`, which staples an OCSP response; NIOSSL's server
/// cannot). A connection sends `CONNECT host:port`, whatever host it names; once the target
/// accepts, it gets `200 Connection established` and the bytes are copied both ways unchanged, so
/// TLS stays end to end between client and server; a connection that starts with a TLS record (a
/// client given no proxy) is tunnelled as it is. Any other request gets `405`,
/// one the target refuses gets `502`. ``stop()`` closes the listening socket and every connection,
/// on both sides: no port stays open.
final class LoopbackTunnel: @unchecked Sendable {
    // @unchecked Sendable: the channels are NIO's (thread-safe), the set of connections is lock-guarded.

    /// The front's port, to name as the client's proxy.
    let port: UInt16
    private let channel: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    private let targetBox: NIOLockedValueBox<UInt16>

    /// The port on 127.0.0.1 a new connection is tunnelled to; changing it leaves open tunnels as
    /// they are (a client worker's front, pointed at each request's server in turn).
    var target: UInt16 {
        get { targetBox.withLockedValue { $0 } }
        set { targetBox.withLockedValue { $0 = newValue } }
    }

    /// - Parameter target: the port on 127.0.0.1 each connection is tunnelled to.
    /// - Throws: when the listening socket cannot be bound.
    init(to target: UInt16) throws {
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let targetBox = NIOLockedValueBox(target)
        self.connections = connections
        self.targetBox = targetBox
        @Sendable func register(_ channel: any Channel) {
            connections.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
            channel.closeFuture.whenComplete { _ in _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) } }
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                register(child)
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(TunnelFront(target: targetBox.withLockedValue { $0 }, register: register))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = UInt16(channel.localAddress?.port ?? 0)
    }

    /// Closes the listening socket and every open connection, both sides of each tunnel, and waits.
    func stop() {
        try? channel.close().wait()
        for open in connections.withLockedValue({ Array($0.values) }) {
            try? open.close().wait()
        }
    }
}

/// Reads `CONNECT ... \r\n\r\n` (or a TLS record), connects to the target, answers 200, and
/// splices the two.
private final class TunnelFront: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let target: UInt16
    let register: @Sendable (any Channel) -> Void
    private var buffered: ByteBuffer?
    private var connecting = false

    init(target: UInt16, register: @escaping @Sendable (any Channel) -> Void) {
        self.target = target
        self.register = register
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
        // Bytes that come while the target is being reached are kept for it.
        guard !connecting else { return }
        // A client connecting to the front itself (no proxy: AsyncHTTPClient for 127.0.0.1) starts
        // with a TLS record at once: it is tunnelled as it is.
        if let first = buffered?.readableBytesView.first, first == 0x16 {
            open(context, answering: false)
            return
        }
        guard var all = buffered, let headLength = all.headLength() else {
            if (buffered?.readableBytes ?? 0) > 16_384 { context.close(promise: nil) }
            return
        }
        let head = String(decoding: all.readBytes(length: headLength) ?? [], as: UTF8.self)
        buffered = all
        let words = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard words.count >= 2, words[0] == "CONNECT" else {
            answer(context, "405 Method Not Allowed")
            return
        }
        open(context, answering: true)
    }

    /// Connects to the target and, once it accepts, answers the CONNECT (when `answering`), splices
    /// the two channels, hands the target what was read beyond the CONNECT, and leaves the pipeline.
    private func open(_ context: ChannelHandlerContext, answering: Bool) {
        connecting = true
        let inbound = context.channel
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { outbound in
                outbound.eventLoop.makeCompletedFuture { try outbound.pipeline.syncOperations.addHandler(Splice(to: inbound)) }
            }
            .connect(host: "127.0.0.1", port: Int(target))
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let outbound):
                    self.register(outbound)
                    if answering {
                        context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n")), promise: nil)
                    }
                    do {
                        try context.pipeline.syncOperations.addHandler(Splice(to: outbound), position: .after(self))
                    } catch {
                        outbound.close(promise: nil)
                        context.close(promise: nil)
                        return
                    }
                    if let rest = self.buffered, rest.readableBytes > 0 { outbound.writeAndFlush(rest, promise: nil) }
                    self.buffered = nil
                    context.pipeline.syncOperations.removeHandler(self, promise: nil)
                case .failure:
                    self.answer(context, "502 Bad Gateway")
                }
            }
    }

    private func answer(_ context: ChannelHandlerContext, _ status: String) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// One direction of a tunnel: what this channel reads is written to the other; when this one
/// closes, the other closes once what was written to it has gone.
private final class Splice: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let other: any Channel

    init(to other: any Channel) {
        self.other = other
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        other.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An empty write completes after every write before it.
        let other = self.other
        other.writeAndFlush(ByteBuffer()).whenComplete { _ in other.close(promise: nil) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
