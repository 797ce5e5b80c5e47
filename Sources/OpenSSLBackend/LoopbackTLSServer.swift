internal import COpenSSL
import Foundation
import Synchronization
import TrustCore
import TrustProbe
#if canImport(Glibc)
import Glibc
#endif

/// A real TLS server on 127.0.0.1 (OpenSSL, `SSL_accept`) presenting a given chain with its private
/// key, for probing and for the handshake-versus-chain comparison: started on an ephemeral port,
/// serving one handshake per connection until ``stop()``. Every wait is bounded (accept polls, each
/// connection's reads and writes time out), and it serves any chain, weak keys and SHA-1 included
/// (security level 0), since judging them is the client's job.
///
/// It staples an OCSP response when told to (``staple(_:)``) and the client asks for status: OpenSSL's
/// server status callback (`SSL_CTX_set_tlsext_status_cb`) hands each handshake an
/// `OPENSSL_malloc`'d copy (`SSL_set_tlsext_status_ocsp_resp`, which takes ownership); OpenSSL
/// sends it as TLS 1.2's CertificateStatus or in TLS 1.3's Certificate message.
public final class LoopbackTLSServer: OCSPStapling, @unchecked Sendable {
    // @unchecked: the SSL_CTX is only read by the serving thread after init; `running` is a Mutex,
    // and the stapled response is in a Mutex the callback reads.
    public let port: UInt16
    private let context: OpaquePointer
    private let listener: Int32
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)
    /// Kept alive as long as the context, whose status callback is given it unretained.
    private let stapled = StapledResponse()

    /// The response to staple, shared with OpenSSL's status callback on the serving thread.
    private final class StapledResponse: Sendable {
        let response = Mutex<[UInt8]?>(nil)
    }

    public struct SetupError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// - Parameters:
    ///   - chain: DER certificates to send, leaf first.
    ///   - privateKey: the leaf's private key, DER (PKCS#8 or the traditional form).
    /// - Throws: ``SetupError`` when the chain or key cannot be used or no port can be bound.
    public init(chain: [[UInt8]], privateKey: [UInt8], timeout: Duration = .seconds(5)) throws {
        guard !chain.isEmpty else { throw SetupError(description: "no certificate to serve") }
        TCPConnection.ignoreBrokenPipes()
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw SetupError(description: "SSL_CTX_new failed") }
        SSL_CTX_set_security_level(context, 0)
        func x509(_ der: [UInt8]) -> OpaquePointer? {
            der.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
        }
        guard let leaf = x509(chain[0]), SSL_CTX_use_certificate(context, leaf) == 1 else {
            SSL_CTX_free(context)
            throw SetupError(description: "the leaf cannot be served: \(OpenSSLErrorQueue.drain().map(\.description).joined(separator: "; "))")
        }
        X509_free(leaf)
        for der in chain.dropFirst() {
            guard let extra = x509(der) else { continue }
            if COpenSSL_SSL_CTX_add_extra_chain_cert(context, extra) != 1 { X509_free(extra) }
        }
        let key: OpaquePointer? = privateKey.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let key, SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            if let key { EVP_PKEY_free(key) }
            SSL_CTX_free(context)
            throw SetupError(description: "the private key does not fit the leaf: \(OpenSSLErrorQueue.drain().map(\.description).joined(separator: "; "))")
        }
        EVP_PKEY_free(key)
        COpenSSL_SSL_CTX_set_tlsext_status_cb(context, Self.statusCallback)
        COpenSSL_SSL_CTX_set_tlsext_status_arg(context, Unmanaged.passUnretained(stapled).toOpaque())

        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 16) == 0 else {
            if listener >= 0 { close(listener) }
            SSL_CTX_free(context)
            throw SetupError(description: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        self.context = context
        self.listener = listener
        let thread = Thread { [self] in self.serve(timeout: timeout) }
        thread.start()
    }

    public func staple(_ response: [UInt8]?) {
        stapled.response.withLock { $0 = response }
    }

    /// OpenSSL's server status callback, called when a client asks for status: staples a copy of the
    /// response (OpenSSL frees it with the SSL), or declines when there is none.
    private static let statusCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, argument in
        guard let ssl, let argument else { return SSL_TLSEXT_ERR_NOACK }
        let stapled = Unmanaged<StapledResponse>.fromOpaque(argument).takeUnretainedValue()
        guard let response = stapled.response.withLock({ $0 }), !response.isEmpty,
              let copy = COpenSSL_OPENSSL_malloc(response.count)?.assumingMemoryBound(to: UInt8.self) else { return SSL_TLSEXT_ERR_NOACK }
        copy.initialize(from: response, count: response.count)
        guard COpenSSL_SSL_set_tlsext_status_ocsp_resp(ssl, copy, response.count) == 1 else {
            CRYPTO_free(copy, #fileID, #line)
            return SSL_TLSEXT_ERR_ALERT_FATAL
        }
        return SSL_TLSEXT_ERR_OK
    }

    private func serve(timeout: Duration) {
        defer { finished.signal() }
        while running.withLock({ $0 }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            TCPConnection.setTimeouts(connection, timeout)
            if let ssl = SSL_new(context) {
                SSL_set_fd(ssl, connection)
                if SSL_accept(ssl) == 1 {
                    // Wait for the client to finish (it closes after reading the handshake's end).
                    var byte: UInt8 = 0
                    _ = SSL_read(ssl, &byte, 1)
                    SSL_shutdown(ssl)
                }
                OpenSSLErrorQueue.discard()
                SSL_free(ssl)
            }
            close(connection)
        }
    }

    /// Stops serving and frees the server; waits for the serving thread (at most one poll interval
    /// plus a connection's timeout).
    public func stop() {
        let wasRunning = running.withLock { state -> Bool in
            defer { state = false }
            return state
        }
        guard wasRunning else { return }
        // Wakes the serving thread's poll at once (a closed descriptor would not).
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
        SSL_CTX_free(context)
    }

    deinit { stop() }
}
