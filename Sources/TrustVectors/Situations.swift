import Foundation

/// The situations a Swift service on Linux decides trust in, as data (`Vectors/situations.json`):
/// what the decision page weighs in each, which columns are HTTP clients, and what a column cannot
/// do in a situation with its source. Which column is best is never written here: the harness
/// computes it from run, suite and bench reports (`Decision` in TrustHarness).
public struct Situations: Codable, Sendable, Hashable {
    /// What kind of thing a column is: a verification library called by code, or an HTTP client.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case library, client
    }

    /// A column the file knows: its kind and what an application needs to use it.
    public struct Column: Codable, Sendable, Hashable {
        public var name: String
        public var kind: Kind
        public var needs: String
    }

    /// Something some columns cannot do, or do, in a situation, that no run measures.
    public struct Limit: Codable, Sendable, Hashable {
        public var columns: [String]
        public var says: String
        public var source: String
    }

    /// One situation.
    public struct Situation: Codable, Sendable, Hashable, Identifiable {
        public var id: String
        public var title: String
        /// Who is in it, in a clause.
        public var who: String
        /// The standards profile its evidence is judged against.
        public var profile: StandardsProfile
        /// Which kinds of column answer it: `client`, `library` or `any` (both, ranked apart).
        public var candidates: String
        /// Families of the standards whose departures get a column of their own.
        public var families: [String]?
        /// Suites (by their report's name: `limbo`, `pkits`, `nameconstraints`, `pathbuilding`)
        /// whose false accepts are weighed with the run's.
        public var suites: [String]?
        /// Only the vectors whose id starts with this (`policy/`); all when nil.
        public var vectors: String?
        /// Whether speed (a bench report) is part of the answer.
        public var speed: Bool?
        /// Columns that cannot be used in it, and why.
        public var excluded: [Limit]?
        /// What a candidate does there that the counts do not show.
        public var limits: [Limit]?

        /// The kinds ranked in this situation, the first the answer's lead.
        public var kinds: [Kind] {
            switch candidates {
            case "client": return [.client]
            case "library": return [.library]
            default: return [.client, .library]
            }
        }
    }

    /// What TrustHarness cannot yet tell, with what shows it.
    public struct Unknown: Codable, Sendable, Hashable {
        /// What a report can count for it.
        public enum Count: String, Codable, Sendable, Hashable {
            /// Per library, the PKITS cases it is not asked for want of CRLs (a pkits report).
            case pkitsCRLSkips = "pkits-crl-skips"
        }
        public var says: String
        public var source: String
        /// The figures the page adds from the reports, when any.
        public var counts: Count?
    }

    public var version: Int
    public var about: String
    public var columns: [Column]
    public var situations: [Situation]
    public var unknowns: [Unknown]

    /// The file's name in a vectors folder.
    public static let fileName = "situations.json"

    /// A column's kind: a column the file does not name (a back end from another package) is a library.
    public func kind(of column: String) -> Kind {
        columns.first { $0.name == column }?.kind ?? .library
    }

    /// What a column needs, when the file says.
    public func needs(of column: String) -> String? {
        columns.first { $0.name == column }?.needs
    }

    /// `situations.json` of a vectors folder.
    /// - Throws: ``VectorLoadError`` naming the file when it cannot be read or decoded, or a
    ///   situation names an unknown kind of candidate.
    public static func load(from directory: URL) throws -> Situations {
        let url = directory.appendingPathComponent(fileName)
        let situations = try FileProblem.decodeJSON(Situations.self, from: url, shape: "the decision page's situations (docs/choosing.md)")
        for situation in situations.situations where !["client", "library", "any"].contains(situation.candidates) {
            throw VectorLoadError(file: url.path, problem: "situation \"\(situation.id)\" has candidates \"\(situation.candidates)\"; expected client, library or any")
        }
        return situations
    }
}
