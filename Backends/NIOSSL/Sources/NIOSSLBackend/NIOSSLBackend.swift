import TrustBackendKit

/// swift-nio-ssl 2.37.6 (BoringSSL embedded) as a back end: the verdict a SwiftNIO client gets from
/// `TLSConfiguration.makeClientConfiguration()` with `trustRoots: .certificates(anchors)`,
/// `certificateVerification: .fullVerification` and the server's host, at the request's time.
///
/// NIOSSL takes no validation time, so the chain is verified by BoringSSL's `X509_verify_cert` (the
/// copy NIOSSL links, `CNIOBoringSSL`) with the store and parameters NIOSSL gives the handshake and
/// the request's time set on the one verification context; the host is then checked by NIOSSL's own
/// matching (`validIdentityForService`). ``NIOSSLEvaluator`` says which part is whose.
public struct NIOSSLBackend: TrustBackend {
    /// The name in reports and deviations.
    public static let backendName = "swift-nio-ssl"
    /// The swift-nio-ssl release this package pins (`exact:` in Package.swift) and the BoringSSL
    /// commit it embeds (its Package.swift and Sources/CNIOBoringSSL/hash.txt).
    public static let version = "swift-nio-ssl 2.37.6 (BoringSSL 8eb25be6fa18d475291122887a7bccd3762ff236)"

    public let configuration: BackendConfiguration

    public init(configuration: BackendConfiguration = .default) {
        self.configuration = configuration
    }

    public var name: String { Self.backendName }

    public var libraryVersion: String { Self.version }

    /// ``BackendFeature/anyPurpose`` only: BoringSSL's "default" verification parameters, which set no
    /// purpose, instead of "ssl_server" (NIOSSL's TLS client has no such mode; the request can only
    /// come from outside NIOSSL, like PKITS). Not a depth limit, CRLs or policy inputs:
    /// `TLSConfiguration` has no setting for any of them (BoringSSL could, but a NIOSSL client
    /// cannot ask), so requests carrying them are refused.
    public var features: Set<BackendFeature> { [.anyPurpose] }

    /// Parses `anchors` once into one `X509_STORE`.
    /// - Throws: ``TrustCore/TrustBackendError`` naming the first anchor that is not strict DER, that
    ///   BoringSSL cannot read or that `NIOSSLCertificate` refuses.
    /// An evaluator of `anchors` behind the kit's preflight (``BackendPreflight``): bad input, features
    /// this back end does not honour and certificates that are not DER never reach the library.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try unguardedEvaluator(anchors: anchors) }
    }

    /// The evaluator itself: anchors already checked to be DER, requests already through the preflight.
    func unguardedEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try NIOSSLEvaluator(anchors: anchors, backendName: name, features: features, configuration: configuration)
    }
}
