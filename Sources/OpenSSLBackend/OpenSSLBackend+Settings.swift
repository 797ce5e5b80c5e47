import TrustCore

extension OpenSSLBackend {
    /// How an OpenSSL back end's evaluators set up `X509_verify_cert`: the verification policy, and
    /// the name the back end reports under.
    ///
    /// Two back ends over the same libcrypto with different settings are two back ends: register
    /// each under its own ``name``. ``hardened`` is what ``OpenSSLBackend/init(configuration:settings:)``
    /// uses by default; ``clientDefault`` is what a plain libssl client verifies with.
    ///
    /// Whatever the settings, an evaluator trusts only its anchors (never the system store),
    /// verifies at the request's time (`X509_V_FLAG_USE_CHECK_TIME`), honours the request's depth
    /// limit and CRLs, and refuses hosts OpenSSL would misread; the settings change only the policy.
    public struct Settings: Sendable, Hashable {
        /// The back end's ``OpenSSLBackend/name`` in reports and deviations; unique in a registry.
        public var name: String
        /// `X509_V_FLAG_X509_STRICT`: RFC 5280 checks OpenSSL otherwise skips (an issuer without
        /// basicConstraints is no CA, a CA must carry a subject key identifier, and so on).
        public var strict: Bool
        /// `X509_VERIFY_PARAM_set_auth_level`: the smallest security level of every key and
        /// signature hash in the path (1: 80 bits, 2: 112 bits, that is RSA and DSA >= 2048, ECC >=
        /// 224 and no SHA-1; 3: 128; 4: 192; 5: 256). 0 or less checks nothing, as `X509_verify_cert`
        /// does when no caller sets a level.
        public var securityLevel: Int
        /// `X509_V_FLAG_PARTIAL_CHAIN`: any anchor ends a path, self-signed or not, a leaf that is
        /// itself an anchor included (OpenSSL looks it up in the store after building as far as the
        /// presented certificates reach). Without it a path must end
        /// at a self-signed anchor, as OpenSSL builds it from the anchors and the presented chain.
        public var partialChains: Bool
        /// `X509_V_FLAG_TRUSTED_FIRST`: when looking for an issuer, the anchors are asked before the
        /// presented certificates, so a path ends at the first anchor even when the peer sent more.
        public var trustedFirst: Bool
        /// `X509_V_FLAG_POLICY_CHECK`: RFC 5280 §6.1 certificate-policy processing (any policy is
        /// acceptable; requireExplicitPolicy and inhibitPolicyMapping in the path are enforced).
        public var policyChecking: Bool
        /// How a DNS name is matched against the leaf (`X509_VERIFY_PARAM_set_hostflags`), set for
        /// every request: `neverCheckSubject` also keeps name constraints off the subject CN. IP
        /// addresses are always matched against iPAddress entries only.
        public var hostChecks: HostChecks
        /// What the leaf must be fit for in a ``TrustPurpose/serverAuthentication`` request.
        public var purpose: Purpose

        /// Settings with every field given; see each property for what it sets.
        public init(
            name: String,
            strict: Bool,
            securityLevel: Int,
            partialChains: Bool,
            trustedFirst: Bool,
            policyChecking: Bool,
            hostChecks: HostChecks,
            purpose: Purpose
        ) {
            self.name = name
            self.strict = strict
            self.securityLevel = securityLevel
            self.partialChains = partialChains
            self.trustedFirst = trustedFirst
            self.policyChecking = policyChecking
            self.hostChecks = hostChecks
            self.purpose = purpose
        }

        /// TrustHarness's `openssl`: strict RFC 5280 checks, security level 2, partial chains,
        /// trusted first, no policy checking, RFC 9525 host matching (dNSName only, never the subject
        /// CN, `*` only as a whole label), the `ssl_server` purpose.
        public static let hardened = Settings(
            name: "openssl",
            strict: true,
            securityLevel: 2,
            partialChains: true,
            trustedFirst: true,
            policyChecking: false,
            hostChecks: [.noPartialWildcards, .neverCheckSubject],
            purpose: .sslServer
        )

