import TrustCore
import TrustPolicy

/// One pinning-policy case, independent of key type: it becomes the policy vector
/// `policy/<name>/<key type>` for every ``KeyType``, with certificate names resolved to that key
/// type's files and pinned keys to the `sha256/` pins of that key type's certificates.
struct PolicyCase: Sendable, Hashable {
    /// The middle part of the vector id, unique among the policy cases.
    var name: String
    /// What the case checks, for the reader of the manifest and of reports.
    var description: String
    /// Certificate names as the peer sends them, leaf first.
    var chain: [String]
    /// Certificate names the evaluator trusts (the system store in real use).
    var anchors: [String]
    /// The domain passed to the policy, or nil for none.
    var domain: String?
    var pinningMode: PinningMode
    /// Certificate names pinned as certificates (`pinnedCertificates`).
    var pinnedCertificates: [String]
    /// Certificate names whose public keys are pinned as `sha256/` strings (`pins`): the pin is
    /// computed from the certificate when the manifest is written, so it follows the key.
    var pinnedKeys: [String]
    var allowInvalidCertificates: Bool
    var validatesDomainName: Bool
    /// The step the documented semantics of ``SecurityPolicy`` say decides.
    var step: PolicyStep
    /// Where the expected step comes from.
    var references: [String]

    /// Every certificate name the case refers to.
    var certificateNames: [String] {
        chain + anchors + pinnedCertificates + pinnedKeys
    }
}
