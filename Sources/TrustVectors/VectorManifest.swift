import TrustCore
import TrustPolicy

/// The file format of `Vectors/manifest.json`: every vector of the catalogue as data.
///
/// Certificate paths are relative to the `Vectors/` folder. Times are ISO 8601 in UTC with seconds
/// (`2025-06-01T00:00:00Z`). The expectation is derived from the standards when the catalogue is
/// written, never from a back end.
public struct VectorManifest: Codable, Sendable, Hashable {
    public var version: Int
    public var vectors: [VectorEntry]
    /// Pinning-policy vectors (absent in manifests written before the policy existed).
    public var policies: [PolicyVectorEntry]?

    public init(version: Int = 1, vectors: [VectorEntry], policies: [PolicyVectorEntry]? = nil) {
        self.version = version
        self.vectors = vectors
        self.policies = policies
    }
}

/// A vector's revocation inputs: files relative to `Vectors/` and the caller's mode
/// (``TrustCore/EvaluationRequest/revocationLists``, ``TrustCore/EvaluationRequest/ocspResponses``,
/// ``TrustCore/EvaluationRequest/revocationMode``).
public struct RevocationFiles: Codable, Sendable, Hashable {
    /// CRL files (PEM, `X509 CRL`).
    public var crls: [String]
    /// OCSP response files (DER `OCSPResponse`).
    public var ocspResponses: [String]
    /// hard-fail or soft-fail; absent: the library's default.
    public var mode: RevocationMode?

    public init(crls: [String] = [], ocspResponses: [String] = [], mode: RevocationMode? = nil) {
        self.crls = crls
        self.ocspResponses = ocspResponses
        self.mode = mode
    }
}

/// One vector: what is presented, what is trusted, what to check, and what the standards expect.
public struct VectorEntry: Codable, Sendable, Hashable {
    /// Stable, descriptive id: `<case>/<key type>`, for example `expired-leaf/rsa2048`.
    public var id: String
    public var description: String
    /// Certificate files presented by the peer, leaf first, as the peer sends them.
    public var chain: [String]
    /// Certificate files trusted as anchors.
    public var anchors: [String]
    /// Host to check (DNS name or IP literal), or nil for none.
    public var host: String?
    /// The IP address the client connected to (``TrustCore/EvaluationRequest/connectedAddress``),
    /// an IP literal; absent when the vector models no connection.
    public var address: String?
    /// Validation time, ISO 8601 UTC.
    public var time: String
    public var expected: Expectation
    /// Where the expectation comes from: RFC sections or policy rules, for the reader.
    public var references: [String]
    /// Set when the RFC 5280 profile leaves the answer open: the sentence that does, quoted with its
    /// section (``ProfileAnswer/open``). `expected` is then not consulted.
    public var open: String?
    /// The Web PKI profile's answer where it differs from `expected` (absent: the same answer).
    public var webpki: ProfileAnswer?
    /// CRLs and OCSP responses given with the chain, and the caller's revocation mode; absent: no
    /// revocation checking is asked.
    public var revocation: RevocationFiles?
    /// What a TLS client that asked for status must do when the vector is served with its OCSP
    /// response stapled (or none), where it differs from the chain's answer: a must-staple leaf
    /// (RFC 7633 §4.3.3) served without a staple is refused by the handshake, though path
    /// validation trusts it. Absent: the chain's RFC 5280 answer.
    public var handshake: ProfileAnswer?

    public init(id: String, description: String, chain: [String], anchors: [String], host: String?, time: String, expected: Expectation, references: [String], open: String? = nil, webpki: ProfileAnswer? = nil, address: String? = nil) {
        self.id = id
        self.description = description
        self.chain = chain
        self.anchors = anchors
        self.host = host
        self.time = time
        self.expected = expected
        self.references = references
        self.open = open
        self.webpki = webpki
        self.address = address
    }

    /// What `profile` calls for on this vector.
    public func answer(for profile: StandardsProfile) -> ProfileAnswer {
        let rfc5280 = ProfileAnswer(expected: expected, references: references, open: open)
        switch profile {
        case .rfc5280: return rfc5280
        case .webpki: return webpki ?? rfc5280
        }
    }

    /// The profiles under which the vector is trusted (decided, not left open): a base for mutants
    /// must be trusted under every one, so that a mutant's answer in each is its mutation's.
    public var trustedUnder: [StandardsProfile] {
        StandardsProfile.allCases.filter { profile in
            let answer = answer(for: profile)
            return answer.open == nil && answer.expected.trusted
        }
    }

    /// Sets both profiles' answers; the Web PKI answer is kept only where it differs from RFC 5280's.
    public mutating func setAnswers(rfc5280: ProfileAnswer, webpki: ProfileAnswer) {
        expected = rfc5280.expected
        references = rfc5280.references
        open = rfc5280.open
        self.webpki = webpki.expected == rfc5280.expected && webpki.open == rfc5280.open ? nil : webpki
    }
}

