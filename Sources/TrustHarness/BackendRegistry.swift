import GnuTLSBackend
import OpenSSLBackend
import TrustCore

/// Every back end TrustHarness knows. Adding a back end: a new target with a ``TrustBackend`` and one
/// line here.
public enum BackendRegistry {
    public static let all: [any TrustBackend] = [
        OpenSSLBackend(),
        GnuTLSBackend(),
    ]

    /// The back ends with the given names, in the order given.
    /// - Throws: ``UnknownBackendError`` for a name that is not registered, listing the known ones.
    public static func named(_ names: [String]) throws -> [any TrustBackend] {
        try names.map { name in
            guard let backend = all.first(where: { $0.name == name }) else {
                throw UnknownBackendError(name: name, known: all.map(\.name))
            }
            return backend
        }
    }
}

/// A back-end name that no registered back end has.
public struct UnknownBackendError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var known: [String]

    public var description: String {
        "unknown back end \"\(name)\"; known back ends: \(known.joined(separator: ", "))"
    }
}
