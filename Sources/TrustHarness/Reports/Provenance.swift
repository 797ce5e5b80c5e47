import Foundation
import TrustVectors

/// Where a report came from: the tool and its version, when it ran, and the command line. Every
/// report of `trust-harness` carries it (JSON `provenance`, the text and Markdown headers, HTML's
/// meta line, JUnit properties), so a report file kept in CI says what made it.
///
/// A report names files relative to the directory the command ran in (``reportPath(_:from:)``),
/// never by where a machine keeps them: an absolute path in the command line is written that way.
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

    /// The provenance of a report made now (or at `generatedAt`) by `tool` with `command`, judged
    /// against `profile` if any. Every absolute path in `command` (an argument, or the value of
    /// `--flag=PATH`) is written as ``reportPath(_:from:)`` names it from `directory`, the
    /// directory the command ran in (default: the current one).
    public init(tool: String, generatedAt: Date = Date(), command: [String], profile: StandardsProfile? = nil,
                directory: String = FileManager.default.currentDirectoryPath) {
        self.profile = profile
        self.tool = tool
        self.generatedAt = Timestamp.format(Date(timeIntervalSince1970: generatedAt.timeIntervalSince1970.rounded(.down)))
        self.command = command.map { argument in
            if argument.hasPrefix("/") { return Self.reportPath(argument, from: directory) }
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="), argument[argument.index(after: equals)...].hasPrefix("/") {
                return String(argument[...equals]) + Self.reportPath(String(argument[argument.index(after: equals)...]), from: directory)
            }
            return argument
        }
    }

    /// `path` as a report names it, from `directory` (the directory the command ran in), so that no
    /// report says where a machine keeps its files (`/tmp/...`, `/home/...`): a path inside
    /// `directory` relative to it (`Vectors/limbo/limbo.json`); one outside it relative with `../`
    /// when that is short (``relativePath(_:from:)``: `../shared/limbo/limbo.json`); else just its
    /// name (`limbo.json`). A path that is not absolute (as typed, already relative to `directory`,
    /// or the name of a suite made in memory) is kept as it is.
    public static func reportPath(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        guard path.hasPrefix("/") else { return path }
        return relativePath(path, from: directory) ?? URL(fileURLWithPath: path).lastPathComponent
    }

    /// The absolute `path` relative to the absolute `directory` when that is short: inside it, or
    /// at most two levels up from it to a folder the two share below the file system's root. Nil
    /// otherwise (a path that shares only `/` with `directory`, or is further up).
    public static func relativePath(_ path: String, from directory: String) -> String? {
        func components(_ path: String) -> [String] {
            URL(fileURLWithPath: path).standardizedFileURL.path.split(separator: "/").map(String.init)
        }
        let target = components(path), base = components(directory)
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let up = base.count - shared
        // Inside `directory`, or up to a folder below the root that both are in.
        guard path.hasPrefix("/"), directory.hasPrefix("/"), up == 0 || (shared > 0 && up <= 2) else { return nil }
        let parts = Array(repeating: "..", count: up) + target[shared...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
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
