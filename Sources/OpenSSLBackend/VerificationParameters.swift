internal import COpenSSL

/// An evaluator's ``OpenSSLBackend/Settings`` as the values OpenSSL takes, worked out once when the
/// evaluator is made so that each verification only copies them into its context.
struct VerificationParameters: Sendable {
    /// The back end's name, for diagnostics.
    let backendName: String
    /// `X509_V_FLAG_*` before the per-request CRL flags; always `X509_V_FLAG_USE_CHECK_TIME`.
    let verifyFlags: UInt
    /// `X509_CHECK_FLAG_*` for `X509_VERIFY_PARAM_set_hostflags`.
    let hostFlags: UInt32
    /// `X509_PURPOSE_*` for `X509_STORE_CTX_set_purpose`.
    let purpose: Int32
    /// For `X509_VERIFY_PARAM_set_auth_level`.
    let authLevel: Int32
    /// Whether any anchor ends a path, so that a leaf that is an anchor is verified alone.
    let partialChains: Bool

    init(_ settings: OpenSSLBackend.Settings) {
        backendName = settings.name
        var flags = X509_V_FLAG_USE_CHECK_TIME
        if settings.partialChains { flags |= X509_V_FLAG_PARTIAL_CHAIN }
        if settings.trustedFirst { flags |= X509_V_FLAG_TRUSTED_FIRST }
        if settings.strict { flags |= X509_V_FLAG_X509_STRICT }
        if settings.policyChecking { flags |= X509_V_FLAG_POLICY_CHECK }
        verifyFlags = UInt(flags)
        let hostFlagsByCheck: [(OpenSSLBackend.HostChecks, Int32)] = [
            (.alwaysCheckSubject, X509_CHECK_FLAG_ALWAYS_CHECK_SUBJECT),
            (.noWildcards, X509_CHECK_FLAG_NO_WILDCARDS),
            (.noPartialWildcards, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS),
            (.multiLabelWildcards, X509_CHECK_FLAG_MULTI_LABEL_WILDCARDS),
            (.singleLabelSubdomains, X509_CHECK_FLAG_SINGLE_LABEL_SUBDOMAINS),
            (.neverCheckSubject, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT),
        ]
        hostFlags = hostFlagsByCheck.reduce(0) { flags, entry in
            settings.hostChecks.contains(entry.0) ? flags | UInt32(entry.1) : flags
        }
        switch settings.purpose {
        case .sslServer: purpose = X509_PURPOSE_SSL_SERVER
        case .any: purpose = X509_PURPOSE_ANY
        }
        authLevel = Int32(clamping: settings.securityLevel)
        partialChains = settings.partialChains
    }
}
