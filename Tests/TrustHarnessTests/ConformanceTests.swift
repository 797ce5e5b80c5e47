import BuiltInBackends
import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

/// One vector on one back end made with one configuration: the argument of the parameterised
/// conformance test, named so that a failure reads "expired-leaf/rsa2048 on gnutls (cached)".
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    let subject: ConformanceRunner.Subject
    let backend: any TrustBackend
    let configuration: BackendConfiguration

    var testDescription: String { "\(subject.id) on \(backend.name) (\(Fixtures.label(configuration)))" }
}

enum Fixtures {
    /// Loaded once for the whole run: each of the ~1,300 parameterised cases used to load (and parse)
    /// every certificate file again, most of the suite's time.
    static func suite() throws -> VectorSuite {
        try loaded.get()
    }

    private static let loaded = Result { () throws -> VectorSuite in
        guard let directory = VectorSuite.locate() else {
            throw VectorLoadError(file: "Vectors/manifest.json", problem: "not found above \(#filePath)")
        }
        return try VectorSuite.load(from: directory)
    }

    /// Every back end is run with its certificate cache on. That the cache never changes a verdict
    /// (uncached, cached, and a cache of 2 that evicts all the time, with exact diagnostics and
    /// paths) is the test kit's contract suite, run on every built-in back end and variant by
    /// TestKitTests.
    static let configurations: [(label: String, configuration: BackendConfiguration)] = [("cached", .default)]

    static func label(_ configuration: BackendConfiguration) -> String {
        configurations.first { $0.configuration == configuration }?.label ?? "\(configuration)"
    }

    static func cases() throws -> [ConformanceCase] {
        let runner = ConformanceRunner(backends: BuiltInBackends.registry.all(), suite: try suite())
        return runner.allSubjects.flatMap { subject in
            configurations.flatMap { entry in
                BuiltInBackends.registry.all(configuration: entry.configuration).map {
                    ConformanceCase(subject: subject, backend: $0, configuration: entry.configuration)
                }
            }
        }
    }
}

struct ConformanceKey: Hashable {
    var id: String
    var backend: String
}

@Suite struct ConformanceTests {
    /// The shared run's results by vector and back end, for 2,157 cases to look up, not search.
    static let byVectorAndBackend = Task { () throws -> [ConformanceKey: ConformanceResult] in
        let results = try await HTMLReportTests.fullRun().results
        return Dictionary(results.map { (ConformanceKey(id: $0.id, backend: $0.backend), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every vector (chain and policy) on every back end gives the verdict the standards or the
    /// policy semantics call for, or exactly its recorded deviation: one test case per vector and
    /// back end, judged from the one full run the report tests share (`trust-harness run`'s run).
    /// That a second, warm evaluation gives the same verdict is the test kit's contract suite.
    @Test(arguments: try Fixtures.cases())
    func conforms(_ test: ConformanceCase) async throws {
        let result = try #require(try await Self.byVectorAndBackend.value[ConformanceKey(id: test.subject.id, backend: test.backend.name)])
        // A request that needs a feature the back end lacks (a revocation mode, CRLs, OCSP) is not
        // put to the library: skipped, which the feature table reports; nothing else may be.
        var lacksFeature = false
        if case .chain(let vector) = test.subject { lacksFeature = !vector.request.requiredFeatures.isSubset(of: test.backend.features) }
        #expect(
            // A limit is the library's own bound (GnuTLS's client verify depth), neither a pass nor a verdict.
            result.outcome == .pass || result.outcome == .deviation || result.outcome == .open || result.outcome == .limit
                || (lacksFeature && result.outcome == .skipped),
            "\(result.judgement.detail); observed \(result.observed.map { "\($0.failures) \($0.diagnostics.map(\.description)) \($0.reason ?? "")" } ?? result.error ?? "nothing")"
        )
    }

    @Test func everyBackendIsNamedAndVersioned() throws {
        let names = BuiltInBackends.registry.all().map(\.name)
        #expect(names == ["openssl", "gnutls", "swift-certificates"])
        #expect(BuiltInBackends.registry.names == names + ["openssl-default", "gnutls-default", "swift-certificates+serverauth"])
        #expect(BuiltInBackends.registry.all(configuration: .uncached).map(\.name) == names)
        #expect(try BuiltInBackends.registry.named(["gnutls"], configuration: .uncached).map(\.name) == ["gnutls"])
        #expect(Set(names).count == names.count)
        for backend in BuiltInBackends.registry.all() {
            #expect(backend.libraryVersion.contains { $0.isNumber }, "\(backend.name) reports no version")
        }
    }

    /// Every deviation describes a real disagreement with the standards and says why.
    @Test func deviationsAreExplainedDisagreements() throws {
        let suite = try Fixtures.suite()
        // Read once: loading it for each of the bad-input deviations was most of this test's time.
        let corpus = try BadInputCorpus.load(vectors: suite.directory)
        for deviation in suite.deviations {
            #expect(BuiltInBackends.registry.names.contains(deviation.backend), "deviation names unknown back end \(deviation.backend)")
            #expect(deviation.reason.count >= 40, "deviation \(deviation.backend) \(deviation.vector) needs a real reason")
            if let policy = suite.policies.first(where: { $0.id == deviation.vector }) {
                #expect(deviation.observed.step != nil && deviation.observed.step != policy.expected.step,
                        "policy deviation \(deviation.backend) \(deviation.vector) must record the step that differs")
                continue
            }
            if deviation.vector.hasPrefix(VectorSuite.badInputPrefix) {
                let id = String(deviation.vector.dropFirst(VectorSuite.badInputPrefix.count))
                let testcase = try #require(corpus.cases.first { $0.id == id })
                #expect(testcase.expect.verdict != "inputError", "deviation \(deviation.backend) \(deviation.vector): no back end sees an input error")
                #expect(deviation.observed.trusted != (testcase.expect.verdict == "trusted") || deviation.observed.failures != (testcase.expect.failures ?? []).sorted(),
                        "deviation \(deviation.backend) \(deviation.vector) records the corpus's own answer")
                continue
            }
            let vector = try #require(suite.vectors.first { $0.id == deviation.vector })
            // Under each profile it is recorded for: a departure, or a verdict on a vector left open.
            for profile in StandardsProfile.allCases where deviation.applies(to: profile) {
                let answer = vector.entry.answer(for: profile)
                if answer.open != nil { continue }
                #expect(!answer.expected.admits(trusted: deviation.observed.trusted, failures: deviation.observed.failures), "deviation \(deviation.backend) \(deviation.vector) records a conforming outcome under \(profile.rawValue)")
            }
        }
    }

}
