/// How one back end's verdict on one vector compares with the standards' expectation.
public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The verdict is the expected one (and, when trusted, with the expected path).
    case pass
    /// The verdict differs from the expectation exactly as recorded in `Vectors/deviations.json`.
    case deviation
    /// The verdict differs from the expectation and no matching deviation is recorded, or a recorded
    /// deviation no longer matches (better or worse).
    case fail
    /// The back end could not evaluate the vector at all (its anchors were refused).
    case error
    /// Not evaluated, with a stated reason (among them a request the harness could not put to the
    /// library: a diagnostic of origin ``TrustCore/DiagnosticOrigin/harness``).
    case skipped
    /// The same request got different verdicts when it was asked again (cold and warm evaluators,
    /// one task and many): a defect of the back end or the harness to explain, never a deviation to
    /// record. The result lists every distinct verdict and how often it came.
    case unstable
    /// The profile judged against leaves the answer open (``TrustVectors/ProfileAnswer/open``): the
    /// verdict is shown, neither a pass nor a failure, and never counted as accepting what the
    /// standards reject or rejecting what is valid. A back end's verdict recorded on such a vector
    /// still fails the run when it changes.
    case open
    /// A time or work limit stopped the library before it answered (a diagnostic of origin
    /// ``TrustCore/DiagnosticOrigin/limit``): neither a pass nor the library's verdict, and never a
    /// deviation to record.
    case limit
}

/// Why a result failed, for the summary columns.
public enum FailureKind: String, Sendable, Hashable, Codable {
    /// Trusted although the standards say reject: the security-relevant column.
    case acceptedShouldReject
    /// Rejected although the standards say trust.
    case rejectedShouldTrust
    /// Rejected as expected, but for a failure class the standards do not give.
    case wrongReason
    /// Trusted as expected, but through another path than the expected one.
    case wrongPath
    /// A recorded deviation that no longer describes the behaviour.
    case deviationChanged
}
