import GnuTLSBackend
import OpenSSLBackend
import TrustCore

/// Every back end TrustHarness knows. Adding a back end: a new target with a ``TrustBackend`` and one
/// line in ``types``.
public enum BackendRegistry {
    /// Every back-end type, in report order: the one line per back end.
    public static let types: [any TrustBackend.Type] = [
        OpenSSLBackend.self,
        GnuTLSBackend.self,
    ]

    /// Every back end, each made with `configuration`, in the order of ``types``.
    public static func all(configuration: BackendConfiguration) -> [any TrustBackend] {
        types.map { $0.init(configuration: configuration) }
    }

    /// Every back end with the default configuration (``BackendConfiguration/default``).
    public static let all: [any TrustBackend] = all(configuration: .default)

    /// The back ends with the given names, in the order given, each made with `configuration`.
    /// - Throws: ``UnknownBackendError`` for a name that is not registered, listing the known ones.
    public static func named(_ names: [String], configuration: BackendConfiguration = .default) throws -> [any TrustBackend] {
        let available = all(configuration: configuration)
        return try names.map { name in
            guard let backend = available.first(where: { $0.name == name }) else {
                throw UnknownBackendError(name: name, known: available.map(\.name))
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
