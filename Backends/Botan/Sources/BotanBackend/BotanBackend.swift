import TrustBackendKit
internal import CBotanShim

/// Botan 2 (2.19, Debian `libbotan-2-dev`) as a back end: `Botan::x509_path_validate` as Botan's
/// own TLS client calls it (`TLS::Callbacks::tls_verify_cert_chain`, src/lib/tls/tls_callbacks.cpp).
///
/// Per request: the anchors in one `Certificate_Store_In_Memory` (parsed once, when the evaluator is
/// made), the presented chain as the end entity and its extra certificates (Botan builds the path
/// itself), `Path_Validation_Restrictions` with ``Settings/minimumStrength``, the request's time as
/// the reference time (`request.unixTime` seconds), its host, and `Usage_Type::TLS_SERVER_AUTH` for
/// a TLS server (``Settings/usage``) or `Usage_Type::UNSPECIFIED` for any purpose. A C++ shim
/// (CBotanShim) makes the call, because Botan's C interface (`botan_x509_cert_verify`,
/// src/lib/ffi/ffi_cert.cpp) always validates with `Usage_Type::UNSPECIFIED` and returns no path.
///
/// Hosts: Botan checks a host with `X509_Certificate::matches_dns_name` (src/lib/x509/x509cert.cpp):
/// against the dNSName entries of the subjectAltName, or the subject's common names when there is
/// none, with `host_wildcard_match`. It has no IP address check: an IP host is passed in text form
/// (a dotted quad, or RFC 5952 text for IPv6) and so matches only a dNSName or common name spelling
/// it, never an iPAddress entry (recorded as deviations).
///
/// Revocation (``Settings/Revocation``): a request's CRLs go into a store of their own beside the
/// anchors and its OCSP responses to `x509_path_validate`'s `ocsp_resp`, judged by Botan at the
/// request's time (`PKIX::check_crl`, `PKIX::check_ocsp`); the mode is
/// `Path_Validation_Restrictions`' `require_rev` and `ocsp_all_intermediates`.
///
/// Failure behaviour: every exception Botan throws is caught in the shim and becomes a rejection
/// (`BOTAN_EXCEPTION`), a CRL or OCSP response Botan cannot decode a `malformed` one naming it;
/// presented certificates and anchors that are not strict DER are refused before Botan reads them;
/// chains whose path search would exceed ``Settings/pathSearchLimit`` are refused.
public struct BotanBackend: TrustBackend {
    /// The validation times Botan can be asked at: seconds since 1970 whose nanoseconds fit the 64-bit
    /// count of std::chrono::system_clock (1677-09-21 to 2262-04-11).
    static let representableTimes: ClosedRange<Int64> = (Int64.min / 1_000_000_000 + 1)...(Int64.max / 1_000_000_000 - 1)

    /// How Botan is asked.
    public let settings: Settings
    /// The certificate cache's size.
    public let configuration: BackendConfiguration

    /// A back end asking Botan with `settings` (by default as its TLS client does).
    public init(configuration: BackendConfiguration = .default, settings: Settings = .tlsClient) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    /// Botan's version string and the Debian package the loaded library came from, when known.
    public var libraryVersion: String { Self.version }

    private static let version = InstalledLibrary.version(cbotan_version().map { String(cString: $0) } ?? "Botan (unknown version)", providing: "botan_ffi_api_version")

    /// What Botan honours faithfully:
    /// - ``BackendFeature/anyPurpose``: `Usage_Type::UNSPECIFIED`, no key usage or extended key
    ///   usage check of the leaf.
    /// - With ``Settings/Revocation/tlsClient`` (`botan`, `botan-legacy`): `x509_path_validate`
    ///   (src/lib/x509/x509path.cpp) takes ``BackendFeature/revocationLists`` (a
    ///   `Certificate_Store_In_Memory` of the CRLs among its stores, `PKIX::check_crl`),
    ///   ``BackendFeature/ocspResponses`` (its `ocsp_resp` argument, `PKIX::check_ocsp` and
    ///   `OCSP::Response::status_for`, src/lib/x509/ocsp.cpp, which compare thisUpdate and nextUpdate
    ///   with the reference time), ``BackendFeature/hardFailRevocation`` (`Path_Validation_Restrictions`'
    ///   `require_rev` and `ocsp_all_intermediates`, src/lib/x509/x509path.h) and
    ///   ``BackendFeature/softFailRevocation`` (both false, the restrictions' defaults).
    /// - With ``Settings/Revocation/ffi`` (`botan-ffi`): ``BackendFeature/revocationLists`` and
    ///   ``BackendFeature/softFailRevocation`` only: `botan_x509_cert_verify_with_crl`
    ///   (src/lib/ffi/ffi_cert.cpp) takes CRLs and always passes `Path_Validation_Restrictions(false,
    ///   required_strength)`; Botan's C interface takes no OCSP response and has no hard-fail setting.
    ///
    /// Not ``BackendFeature/maximumChainDepth`` (`Path_Validation_Restrictions` has no depth limit)
    /// nor ``BackendFeature/policyProcessing`` (Botan 2 reads certificatePolicies but processes no
    /// policy: no user-initial-policy-set, no policy mappings, no explicit-policy); requests that
    /// need them are refused.
    public var features: Set<BackendFeature> { settings.revocationFeatures.union([.anyPurpose]) }

    /// Parses `anchors` once into one Botan store.
    /// - Throws: ``TrustCore/TrustBackendError`` naming the first anchor that is not strict DER or
    ///   that Botan cannot read.
    /// An evaluator of `anchors` behind the kit's preflight (``BackendPreflight``): bad input, features
    /// this back end does not honour and certificates that are not DER never reach the library.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try unguardedEvaluator(anchors: anchors) }
    }

    /// The evaluator itself: anchors already checked to be DER, requests already through the preflight.
    func unguardedEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        let store = try BotanAnchors(anchors, backend: name)
        return BotanEvaluator(anchors: store, settings: settings, features: features, configuration: configuration)
    }
}
