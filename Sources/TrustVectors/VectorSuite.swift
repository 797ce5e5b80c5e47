import Foundation
import TrustCore

/// A vector read from `Vectors/`, ready to evaluate: the certificates loaded, the host and time parsed.
public struct LoadedVector: Sendable, Hashable, Identifiable {
    public let entry: VectorEntry
    public let chain: [[UInt8]]
    public let anchors: [[UInt8]]
    public let host: HostIdentity?
    public let time: Date
    /// For trusted expectations: the expected path, DER, leaf to anchor.
    public let expectedPath: [[UInt8]]?

    public var id: String { entry.id }
    public var expected: Expectation { entry.expected }

    public var request: EvaluationRequest {
        EvaluationRequest(chain: chain, host: host, time: time)
    }
}

/// A pinning-policy vector read from `Vectors/`, with its ``SecurityPolicy`` built once.
public struct LoadedPolicyVector: Sendable, Hashable, Identifiable {
    public let entry: PolicyVectorEntry
    public let chain: [[UInt8]]
    public let anchors: [[UInt8]]
    public let time: Date
    public let policy: SecurityPolicy

    public var id: String { entry.id }
    public var domain: String? { entry.domain }
    public var expected: PolicyExpectation { entry.expected }
}

/// The committed vector set: manifest, certificates and recorded deviations, loaded from a folder.
public struct VectorSuite: Sendable {
    public let directory: URL
    public let vectors: [LoadedVector]
    public let policies: [LoadedPolicyVector]
    public let deviations: [Deviation]

    /// Loads `manifest.json` and, when present, `deviations.json` from `directory`.
    /// - Throws: ``VectorLoadError`` naming the file and the problem: a missing or undecodable
    ///   manifest, a certificate file that cannot be read, a bad time, a duplicate id, or a deviation
    ///   naming an unknown vector.
    public static func load(from directory: URL) throws -> VectorSuite {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        let manifest: VectorManifest = try decodeJSON(manifestURL)
        var cache: [String: [UInt8]] = [:]
        func certificate(_ path: String, of id: String) throws -> [UInt8] {
            if let cached = cache[path] { return cached }
            let url = directory.appendingPathComponent(path)
            let certificates: [[UInt8]]
            do {
                certificates = try CertificateFile.read(url)
            } catch let error as CertificateFileError {
                throw VectorLoadError(file: url.path, problem: "\(error.problem) (vector \(id))")
            }
            guard certificates.count == 1 else {
                throw VectorLoadError(file: url.path, problem: "holds \(certificates.count) certificates; a vector file holds exactly one (vector \(id))")
            }
            cache[path] = certificates[0]
            return certificates[0]
        }

        var seen = Set<String>()
        var vectors: [LoadedVector] = []
        for entry in manifest.vectors {
            guard seen.insert(entry.id).inserted else {
                throw VectorLoadError(file: manifestURL.path, problem: "vector id \(entry.id) appears twice")
            }
            guard let time = Timestamp.parse(entry.time) else {
                throw VectorLoadError(file: manifestURL.path, problem: "vector \(entry.id) has time \"\(entry.time)\"; expected ISO 8601 UTC like 2025-06-01T00:00:00Z")
            }
            vectors.append(LoadedVector(
                entry: entry,
                chain: try entry.chain.map { try certificate($0, of: entry.id) },
                anchors: try entry.anchors.map { try certificate($0, of: entry.id) },
                host: entry.host.map(HostIdentity.init),
                time: time,
                expectedPath: try entry.expected.path.map { try $0.map { try certificate($0, of: entry.id) } }
            ))
        }

        var policies: [LoadedPolicyVector] = []
        for entry in manifest.policies ?? [] {
            guard seen.insert(entry.id).inserted else {
                throw VectorLoadError(file: manifestURL.path, problem: "vector id \(entry.id) appears twice")
            }
            guard let time = Timestamp.parse(entry.time) else {
                throw VectorLoadError(file: manifestURL.path, problem: "policy vector \(entry.id) has time \"\(entry.time)\"; expected ISO 8601 UTC like 2025-06-01T00:00:00Z")
            }
            let settings = entry.policy
            let policy: SecurityPolicy
            do {
                policy = try SecurityPolicy(
                    pinningMode: settings.pinningMode,
                    pinnedCertificates: try settings.pinnedCertificates.map { try certificate($0, of: entry.id) },
                    pins: try settings.pins.map(SPKIPin.init),
                    allowInvalidCertificates: settings.allowInvalidCertificates,
                    validatesDomainName: settings.validatesDomainName
                )
            } catch let error as PinError {
                throw VectorLoadError(file: manifestURL.path, problem: "policy vector \(entry.id): \(error)")
            }
            policies.append(LoadedPolicyVector(
                entry: entry,
                chain: try entry.chain.map { try certificate($0, of: entry.id) },
                anchors: try entry.anchors.map { try certificate($0, of: entry.id) },
                time: time,
                policy: policy
            ))
        }

        let deviationsURL = directory.appendingPathComponent("deviations.json")
        var deviations: [Deviation] = []
        if FileManager.default.fileExists(atPath: deviationsURL.path) {
            deviations = try (decodeJSON(deviationsURL) as DeviationList).deviations
            var keys = Set<String>()
            for deviation in deviations {
                guard seen.contains(deviation.vector) else {
                    throw VectorLoadError(file: deviationsURL.path, problem: "deviation for \(deviation.backend) names unknown vector \(deviation.vector)")
                }
                guard keys.insert(deviation.backend + " " + deviation.vector).inserted else {
                    throw VectorLoadError(file: deviationsURL.path, problem: "two deviations for \(deviation.backend) on \(deviation.vector)")
                }
            }
        }
        return VectorSuite(directory: directory, vectors: vectors, policies: policies, deviations: deviations)
    }

    /// The recorded deviation of `backend` on `vector`, if any.
    public func deviation(backend: String, vector: String) -> Deviation? {
        deviations.first { $0.backend == backend && $0.vector == vector }
    }

    /// The `Vectors/` folder of this source checkout, found by walking up from `filePath` (the
    /// swift-crypto Wycheproof pattern), or nil when the sources are not at hand.
    public static func locate(from filePath: String = #filePath) -> URL? {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("Vectors/manifest.json")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return url.appendingPathComponent("Vectors")
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    static func decodeJSON<T: Decodable>(_ url: URL) throws -> T {
        try FileProblem.decodeJSON(T.self, from: url, shape: "a valid \(T.self)")
    }
}

/// A problem with the vector files, naming the file.
public typealias VectorLoadError = FileProblem

/// ISO 8601 UTC timestamps with whole seconds, as used in the manifest.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
