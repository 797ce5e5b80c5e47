import TrustCore

/// A back end's name and the version of the library it runs on, as reports show them.
public struct BackendInfo: Sendable, Hashable, Codable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    public init(_ backend: any TrustBackend) {
        self.init(name: backend.name, version: backend.libraryVersion)
    }
}
