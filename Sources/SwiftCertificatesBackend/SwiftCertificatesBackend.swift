import TrustBackendKit
import TrustCore

/// TrustHarness's back end over Apple's pure-Swift swift-certificates: `Verifier` with
/// `RFC5280Policy` and `ServerIdentityPolicy`, no C library at all.
///
/// What it checks is what those policies check (Sources/X509/Verifier in swift-certificates):
/// signatures and issuer names while building paths (depth first, anchors preferred), unhandled
/// critical extensions, certificate versions, validity at the request's time, basicConstraints
/// (cA and pathLenConstraint), name constraints (DNS, IP, URI; directoryName refused), and the
/// host: DNS names against subjectAltName dNSName entries (RFC 6125 wildcards), IP addresses
/// against iPAddress entries, and the subject CN when a certificate has no subjectAltName. The
/// library has no policy for extended key usage, so ``Settings/standard`` (the default, named
/// `swift-certificates`) checks none: the column is the library. ``Settings/withServerAuthentication``
/// (`swift-certificates+serverauth`) adds ``ServerAuthenticationPolicy``, application code written
/// against the library's public `VerifierPolicy` API, as a TLS client would have to write it; it is
/// a named variant because the policy is ours, not the library's. keyUsage is accepted as critical but not enforced
/// (RFC5280Policy says so in its source). It checks OCSP responses with its own policy, but cannot
/// limit the chain depth or check CRLs, so it does not claim those features: such requests are refused, never evaluated without the constraint.
///
/// Certificates reach the library as presented (strict DER is the `checks` layer's, a column of its
/// own), and each evaluator keeps up to
/// ``TrustCore/BackendConfiguration/certificateCacheCapacity`` parsed presented certificates, keyed
/// by their exact DER; the cache never changes a verdict.
///
/// `Verifier.validate` is `async`, ``TrustCore/TrustEvaluator/evaluate(_:)`` is not: the evaluator
/// runs validation as a task whose jobs the calling thread executes itself (see
/// `CallerThreadExecutor`), never blocking on another thread.
public struct SwiftCertificatesBackend: TrustBackend {
    /// The policy set and name of a swift-certificates back end.
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports and deviations.
        public var name: String
        /// Whether ``ServerAuthenticationPolicy`` (an extendedKeyUsage, when the leaf has one, must
        /// allow serverAuth or any purpose) is added to the library's policies.
        public var requiresServerAuthentication: Bool

        public init(name: String, requiresServerAuthentication: Bool) {
            self.name = name
            self.requiresServerAuthentication = requiresServerAuthentication
        }

        /// The library's own policies (`RFC5280Policy`, `ServerIdentityPolicy`): what
        /// swift-certificates verifies. Named `swift-certificates`.
        public static let standard = Settings(name: "swift-certificates", requiresServerAuthentication: false)
        /// The library's policies and ``ServerAuthenticationPolicy``, our extendedKeyUsage policy: the
        /// verifier a TLS client has to write with swift-certificates. Named
        /// `swift-certificates+serverauth`.
        public static let withServerAuthentication = Settings(name: "swift-certificates+serverauth", requiresServerAuthentication: true)
        /// The library's own policies: what ``standard`` is now (the column is the library).
        @available(*, deprecated, renamed: "standard", message: "the swift-certificates column is the library's own policies now; our EKU policy is withServerAuthentication")
        public static let libraryPoliciesOnly = standard
    }

    private let configuration: BackendConfiguration
    public let settings: Settings

    public init(configuration: BackendConfiguration = .default, settings: Settings = .standard) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    /// `swift-certificates <version>`: the version SwiftPM resolved when this was built (the library
    /// has no version at run time; the package's build plugin reads it from the dependency graph).
    public var libraryVersion: String { "swift-certificates \(SwiftCertificatesVersion.resolved)" }

    /// Validation for any purpose (the Verifier without the TLS server policy), and OCSP
    /// (``BackendFeature/ocspResponses``, in both modes): the library's `OCSPVerifierPolicy`
    /// (Sources/X509/OCSP/OCSPPolicy.swift) at the request's time, with an `OCSPRequester` that
    /// answers its one query with the request's response, as a client that fetched it would. The
    /// policy asks for the status of every certificate whose authorityInformationAccess names an
    /// OCSP responder, and of no other. The caller's mode is the library's two settings: hard-fail is
    /// `OCSPFailureMode.hard` with "no response" a `terminalError` (which fails in either mode),
    /// soft-fail is `.soft` with "no response" a `nonTerminalError` (which passes in either mode);
    /// with no mode given, `.soft`, the mode the library's documentation says "should be used most
    /// of the time".
    ///
    /// No depth limit, CRLs (the library has no CRL support) or policy processing: RFC5280Policy has
    /// no such inputs.
    public var features: Set<BackendFeature> { Self.supported }
    static let supported: Set<BackendFeature> = [.anyPurpose, .ocspResponses, .hardFailRevocation, .softFailRevocation]

    /// Parses every anchor once (`Certificate(derEncoded:)`) into one
    /// `CertificateStore`.
    /// - Throws: ``TrustCore/TrustBackendError`` naming the first anchor that is not one DER
    ///   certificate swift-certificates can read.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) {
            try SwiftCertificatesEvaluator(anchors: anchors, settings: settings, configuration: configuration)
        }
    }
}