        /// `openssl-default`: what a plain libssl 3.0 client gets with `SSL_VERIFY_PEER` and
        /// `SSL_set1_host` and nothing else set.
        ///
        /// - `ssl_verify_cert_chain` (ssl/ssl_cert.c) sets the auth level to the SSL's security level
        ///   (`X509_VERIFY_PARAM_set_auth_level(param, SSL_get_security_level(s))`), which a new
        ///   `SSL_CTX` takes from `OPENSSL_TLS_SECURITY_LEVEL` (ssl/ssl_cert.c `ssl_cert_new`):
        ///   upstream 1 (include/openssl/tls1.h), 2 in Debian 12's build, with no `@SECLEVEL` in its
        ///   /etc/ssl/openssl.cnf. So level 2.
        /// - The same function calls `X509_STORE_CTX_set_default(ctx, "ssl_server")`: purpose and
        ///   trust `ssl_server`, no flags of its own (crypto/x509/x509_vpm.c `default_table`); the
        ///   context's `"default"` entry, inherited in `X509_STORE_CTX_init` (crypto/x509/x509_vfy.c),
        ///   adds `X509_V_FLAG_TRUSTED_FIRST` and a depth of 100. No `X509_STRICT`, no
        ///   `PARTIAL_CHAIN`, no `POLICY_CHECK`.
        /// - `SSL_set1_host` (ssl/ssl_lib.c) sets the name with host flags 0: in `do_x509_check` and
        ///   `valid_star` (crypto/x509/v3_utl.c) the subject CN is compared when the leaf has no
        ///   dNSName, and a partial wildcard (`*ww.example.test`) in the left-most label matches.
        public static let clientDefault = Settings(
            name: "openssl-default",
            strict: false,
            securityLevel: 2,
            partialChains: false,
            trustedFirst: true,
            policyChecking: false,
            hostChecks: [],
            purpose: .sslServer
        )
    }

    /// `X509_CHECK_FLAG_*`: how OpenSSL matches a DNS name against a certificate (crypto/x509/v3_utl.c).
    /// Empty is OpenSSL's default: subjectAltName dNSName entries, or the subject CN when there are
    /// none, with a wildcard allowed at the start or end of the left-most label.
    public struct HostChecks: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `X509_CHECK_FLAG_ALWAYS_CHECK_SUBJECT`: the subject CN is compared even when there are dNSName entries.
        public static let alwaysCheckSubject = HostChecks(rawValue: 1 << 0)
        /// `X509_CHECK_FLAG_NO_WILDCARDS`: no wildcard matches at all.
        public static let noWildcards = HostChecks(rawValue: 1 << 1)
        /// `X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS`: `*` only as the whole left-most label.
        public static let noPartialWildcards = HostChecks(rawValue: 1 << 2)
        /// `X509_CHECK_FLAG_MULTI_LABEL_WILDCARDS`: `*` may match more than one label.
        public static let multiLabelWildcards = HostChecks(rawValue: 1 << 3)
        /// `X509_CHECK_FLAG_SINGLE_LABEL_SUBDOMAINS`: a name starting with "." matches one label's subdomains only.
        public static let singleLabelSubdomains = HostChecks(rawValue: 1 << 4)
        /// `X509_CHECK_FLAG_NEVER_CHECK_SUBJECT`: the subject CN is never compared (RFC 9525).
        public static let neverCheckSubject = HostChecks(rawValue: 1 << 5)
    }

    /// What OpenSSL checks the leaf is fit for, with the trust setting that goes with it.
    public enum Purpose: Sendable, Hashable {
        /// `X509_PURPOSE_SSL_SERVER` with `X509_TRUST_SSL_SERVER`, as libssl sets for a client: an
        /// extendedKeyUsage or Netscape certificate type, where present, must allow TLS servers, and
        /// so must each CA's.
        case sslServer
        /// `X509_PURPOSE_ANY`: no check of what the leaf is for.
        case any
    }
}