/// The verdict the standards call for.
public struct Expectation: Codable, Sendable, Hashable {
    public var trusted: Bool
    /// For a rejection: every failure class the standards allow as the reason. A back end conforms when
    /// it rejects and each class it reports is one of these. Empty when trusted.
    public var failures: [FailureClass]
    /// For a trusted vector: the certification path that must be verified, leaf to anchor, as
    /// certificate files.
    public var path: [String]?

    public init(trusted: Bool, failures: [FailureClass] = [], path: [String]? = nil) {
        self.trusted = trusted
        self.failures = failures
        self.path = path
    }

    public static func trusted(path: [String]) -> Expectation { Expectation(trusted: true, path: path) }

    /// Whether a verdict is what this expectation calls for: the same verdict and, for a rejection,
    /// at least one failure class, each among those the expectation allows (the path is judged
    /// apart). The one rule conformance, the explorer's classes and adoption's deviations use.
    public func admits(trusted: Bool, failures: [FailureClass]) -> Bool {
        trusted == self.trusted && (trusted || (!failures.isEmpty && failures.allSatisfy(self.failures.contains)))
    }
    public static func rejected(_ failures: FailureClass...) -> Expectation { Expectation(trusted: false, failures: failures) }
}

/// A back end's recorded disagreement with the expectation of a vector: `Vectors/deviations.json`.
///
/// The conformance test accepts exactly this observation for this back end and vector, and fails when
/// the behaviour changes either way, including when the deviation disappears.
///
/// One record can cover several vectors that depart for one cause, with one reason: in the file,
/// `"vectors": [...]` instead of `"vector"`. Judging stays exact per vector (``expanded``: each
/// covered vector must show the recorded observation, and a vector that stops departing fails).
public struct Deviation: Codable, Sendable, Hashable {
    public var backend: String
    /// The vector the record covers (the first, when it covers several: ``vectors``).
    public var vector: String
    /// Every vector the record covers when it covers more than one (written once per cause); nil
    /// for a record of one vector.
    public var vectors: [String]?
    public var observed: ObservedOutcome
    /// Why the library behaves so, with a reference (documentation, source, issue) where known.
    public var reason: String
    /// The library builds the deviation holds for: a regular expression searched for in the back
    /// end's ``TrustBackend/libraryVersion`` (e.g. `GnuTLS 3\\.7\\.9( \\(Debian libgnutls30 3\\.7\\.9-2\\+deb12u[0-6]\\))?$`).
    /// Absent: every build. On a build it does not match, the vector is judged as if nothing were
    /// recorded, so a fixed library must conform and a test fails when either build changes.
    public var libraries: String?
    /// The profiles the deviation is recorded under (absent: every profile). A vector whose two
    /// profiles call for different answers has a back end's deviation recorded under the one it
    /// departs from only.
    public var profiles: [StandardsProfile]?
    /// Whether ``reason`` is a draft: written by `scripts/record-deviations` from the observation
    /// (the rule departed from and the library's diagnostic) without naming the cause in the
    /// library's code, documentation or stack. A drafted record still matches its observation, but
    /// every summary counts it as unexplained until someone names the cause and removes the mark.
    public var draft: Bool

    public init(backend: String, vector: String, observed: ObservedOutcome, reason: String, libraries: String? = nil, profiles: [StandardsProfile]? = nil, draft: Bool = false) {
        self.backend = backend
        self.vector = vector
        self.observed = observed
        self.reason = reason
        self.libraries = libraries
        self.profiles = profiles
        self.draft = draft
    }

    /// One record for several vectors that depart for one cause, with one reason.
    public init(backend: String, vectors: [String], observed: ObservedOutcome, reason: String, libraries: String? = nil, profiles: [StandardsProfile]? = nil, draft: Bool = false) {
        self.init(backend: backend, vector: vectors.first ?? "", observed: observed, reason: reason, libraries: libraries, profiles: profiles, draft: draft)
        self.vectors = vectors.count > 1 ? vectors : nil
    }

    /// The vectors the record covers.
    public var covered: [String] { vectors ?? [vector] }

    /// One record per covered vector, each judged on its own.
    public var expanded: [Deviation] {
        guard let vectors else { return [self] }
        return vectors.map { vector in
            var single = self
            single.vector = vector
            single.vectors = nil
            return single
        }
    }

    private enum CodingKeys: String, CodingKey {
        case backend, vector, vectors, observed, reason, libraries, profiles, draft
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        backend = try container.decode(String.self, forKey: .backend)
        observed = try container.decode(ObservedOutcome.self, forKey: .observed)
        reason = try container.decode(String.self, forKey: .reason)
        libraries = try container.decodeIfPresent(String.self, forKey: .libraries)
        profiles = try container.decodeIfPresent([StandardsProfile].self, forKey: .profiles)
        draft = try container.decodeIfPresent(Bool.self, forKey: .draft) ?? false
        if let list = try container.decodeIfPresent([String].self, forKey: .vectors) {
            guard let first = list.first else {
                throw DecodingError.dataCorruptedError(forKey: .vectors, in: container, debugDescription: "a record for \(backend) covers no vector")
            }
            vector = first
            vectors = list.count > 1 ? list : nil
        } else {
            vector = try container.decode(String.self, forKey: .vector)
            vectors = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(backend, forKey: .backend)
        if let vectors { try container.encode(vectors, forKey: .vectors) } else { try container.encode(vector, forKey: .vector) }
        try container.encode(observed, forKey: .observed)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(libraries, forKey: .libraries)
        try container.encodeIfPresent(profiles, forKey: .profiles)
        if draft { try container.encode(true, forKey: .draft) }
    }

