import Foundation
import Testing
import TrustBackendKit
import TrustVectors

extension BackendTestKit {
    /// The three suites every back end answers to, one test each, parameterised in a back end's own
    /// test target:
    ///
    /// ```swift
    /// @Test(arguments: BackendTestKit.Check.allCases)
    /// func shared(_ check: BackendTestKit.Check) async throws {
    ///     try await BackendTestKit.expect(check, of: MyBackend.package)
    /// }
    /// ```
    public enum Check: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Every chain and policy vector, under both profiles: each passes or is exactly a recorded
        /// deviation of the package's deviations file, and no record of that file is a draft (a
        /// reason `scripts/record-deviations` wrote that names no cause: `"draft": true`).
        case conformance
        /// Every case of the bad-input corpus, cached and uncached: the answer the corpus states.
        case badInput
        /// The back-end contract: no trap, explained rejections, refused anchors, each request's own
        /// time, caches that never change a verdict, the same verdicts under concurrency.
        case contract

        /// The check's name in test results (`conformance`, `badInput`, `contract`).
        public var testDescription: String { rawValue }
    }

    /// Runs `check` on `package`: conformance and bad input on every entry, variants included, with
    /// the package's own deviations (`BackendPackage.deviations`); the contract on its default entries.
    /// - Throws: when the vectors or the deviations file cannot be read, or the package's entries
    ///   cannot form a registry (two share a name).
    public static func expect(_ check: Check, of package: BackendPackage, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let registry = try BackendPackage.registry(of: [package])
        switch check {
        case .conformance:
            try await expectConformance(registry.includingVariants, suite: try suite(deviations: package.deviations), sourceLocation: sourceLocation)
            for file in package.deviations {
                let drafts = try draftedRecords(in: file)
                #expect(drafts.isEmpty, "\(file.lastPathComponent): \(drafts.count) record(s) still have a drafted reason that names no cause (\(drafts.prefix(3).joined(separator: "; "))): write the cause (the library's code, documentation or stack behaviour) and drop \"draft\"", sourceLocation: sourceLocation)
            }
        case .badInput:
            try await expectBadInputAnswers(registry.includingVariants, suite: try suite(deviations: package.deviations), sourceLocation: sourceLocation)
        case .contract:
            try await expectContract(registry, sourceLocation: sourceLocation)
        }
    }

    /// `back end vector` of every record of the deviations file at `url` whose reason is a draft.
    /// - Throws: when the file cannot be read or decoded.
    public static func draftedRecords(in url: URL) throws -> [String] {
        let list = try FileProblem.decodeJSON(DeviationList.self, from: url, shape: "a deviations file")
        return list.deviations.filter(\.draft).map { "\($0.backend) \($0.vector)" }
    }

    /// The vector suite with every deviations file of `files` (none: nothing recorded).
    static func suite(deviations files: [URL]) throws -> VectorSuite {
        try files.reduce(try suite(deviations: nil)) { try $0.adding(deviationsFrom: $1) }
    }

    /// One committed chain vector as a request, for a back end's own tests.
    public struct Vector: Sendable {
        /// The vector's id (`valid-chain/rsa2048`).
        public var id: String
        /// The DER anchors the request is evaluated against.
        public var anchors: [[UInt8]]
        /// The request: the presented chain, host, fixed validation time and purpose.
        public var request: EvaluationRequest
        /// Whether the standards (RFC 5280 with RFC 9525) trust it.
        public var isTrustedByTheStandards: Bool
    }

    /// The committed chain vectors, the catalogue's first and then, when `includingExplored`, the
    /// explorer's adopted mutants (`explored/...`).
    /// - Throws: when the vectors cannot be read.
    public static func vectors(includingExplored: Bool = true) throws -> [Vector] {
        try suite(deviations: nil).vectors.filter { includingExplored || !$0.id.hasPrefix("explored/") }.map {
            Vector(id: $0.id, anchors: $0.anchors, request: $0.request, isTrustedByTheStandards: $0.expected.trusted)
        }
    }

    /// The committed chain vector `id`.
    /// - Throws: when the vectors cannot be read or none has that id.
    public static func vector(_ id: String) throws -> Vector {
        guard let vector = try vectors().first(where: { $0.id == id }) else {
            throw VectorLoadError(file: "Vectors/manifest.json", problem: "no chain vector has the id \"\(id)\"")
        }
        return vector
    }
}
