import Foundation
import Testing
import TrustCore
@testable import TrustVectors

/// A record written once per cause covers several vectors; each is judged on its own.
@Suite struct GroupedDeviationTests {
    static let json = Data("""
    {"version": 1, "deviations": [
      {"backend": "mine", "vectors": ["a/p256", "a/rsa2048"], "observed": {"trusted": false, "failures": ["hostnameMismatch", "untrusted"]}, "reason": "one cause"},
      {"backend": "mine", "vector": "b/p256", "observed": {"trusted": true, "failures": []}, "reason": "another"}
    ]}
    """.utf8)

    @Test func aRecordPerCauseExpandsToOnePerVector() throws {
        let list = try JSONDecoder().decode(DeviationList.self, from: Self.json)
        #expect(list.deviations.count == 2)
        let expanded = list.deviations.flatMap(\.expanded)
        #expect(expanded.map(\.vector) == ["a/p256", "a/rsa2048", "b/p256"])
        #expect(expanded.allSatisfy { $0.vectors == nil })
        #expect(expanded[0].observed.failures == [.untrusted, .hostnameMismatch], "read in taxonomy order")
        #expect(expanded[0].reason == expanded[1].reason)
    }

    @Test func itEncodesAsWrittenAndLosesAVectorWithoutLosingTheOthers() throws {
        var list = try JSONDecoder().decode(DeviationList.self, from: Self.json)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let decoded = try JSONSerialization.jsonObject(with: try encoder.encode(list)) as? [String: Any]
        let first = (decoded?["deviations"] as? [[String: Any]])?.first
        #expect(first?["vectors"] as? [String] == ["a/p256", "a/rsa2048"] && first?["vector"] == nil)
        list.remove(vector: "a/p256")
        #expect(list.deviations.map(\.covered) == [["a/rsa2048"], ["b/p256"]])
        list.remove(vector: "b/p256", backend: "other")
        #expect(list.deviations.count == 2, "another back end's removal leaves it")
        list.remove(vector: "b/p256")
        #expect(list.deviations.map(\.vector) == ["a/rsa2048"])
    }

    @Test func aRecordCoveringNoVectorIsRefused() {
        let empty = Data(#"{"version": 1, "deviations": [{"backend": "mine", "vectors": [], "observed": {"trusted": true, "failures": []}, "reason": "x"}]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeviationList.self, from: empty) }
    }
}

/// A problem in a bundled copy names the source file to edit.
@Suite struct BundledCopyTests {
    @Test func aBundledDeviationsFileIsNamedByItsSource() {
        let problem = FileProblem(file: "/p/.build/debug/MyBackend_MyBackend.resources/deviations.json", problem: "two deviations")
        #expect(problem.description == "Sources/MyBackend/deviations.json (SwiftPM's copy at /p/.build/debug/MyBackend_MyBackend.resources/deviations.json): two deviations")
        #expect(FileProblem(file: "/p/Vectors/deviations.json", problem: "x").description == "/p/Vectors/deviations.json: x")
    }
}
