/// Why ``VectorGenerator`` could not generate or check a `Vectors/` folder.
public enum VectorGeneratorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A key file exists but cannot be used. Keys are never replaced silently, because every
    /// certificate signed by them would change: fix or delete the file.
    case unusableKey(path: String, reason: String)
    /// A file could not be read or written.
    case fileSystem(path: String, reason: String)
    /// The catalogue contradicts itself (an unknown issuer or key, a bad address): a bug in
    /// `Catalogue.swift`.
    case catalogue(String)

    public var description: String {
        switch self {
        case .unusableKey(let path, let reason):
            return "\(path): \(reason); delete the file to have a new key made (every certificate it signs will change)"
        case .fileSystem(let path, let reason):
            return "\(path): \(reason)"
        case .catalogue(let message):
            return "inconsistent vector catalogue: \(message)"
        }
    }
}
