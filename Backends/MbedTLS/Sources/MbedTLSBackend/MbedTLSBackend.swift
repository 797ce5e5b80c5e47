import TrustBackendKit
internal import CMbedTLSBridge

/// Mbed TLS 2.28 (Debian `libmbedtls-dev`, 2.28.3) as a back end: `mbedtls_x509_crt_verify_with_profile`
/// as mbedTLS's own TLS client calls it (`ssl_parse_certificate_verify`, library/ssl_tls.c), followed by
/// the client's usage check of the server's certificate, `mbedtls_ssl_check_cert_usage`.
///
/// Per request: the anchors as the trusted list (parsed once, when the evaluator is made), the
/// presented chain parsed as the client parses a Certificate message (`ssl_parse_certificate_chain`:
/// in order, skipping intermediates with an unknown signature algorithm), the request's CRLs as
/// `ca_crl` (see ``features``), the profile of
/// ``Settings/profile``, and the request's host as `cn`, so that mbedTLS checks the name itself
/// (`x509_crt_verify_name`: dNSName entries of the subjectAltName, or the common names when there is
/// none; an IP address is passed in text form, since mbedTLS 2.28 compares no iPAddress entries).
/// For a TLS server, `mbedtls_ssl_check_cert_usage` then checks the leaf with the client's endpoint
/// and an ECDHE suite of the leaf's key type (keyUsage digitalSignature, extendedKeyUsage serverAuth
/// through `mbedtls_x509_crt_check_extended_key_usage`), setting `MBEDTLS_X509_BADCERT_KEY_USAGE` and
/// `_EXT_KEY_USAGE` as the client does.
///
/// The validation time: mbedTLS reads the time only through `mbedtls_time`, which in Debian's build
/// (no `MBEDTLS_PLATFORM_TIME_ALT`, so no `mbedtls_platform_set_time`) is the C library's `time()`,
/// called from `x509_get_current_time` (library/x509.c) for every validity check. The bridge defines
/// `time()` in the executable; ELF symbol interposition binds libmbedx509's reference to it. It
/// returns a thread-local time while its thread is inside a verification that pinned it, and the
/// real clock otherwise. mbedTLS verifies synchronously on the calling thread, so the pin covers
/// exactly that verification's clock reads: concurrent evaluations at different times, on other
/// threads, each read their own, and every other caller of `time()` reads the real clock. Nothing is
/// serialised. Whether the interposition took is checked once, through mbedTLS's own
/// `mbedtls_x509_time_is_past`; if it did not, every request is refused (`MBEDTLS_CLOCK_NOT_PINNED`)
/// rather than checked at the wrong time. No time is compared in Swift.
///
/// Failure behaviour: anchors and presented certificates that are not strict DER are refused before
/// mbedTLS reads them; a presented certificate or a CRL mbedTLS cannot parse is a `malformed`
/// rejection with its error (`MBEDTLS_ERR_X509_*`); a chain mbedTLS cannot examine (over
/// `MBEDTLS_X509_MAX_INTERMEDIATE_CA`, 8, intermediates) is rejected with its error; every flag
/// mbedTLS sets is a diagnostic (`MBEDTLS_X509_BADCERT_*`, ``MbedTLSFlag``) at its depth.
public struct MbedTLSBackend: TrustBackend {
    /// How mbedTLS is asked.
    public let settings: Settings
    /// Kept for the registry; mbedTLS's parsed certificates are not cached (see ``makeEvaluator(anchors:)``).
    public let configuration: BackendConfiguration

    /// A back end asking mbedTLS with `settings` (by default as its TLS client does).
    public init(configuration: BackendConfiguration = .default, settings: Settings = .tlsClient) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    /// mbedTLS's version string and the Debian package the loaded libmbedx509 came from, when known.
    public var libraryVersion: String { Self.version }

