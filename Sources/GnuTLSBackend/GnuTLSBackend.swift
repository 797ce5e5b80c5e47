internal import CGnuTLS
import TrustBackendKit
import TrustCore

/// The system GnuTLS (`libgnutls`) behind the ``TrustBackend`` protocol.
///
/// The evaluators this back end makes verify as a GnuTLS TLS client does (`gnutls_certificate_verify_peers`):
/// a presented list of more than 16 certificates (a client's default verify depth) is refused with
/// `GNUTLS_E_CONSTRAINT_ERROR`; any other is passed whole, in the order presented, to one
/// `gnutls_x509_trust_list_verify_crt2` call, which sorts it, finds the path and decides. GnuTLS does
/// not return that path, so a trusted verdict's path is read from what its verification callback
/// reported checking. The verification policy is the back end's ``Settings``: with
/// ``Settings/hardened`` (the default, named `gnutls`) those of a careful TLS client: a DNS reference
/// identity never matches an IP address, and keys and signature hashes below 112-bit security
/// (`GNUTLS_PROFILE_MEDIUM`) are rejected. ``Settings/clientDefault`` (named `gnutls-default`) is what
/// a plain GnuTLS client gets instead.
///
/// GnuTLS reads the current time only through a process-wide hook. The first evaluator made installs
/// a hook (`gnutls_global_set_time_function`) that returns the time of the request being evaluated on
/// the calling thread, and the real time (`time()`) on any thread that is not evaluating. Other GnuTLS
/// users in the process therefore see the real clock, as by default; a time function they installed
/// themselves before the first evaluator is replaced, and one they install after making an evaluator
/// replaces this hook, so evaluations then see that function's time instead of the request's.
///
/// Each evaluator keeps up to ``BackendConfiguration/certificateCacheCapacity`` presented
/// certificates imported, keyed by their exact DER, so a chain presented again skips
/// `gnutls_x509_crt_import`; the cache never changes a verdict.
public struct GnuTLSBackend: TrustBackend {
    let configuration: BackendConfiguration
    /// The verification policy and name of this back end.
    public let settings: Settings

    /// A back end whose evaluators follow `configuration` (by default, a cache of 1024 certificates)
    /// and verify as `settings` say (by default ``Settings/hardened``, the `gnutls` back end).
    public init(configuration: BackendConfiguration = .default, settings: Settings = .hardened) {
        self.configuration = configuration
        self.settings = settings
    }

    /// Runs `body` with GnuTLS's clock reading `unixTime` (seconds since 1970) on the calling thread,
    /// for code that calls GnuTLS directly, such as a benchmark's baseline: every GnuTLS call `body`
    /// makes on this thread sees that time, as an evaluation sees its request's. Installs the
    /// back end's time hook first if no evaluator has yet (see above for what that means for other
    /// GnuTLS users); other threads keep their own time. Calls nest, and the previous time is in
    /// effect again when `body` returns or throws. `body` must not suspend or hop threads.
    ///
    /// Traps if the hook cannot be installed because the process has run out of thread-specific
    /// keys (`pthread_key_create`), where no time could be set.
    public static func withValidationTime<R>(_ unixTime: Int64, _ body: () throws -> R) rethrows -> R {
        guard let result = try EvaluationScope.run(at: time_t(clamping: unixTime), { _ in try body() }) else {
            preconditionFailure("GnuTLSBackend.withValidationTime: cannot install the GnuTLS time hook (pthread_key_create or pthread_setspecific failed); the process has run out of thread-specific keys")
        }
        return result
    }

    /// ``Settings/name``: `"gnutls"` unless the settings say otherwise.
    public var name: String { settings.name }

    /// Validation for any purpose (no key purpose passed to GnuTLS); ``BackendFeature/revocationLists``
    /// (the request's CRLs added to a trust list of the anchors, `gnutls_x509_trust_list_add_crls`,
    /// as ``Settings/verifiesRevocationLists`` says) in GnuTLS's one mode,
    /// ``BackendFeature/softFailRevocation``: a certificate no CRL covers is not revoked.
    ///
    /// Not ``BackendFeature/hardFailRevocation`` (no GnuTLS setting requires revocation data), a
    /// depth limit or policy processing (`gnutls_x509_trust_list_verify_crt2` takes neither), nor
    /// ``BackendFeature/ocspResponses``: GnuTLS judges an OCSP response only inside a TLS session
    /// (`gnutls_certificate_verify_peers` with a stapled response) or through
    /// `gnutls_ocsp_resp_verify_direct`, `gnutls_ocsp_resp_check_crt` and
    /// `gnutls_ocsp_resp_get_single`, which leave freshness and the verdict to the caller's code.
    public var features: Set<BackendFeature> { Self.features }
    static let features: Set<BackendFeature> = [.anyPurpose, .revocationLists, .softFailRevocation]

    /// The version of the GnuTLS library loaded at run time, and the Debian package that installed
    /// it when it is one (``InstalledLibrary``), as `GnuTLS 3.7.9 (Debian libgnutls30 3.7.9-2+deb12u6)`:
    /// Debian's security updates change verdicts without changing `gnutls_check_version` (see the
    /// README's known deviations), so the build is part of the version.
    public var libraryVersion: String { Self.loadedVersion }
    private static let loadedVersion: String = {
        guard let version = gnutls_check_version(nil) else { return "GnuTLS (unknown version)" }
        return InstalledLibrary.version("GnuTLS " + String(cString: version), providing: "gnutls_check_version")
    }()

    /// Parses each anchor once into one GnuTLS trust list and returns an evaluator over it.
    ///
    /// Identical anchors are kept once. An empty list makes an evaluator that trusts nothing.
    /// - Throws: ``TrustBackendError`` naming the first anchor (by index) that GnuTLS cannot import
    ///   as a DER certificate, with the GnuTLS error code and text; or when GnuTLS cannot make the
    ///   trust list or the per-thread time slot cannot be created.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) {
            try GnuTLSEvaluator(anchors: anchors, settings: settings, configuration: configuration)
        }
    }
}
