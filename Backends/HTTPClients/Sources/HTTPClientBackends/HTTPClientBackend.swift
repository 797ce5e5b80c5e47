import Foundation
import HTTPClientWire
import TrustBackendKit

/// What the two HTTP client back ends share: an evaluator per anchor set that makes one real HTTPS
/// request per evaluation (``HTTPClientEvaluator``), and no path in a trusted verdict.
protocol HTTPClientBackend: TrustBackend {
    static var stack: ClientStack { get }
    var timeoutSeconds: Double { get }
}

extension HTTPClientBackend {
    /// The stacks say only whether the request succeeded, never through which path.
    public var reportsVerifiedPath: Bool { false }

    /// No optional feature: neither stack lets an application set a depth limit, CRLs, policy
    /// inputs or another purpose, so requests carrying them are refused by the kit's preflight.
    public var features: Set<BackendFeature> { [] }

    /// An evaluator trusting exactly `anchors`, behind the kit's preflight.
    /// - Throws: ``TrustCore/TrustBackendError`` when the client executable or libfaketime is not
    ///   there (saying how to get it), or the anchors' PEM file cannot be written. Anchors are not
    ///   read here: the client reads them as the application would, for every request, and an anchor
    ///   it cannot read is the request's error.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) {
            let launcher: ClientLauncher
            switch Result(catching: { () throws(ClientLauncher.LaunchProblem) in try ClientLauncher.locate() }) {
            case .success(let found): launcher = found
            case .failure(let problem): throw TrustBackendError(backend: name, message: problem.message)
            }
            return try HTTPClientEvaluator(stack: Self.stack, backendName: name, anchors: anchors, launcher: launcher, timeoutSeconds: timeoutSeconds)
        }
    }
}

/// Foundation's `URLSession` on Linux as a back end: the outcome of a data task fetching
/// `https://HOST/` from a loopback server presenting the chain, with the anchors as the only CA file
/// (`URLSessionCertificateAuthorityInfoFile`), at the request's time (libfaketime). The TLS and the
/// verification are libcurl's with its TLS library (OpenSSL on Debian 12), as FoundationNetworking
/// configures it; the README says what an application can and cannot set.
public struct URLSessionBackend: HTTPClientBackend {
    public static let backendName = "urlsession"
    static let stack = ClientStack.urlSession

    public let configuration: BackendConfiguration
    /// The most one request may take, in seconds.
    public var timeoutSeconds: Double

    public init(configuration: BackendConfiguration = .default, timeoutSeconds: Double = 10) {
        self.configuration = configuration
        self.timeoutSeconds = timeoutSeconds
    }

    public var name: String { Self.backendName }

    /// FoundationNetworking of the Swift toolchain and the libcurl it loads, read when asked.
    public var libraryVersion: String { InstalledStacks.urlSession }
}

/// AsyncHTTPClient 1.37.0 as a back end: the outcome of `HTTPClient.execute` fetching
/// `https://HOST/` through a CONNECT proxy to a loopback server presenting the chain, with
/// `TLSConfiguration.makeClientConfiguration()` and `trustRoots: .certificates(anchors)`, at the
/// request's time (libfaketime). The TLS and the verification are swift-nio-ssl's BoringSSL, with
/// the host AsyncHTTPClient takes from the URL.
public struct AsyncHTTPClientBackend: HTTPClientBackend {
    public static let backendName = "async-http-client"
    static let stack = ClientStack.asyncHTTPClient
    /// The releases this package pins (`exact:` in Package.swift).
    public static let version = "AsyncHTTPClient 1.37.0, swift-nio-ssl 2.37.6 (BoringSSL 8eb25be6fa18d475291122887a7bccd3762ff236)"

    public let configuration: BackendConfiguration
    /// The most one request may take, in seconds.
    public var timeoutSeconds: Double

    public init(configuration: BackendConfiguration = .default, timeoutSeconds: Double = 10) {
        self.configuration = configuration
        self.timeoutSeconds = timeoutSeconds
    }

    public var name: String { Self.backendName }
    public var libraryVersion: String { Self.version }
}

/// The versions of what URLSession runs on this machine.
enum InstalledStacks {
    /// FoundationNetworking's toolchain and the libcurl it loads with its TLS library
    /// (`libcurl 7.88.1, OpenSSL 3.0.22`).
    static let urlSession: String = {
        #if swift(>=6.4)
        let swift = "Swift 6.4 or later"
        #elseif swift(>=6.3)
        let swift = "Swift 6.3"
        #else
        let swift = "Swift before 6.3"
        #endif
        return "FoundationNetworking (\(swift)), \(curlVersion())"
    }()

    /// The first two words of libcurl's own version line (`libcurl/7.88.1 OpenSSL/3.0.22 zlib/...`),
    /// from the library FoundationNetworking loads.
    static func curlVersion() -> String {
        guard let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD) ?? dlopen("libcurl.so.4", RTLD_NOW),
              let symbol = dlsym(handle, "curl_version"),
              let line = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafePointer<CChar>?).self)().map({ String(cString: $0) })
        else { return "libcurl (version unknown)" }
        return line.split(separator: " ").prefix(2).map { $0.replacingOccurrences(of: "/", with: " ") }.joined(separator: ", ")
    }
}
