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
    /// paths) is the test kit's contract suite, run on every built-in back end and variant by the
    /// back ends' own test targets.
    static let configurations: [(label: String, configuration: BackendConfiguration)] = [("cached", .default)]

    static func label(_ configuration: BackendConfiguration) -> String {
        configurations.first { $0.configuration == configuration }?.label ?? "\(configuration)"
    }

    static func cases() throws -> [ConformanceCase] {
        let runner = ConformanceRunner(backends: BuiltIn.registry.all(), suite: try suite())
        return runner.allSubjects.flatMap { subject in
            configurations.flatMap { entry in
                BuiltIn.registry.all(configuration: entry.configuration).map {
                    ConformanceCase(subject: subject, backend: $0, configuration: entry.configuration)
                }
            }
        }
    }
}

@Suite struct ConformanceTests {
    /// Every vector (chain and policy) on every back end gives the verdict the standards or the
    /// policy semantics call for, or exactly its recorded deviation: one test case per vector and
    /// back end, judged from the one full run the report tests share (`trust-harness run`'s run).
    /// That a second, warm evaluation gives the same verdict is the test kit's contract suite.
    @Test(arguments: try Fixtures.cases())
    func conforms(_ test: ConformanceCase) async throws {
        let results = try await HTMLReportTests.fullRun().results
        let result = try #require(results.first { $0.id == test.subject.id && $0.backend == test.backend.name })
        #expect(
            result.outcome == .pass || result.outcome == .deviation,
            "\(result.judgement.detail); observed \(result.observed.map { "\($0.failures) \($0.diagnostics.map(\.description)) \($0.reason ?? "")" } ?? result.error ?? "nothing")"
        )
    }

    @Test func everyBackendIsNamedAndVersioned() throws {
        let names = BuiltIn.registry.all().map(\.name)
        #expect(names == ["openssl", "gnutls", "swift-certificates"])
        #expect(BuiltIn.registry.names == names + ["openssl-default", "gnutls-default", "swift-certificates-bare"])
        #expect(BuiltIn.registry.all(configuration: .uncached).map(\.name) == names)
        #expect(try BuiltIn.registry.named(["gnutls"], configuration: .uncached).map(\.name) == ["gnutls"])
        #expect(Set(names).count == names.count)
        for backend in BuiltIn.registry.all() {
            #expect(backend.libraryVersion.contains { $0.isNumber }, "\(backend.name) reports no version")
        }
    }

    /// Every deviation describes a real disagreement with the standards and says why.
    @Test func deviationsAreExplainedDisagreements() throws {
        let suite = try Fixtures.suite()
        for deviation in suite.deviations {
            #expect(BuiltIn.registry.names.contains(deviation.backend), "deviation names unknown back end \(deviation.backend)")
            #expect(deviation.reason.count >= 40, "deviation \(deviation.backend) \(deviation.vector) needs a real reason")
            if let policy = suite.policies.first(where: { $0.id == deviation.vector }) {
                #expect(deviation.observed.step != nil && deviation.observed.step != policy.expected.step,
                        "policy deviation \(deviation.backend) \(deviation.vector) must record the step that differs")
                continue
            }
            if deviation.vector.hasPrefix(VectorSuite.badInputPrefix) {
                let id = String(deviation.vector.dropFirst(VectorSuite.badInputPrefix.count))
                let testcase = try #require(try BadInputCorpus.load(vectors: suite.directory).cases.first { $0.id == id })
                #expect(testcase.expect.verdict != "inputError", "deviation \(deviation.backend) \(deviation.vector): no back end sees an input error")
                #expect(deviation.observed.trusted != (testcase.expect.verdict == "trusted") || deviation.observed.failures != (testcase.expect.failures ?? []).sorted(),
                        "deviation \(deviation.backend) \(deviation.vector) records the corpus's own answer")
                continue
            }
            let vector = try #require(suite.vectors.first { $0.id == deviation.vector })
            let conforms = deviation.observed.trusted == vector.expected.trusted
                && (vector.expected.trusted || (!deviation.observed.failures.isEmpty && deviation.observed.failures.allSatisfy(vector.expected.failures.contains)))
            #expect(!conforms, "deviation \(deviation.backend) \(deviation.vector) records a conforming outcome")
        }
    }

    /// The whole set evaluated from many tasks at once, sharing evaluators (and with the cache on,
    /// the certificates they have parsed), gives exactly the verdicts of one task evaluating in
    /// order: failure classes, native diagnostics, path lengths and policy steps, GnuTLS's
    /// process-wide clock included (vectors carry different validation times).
    @Test(arguments: Fixtures.configurations.map(\.label))
    func concurrentEvaluationGivesTheSequentialVerdicts(_ caching: String) async throws {
        let suite = try Fixtures.suite()
        let configuration = try #require(Fixtures.configurations.first { $0.label == caching }?.configuration)
        let runner = ConformanceRunner(backends: BuiltIn.registry.all(configuration: configuration), suite: suite)
        // The reference: the shared full run, every subject evaluated in order on one task.
        var sequential: [String: ConformanceResult] = [:]
        for result in try await HTMLReportTests.fullRun().results {
            sequential["\(result.id) \(result.backend)"] = result
        }
        // Two shuffled rounds at once on the two cores interleave every pair of vectors often enough;
        // LoadTests and the test kit's contract hammer the same evaluators for longer.
        let rounds = 2
        let concurrent = await withTaskGroup(of: [ConformanceResult].self) { group in
            for _ in 0..<rounds {
                group.addTask { await runner.run(runner.allSubjects.shuffled()) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(concurrent.count == rounds * runner.allSubjects.count * runner.backends.count)
        var mismatches: [String] = []
        for result in concurrent {
            let key = "\(result.id) \(result.backend)"
            if sequential[key]?.observed != result.observed { mismatches.append(key) }
        }
        #expect(mismatches.isEmpty, "verdicts differ under concurrency: \(Set(mismatches).sorted())")
    }
}
