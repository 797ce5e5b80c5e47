/// The HTTP client stacks the child process can drive.
public enum ClientStack: String, Codable, Sendable, CaseIterable {
    /// Foundation's `URLSession` (FoundationNetworking on Linux: libcurl with its TLS library).
    case urlSession = "urlsession"
    /// swift-server's AsyncHTTPClient (SwiftNIO with swift-nio-ssl's BoringSSL).
    case asyncHTTPClient = "async-http-client"
}

/// One HTTPS request for the child process (`trust-http-client`), read as JSON from its standard
/// input. Everything an application would set is here or in the child's environment (the clock,
/// and for URLSession the CA file and proxy variables FoundationNetworking and libcurl read).
public struct ClientRequest: Codable, Sendable, Hashable {
    public var stack: ClientStack
    /// The URL fetched, `https://HOST:443/`: the host is the vector's, so the client checks the
    /// certificate against it exactly as it would for that server.
    public var url: String
    /// The HTTP CONNECT proxy on 127.0.0.1 that tunnels the request to the loopback server, so a
    /// DNS name need not resolve (both stacks send CONNECT for an https URL through a proxy); nil
    /// when the URL names the server itself (`https://127.0.0.1:PORT/`).
    public var proxyPort: UInt16?
    /// Whether the client checks the URL's host against the certificate. Only AsyncHTTPClient can
    /// be told not to (`certificateVerification = .noHostnameVerification`).
    public var verifyHost: Bool
    /// A PEM file holding the anchors: the client's only trust roots.
    public var anchorsFile: String
    /// The most the request may take, in seconds; the launcher kills the process a little after.
    public var timeoutSeconds: Double
    /// How many times to make the request, one after another, each on its own (nil: once): the
    /// stack's own loop that `bench` puts an evaluation beside. The outcome is the last one, or the
    /// first that got no response, with the seconds of them all.
    public var repetitions: Int?

    public init(stack: ClientStack, url: String, proxyPort: UInt16?, verifyHost: Bool = true, anchorsFile: String, timeoutSeconds: Double) {
        self.stack = stack
        self.url = url
        self.proxyPort = proxyPort
        self.verifyHost = verifyHost
        self.anchorsFile = anchorsFile
        self.timeoutSeconds = timeoutSeconds
    }
}

/// What the request gave, printed by the child as one line of JSON on its standard output.
public struct ClientOutcome: Codable, Sendable, Hashable {
    /// The HTTP status of the response; nil when the request failed.
    public var status: Int?
    /// The error's type as the application sees it (`URLError`, `NIOSSLError`, `HTTPClientError`).
    public var errorType: String?
    /// Its code, where the type has one (`URLError.Code.rawValue`).
    public var errorCode: Int?
    /// `String(describing: error)`: the stack's own text.
    public var errorDescription: String?
    /// What else the error carries: userInfo strings, underlying errors, in the stack's words.
    public var errorDetails: [String]
    /// The authentication challenges the stack delivered to the application (their
    /// `authenticationMethod`); URLSession's delegate records them, AsyncHTTPClient has none.
    public var challenges: [String]
    /// Seconds from the request's start to its end, by the monotonic clock.
    public var seconds: Double
    /// The wall clock the child read before the request (seconds since 1970): the launcher checks
    /// it is the request's time, so a clock libfaketime did not set is never taken for a verdict.
    public var clock: Double?

    public init(status: Int? = nil, errorType: String? = nil, errorCode: Int? = nil, errorDescription: String? = nil, errorDetails: [String] = [], challenges: [String] = [], seconds: Double = 0) {
        self.status = status
        self.errorType = errorType
        self.errorCode = errorCode
        self.errorDescription = errorDescription
        self.errorDetails = errorDetails
        self.challenges = challenges
        self.seconds = seconds
    }
}
