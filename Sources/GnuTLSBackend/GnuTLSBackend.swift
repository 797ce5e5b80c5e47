internal import CGnuTLS
import TrustCore

/// The system GnuTLS (`libgnutls`) behind the ``TrustBackend`` protocol.
///
/// GnuTLS verifies a chain it is given in order and does not report the path it verified, so the
/// evaluators this back end makes build the certification path themselves (from the leaf, through
/// the presented certificates, to the first anchor) and have GnuTLS verify exactly that path with
/// `gnutls_x509_trust_list_verify_crt2`. Verification flags are those of a careful TLS client: the
/// chain is verified as ordered, a DNS reference identity never matches an IP address, and keys and
/// signature hashes below 112-bit security (`GNUTLS_PROFILE_MEDIUM`) are rejected.
///
/// GnuTLS reads the current time only through a process-wide hook. The first evaluator made installs
/// a hook (`gnutls_global_set_time_function`) that returns the time of the request being evaluated on
/// the calling thread, and the real time (`time()`) on any thread that is not evaluating. Other GnuTLS
/// users in the process therefore see the real clock, as by default; a time function they installed
/// themselves before the first evaluator is replaced, and one they install after making an evaluator
/// replaces this hook, so evaluations then see that function's time instead of the request's.
public struct GnuTLSBackend: TrustBackend {
    public init() {}

    /// `gnutls`.
    public var name: String { "gnutls" }

    /// The version of the GnuTLS library loaded at run time, as `GnuTLS 3.7.9`.
    public var libraryVersion: String {
        guard let version = gnutls_check_version(nil) else { return "GnuTLS (unknown version)" }
        return "GnuTLS " + String(cString: version)
    }

    /// Parses each anchor once into one GnuTLS trust list and returns an evaluator over it.
    ///
    /// Identical anchors are kept once. An empty list makes an evaluator that trusts nothing.
    /// - Throws: ``TrustBackendError`` naming the first anchor (by index) that GnuTLS cannot import
    ///   as a DER certificate, with the GnuTLS error code and text; or when GnuTLS cannot make the
    ///   trust list or the per-thread time slot cannot be created.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try GnuTLSEvaluator(anchors: anchors, backend: name)
    }
}
