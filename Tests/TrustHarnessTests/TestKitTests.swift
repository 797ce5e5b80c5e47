import TrustBackendKit
import BuiltInBackends
import Foundation
import Testing
import TrustHarness
import TrustHarnessTestKit
import TrustVectors

/// TrustHarness's own back ends run the test kit's suites exactly as a plugin author runs them over
/// theirs, with the deviations this package records: conformance on the default back ends (the
/// variants' verdicts are ConformanceTests' and CI's `run` of them), the contract on every built-in
/// back end and variant but one (each made a default entry here). Their bad-input answers are
/// BadInputTests' (every back end and variant); the kit's bad-input suite is run by every package
/// under Backends/ and by the example. One
/// contract suite for what every back end shares; each back end's own test target keeps only what is
/// its own.
@Suite struct TestKitTests {
    /// Every built-in back end and variant but `swift-certificates+serverauth`, which differs from
    /// `swift-certificates` only in its policy set, not in the evaluator code the contract exercises
    /// (in a debug build each swift-certificates contract run costs several seconds of pure-Swift
    /// parsing); its verdicts are ConformanceTests' and CI's `run` of the variants.
    static let everyBuiltIn: BackendRegistry = {
        do {
            return try BackendRegistry(BuiltInBackends.registry.entries.filter { $0.name != "swift-certificates+serverauth" }).includingVariants
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The kit's conformance suite as a package calls it, on one built-in (OpenSSL), asked once: every
    /// built-in's verdict on every vector is ConformanceTests' (the shared run), and that the built-ins
    /// answer every request alike cold and warm, alone and on many tasks, is the contract's
    /// (expectCacheKeepsVerdicts, the concurrent load), run below on each. (It ran on all three until
    /// issue 47: the same evaluations twice, 6 of swift test's 85 CPU-seconds.)
    @Test func conformance() async throws {
        let openssl = try BackendRegistry(BuiltInBackends.registry.entries.filter { $0.name == "openssl" })
        // Its record as a package of OpenSSL alone would have it: OpenSSL's deviations only (the kit
        // refuses a record that names a back end nobody registered).
        let recorded = try BackendTestKit.recordedSuite()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openssl-deviations-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(DeviationList(deviations: recorded.deviations.filter { $0.backend == "openssl" })).write(to: file)
        try await BackendTestKit.expectConformance(openssl, suite: recorded.replacingDeviations(from: file), repetitions: 0)
    }

    @Test func contract() async throws {
        try await BackendTestKit.expectContract(Self.everyBuiltIn)
    }
}

/// The docs list the built-in back ends (docs/deviations.md, its "Variants" table) exactly as the one list has them.
@Suite struct BuiltInListTests {
    @Test func theReadmeListsTheBuiltInBackEnds() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/deviations.md").standardized
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table = try #require(text.components(separatedBy: "| back end | settings |").dropFirst().first)
        let names = table.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.compactMap { row -> String? in
            guard let start = row.firstIndex(of: "`"), let end = row[row.index(after: start)...].firstIndex(of: "`") else { return nil }
            return String(row[row.index(after: start)..<end])
        }
        #expect(names.sorted() == BuiltInBackends.registry.names.sorted(), "README's back-end table: \(names); BuiltInBackends: \(BuiltInBackends.registry.names)")
    }
}
