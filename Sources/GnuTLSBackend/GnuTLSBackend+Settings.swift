import TrustCore

extension GnuTLSBackend {
    /// How a GnuTLS back end's evaluators verify: the verification profile and flags given to
    /// `gnutls_x509_trust_list_verify_crt2`, and the name the back end reports under.
    ///
    /// Two back ends over the same libgnutls with different settings are two back ends: register
    /// each under its own ``name``. ``hardened`` is what ``GnuTLSBackend/init(configuration:settings:)``
    /// uses by default; ``clientDefault`` is what a plain GnuTLS client verifies with.
    ///
    /// The settings are the verification policy only, each a profile or flag an application can give
    /// GnuTLS itself. How the back end drives GnuTLS is not a setting: it does what a GnuTLS TLS
    /// client's `gnutls_certificate_verify_peers` does, refusing a presented list longer than the
    /// default verify depth of 16 and otherwise passing the whole list, in the order presented, to one
    /// `gnutls_x509_trust_list_verify_crt2` call with these flags alone. No flag is added: GnuTLS sorts
    /// the list and finds the path itself (without `GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN`, as a
    /// client that sets no flags gets).
    public struct Settings: Sendable, Hashable {
        /// The back end's ``GnuTLSBackend/name`` in reports and deviations; unique in a registry.
        public var name: String
        /// The smallest key size and signature strength accepted in the path (`GNUTLS_PROFILE_*`).
        public var profile: Profile
        /// The other `GNUTLS_VERIFY_*` flags of the verification policy.
        public var flags: VerificationFlags
        /// Whether the request's purpose is passed as a key purpose (`GNUTLS_DT_KEY_PURPOSE_OID`,
        /// `GNUTLS_KP_TLS_WWW_SERVER` for a TLS server), so that GnuTLS checks the leaf's
        /// extendedKeyUsage: what `gnutls_certificate_verify_peers` with a purpose or
        /// `gnutls_session_set_verify_cert2` does, and `gnutls_certificate_verify_peers3` does not.
        public var checksKeyPurpose: Bool
        /// Whether a request's CRLs are verified as they are added to the trust list:
        /// `gnutls_x509_trust_list_add_crls` with `GNUTLS_TL_VERIFY_CRL`, which verifies each CRL
        /// against the trust list's anchors (`gnutls_x509_crl_verify`: the signature, the issuer's CA
        /// bit and cRLSign, nextUpdate) and, as documented, skips one that fails. (The credentials'
        /// `GNUTLS_CERTIFICATE_VERIFY_CRLS` makes `gnutls_certificate_set_x509_crl_mem` add
        /// `GNUTLS_TL_FAIL_ON_INVALID_CRL` too, so that such a CRL fails the loading instead.) Without
        /// it, as `gnutls_certificate_set_x509_crl_mem` by default, CRLs are added unverified. Either
        /// way, verification then treats as revoked any certificate whose serial a kept CRL with its
        /// issuer's name lists (`_gnutls_x509_crt_check_revocation`, lib/x509/x509.c, which checks
        /// nothing else of the CRL), and a certificate no CRL covers as not revoked.
        public var verifiesRevocationLists: Bool

        /// Settings named `name` verifying with `profile` and `flags`, checking the key purpose
        /// and verifying CRLs unless told not to.
        public init(name: String, profile: Profile, flags: VerificationFlags, checksKeyPurpose: Bool = true, verifiesRevocationLists: Bool = true) {
            self.name = name
            self.profile = profile
            self.flags = flags
            self.checksKeyPurpose = checksKeyPurpose
            self.verifiesRevocationLists = verifiesRevocationLists
        }

        /// The `gnutls_trust_list_flags_t` CRLs are added with (see ``verifiesRevocationLists``).
        var revocationListAddFlags: UInt32 {
            verifiesRevocationLists ? 1 /* GNUTLS_TL_VERIFY_CRL */ : 0
        }

        /// TrustHarness's `gnutls`, a careful TLS client: keys and signature hashes of at least
        /// 112-bit security (`GNUTLS_PROFILE_MEDIUM`), and a DNS reference identity never matches an
        /// IP address (`GNUTLS_VERIFY_DO_NOT_ALLOW_IP_MATCHES`). Wildcards stay enabled, since
        /// GnuTLS's `GNUTLS_VERIFY_DO_NOT_ALLOW_WILDCARDS` disables every one; GnuTLS 3.7 offers no
        /// flag against its fallback to the subject CN. CRLs are verified against the anchors
        /// as they are added (`GNUTLS_TL_VERIFY_CRL`).
        public static let hardened = Settings(name: "gnutls", profile: .medium, flags: [.doNotAllowIPMatches])

