import TrustCore

/// A library called the plain way, as an application writes the call, with no TrustHarness code
/// around it: what a back end's column is compared with by `trust-harness fidelity`, so that a column
/// is shown to be the library and every difference is named (a layer, a limit, a recorded API-default
/// difference).
///
/// A package's raw `bench` loops (``BaselineLoop``) are references as they are (``LoopReference``);
/// a library without a C loop gives one of its own in ``BenchmarkBaselines/references``.
public protocol FidelityReference: Sendable {
    /// The reference's name in reports (`openssl-c`).
    var label: String { get }
    /// Whether the library, called plainly, trusts `request`'s chain against `anchors` for its host at
    /// its time for TLS server authentication; nil when this reference cannot put such a request
    /// (say, an IP address to a call that takes a DNS name). Any error is "not trusted". Requests
    /// that set more than a TLS server check and the reference's ``features`` (a depth, CRLs, policy
    /// inputs, any purpose) are not asked.
    func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool?
    /// What the plain call takes besides a TLS server check (say, OCSP responses and a revocation
    /// mode), passed the plain way; requests that need only these are asked. None by default.
    var features: Set<BackendFeature> { get }
}

extension FidelityReference {
    /// None: the reference verifies for a TLS server with nothing else set.
    public var features: Set<BackendFeature> { [] }
}

/// A raw `bench` loop as a fidelity reference: one cold verification, trusted when the loop says it
/// verified. An IP host is passed as text to a loop that takes one (``BaselineLoop/takesIPAddressText``);
/// for any other loop a request for an IP address has no answer.
public struct LoopReference: FidelityReference {
    /// The loop.
    public let loop: any BaselineLoop

    /// The reference of `loop`.
    public init(_ loop: any BaselineLoop) {
        self.loop = loop
    }

    /// The loop's label.
    public var label: String { loop.label }

    /// The revocation inputs and mode the loop checks (``BaselineLoop/revocationFeatures``).
    public var features: Set<BackendFeature> { loop.revocationFeatures }

    /// `loop` run once, cold, at the request's time in whole seconds, given the leaf's key (a loop
    /// that serves the chain needs it): trusted when it verified; nil for an IP address host the
    /// loop does not take.
    public func trusts(_ request: EvaluationRequest, anchors: [[UInt8]]) async -> Bool? {
        let name: String?
        switch request.host {
        case nil: name = nil
        case .dns(let text)?: name = text
        case .ipAddress(let bytes)?:
            guard loop.takesIPAddressText else { return nil }
            name = IPAddressParser.format(bytes)
        }
        return loop.run(chain: request.chain, anchors: anchors, leafPrivateKey: request.leafPrivateKey, revocationLists: request.revocationLists.isEmpty && request.revocationMode == nil ? nil : request.revocationLists, host: name, unixTime: request.unixTime, cold: true, iterations: 1) != nil
    }
}
