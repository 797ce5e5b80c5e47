import Foundation
import TrustVectors

/// Where a report came from: the tool and its version, when it ran, and the command line. Every
/// report of `trust-harness` carries it (JSON `provenance`, the text and Markdown headers, HTML's
/// meta line, JUnit properties), so a report file kept in CI says what made it.
public struct Provenance: Sendable, Hashable, Codable {
    /// `trust-harness 0.13.0` (or the name and version of a third party's tool).
    public var tool: String
    /// RFC 3339, UTC, whole seconds.
    public var generatedAt: String
    /// The command line, arguments as given.
    public var command: [String]
    /// The standards profile the report's verdicts were judged against (absent for reports that
    /// judge nothing against a profile: benchmarks, a single evaluation).
    public var profile: StandardsProfile?

    public init(tool: String, generatedAt: Date = Date(), command: [String], profile: StandardsProfile? = nil) {
        self.profile = profile
        self.tool = tool
        self.generatedAt = Timestamp.format(Date(timeIntervalSince1970: generatedAt.timeIntervalSince1970.rounded(.down)))
        self.command = command
    }

    /// One line for people: `trust-harness 0.13.0, 2026-11-23T04:40:00Z: trust-harness run --id 'x'`.
    public var line: String {
        "\(tool), \(generatedAt): \(command.map(Self.quoted).joined(separator: " "))" + (profile.map { "\n  judged against profile \($0.rawValue): \($0.summary)" } ?? "")
    }

    /// An argument as a shell would need it.
    package static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A JSON document with `schemaVersion` and `provenance` beside the keys of `body` (a JSON object):
/// how every command's JSON says what made it.
/// `Body` must encode as a JSON object (a struct or class with keys): its keys and the provenance's
/// share one object, so an array or a single value cannot be a body.
public struct DocumentedJSON<Body: Encodable>: Encodable {
    public var schemaVersion: Int
    public var provenance: Provenance
    public var body: Body

    public init(schemaVersion: Int = 2, provenance: Provenance, body: Body) {
        self.schemaVersion = schemaVersion
        self.provenance = provenance
        self.body = body
    }

    enum Key: String, CodingKey { case schemaVersion, provenance }

    public func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(provenance, forKey: .provenance)
    }
}
