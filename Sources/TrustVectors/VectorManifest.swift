import TrustCore

/// The file format of `Vectors/manifest.json`: every vector of the catalogue as data.
///
/// Certificate paths are relative to the `Vectors/` folder. Times are ISO 8601 in UTC with seconds
/// (`2025-06-01T00:00:00Z`). The expectation is derived from the standards when the catalogue is
/// written, never from a back end.
public struct VectorManifest: Codable, Sendable, Hashable {
    public var version: Int
    public var vectors: [VectorEntry]

    public init(version: Int = 1, vectors: [VectorEntry]) {
        self.version = version
        self.vectors = vectors
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
    /// Validation time, ISO 8601 UTC.
    public var time: String
    public var expected: Expectation
    /// Where the expectation comes from: RFC sections or policy rules, for the reader.
    public var references: [String]

    public init(id: String, description: String, chain: [String], anchors: [String], host: String?, time: String, expected: Expectation, references: [String]) {
        self.id = id
        self.description = description
        self.chain = chain
        self.anchors = anchors
        self.host = host
        self.time = time
        self.expected = expected
        self.references = references
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
    public static func rejected(_ failures: FailureClass...) -> Expectation { Expectation(trusted: false, failures: failures) }
}

/// A back end's recorded disagreement with the expectation of one vector: `Vectors/deviations.json`.
///
/// The conformance test accepts exactly this observation for this back end and vector, and fails when
/// the behaviour changes either way, including when the deviation disappears.
public struct Deviation: Codable, Sendable, Hashable {
    public var backend: String
    public var vector: String
    public var observed: ObservedOutcome
    /// Why the library behaves so, with a reference (documentation, source, issue) where known.
    public var reason: String

    public init(backend: String, vector: String, observed: ObservedOutcome, reason: String) {
        self.backend = backend
        self.vector = vector
        self.observed = observed
        self.reason = reason
    }
}

/// The comparable part of a verdict: trusted or not, and the failure classes.
public struct ObservedOutcome: Codable, Sendable, Hashable {
    public var trusted: Bool
    public var failures: [FailureClass]

    public init(trusted: Bool, failures: [FailureClass]) {
        self.trusted = trusted
        self.failures = failures.sorted()
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
}
