import Foundation
import TrustCore
import TrustVectors

/// One key type's test PKI from the committed `Vectors/certs/<key type>/`, as DER: what every
/// benchmark evaluates, so that the back ends and the C baselines see the same bytes.
public struct VectorPKI: Sendable {
    /// The key types the vectors cover; the raw value is the folder under `Vectors/certs/`.
    public enum KeyType: String, CaseIterable, Sendable {
        case rsa2048
        case p256
        case ed25519
    }

    /// The DNS name in the leaves' subjectAltName.
    public static let host = "www.example.test"
    /// A DNS name no leaf carries: a chain that is valid but for the wrong host.
    public static let wrongHost = "wrong.example.test"
    /// The vectors' validation time, 2025-06-01T00:00:00Z: inside every valid certificate's validity
    /// period and one day after the expired leaf's notAfter.
    public static let validationUnixTime: Int64 = 1_748_736_000
    /// ``validationUnixTime`` as a `Date`, for requests.
    public static let validationTime = Date(timeIntervalSince1970: TimeInterval(validationUnixTime))

    public let keyType: KeyType
    public let leaf: [UInt8]
    public let intermediate: [UInt8]
    public let root: [UInt8]
    /// A leaf like ``leaf`` whose notAfter is 2025-05-31, before ``validationTime``.
    public let expiredLeaf: [UInt8]

    /// The chain a server presents: leaf, then intermediate.
    public var validChain: [[UInt8]] { [leaf, intermediate] }
    /// The presented chain with the expired leaf.
    public var expiredChain: [[UInt8]] { [expiredLeaf, intermediate] }
    /// The trust anchors: the root alone.
    public var anchors: [[UInt8]] { [root] }

    /// Reads `leaf.pem`, `intermediate.pem`, `root.pem` and `expired-leaf.pem` of `keyType` from the
    /// `Vectors/` folder found by walking up from `filePath`.
    /// - Throws: ``VectorPKIError`` when no `Vectors/certs/` folder is above `filePath`, or the
    ///   `CertificateFileError` of a file that is missing or holds not exactly one certificate.
    public static func load(_ keyType: KeyType, filePath: String = #filePath) throws -> VectorPKI {
        let folder = try certificatesFolder(filePath: filePath).appendingPathComponent(keyType.rawValue)
        func certificate(_ name: String) throws -> [UInt8] {
            let url = folder.appendingPathComponent("\(name).pem")
            let certificates = try CertificateFile.read(url)
            guard certificates.count == 1 else {
                throw CertificateFileError(file: url.path, problem: "holds \(certificates.count) certificates, expected exactly one")
            }
            return certificates[0]
        }
        return VectorPKI(
            keyType: keyType,
            leaf: try certificate("leaf"),
            intermediate: try certificate("intermediate"),
            root: try certificate("root"),
            expiredLeaf: try certificate("expired-leaf")
        )
    }

    /// Every key type's PKI, in ``KeyType/allCases`` order.
    public static func loadAll(filePath: String = #filePath) throws -> [VectorPKI] {
        try KeyType.allCases.map { try load($0, filePath: filePath) }
    }

    /// `Vectors/certs` of the checkout holding `filePath`: the first ancestor folder that has one.
    static func certificatesFolder(filePath: String) throws -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let certificates = folder.appendingPathComponent("Vectors/certs")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: certificates.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return certificates
            }
            folder.deleteLastPathComponent()
        }
        throw VectorPKIError(message: "no Vectors/certs folder in any folder above \(filePath); run the benchmarks from a TrustHarness checkout")
    }
}

/// The vectors could not be found.
public struct VectorPKIError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension Array where Element == [UInt8] {
    /// A deep copy: every certificate in a buffer of its own, never shared with `self`, as bytes
    /// just read from the network would be (a plain copy of an array shares its storage).
    public func freshCopy() -> [[UInt8]] {
        map { der in der.withUnsafeBufferPointer { [UInt8]($0) } }
    }
}
