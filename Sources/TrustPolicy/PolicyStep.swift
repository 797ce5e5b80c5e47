import TrustDER
import TrustCore
/// The step of ``SecurityPolicy`` evaluation that decided, in the order the policy runs them.
public enum PolicyStep: String, Sendable, Hashable, Codable, CaseIterable {
    /// Step 1: a domain is to be validated while invalid certificates are allowed, but nothing is
    /// pinned: rejected ("to validate a domain name for a self-signed certificate you must use pinning").
    case domainValidationRequiresPinning
    /// Mode `none` with `allowInvalidCertificates`: trusted without evaluation.
    case allowInvalidWithoutPinning
    /// Mode `none`: the chain is valid against the anchors.
    case validChain
    /// The chain is not valid against the anchors and invalid certificates are not allowed.
    case invalidChain
    /// Mode `certificate`: the chain is not valid with the pinned certificates as the only anchors
    /// (host included), or no certificate is pinned.
    case invalidAgainstPinnedCertificates
    /// Mode `certificate`: a certificate of the verified path is byte-identical to a pinned one.
    case certificatePinMatched
    /// Mode `certificate`: no certificate of the verified path is pinned.
    case certificatePinNotMatched
    /// Mode `publicKey`: a certificate of the path has a pinned public key.
    case publicKeyPinMatched
    /// Mode `publicKey`: no certificate of the path has a pinned public key.
    case publicKeyPinNotMatched

    /// Whether this step trusts.
    public var trusts: Bool {
        switch self {
        case .allowInvalidWithoutPinning, .validChain, .certificatePinMatched, .publicKeyPinMatched: return true
        default: return false
        }
    }
}
