import Foundation
import TrustBackendKit
internal import CWolfSSLBridge

/// wolfSSL (5.5.4, Debian `libwolfssl-dev`) as a back end: a chain verified as wolfSSL's own TLS
/// client verifies a server's (`ProcessPeerCerts`, src/internal.c), through its certificate manager.
///
/// Per request, in a `WOLFSSL_CERT_MANAGER` made for it: the request's anchors loaded as CAs
/// (`wolfSSL_CertManagerLoadCABuffer`, the same `AddCA(..., WOLFSSL_USER_CA, VERIFY)` that
/// `wolfSSL_CTX_load_verify_buffer` reaches); the presented certificates from the last to the second
/// each verified (`wolfSSL_CertManagerVerifyBuffer`: `ParseCertRelative` with `VERIFY`, as
/// `ProcessPeerCertParse` calls it) and, when verified and a CA, loaded as a signer under `AddCA`'s
/// `WOLFSSL_CHAIN_CA` rules (keyCertSign required of a CA that is not self-issued), a CA failing for
/// want of a signer skipped (`WOLFSSL_ALT_CERT_CHAINS`, defined in Debian's build); then the leaf
/// verified; then, for a TLS server, the leaf's extended key usage (serverAuth or
/// anyExtendedKeyUsage) and key usage (digitalSignature), as `ProcessPeerCerts` checks them on the
/// client side; then the host with `wolfSSL_X509_check_host` or `wolfSSL_X509_check_ip_asc`
/// (`CheckHostName`, the function the client's domain check uses).
///
/// Why not wolfSSL's OpenSSL-compatible `X509_STORE` layer, although Debian's build has it
/// (`OPENSSL_EXTRA`, `OPENSSL_ALL`): in 5.5.4 `wolfSSL_X509_STORE_CTX_init` adds every certificate
/// of the untrusted stack that claims to be a CA to the store as a trusted anchor without verifying
/// it (`wolfSSL_X509_STORE_add_cert` -> `AddCA(..., WOLFSSL_USER_CA, VERIFY)`, which checks no
/// signature for a CA, src/x509_str.c), `wolfSSL_X509_verify_cert` is a single
/// `wolfSSL_CertManagerVerifyBuffer` of the leaf, the time given to `X509_STORE_CTX_set_time` is read
/// by nothing in it, and no host is checked. A TLS client does not verify that way.
///
/// Why a manager per request: a `WOLFSSL_CTX` keeps every intermediate its connections verified as
/// a signer in its manager for its lifetime (`AddCA(SSL_CM(ssl), ..., WOLFSSL_CHAIN_CA, ...)`), so
/// a verdict would depend on the requests before it. Each request is what a fresh client context
/// gives; wolfSSL has no way to share parsed anchors with a manager without sharing its signers, so
/// anchors are parsed per request and cold and warm evaluations cost the same.
///
/// The time: wolfSSL reads it for every validity check through `wc_Time`, which asks the callback
/// set with `wc_SetTimeCb` (wolfcrypt/src/asn.c); the bridge installs one, once, that answers the
/// time of the request running on the calling thread (a C thread-local set around the wolfSSL calls
/// of one evaluation, which never leave the thread) and the clock elsewhere. `wc_ValidateDate`
/// checks notBefore and notAfter of every presented certificate wolfSSL verifies (anchors are
/// loaded without verification, see cwolfssl_bridge.c), so the path is judged at the request's time; concurrent evaluations at other
/// times on other threads see their own.
public struct WolfSSLBackend: TrustBackend {
    /// How the back end asks wolfSSL.
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports.
        public var name: String

        public init(name: String) {
            self.name = name
        }

