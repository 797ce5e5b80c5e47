/// The standard a verdict is judged against. Users deploy two, and they differ: RFC 5280 allows a
/// server certificate that the CA/Browser Forum's Baseline Requirements (which browsers and most TLS
/// clients enforce) do not, so every report names the profile it judged against.
public enum StandardsProfile: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// RFC 5280 path validation (§6.1) with RFC 9525 service identity: what a relying party that
    /// follows the IETF standards must accept and reject. The default.
    case rfc5280
    /// The Baseline Requirements as a TLS client enforces them, on top of RFC 5280 and RFC 9525:
    /// the leaf's extendedKeyUsage present with serverAuth (anyExtendedKeyUsage is not enough, BR
    /// §7.1.2.7.10), a subjectAltName (§7.1.2.7.12), RSA keys of at least 2048 bits and ECDSA keys
    /// on P-256, P-384 or P-521 only (§6.1.5, §7.1.3.1), signatures with SHA-256/384/512 only and an
    /// ECDSA hash matched to its curve (§7.1.3.2), nothing else (no Ed25519, no SHA-1).
    case webpki

    /// The profile reports judge against when none is named.
    public static let `default`: StandardsProfile = .rfc5280

    public var description: String { rawValue }

    /// One line for reports: what the profile judges by.
    public var summary: String {
        switch self {
        case .rfc5280: "RFC 5280 path validation with RFC 9525 service identity"
        case .webpki: "the CA/Browser Forum Baseline Requirements as a TLS client enforces them (on top of RFC 5280 and RFC 9525)"
        }
    }
}

/// What one profile calls for on one vector: a verdict with its references, or, where the standards
/// truly leave the answer to the relying party, no verdict and the sentence that leaves it open.
public struct ProfileAnswer: Codable, Sendable, Hashable {
    /// The verdict the profile calls for; not consulted when ``open`` is set.
    public var expected: Expectation
    /// Where the answer comes from: RFC or Baseline Requirements sections.
    public var references: [String]
    /// Set when the profile leaves the answer open (a MAY, a choice the standard leaves to the
    /// relying party): the sentence of the standard that does, quoted with its section. A result on
    /// such a vector is neither a pass nor a failure (``TrustHarness/Outcome/open``).
    public var open: String?

    public init(expected: Expectation, references: [String], open: String? = nil) {
        self.expected = expected
        self.references = references
        self.open = open
    }
}
