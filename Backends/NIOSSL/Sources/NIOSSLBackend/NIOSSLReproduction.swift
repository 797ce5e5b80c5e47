import TrustBackendKit

extension NIOSSLBackend {
    /// A finding reproduced with swift-nio-ssl alone: a TLS server on the connected address (or
    /// 127.0.0.1) serving the finding's chain with the leaf's key, and a client that verifies it as an
    /// application does, `NIOSSLClientHandler(context:serverHostname:)` under `.fullVerification`, so
    /// NIOSSL's own host check runs against the real socket's remote address. The validation time is
    /// the clock's: run it under faketime at the finding's time.
    static let reproduction = Reproduction(
        fileName: "Reproduce.swift",
        howToRun: "the main.swift of an executable depending on swift-nio-ssl 2.37 (NIOSSL) and swift-nio (NIOCore, NIOPosix, NIOTLS), run from this folder under faketime at the finding's time; it needs leaf-key.pem"
    ) { input in
        let address = input.connectedAddress ?? (input.hostIsIPAddress ? input.host : nil) ?? "127.0.0.1"
        let hostname = input.hostIsIPAddress ? "nil" : input.host.map(Reproduction.swiftLiteral) ?? "nil"
        return """
        // swift-nio-ssl on the finding's chain: a server on \(address) presents it, a client that
        // asked for \(input.host ?? "no host") connects there and verifies it with NIOSSL's defaults
        // (.fullVerification, the host check when the handshake completes). Run at the finding's time:
        //   faketime '@\(input.unixTime)' swift run
        // Prints "trusted" when the handshake and NIOSSL's host check pass.
        import NIOCore
        import NIOPosix
        import NIOSSL
        import NIOTLS

        final class Outcome: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            let promise: EventLoopPromise<Void>
            init(_ promise: EventLoopPromise<Void>) { self.promise = promise }
            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
                if case .handshakeCompleted? = event as? TLSUserEvent { promise.succeed(()) }
                context.fireUserInboundEventTriggered(event)
            }
            func errorCaught(context: ChannelHandlerContext, error: any Error) { promise.fail(error) }
        }

        func reproduce() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let chain = try NIOSSLCertificate.fromPEMFile(\(Reproduction.swiftLiteral(input.chain))).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: \(Reproduction.swiftLiteral(input.leafKey ?? "leaf-key.pem")), format: .pem)
            let server = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
            let listener = try await ServerBootstrap(group: group)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: server)) }
                }
                .bind(host: \(Reproduction.swiftLiteral(address)), port: 0).get()

            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(\(Reproduction.swiftLiteral(input.anchors))))
            let client = try NIOSSLContext(configuration: configuration)
            let verified = group.next().makePromise(of: Void.self)
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: client, serverHostname: \(hostname)))
                        try channel.pipeline.syncOperations.addHandler(Outcome(verified))
                    }
                }
                .connect(to: listener.localAddress!).get()
            do {
                try await verified.futureResult.get()
                print("trusted")
            } catch {
                print("rejected:", error)
            }
            // Either side may have closed already (a failed handshake closes the channel).
            try? await channel.close()
            try? await listener.close()
            try await group.shutdownGracefully()
        }

        try await reproduce()

        """
    }
}