    /// Whether the deviation is recorded under `profile`.
    public func applies(to profile: StandardsProfile) -> Bool {
        profiles?.contains(profile) ?? true
    }

    /// Whether the deviation holds for the library build `libraryVersion` (always, without
    /// ``libraries``; never for a pattern that is not a regular expression, which loading refuses).
    public func holds(for libraryVersion: String) -> Bool {
        guard let libraries else { return true }
        guard let pattern = try? Regex(libraries) else { return false }
        return libraryVersion.contains(pattern)
    }
}

/// The comparable part of a verdict: trusted or not, the failure classes, and for policy vectors the
/// deciding step.
public struct ObservedOutcome: Codable, Sendable, Hashable {
    public var trusted: Bool
    public var failures: [FailureClass]
    /// Policy vectors only: the step that decided.
    public var step: PolicyStep?

    public init(trusted: Bool, failures: [FailureClass], step: PolicyStep? = nil) {
        self.trusted = trusted
        self.failures = failures.sorted()
        self.step = step
    }

    private enum CodingKeys: String, CodingKey {
        case trusted, failures, step
    }

    /// Reads an outcome with its failures in taxonomy order, whatever order the file lists them in
    /// (a hand-written or script-written record may sort them alphabetically), so a record is compared
    /// by what it says, not by how it is spelled.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trusted: try container.decode(Bool.self, forKey: .trusted),
            failures: try container.decode([FailureClass].self, forKey: .failures),
            step: try container.decodeIfPresent(PolicyStep.self, forKey: .step)
        )
    }

    public init(_ verdict: Verdict) {
        self.init(trusted: verdict.isTrusted, failures: verdict.failures)
    }
}

/// The file format of `Vectors/deviations.json`.
public struct DeviationList: Codable, Sendable, Hashable {
    public var version: Int
    public var deviations: [Deviation]

    public init(version: Int = 1, deviations: [Deviation]) {
        self.version = version
        self.deviations = deviations
    }

    /// Takes `vector` out of every record (of `backend`, or of every back end when nil): a record of
    /// that vector alone goes, a record covering others keeps them.
    public mutating func remove(vector: String, backend: String? = nil) {
        deviations = deviations.compactMap { record in
            guard backend == nil || record.backend == backend, record.covered.contains(vector) else { return record }
            let left = record.covered.filter { $0 != vector }
            guard !left.isEmpty else { return nil }
            var kept = record
            kept.vector = left[0]
            kept.vectors = left.count > 1 ? left : nil
            return kept
        }
    }
}

/// A pinning-policy vector: a chain, anchors, a domain, the ``SecurityPolicy`` settings, and the
/// decision the policy's documented semantics call for (which step decides, trusted or not).
public struct PolicyVectorEntry: Codable, Sendable, Hashable {
    /// Stable id: `policy/<case>/<key type>`.
    public var id: String
    public var description: String
    /// Certificate files presented, leaf first.
    public var chain: [String]
    /// Certificate files the evaluator trusts (the system store in real use).
    public var anchors: [String]
    /// The domain passed to `evaluate(chain, forDomain:)`, or nil for none.
    public var domain: String?
    public var time: String
    public var policy: PolicySettings
    public var expected: PolicyExpectation
    public var references: [String]

    public init(id: String, description: String, chain: [String], anchors: [String], domain: String?, time: String, policy: PolicySettings, expected: PolicyExpectation, references: [String]) {
        self.id = id
        self.description = description
        self.chain = chain
        self.anchors = anchors
        self.domain = domain
        self.time = time
        self.policy = policy
        self.expected = expected
        self.references = references
    }
}

/// The settings of a ``SecurityPolicy`` as data.
public struct PolicySettings: Codable, Sendable, Hashable {
    public var pinningMode: PinningMode
    /// Certificate files pinned.
    public var pinnedCertificates: [String]
    /// `sha256/<base64>` pins.
    public var pins: [String]
    public var allowInvalidCertificates: Bool
    public var validatesDomainName: Bool

    public init(pinningMode: PinningMode, pinnedCertificates: [String] = [], pins: [String] = [], allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        self.pins = pins
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
    }
}

/// The decision the semantics call for.
public struct PolicyExpectation: Codable, Sendable, Hashable {
    public var trusted: Bool
    public var step: PolicyStep

    public init(step: PolicyStep) {
        self.trusted = step.trusts
        self.step = step
    }
}
