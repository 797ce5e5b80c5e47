import TrustCore

/// The back ends a run may use: a value made by the composition root (the `trust-harness`
/// executable, a third party's own tool, a test) and passed to the runners and the command-line
/// tool, which name no back end themselves.
///
/// Each entry makes its back end for a ``BackendConfiguration``, so one library registered twice
/// with different settings is two back ends with two names. Entries marked ``Entry/isDefault`` run
/// when no back end is named; the others run when named (`--backend NAME`). Every back end handed
/// out is behind the harness's guard (``GuardedBackend``).
public struct BackendRegistry: Sendable {
    /// One registered back end.
    public struct Entry: Sendable {
        /// The back end's name, as its ``TrustBackend/name`` must give it.
        public var name: String
        /// Whether it runs when no back end is named.
        public var isDefault: Bool
        /// Makes the back end.
        public var make: @Sendable (BackendConfiguration) -> any TrustBackend
        /// The raw library loop `trust-harness bench` compares it with, if there is one.
        public var baseline: (any BaselineLoop)?
        /// The signature verifications alone that its library makes for a path, `bench`'s floor for
        /// this back end; nil: the tool's own floor (``TrustHarnessTool`` `signatureFloor`), if any.
        /// A back end with no raw loop to compare with (a pure-Swift one) is measured against this.
        public var floor: (any BaselineLoop)?

        /// An entry named `name` made by `make`; `baseline` is the raw loop `bench` compares it with,
        /// `floor` its library's signature verifications alone.
        public init(
            name: String,
            isDefault: Bool = true,
            baseline: (any BaselineLoop)? = nil,
            floor: (any BaselineLoop)? = nil,
            make: @escaping @Sendable (BackendConfiguration) -> any TrustBackend
        ) {
            self.name = name
            self.isDefault = isDefault
            self.baseline = baseline
            self.floor = floor
            self.make = make
        }
    }

    /// Every entry, in report order.
    public let entries: [Entry]

    /// A registry of `entries`, in report order.
    /// - Throws: ``BackendRegistryError`` when two entries share a name or a name is empty.
    public init(_ entries: [Entry]) throws(BackendRegistryError) {
        var seen = Set<String>()
        for entry in entries {
            guard !entry.name.isEmpty, entry.name.allSatisfy({ !$0.isWhitespace && $0 != "/" }) else {
                throw BackendRegistryError(message: "a back-end name is non-empty and has no spaces or \"/\": \"\(entry.name)\"")
            }
            guard seen.insert(entry.name).inserted else {
                throw BackendRegistryError(message: "two back ends are registered as \"\(entry.name)\"; give each variant a name of its own")
            }
        }
        self.entries = entries
    }

    /// The names of every registered back end, default or not.
    public var names: [String] { entries.map(\.name) }

    /// The names of the back ends that run when none is named.
    public var defaultNames: [String] { entries.filter(\.isDefault).map(\.name) }

    /// The default back ends (``Entry/isDefault``), each made with `configuration`, guarded.
    public func all(configuration: BackendConfiguration = .default) -> [any TrustBackend] {
        entries.filter(\.isDefault).map { GuardedBackend($0.make(configuration)) }
    }

    /// The back ends with the given names, in the order given without repeats, each made with
    /// `configuration`, guarded; every default one when `names` is empty.
    /// - Throws: ``UnknownBackendError`` for a name that is not registered, listing the known ones.
    public func named(_ names: [String], configuration: BackendConfiguration = .default) throws(UnknownBackendError) -> [any TrustBackend] {
        try selection(names).map { GuardedBackend($0.make(configuration)) }
    }

    /// The entries with the given names, in the order given without repeats; every default entry
    /// when `names` is empty.
    /// - Throws: ``UnknownBackendError`` for a name that is not registered.
    public func selection(_ names: [String]) throws(UnknownBackendError) -> [Entry] {
        if names.isEmpty { return entries.filter(\.isDefault) }
        var chosen: [Entry] = []
        for name in names where !chosen.contains(where: { $0.name == name }) {
            guard let entry = entries.first(where: { $0.name == name }) else {
                throw UnknownBackendError(name: name, known: self.names)
            }
            chosen.append(entry)
        }
        return chosen
    }
}

/// A registry that cannot be made as given.
public struct BackendRegistryError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A back-end name that no registered back end has.
public struct UnknownBackendError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var known: [String]

    public var description: String {
        "unknown back end \"\(name)\"; known back ends: \(known.joined(separator: ", "))"
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
}
