import TrustCore
/// The optional measurements `trust-harness bench` compares back ends with, by back-end name: a
/// capability of the tool a composition root gives (a ``BackendPackage``'s
/// ``BackendPackage/benchmarks``, merged by `TrustHarnessTool.main(packages:)` in `TrustHarnessCLI`),
/// not part of any back end's contract.
public struct BenchmarkBaselines: Sendable {
    /// The raw library loop of a back end (its library called as it calls it, in C), by its name.
    public var loops: [String: any BaselineLoop]
    /// The signature verifications alone that a back end's library makes for a path, by its name:
    /// `bench`'s floor for it (a pure-Swift back end with no raw loop is measured against this).
    public var floors: [String: any BaselineLoop]
    /// The floor of every back end without one of its own.
    public var signatureFloor: (any BaselineLoop)?
    /// The plain calls of a library `trust-harness fidelity` compares a back end with, by back-end
    /// name, for back ends whose reference is not their raw loop (a library with no C loop).
    public var references: [String: any FidelityReference]

    /// Baselines with `loops` and `floors` by back-end name, `signatureFloor` for every back end
    /// without a floor of its own, and `references` for back ends without a loop; none by default.
    public init(loops: [String: any BaselineLoop] = [:], floors: [String: any BaselineLoop] = [:], signatureFloor: (any BaselineLoop)? = nil, references: [String: any FidelityReference] = [:]) {
        self.loops = loops
        self.floors = floors
        self.signatureFloor = signatureFloor
        self.references = references
    }

    /// The fidelity reference of back end `name`: its own reference, else its raw loop
    /// (``LoopReference``), else none.
    public func reference(for name: String) -> (any FidelityReference)? {
        references[name] ?? loops[name].map(LoopReference.init)
    }

    /// These baselines with `other`'s added (theirs win on a shared name).
    public func merging(_ other: BenchmarkBaselines) -> BenchmarkBaselines {
        BenchmarkBaselines(
            loops: loops.merging(other.loops) { $1 }, floors: floors.merging(other.floors) { $1 },
            signatureFloor: other.signatureFloor ?? signatureFloor,
            references: references.merging(other.references) { $1 }
        )
    }
}

/// The raw library loop a back end is measured against in `trust-harness bench`: the library called
/// as the back end calls it, in C, with no Swift around it. Optional: a back end without one gets cold
/// and warm figures and no ratio.
public protocol BaselineLoop: Sendable {
    /// The label of the loop in reports (`openssl-c`).
    var label: String { get }
    /// Runs `iterations` verifications of `chain` (DER, leaf first) against `anchors` for `host` at
    /// `unixTime`, parsing everything anew each time when `cold`; returns the nanoseconds the loop
    /// took, or nil when a verification did not succeed.
    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64?
    /// Whether `host` may be an IP address in text (dotted quad or IPv6), checked as an address as
    /// the back end checks an IP host; false (the default) when the loop takes DNS names only, so
    /// `fidelity` has no reference answer for an IP host.
    var takesIPAddressText: Bool { get }
    /// What of a request's revocation inputs the loop checks, as its back end does: its CRLs
    /// (``BackendFeature/revocationLists``) and the mode the library has for them; none by default.
    var revocationFeatures: Set<BackendFeature> { get }
    /// ``run(chain:anchors:host:unixTime:cold:iterations:)`` with revocation checking against CRLs
    /// (DER) loaded once before the loop, as a client loads its CRLs (nil: no checking; empty:
    /// checking with no CRL); the default runs without checking and answers nil when checking is
    /// asked (a loop that checks nothing cannot be asked).
    func run(chain: [[UInt8]], anchors: [[UInt8]], revocationLists: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64?
    /// ``run(chain:anchors:revocationLists:host:unixTime:cold:iterations:)`` with the leaf's private
    /// key (PKCS#8 DER; nil for a chain of the caller's own), for a loop that serves the chain: an
    /// HTTP client's loop makes real requests to a server presenting it. The default leaves the key
    /// out.
    func run(chain: [[UInt8]], anchors: [[UInt8]], leafPrivateKey: [UInt8]?, revocationLists: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64?
}

extension BaselineLoop {
    /// False: a loop takes DNS names only unless it says otherwise.
    public var takesIPAddressText: Bool { false }
    /// None: a loop checks no revocation unless it says otherwise.
    public var revocationFeatures: Set<BackendFeature> { [] }
    /// Without revocation checking, the loop; with it, nil (not taken).
    public func run(chain: [[UInt8]], anchors: [[UInt8]], revocationLists: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        guard revocationLists == nil else { return nil }
        return run(chain: chain, anchors: anchors, host: host, unixTime: unixTime, cold: cold, iterations: iterations)
    }
    /// The loop without the key: a loop that verifies needs none.
    public func run(chain: [[UInt8]], anchors: [[UInt8]], leafPrivateKey: [UInt8]?, revocationLists: [[UInt8]]?, host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        run(chain: chain, anchors: anchors, revocationLists: revocationLists, host: host, unixTime: unixTime, cold: cold, iterations: iterations)
    }
}
