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

    @Test(arguments: [BackendConfiguration.default, .uncached])
    func everyCaseGetsTheStatedAnswerOnEveryBackEnd(configuration: BackendConfiguration) async throws {
        let corpus = try Self.corpus()
        let results = await BadInputRunner(backends: BuiltIn.registry.all(configuration: configuration), corpus: corpus).run()
        #expect(results.count == corpus.cases.count * BuiltIn.registry.all().count)
        for result in results where !result.conforms {
            Issue.record("\(result.backend) \(result.id): \(result.problems.joined(separator: "; "))")
        }
        // The same class of answer on every back end.
        for (id, answers) in Dictionary(grouping: results, by: \.id) {
            #expect(Set(answers.map(\.observed)).count == 1, "\(id): \(answers.map { "\($0.backend) \($0.observed)" })")
        }
    }
}
