internal import COpenSSL
import TrustBackendKit
import TrustCore

/// TrustHarness's back end over the system OpenSSL: libcrypto's `X509_verify_cert`.
///
/// Its ``Settings`` choose the verification policy and the name. With ``Settings/hardened`` (the
/// default, named `openssl`) evaluators verify TLS server certificates with:
/// - the `ssl_server` purpose (`X509_PURPOSE_SSL_SERVER`): an extended key usage, where present,
///   must allow serverAuth;
/// - strict RFC 5280 checks (`X509_V_FLAG_X509_STRICT`), e.g. an issuer without basicConstraints is
///   not a CA;
/// - keys and signature hashes of at least 112-bit security (security level 2);
/// - partial chains (`X509_V_FLAG_PARTIAL_CHAIN`) and trusted-first path building: a path ends at the
///   first certificate that is an anchor, whether or not it is self-signed;
/// - RFC 9525 host matching: DNS names against subjectAltName dNSName entries only (no fallback to
///   the subject CN, no partial wildcards), IP addresses against iPAddress entries.
/// ``Settings/clientDefault`` (named `openssl-default`) is what a plain libssl client gets instead.
///
/// Whatever the settings, evaluators verify at the request's time (`X509_V_FLAG_USE_CHECK_TIME`),
/// never the clock, and only the given anchors are trusted: the system's trust store is never
/// consulted. The presented chain and the host reach OpenSSL as an application passes them: what
/// OpenSSL makes of them (a leaf that is itself an anchor, a host with a trailing dot or a leading
/// ".") is its verdict; TrustHarness's stricter checks are the `checks` layer (`openssl+checks`).
/// Revocation is checked only against the CRLs a request carries, every certificate but the anchor,
/// hard-fail.
///
/// Each evaluator keeps up to ``BackendConfiguration/certificateCacheCapacity`` presented
/// certificates parsed, keyed by their exact DER, so a chain presented again skips `d2i_X509`; the
/// cache never changes a verdict.
public struct OpenSSLBackend: TrustBackend {
    let configuration: BackendConfiguration
    /// The verification policy and name of this back end.
    public let settings: Settings

    /// A back end whose evaluators follow `configuration` (by default, a cache of 1024 certificates)
    /// and verify as `settings` say (by default ``Settings/hardened``, the `openssl` back end).
    public init(configuration: BackendConfiguration = .default, settings: Settings = .hardened) {
        self.configuration = configuration
        self.settings = settings
    }

    /// ``Settings/name``: `"openssl"` unless the settings say otherwise.
    public var name: String { settings.name }

    /// ``BackendFeature/maximumChainDepth`` (`X509_VERIFY_PARAM_set_depth`, which counts exactly the
    /// CA certificates between leaf and anchor), ``BackendFeature/revocationLists``
    /// (`X509_STORE_CTX_set0_crls` with `X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL`) and
    /// ``BackendFeature/hardFailRevocation``, the one mode those flags have.
    ///
    /// Not ``BackendFeature/softFailRevocation`` (no flag lets a certificate no CRL covers through)
    /// nor ``BackendFeature/ocspResponses``: OpenSSL's OCSP functions cannot judge a response at the
    /// request's time (`OCSP_check_validity` compares with `time(NULL)`, and `OCSP_basic_verify`
    /// verifies the responder with the store's own parameters), so a response could only be judged
    /// at the clock's time or by our own code; requests that need them are refused.
    public var features: Set<BackendFeature> { Self.features }
    static let features: Set<BackendFeature> = [.maximumChainDepth, .revocationLists, .hardFailRevocation, .anyPurpose, .policyProcessing]

    /// `OpenSSL_version(OPENSSL_VERSION)` of the libcrypto loaded at run time, and the Debian package
    /// that installed it when it is one (``InstalledLibrary``), e.g.
    /// `"OpenSSL 3.0.19 27 Jan 2026 (Debian libssl3 3.0.19-1~deb12u1)"`.
    public var libraryVersion: String { Self.loadedVersion }
    private static let loadedVersion: String = {
        InstalledLibrary.version(String(cString: OpenSSL_version(OPENSSL_VERSION)), providing: "OpenSSL_version")
    }()

    /// Parses every anchor once with `d2i_X509` and returns an evaluator over one `X509_STORE` that
    /// trusts exactly them.
    ///
    /// - Throws: ``TrustBackendError`` naming the index of the first anchor that is not exactly one
    ///   DER certificate (unparseable, empty, or followed by trailing bytes), with OpenSSL's error
    ///   stack; or when OpenSSL cannot make the store.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) {
            try OpenSSLEvaluator(anchors: anchors, settings: settings, configuration: configuration)
        }
    }
}
