import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

/// One vector on one back end: the argument of the parameterised conformance test, named so that a
/// failure reads "expired-leaf/rsa2048 on gnutls".
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    let subject: ConformanceRunner.Subject
    let backend: any TrustBackend

    var testDescription: String { "\(subject.id) on \(backend.name)" }
}

enum Fixtures {
    static func suite() throws -> VectorSuite {
        guard let directory = VectorSuite.locate() else {
            throw VectorLoadError(file: "Vectors/manifest.json", problem: "not found above \(#filePath)")
        }
        return try VectorSuite.load(from: directory)
    }

    static func cases() throws -> [ConformanceCase] {
        let runner = ConformanceRunner(suite: try suite())
        return runner.allSubjects.flatMap { subject in
            BackendRegistry.all.map { ConformanceCase(subject: subject, backend: $0) }
        }
    }
}

@Suite struct ConformanceTests {
    /// Every vector (chain and policy) on every back end gives the verdict the standards or the policy
    /// semantics call for, or exactly its recorded deviation.
    @Test(arguments: try Fixtures.cases())
    func conforms(_ test: ConformanceCase) throws {
        let suite = try Fixtures.suite()
        let result = ConformanceRunner(backends: [test.backend], suite: suite).evaluate(test.subject, backend: test.backend)
        #expect(
            result.outcome == .pass || result.outcome == .deviation,
            "\(result.judgement.detail); observed \(result.observed.map { "\($0.failures) \($0.diagnostics.map(\.description)) \($0.reason ?? "")" } ?? result.error ?? "nothing")"
        )
    }

    @Test func everyBackendIsNamedAndVersioned() {
        let names = BackendRegistry.all.map(\.name)
        #expect(names == ["openssl", "gnutls"])
        #expect(Set(names).count == names.count)
        for backend in BackendRegistry.all {
            #expect(backend.libraryVersion.contains { $0.isNumber }, "\(backend.name) reports no version")
        }
    }

    /// Every deviation describes a real disagreement with the standards and says why.
    @Test func deviationsAreExplainedDisagreements() throws {
        let suite = try Fixtures.suite()
        for deviation in suite.deviations {
            #expect(BackendRegistry.all.contains { $0.name == deviation.backend }, "deviation names unknown back end \(deviation.backend)")
            #expect(deviation.reason.count >= 40, "deviation \(deviation.backend) \(deviation.vector) needs a real reason")
            if let policy = suite.policies.first(where: { $0.id == deviation.vector }) {
                #expect(deviation.observed.step != nil && deviation.observed.step != policy.expected.step,
                        "policy deviation \(deviation.backend) \(deviation.vector) must record the step that differs")
                continue
            }
            let vector = try #require(suite.vectors.first { $0.id == deviation.vector })
            let conforms = deviation.observed.trusted == vector.expected.trusted
                && (vector.expected.trusted || (!deviation.observed.failures.isEmpty && deviation.observed.failures.allSatisfy(vector.expected.failures.contains)))
            #expect(!conforms, "deviation \(deviation.backend) \(deviation.vector) records a conforming outcome")
        }
    }

    /// The whole set evaluated from many tasks at once, sharing evaluators, gives exactly the
    /// verdicts of one task evaluating in order: failure classes, native diagnostics, path lengths and
    /// policy steps,
    /// GnuTLS's process-wide clock included (vectors carry different validation times).
    @Test func concurrentEvaluationGivesTheSequentialVerdicts() async throws {
        let suite = try Fixtures.suite()
        let runner = ConformanceRunner(suite: suite)
        var sequential: [String: ConformanceResult] = [:]
        for subject in runner.allSubjects {
            for backend in runner.backends {
                sequential["\(subject.id) \(backend.name)"] = runner.evaluate(subject, backend: backend)
            }
        }
        let rounds = 4
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
