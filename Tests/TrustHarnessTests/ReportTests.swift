import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

@Suite struct ReportTests {
    /// The JSON report has the documented, stable shape.
    @Test func jsonReportHasTheDocumentedShape() async throws {
        let suite = try Fixtures.suite()
        let backends = BackendRegistry.all
        let results = await ConformanceRunner(backends: backends, suite: suite).run(Array(suite.vectors.prefix(3)).map(ConformanceRunner.Subject.chain))
        let json = try JSONReport(backends: backends.map(BackendInfo.init), results: results).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listed = try #require(object["backends"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == backends.map(\.name))
        #expect(listed.allSatisfy { ($0["version"] as? String)?.isEmpty == false })
        let entries = try #require(object["results"] as? [[String: Any]])
        #expect(entries.count == 3 * backends.count)
        for entry in entries {
            #expect(entry["vector"] is String && entry["backend"] is String)
            let expected = try #require(entry["expected"] as? [String: Any])
            #expect(expected["trusted"] is Bool && expected["failures"] is [String])
            let observed = try #require(entry["observed"] as? [String: Any])
            #expect(observed["trusted"] is Bool && observed["failures"] is [String] && observed["native"] is [Any])
            let outcome = try #require(entry["outcome"] as? String)
            #expect(Outcome(rawValue: outcome) != nil)
        }
    }

    @Test func textReportListsEveryVectorAndTheSummary() async throws {
        let suite = try Fixtures.suite()
        let backends = BackendRegistry.all
        let vectors = Array(suite.vectors.prefix(4))
        let results = await ConformanceRunner(backends: backends, suite: suite).run(vectors.map(ConformanceRunner.Subject.chain))
        let text = TextReport.render(backends: backends.map(BackendInfo.init), results: results)
        for vector in vectors { #expect(text.contains(vector.id)) }
        #expect(text.contains("Summary"))
        for backend in backends { #expect(text.contains(backend.libraryVersion)) }
    }
}