        /// `gnutls-default`: what a plain GnuTLS 3.7 client gets from `gnutls_certificate_verify_peers3`
        /// with the default priorities and nothing else set.
        ///
        /// `_gnutls_x509_cert_verify_peers` (lib/cert-session.c) verifies with
        /// `cred->verify_flags | session->internals.additional_verify_flags`. The credentials' flags
        /// are 0 (`gnutls_certificate_allocate_credentials`, lib/cert-cred.c, sets only depth and
        /// bits limits). The session's come from its priorities: `gnutls_set_default_priority` uses
        /// `NORMAL` (Debian builds with the default `DEFAULT_PRIORITY_STRING`, configure.ac, and ships
        /// no /etc/gnutls/config, so no `min-verification-profile` either), and `NORMAL` sets
        /// `GNUTLS_PROFILE_LOW` (lib/priority.c, `pgroups` and `check_level`'s `SET_PROFILE`). So:
        /// profile LOW (80-bit security: RSA >= 1024 bits), chains sorted by GnuTLS, wildcards and IP
        /// matches allowed. And no key purpose: `gnutls_certificate_verify_peers3` (and
        /// `gnutls_session_set_verify_cert`, the manual's client) passes the host name alone ("In
        /// order to verify the purpose of the end-certificate (by checking the extended key usage),
        /// use gnutls_certificate_verify_peers()"), so the leaf's extendedKeyUsage is not checked.
        /// CRLs given with `gnutls_certificate_set_x509_crl_mem` are loaded unverified (no
        /// `GNUTLS_CERTIFICATE_VERIFY_CRLS`).
        public static let clientDefault = Settings(name: "gnutls-default", profile: .low, flags: [], checksKeyPurpose: false, verifiesRevocationLists: false)
    }

    /// A GnuTLS certificate verification profile (`GNUTLS_PROFILE_*`): the security every key and
    /// signature hash of the path must reach (`is_level_acceptable`, lib/x509/verify.c; the sizes are
/// lib/algorithms/secparams.c's).
    public enum Profile: Sendable, Hashable, CaseIterable {
        /// No profile: key sizes are not checked (signatures GnuTLS deems insecure, such as SHA-1,
        /// are still refused unless allowed by a flag).
        case none
        /// `GNUTLS_PROFILE_VERY_WEAK`: 64-bit security (RSA >= 767 bits).
        case veryWeak
        /// `GNUTLS_PROFILE_LOW`: 80-bit security (RSA >= 1024 bits, ECC >= 160), signature hashes of at
        /// least 80 bits.
        case low
        /// `GNUTLS_PROFILE_LEGACY`: 96-bit security (RSA >= 1776 bits, ECC >= 192).
        case legacy
        /// `GNUTLS_PROFILE_MEDIUM`: 112-bit security (RSA >= 2048 bits, ECC >= 224, so no SHA-1).
        case medium
        /// `GNUTLS_PROFILE_HIGH`: 128-bit security (RSA >= 3072 bits, ECC >= 256).
        case high
        /// `GNUTLS_PROFILE_ULTRA`: 192-bit security (RSA >= 8192 bits, ECC >= 384).
        case ultra
        /// `GNUTLS_PROFILE_FUTURE`: 256-bit security (RSA >= 15360 bits, ECC >= 512).
        case future
        /// `GNUTLS_PROFILE_SUITEB128`: NSA Suite B, 128-bit (P-256 and P-384 only).
        case suiteB128
        /// `GNUTLS_PROFILE_SUITEB192`: NSA Suite B, 192-bit (P-384 only).
        case suiteB192
    }

    /// `GNUTLS_VERIFY_*` flags of the verification policy. Flags that would stop GnuTLS verifying at
    /// the request's time (`GNUTLS_VERIFY_DISABLE_TIME_CHECKS`) or change what the back end reports
    /// are not offered.
    public struct VerificationFlags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `GNUTLS_VERIFY_DO_NOT_ALLOW_IP_MATCHES`: a DNS reference identity that reads as an IP
        /// address never matches an iPAddress entry.
        public static let doNotAllowIPMatches = VerificationFlags(rawValue: 1 << 0)
        /// `GNUTLS_VERIFY_DO_NOT_ALLOW_WILDCARDS`: no wildcard in a name matches, valid ones included.
        public static let doNotAllowWildcards = VerificationFlags(rawValue: 1 << 1)
        /// `GNUTLS_VERIFY_DO_NOT_ALLOW_X509_V1_CA_CRT`: no X.509 version 1 certificate is a CA, not
        /// even an anchor.
        public static let doNotAllowX509v1CACertificates = VerificationFlags(rawValue: 1 << 2)
        /// `GNUTLS_VERIFY_ALLOW_ANY_X509_V1_CA_CRT`: any X.509 version 1 certificate is a CA, not
        /// only an anchor.
        public static let allowAnyX509v1CACertificates = VerificationFlags(rawValue: 1 << 3)
        /// `GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1`: SHA-1 signatures on certificates are accepted.
        public static let allowSHA1Signatures = VerificationFlags(rawValue: 1 << 4)
        /// `GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS`: critical extensions GnuTLS does not know
        /// are ignored in the certificates it verifies. (A leaf GnuTLS accepts because it is
        /// identical to an anchor is not checked for them, with or without the flag: GnuTLS 3.7 then
        /// checks only the trusted copy's validity period and signature strength, `check_ca_sanity`
        /// in lib/x509/verify.c.)
        public static let ignoreUnknownCriticalExtensions = VerificationFlags(rawValue: 1 << 5)
    }
}
