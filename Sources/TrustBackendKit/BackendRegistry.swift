import TrustCore

/// The back ends a run may use: a value made by the composition root (the `trust-harness`
/// executable, a third party's own tool, a test) and passed to the runners and the command-line
/// tool, which name no back end themselves.
///
/// Each entry makes its back end for a ``BackendConfiguration``, so one library registered twice
/// with different settings is two back ends with two names. Entries marked ``Entry/isDefault`` run
/// when no back end is named; the others run when named (`--backend NAME`). Every registered back
/// end can also be named with the `checks` layer in front of it, `NAME+checks` (``CheckedBackend``),
/// without registering it. Every back end handed
/// out is behind the kit's guard (``GuardedBackend``), whether or not the back end applies
/// ``BackendPreflight`` itself.
public struct BackendRegistry: Sendable {
    /// One registered back end: how to make it, and whether it runs when none is named. Its name is
    /// the back end's own (``TrustBackend/name``), read once from a back end made with the default
    /// configuration, so it is written in one place only. What only some tools need (`bench`'s raw
    /// loops, a TLS client) is not here: see ``BenchmarkBaselines`` and `TLSClientProviding`.
    public struct Entry: Sendable {
        /// The back end's name, as its ``TrustBackend/name`` gives it.
        public let name: String
        /// Whether it runs when no back end is named.
        public var isDefault: Bool
        /// Makes the back end.
        public var make: @Sendable (BackendConfiguration) -> any TrustBackend

        /// An entry made by `make`, named by the back end it makes.
        public init(isDefault: Bool = true, make: @escaping @Sendable (BackendConfiguration) -> any TrustBackend) {
            self.init(name: make(.default).name, isDefault: isDefault, make: make)
        }

        init(name: String, isDefault: Bool, make: @escaping @Sendable (BackendConfiguration) -> any TrustBackend) {
            self.name = name
            self.isDefault = isDefault
            self.make = make
        }
    }

    /// Every entry, in report order.
    public let entries: [Entry]

    /// A registry of `entries`, in report order.
    ///
    /// Registries compose: `BackendRegistry(BuiltInBackends.registry.entries + [mine])`.
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

    /// The same entries, every one running by default: for a test suite that checks the variants
    /// (which otherwise run only when named) beside the default back ends, as
    /// `BackendTestKit.expectConformance(registry.includingVariants, deviations:)`.
    public var includingVariants: BackendRegistry {
        // The names were unique when this registry was made, so the copy cannot fail.
        (try? BackendRegistry(entries.map { entry in
            var entry = entry
            entry.isDefault = true
            return entry
        })) ?? self
    }

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
            if let entry = entries.first(where: { $0.name == name }) {
                chosen.append(entry)
            } else if let entry = checkedEntry(name) {
                chosen.append(entry)
            } else {
                throw UnknownBackendError(name: name, known: self.names)
            }
        }
        return chosen
    }

    /// The entry of `NAME+checks` for a registered `NAME`: that library behind the `checks` layer
    /// (``CheckedBackend``), a column every registered back end has without registering it.
    func checkedEntry(_ name: String) -> Entry? {
        guard name.hasSuffix(HarnessChecks.columnSuffix) else { return nil }
        let library = String(name.dropLast(HarnessChecks.columnSuffix.count))
        guard let entry = entries.first(where: { $0.name == library }) else { return nil }
        let make = entry.make
        return Entry(name: name, isDefault: false) { CheckedBackend(make($0)) }
    }
}

/// A registry that cannot be made as given.
public struct BackendRegistryError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the back end: an empty or unusable name, or a name registered twice.
    public var message: String
    /// The ``message``.
    public var description: String { message }
}

/// A back-end name that no registered back end has.
public struct UnknownBackendError: Error, Sendable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// Every registered name, in report order.
    public var known: [String]

    /// The name asked for and the names that would have been known.
    public var description: String {
        "unknown back end \"\(name)\"; known back ends: \(known.joined(separator: ", "))"
    }
}
