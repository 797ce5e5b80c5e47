internal import CGnuTLS

extension GnuTLSBackend.Settings {
    /// The policy as the `GNUTLS_VERIFY_*` and profile bits GnuTLS takes, and nothing else (see
    /// ``GnuTLSBackend/Settings``): computed once per evaluator.
    var verificationFlags: UInt32 {
        let flagsByOption: [(GnuTLSBackend.VerificationFlags, gnutls_certificate_verify_flags)] = [
            (.doNotAllowIPMatches, GNUTLS_VERIFY_DO_NOT_ALLOW_IP_MATCHES),
            (.doNotAllowWildcards, GNUTLS_VERIFY_DO_NOT_ALLOW_WILDCARDS),
            (.doNotAllowX509v1CACertificates, GNUTLS_VERIFY_DO_NOT_ALLOW_X509_V1_CA_CRT),
            (.allowAnyX509v1CACertificates, GNUTLS_VERIFY_ALLOW_ANY_X509_V1_CA_CRT),
            (.allowSHA1Signatures, GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1),
            (.ignoreUnknownCriticalExtensions, GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS),
        ]
        let policy = flagsByOption.reduce(UInt32(0)) { bits, entry in
            flags.contains(entry.0) ? bits | entry.1.rawValue : bits
        }
        return policy | profile.verificationFlags
    }
}

extension GnuTLSBackend.Profile {
    /// `GNUTLS_PROFILE_TO_VFLAGS` of the profile; 0 for ``none``.
    var verificationFlags: UInt32 {
        let profile: gnutls_certificate_verification_profiles_t
        switch self {
        case .none: return 0
        case .veryWeak: profile = GNUTLS_PROFILE_VERY_WEAK
        case .low: profile = GNUTLS_PROFILE_LOW
        case .legacy: profile = GNUTLS_PROFILE_LEGACY
        case .medium: profile = GNUTLS_PROFILE_MEDIUM
        case .high: profile = GNUTLS_PROFILE_HIGH
        case .ultra: profile = GNUTLS_PROFILE_ULTRA
        case .future: profile = GNUTLS_PROFILE_FUTURE
        case .suiteB128: profile = GNUTLS_PROFILE_SUITEB128
        case .suiteB192: profile = GNUTLS_PROFILE_SUITEB192
        }
        return CGnuTLS_profile_to_vflags(profile)
    }
}
