import TrustBackendKit
import BuiltInBackends
import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

/// The bad-input corpus (Vectors/bad-input) on every back end, cached and uncached, and through the
/// SecurityPolicy (BadInputRunner): each case gets exactly the answer its manifest states (from the
/// standards), the same on every back end, never a crash, never "trusted" by mistake.
@Suite(.timeLimit(.minutes(5))) struct BadInputTests {
    static func corpus() throws -> BadInputCorpus {
        try BadInputCorpus.load(vectors: try #require(VectorSuite.locate()))
    }

    @Test func corpusLoadsWithDistinctIds() throws {
        let corpus = try Self.corpus()
        #expect(corpus.cases.count >= 40)
        #expect(Set(corpus.cases.map(\.id)).count == corpus.cases.count)
        #expect(Set(corpus.cases.map(\.expect.verdict)) == ["trusted", "rejected", "inputError"])
    }

    /// Every registered back end, the variants too, against the corpus and the deviations recorded
    /// in Vectors/deviations.json (`bad-input/<id>` entries), and the same class of answer on all of
    /// them. (Cached and uncached, through the policy too, on the default back ends: the test kit's
    /// bad-input suite, TestKitTests.)
    ///
    /// The variants skip the cases of more than 1,000 certificates (the two 10,000-certificate
    /// chains): a variant is its back end's evaluator with other settings, which apply after the
    /// chain is parsed, and parsing is what those cases are about. On OpenSSL 3.0 each of their
    /// evaluations decodes 10,000 public keys (about a second of CPU), and the runner asks three
    /// times (cold, warm, through the policy): `openssl-default` on them was 6 of swift test's 80
    /// CPU-seconds (issue 47). CI runs the whole corpus on every variant (`scripts/all-backends
    /// bad-input` with the variants named, lane A of `.ci/run`).
    @Test func everyCaseGetsTheStatedAnswerOnEveryBackEnd() async throws {
        let configuration = BackendConfiguration.default
        let corpus = try Self.corpus()
        let entries = BuiltInBackends.registry.entries
        let backends = entries.filter(\.isDefault).map { GuardedBackend($0.make(configuration)) as any TrustBackend }
        let variants = entries.filter { !$0.isDefault }.map { GuardedBackend($0.make(configuration)) as any TrustBackend }
        #expect(!variants.isEmpty)
        let light = corpus.cases.filter { testcase in testcase.chain.map(Self.certificates).reduce(0, +) <= 1_000 }
        #expect(light.count < corpus.cases.count && light.count >= corpus.cases.count - 4, "the cases of more than 1,000 certificates: \(corpus.cases.count - light.count)")
        let deviations = try Fixtures.suite().deviations
        let results = await BadInputRunner(backends: backends, corpus: corpus, deviations: deviations).run()
            + BadInputRunner(backends: variants, corpus: corpus, deviations: deviations).run(light.map(\.id))
        #expect(results.count == corpus.cases.count * backends.count + light.count * variants.count)
        for result in results where !result.conforms {
            Issue.record("\(result.backend) \(result.id): \(result.problems.joined(separator: "; "))")
        }
        // The same class of answer on every back end without a recorded deviation.
        for (id, answers) in Dictionary(grouping: results.filter { $0.deviation == nil }, by: \.id) {
            #expect(Set(answers.map(\.observed)).count == 1, "\(id): \(answers.map { "\($0.backend) \($0.observed)" })")
        }
    }

    /// How many chain elements `part` stands for (a file or a vector's file is one).
    static func certificates(_ part: BadInputCorpus.Part) -> Int {
        if case .repeated(let inner, let count) = part { return count * certificates(inner) }
        return 1
    }

    /// A recorded deviation is the expected answer, and the corpus's own answer then fails: the
    /// deviation must go when the behaviour changes.
    @Test func aRecordedDeviationIsExpectedAndFailsWhenNoLongerSeen() async throws {
        let corpus = try Self.corpus()
        let testcase = try #require(corpus.cases.first { $0.id == "issuer-loop-anchored" })
        #expect(testcase.expect.verdict == "trusted")
        let backend = BuiltInBackends.registry.all()[0]
        let wrong = Deviation(backend: backend.name, vector: VectorSuite.badInputPrefix + testcase.id, observed: ObservedOutcome(trusted: false, failures: [.untrusted]), reason: "test")
        let result = BadInputRunner(backends: [backend], corpus: corpus, deviations: [wrong]).evaluate(testcase, on: backend)
        #expect(!result.conforms)
        #expect(result.expected == "rejected [\"untrusted\"]")
        #expect(result.problems.contains { $0.contains("no longer observed") }, "\(result.problems)")
    }
}
