import TrustCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection for the TLS clients, with every wait bounded: connecting, sending and
/// receiving each time out (`SO_SNDTIMEO`, which Linux applies to `connect` too, and `SO_RCVTIMEO`).
public enum TCPConnection {
    /// Why a connection could not be made; `userError` for what the caller got wrong (a name that
    /// does not resolve, a refused or unreachable port, a timeout).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Writing to a socket the peer has closed raises SIGPIPE, whose default action ends the
    /// process: a server that hangs up, or a client that leaves, must never kill a test run or the
    /// tool. Ignored once, process-wide, before the first socket (as SwiftNIO's bootstraps do).
    public static func ignoreBrokenPipes() {
        _ = ignored
    }

    private static let ignored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// A connected socket to `address` (a DNS name or an IP literal) and `port`; the caller closes it.
    public static func connect(_ address: String, port: UInt16, timeout: Duration) throws(Failure) -> Int32 {
        ignoreBrokenPipes()
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw Failure(message: "\(address) does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(results) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            setTimeouts(fd, timeout)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            let code = errno
            lastError = code == EINPROGRESS || code == EAGAIN || code == EWOULDBLOCK
                ? "no answer within \(timeout)" : String(cString: strerror(code))
            close(fd)
        }
        throw Failure(message: "cannot connect to \(address) port \(port): \(lastError)")
    }

    /// Bounds every send and receive on `fd` by `timeout`.
    public static func setTimeouts(_ fd: Int32, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1_000 }
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
