import Foundation

/// A results file in x509-limbo's own format, one per back end, so the figures can be set beside the
/// results other implementations publish:
/// `{"version": 1, "harness": "<name>-<version>", "results": [{"id", "actual_result", "context"}]}`.
public struct SuiteResultFile: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var id: String
        public var actualResult: String
        public var context: String?

        enum CodingKeys: String, CodingKey {
            case id
            case actualResult = "actual_result"
            case context
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(actualResult, forKey: .actualResult)
            try container.encode(context, forKey: .context)  // null, as upstream writes it, not absent
        }
    }

    public var version: Int
    public var harness: String
    public var results: [Entry]

    /// The file for `backend`'s results, in the order given. The harness name is
    /// `trustharness-<back end>-<library version number>`, e.g. `trustharness-openssl-3.0.19`.
    public init(backend: BackendInfo, results: [SuiteResult]) {
        version = 1
        harness = "trustharness-\(backend.name)-\(Self.versionNumber(backend.version))"
        self.results = results.filter { $0.backend == backend.name }
            .map { Entry(id: $0.id, actualResult: $0.actual.rawValue, context: $0.context) }
    }

    /// The first dotted number in a library's version text (`OpenSSL 3.0.19 27 Jan 2026` -> `3.0.19`).
    static func versionNumber(_ text: String) -> String {
        let token = text.split(separator: " ").first { $0.first?.isNumber == true && $0.contains(".") }
        return token.map(String.init) ?? text.replacingOccurrences(of: " ", with: "-")
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