    private static let version: String = {
        var buffer = [CChar](repeating: 0, count: 64)
        cmbedtls_version(&buffer)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return InstalledLibrary.version(text.isEmpty ? "mbed TLS (unknown version)" : text, providing: "mbedtls_x509_crt_verify_with_profile")
    }()

    /// What mbedTLS honours faithfully:
    /// - ``BackendFeature/anyPurpose``: `mbedtls_x509_crt_verify_with_profile` alone, without the
    ///   TLS client's usage check of the leaf.
    /// - ``BackendFeature/revocationLists``: each CRL parsed with `mbedtls_x509_crl_parse_der`
    ///   (library/x509_crl.c) into one list, given as `ca_crl` to
    ///   `mbedtls_x509_crt_verify_with_profile`, as `mbedtls_ssl_conf_ca_chain(conf, ca_chain, ca_crl)`
    ///   gives it to the TLS client. For each certificate and the parent it found,
    ///   `x509_crt_verifycrl` (library/x509_crt.c) takes every CRL whose issuer name is the parent's
    ///   subject: the parent's keyUsage must allow cRLSign and the CRL's signature verify with its
    ///   key (else `MBEDTLS_X509_BADCRL_NOT_TRUSTED`), the profile must accept the CRL's hash and key
    ///   (`_BADCRL_BAD_MD`, `_BAD_PK`), nextUpdate must not be past and thisUpdate not future
    ///   (`_BADCRL_EXPIRED`, `_BADCRL_FUTURE`), and a listed serial is
    ///   `MBEDTLS_X509_BADCERT_REVOKED` (`mbedtls_x509_crt_is_revoked`, which reads no revocation
    ///   date, reason or extension). Any such flag fails the verification. CRL times are judged at
    ///   the request's time: `mbedtls_x509_time_is_past` and `_is_future` read the clock through
    ///   libmbedx509's `time()`, which the bridge pins per verification (cmbedtls_clock.c), as for
    ///   certificates' validity.
    /// - ``BackendFeature/softFailRevocation``: mbedTLS's one mode: a certificate no CRL names
    ///   passes (`x509_crt_verifycrl` returns no flag when no CRL's issuer matches). A request with
    ///   no mode is asked the same way.
    ///
    /// Not ``BackendFeature/hardFailRevocation`` (no mbedTLS setting requires a CRL), nor
    /// ``BackendFeature/ocspResponses``: mbedTLS 2.28 has no OCSP (no parser, no `ocsp.h`; its TLS
    /// client sends no status_request). Not ``BackendFeature/maximumChainDepth`` (its one limit is the
    /// compile-time `MBEDTLS_X509_MAX_INTERMEDIATE_CA`) nor ``BackendFeature/policyProcessing``
    /// (mbedTLS 2.28 parses certificatePolicies but processes no policy). Requests that need them
    /// are refused.
    public var features: Set<BackendFeature> { [.anyPurpose, .revocationLists, .softFailRevocation] }

    /// Parses `anchors` once into one mbedTLS list. The presented chain is parsed per evaluation:
    /// mbedTLS links a chain through its certificates' own `next` fields, so parsed certificates
    /// cannot be shared between requests, and parsing costs mbedTLS microseconds.
    /// Anchors mbedTLS cannot read (an Ed25519 one: mbedTLS 2.28 has no EdDSA) are left out, as
    /// `mbedtls_x509_crt_parse` leaves them out of a CA bundle (``MbedTLSAnchors``).
    /// - Throws: ``TrustCore/TrustBackendError`` naming the first anchor that is not a strict DER
    ///   certificate.
    /// An evaluator of `anchors` behind the kit's preflight (``BackendPreflight``): bad input, features
    /// this back end does not honour and certificates that are not DER never reach the library.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try unguardedEvaluator(anchors: anchors) }
    }

    /// The evaluator itself: anchors already checked to be DER, requests already through the preflight.
    func unguardedEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        MbedTLSEvaluator(anchors: try MbedTLSAnchors(anchors, backend: name), settings: settings, features: features)
    }
}
