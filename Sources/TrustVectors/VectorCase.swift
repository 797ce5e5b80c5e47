import TrustCore

/// One case of the catalogue, independent of key type: it becomes the vector `<name>/<key type>`
/// for every ``KeyType``, with certificate names resolved to that key type's files.
struct VectorCase: Sendable, Hashable {
    /// The first part of the vector id, unique in the catalogue.
    var name: String
    /// What the case tests, for the reader of the manifest and of reports.
    var description: String
    /// Certificate names as the peer sends them, leaf first.
    var chain: [String]
    /// Certificate names trusted as anchors.
    var anchors: [String]
    /// Host to check, or nil for no host check.
    var host: String?
    /// The address the client connected to, an IP literal, or nil for none modelled.
    var address: String? = nil
    var outcome: Outcome
    /// CRLs and OCSP responses given with the chain, and the caller's revocation mode; nil: none.
    var revocation: RevocationInputs? = nil
    /// The sentence (quoted with its section) that leaves the answer to the relying party, when the
    /// standards do (``VectorEntry/open``): `outcome` is then not consulted, and the vector shows
    /// each library's own choice.
    var open: String? = nil
    /// What a TLS client that asked for status must do when the vector is served, where it differs
    /// from the chain's answer (``VectorEntry/handshake``).
    var handshake: ProfileAnswer? = nil
    /// Where the expected outcome comes from.
    var references: [String]

    enum Outcome: Sendable, Hashable {
        /// Trusted, verified along `path`: certificate names, leaf to anchor.
        case trusted(path: [String])
        /// Rejected; each of `failures` is a reason the standards allow.
        case rejected([FailureClass])
    }

    /// Every certificate name the case refers to.
    var certificateNames: [String] {
        var names = chain + anchors
        if case .trusted(let path) = outcome { names += path }
        return names
    }
}
