import Foundation
import TrustBackendKit
internal import CNSSBridge

/// Mozilla's NSS as a back end: `CERT_PKIXVerifyCert` (libpkix) at the request's time, with the
/// request's anchors as the only trust anchors (`cert_pi_trustAnchors`, `cert_pi_useOnlyTrustAnchors`),
/// for `certificateUsageSSLServer`, no network, revocation checked only against the CRLs a request
/// carries or when it asks for a mode (see ``features``), then the host checked by
/// `CERT_VerifyCertName`, as NSS's TLS client checks it (`SSL_AuthCertificate`, lib/ssl/sslauth.c).
///
/// NSS's certificate store and libpkix's caches are process-wide; ``NSSIsolation`` keeps every
/// request's verdict the one a fresh process would give (see there). Nothing parsed survives an
/// evaluation, so the certificate cache of ``BackendConfiguration`` has nothing to keep: cold and warm
/// evaluations cost the same.
public struct NSSBackend: TrustBackend {
    /// How the back end asks NSS.
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports.
        public var name: String
        /// Whether a request's host is checked with `CERT_VerifyCertName` (NSS's TLS client does);
        /// without it the back end answers path validation alone and a request with a host is a
        /// certificate check without the name, as `certutil -V` gives.
        public var checksHostName: Bool

        public init(name: String, checksHostName: Bool = true) {
            self.name = name
            self.checksHostName = checksHostName
        }

        /// As NSS's own TLS client verifies a server: path validation for SSL server use, then the name.
        public static let tlsClient = Settings(name: "nss")
    }

    public let settings: Settings
    public let configuration: BackendConfiguration

    public init(configuration: BackendConfiguration = .default, settings: Settings = .tlsClient) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    public var libraryVersion: String { Self.version }

    private static let version = InstalledLibrary.version("NSS " + (cnss_version().map { String(cString: $0) } ?? "unknown"), providing: "NSS_GetVersion")

    /// Validation for any purpose (libpkix with `certificateUsageCheckAllUsages`: no key usage or
    /// extended key usage is required of the leaf); ``BackendFeature/revocationLists``: each CRL given
    /// to NSS's CRL cache for the request (`CERT_CacheCRL`, removed with `CERT_UncacheCRL` before the
    /// request ends, lib/certdb/crl.c) and checked by libpkix's CRL method from local information only
    /// (`CERT_REV_M_FORBID_NETWORK_FETCHING`), at the request's time: the CRL's signature is verified
    /// at `cert_pi_date` (`CachedCrl_Verify`) and an entry revokes from its revocationDate on
    /// (`cert_CheckCertRevocationStatus`), while NSS reads neither thisUpdate nor nextUpdate on that
    /// path; both modes, each one of NSS's own public policies (cnss_bridge.c):
    /// ``BackendFeature/hardFailRevocation`` (`CERT_GetPKIXVerifyNistRevocationPolicy`:
    /// `CERT_REV_M_FAIL_ON_MISSING_FRESH_INFO | CERT_REV_M_REQUIRE_INFO_ON_MISSING_SOURCE`, every
    /// certificate of the chain) and ``BackendFeature/softFailRevocation``
    /// (`CERT_GetClassicOCSPDisabledPolicy`, what NSS's classic `CERT_VerifyCert` asks libpkix, also
    /// used for CRLs without a mode). NSS's CRL cache is process-wide: requests with CRLs run in
    /// worker processes, one at a time, isolated by the CRLs' issuer names (``NSSWorkers``).
    ///
    /// Not ``BackendFeature/ocspResponses``: NSS judges an OCSP response's freshness against the
    /// clock only. `CERT_CacheOCSPResponseFromSideChannel` takes a time, but
    /// `ocsp_VerifySingleResponse` compares thisUpdate and nextUpdate with `PR_Now()` (and
    /// `ocsp_TimeIsRecent` too), and the cache it fills is fresh while `ocsp_IsCacheItemFresh`'s
    /// `PR_Now()` says so (lib/certhigh/ocsp.c, NSS 3.87.1), so a response could be judged only at
    /// the clock's time. Not maximum chain depth (CERT_PKIXVerifyCert has no such parameter), not
    /// RFC 5280 policy inputs (its `cert_pi_policyOID` always sets initial-explicit-policy, and
    /// `cert_pi_policyFlags` is not implemented: `cert_pkixSetParam`, lib/certhigh/certvfypkix.c).
    public var features: Set<BackendFeature> { Self.features }
    static let features: Set<BackendFeature> = [.anyPurpose, .revocationLists, .hardFailRevocation, .softFailRevocation]

    /// The largest certificate handed to NSS: 32 KiB, several times the largest certificates
    /// seen in the Web PKI (a few hundred names). NSS's libpkix exhausts memory on large name sets:
    /// a leaf with 10,000 subjectAltNames (279 KB), and x509-limbo's nc-dos cases (a 55 KB anchor
    /// with over 2,048 name constraints against a leaf with 2,048 names) take more than 3 GB of
    /// address space in CERT_PKIXVerifyCert, which would take the whole process down; larger
    /// certificates are refused, as anchors and presented.
    public static let maximumCertificateBytes = 32 * 1024

    /// An evaluator of `anchors` behind the kit's preflight (``BackendPreflight``): bad input, features
    /// this back end does not honour and certificates that are not DER never reach the library.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try unguardedEvaluator(anchors: anchors) }
    }

    /// The evaluator itself: anchors already checked to be DER, requests already through the preflight.
    func unguardedEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        for (index, anchor) in anchors.enumerated() {
            if anchor.count > Self.maximumCertificateBytes {
                throw TrustBackendError(backend: name, message: "anchor \(index) is \(anchor.count) bytes, more than the \(Self.maximumCertificateBytes) NSS is given (its libpkix exhausts memory on such certificates)", origin: .harness)
            }
            let decoded = NSSWorkers.shared.runStoreless { worker in
                worker.decode(anchor).map { error in
                    error.map { NativeDiagnostic(code: Int($0.code), name: $0.name, message: $0.text, depth: nil, failure: .malformed) }
                }
            }
            switch decoded {
            case .failure(let unavailable):
                throw TrustBackendError(backend: name, message: unavailable.message)
            case .success(let diagnostic?):
                throw TrustBackendError(backend: name, message: "anchor \(index) cannot be read by NSS", native: [diagnostic])
            case .success(nil):
                break
            }
        }
        return NSSEvaluator(backend: name, anchors: anchors, features: features, checksHostName: settings.checksHostName)
    }
}
