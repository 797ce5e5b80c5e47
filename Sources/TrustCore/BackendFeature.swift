/// A check a request may ask for that not every library makes faithfully.
///
/// A back end lists the features it honours in ``TrustBackend/features``. Its evaluators reject a
/// request that needs a feature missing from that list (``EvaluationRequest/rejection(unlessHonouredBy:backend:)``):
/// a constraint is never silently dropped, since evaluating without it could trust what the caller
/// meant to refuse. Callers that can do without (the x509-limbo runner) ask first and skip.
public enum BackendFeature: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// ``EvaluationRequest/maximumChainDepth``: a limit on the intermediates between leaf and anchor.
    case maximumChainDepth
    /// ``EvaluationRequest/revocationLists``: CRLs the library checks the path against, by its own
    /// rules (which certificates, which CRLs it believes).
    case revocationLists
    /// ``EvaluationRequest/ocspResponses``: OCSP responses (stapled or fetched) the library judges.
    case ocspResponses
    /// ``RevocationMode/hardFail`` through a setting of the library: no status means not trusted.
    case hardFailRevocation
    /// ``RevocationMode/softFail`` through a setting of the library: no status means not revoked.
    case softFailRevocation
    /// ``TrustPurpose/anyPurpose``: path validation with no purpose and no TLS-specific checks.
    case anyPurpose
    /// ``EvaluationRequest/policy``: RFC 5280 certificate policy processing with the given inputs.
    case policyProcessing

    /// The feature in words, for messages (`maximum chain depth`).
    public var description: String {
        switch self {
        case .maximumChainDepth: return "maximum chain depth"
        case .revocationLists: return "revocation lists (CRLs)"
        case .ocspResponses: return "OCSP responses"
        case .hardFailRevocation: return "hard-fail revocation checking"
        case .softFailRevocation: return "soft-fail revocation checking"
        case .anyPurpose: return "validation for any purpose"
        case .policyProcessing: return "certificate policy processing (RFC 5280 policy inputs)"
        }
    }
}

extension RevocationMode {
    /// The feature a back end needs to be asked this mode.
    public var feature: BackendFeature {
        switch self {
        case .hardFail: return .hardFailRevocation
        case .softFail: return .softFailRevocation
        }
    }
}