        /// As wolfSSL's TLS client verifies a server.
        public static let tlsClient = Settings(name: "wolfssl")
    }

    public let settings: Settings
    public let configuration: BackendConfiguration

    public init(configuration: BackendConfiguration = .default, settings: Settings = .tlsClient) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    public var libraryVersion: String { Self.version }

    private static let version = InstalledLibrary.version("wolfSSL " + (cwolfssl_version().map { String(cString: $0) } ?? "unknown"), providing: "wolfSSL_lib_version")

    /// Validation for any purpose: no key usage or extended key usage check of the leaf (the checks
    /// `ProcessPeerCerts` makes for a server); ``BackendFeature/revocationLists``, checked as a client
    /// whose manager has `wolfSSL_CertManagerEnableCRL(cm, WOLFSSL_CRL_CHECKALL)` checks them
    /// (`wolfSSL_CertManagerCheckCRL` of the leaf and of every presented certificate that verified,
    /// before it may become a signer, as `ProcessPeerCerts` does with `crlCheckAll`), each CRL loaded
    /// with `wolfSSL_CertManagerLoadCRLBuffer`, which verifies it against the manager's CAs as it
    /// loads it, offered again through the manager's CRL I/O hook (`wolfSSL_CertManagerSetCRL_IOCb`,
    /// in place of `EmbedCrlLookup`'s HTTP fetch) when wolfSSL finds no CRL of a certificate's issuer
    /// (`CheckCertCRL`, src/crl.c), at the request's time (a CRL's nextUpdate through `wc_Time`, the
    /// bridge's time callback); in wolfSSL's one mode, ``BackendFeature/hardFailRevocation``: a
    /// certificate no loaded CRL covers fails with `CRL_MISSING` (`CheckCertCRL`).
    ///
    /// Not ``BackendFeature/softFailRevocation``: wolfSSL lets a certificate without a CRL through
    /// only when built with `WOLFSSL_CRL_ALLOW_MISSING_CDP` (`CheckCertCRL`), which Debian's build does
    /// not define (wolfssl/options.h), or when the application's verify callback overrides the error,
    /// which is the application's code, not a setting. Not ``BackendFeature/ocspResponses``: the one
    /// public call that judges a response the application holds, `wolfSSL_CertManagerCheckOCSPResponse`,
    /// matches it to a certificate only through an `OcspRequest` (`CompareOcspReqResp` in
    /// `CheckOcspResponse`, src/ocsp.c), which only `InitOcspRequest` makes, and that is
    /// `WOLFSSL_LOCAL` (wolfssl/wolfcrypt/asn.h; not exported by libwolfssl.so.35); a stapled response
    /// reaches wolfSSL only inside a TLS handshake. Not maximum chain depth (the
    /// certificate manager takes no depth; a TLS client's `wolfSSL_CTX_set_verify_depth` applies to
    /// the handshake only), not RFC 5280 policy inputs (wolfSSL processes no certificate policies).
    public var features: Set<BackendFeature> { Self.features }
    static let features: Set<BackendFeature> = [.anyPurpose, .revocationLists, .hardFailRevocation]

    /// An evaluator of `anchors` behind the kit's preflight (``BackendPreflight``): bad input, features
    /// this back end does not honour and certificates that are not DER never reach the library.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) { try unguardedEvaluator(anchors: anchors) }
    }

    /// The evaluator itself: anchors already checked to be DER, requests already through the preflight.
    func unguardedEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        let initialised = cwolfssl_initialize()
        guard initialised == 0 else {
            throw TrustBackendError(backend: name, message: "wolfSSL could not be initialised: \(WolfSSLError(code: initialised))")
        }
        for (index, anchor) in anchors.enumerated() {
            // A certificate wolfSSL decodes but would not load (an unknown critical extension,
            // ASN_CRIT_EXT_E) is kept: the request's loading reports it (wolfSSL_CertManagerLoadCABuffer).
            let error = anchor.withUnsafeBufferPointer { cwolfssl_decode($0.baseAddress, $0.count) }
            if error != 0 && error != -160 {
                let wolfError = WolfSSLError(code: error)
                throw TrustBackendError(backend: name, message: "anchor \(index) cannot be read by wolfSSL (wc_ParseCert)", native: [
                    NativeDiagnostic(code: Int(error), name: wolfError.name, message: wolfError.text, depth: nil, failure: .malformed),
                ])
            }
        }
        return WolfSSLEvaluator(backend: name, anchors: anchors, features: features)
    }
}
