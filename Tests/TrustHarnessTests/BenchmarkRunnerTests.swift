import BuiltInBackends
import Foundation
import Synchronization
import Testing
import TrustBackendKit
import TrustHarness
import TrustVectors

/// BenchmarkRunner on the built-in back ends and one real vector, with a budget of milliseconds: what
/// it returns has every figure it promises, and a problem is an error, not a figure. (That the
/// figures are sound is the Benchmarks/ package's business.)
@Suite struct BenchmarkRunnerTests {
    static func scenario(host: String? = nil) throws -> BenchmarkScenario {
        var scenario = BenchmarkScenario(try #require(try Fixtures.suite().vectors.first { $0.id == "valid-chain/p256" }))
        if let host { scenario.host = host }
        return scenario
    }

    @Test func everyBackEndHasColdAndWarmFiguresAndItsRawLoopWhereItHasOne() throws {
        let entries = BuiltInBackends.registry.entries.filter(\.isDefault)
        let names = entries.map(\.name)
        let baselines = BuiltInBackends.benchmarks
        let scenario = try Self.scenario()
        let runner = BenchmarkRunner(entries: entries, baselines: baselines, scenarios: [scenario], seconds: 0.002, rounds: 1)
        let calls = Mutex<[Int]>([])
        let result = try runner.run { done, total in
            #expect(total == runner.measurements)
            calls.withLock { $0.append(done) }
        }

        #expect(result.backends.map(\.name) == names)
        #expect(result.scenarios == [scenario.name])
        #expect(result.notMeasured.isEmpty, "every built-in back end trusts \(scenario.name)")
        #expect(calls.withLock { $0 } == Array(1...runner.measurements), "progress after every measurement, up to the total")
        #expect(baselines.loops.keys.contains { names.contains($0) } && names.contains { baselines.loops[$0] == nil }, "covers back ends with and without a raw loop")
        for name in names {
            for mode in BenchmarkResult.Mode.allCases {
                let figure = try #require(result.microseconds(backend: name, scenario: scenario.name, mode: mode), "\(name) \(mode)")
                #expect(figure > 0)
                let loop = result.rawLoopMicroseconds(backend: name, scenario: scenario.name, mode: mode)
                #expect((loop != nil) == (baselines.loops[name] != nil), "\(name) \(mode): a raw loop exactly where one is given")
                #expect(loop.map { $0 > 0 } ?? true)
            }
            #expect(result.floorMicroseconds(backend: name, scenario: scenario.name) != nil, "\(name): its floor or the common one")
        }
        #expect(result.parallel.map(\.backend) == names)
        #expect(result.parallel.allSatisfy { $0.threads >= 1 && $0.singleEvaluationsPerSecond > 0 && $0.parallelEvaluationsPerSecond > 0 })

        // The text has a row per back end; the JSON's results are what BenchmarkReport reads.
        let rows = DocumentWriter.text(result.document(provenance: nil)).split(separator: "\n")
        for name in names { #expect(rows.contains { $0.hasPrefix("  \(name) ") }, "\(name)'s row") }
        let report = try JSONDecoder().decode(BenchmarkReport.self, from: Data(try JSONText.encode(result.json).utf8))
        #expect(report.results.count == names.count * 2)
        #expect(result.json.baselines.filter { $0.mode != "floor" }.count == names.filter { baselines.loops[$0] != nil }.count * 2)
    }

    @Test func aBackEndThatDoesNotTrustTheChainIsNotMeasuredAndSaysWhy() throws {
        let entries = BuiltInBackends.registry.entries.filter { $0.name == "openssl" }
        let scenario = try Self.scenario(host: "other.example.test")
        let result = try BenchmarkRunner(entries: entries, baselines: BuiltInBackends.benchmarks, scenarios: [scenario], seconds: 0.002, rounds: 1).run()

        let skipped = try #require(result.notMeasured.first)
        #expect(result.notMeasured.count == 1 && skipped.backend == "openssl" && skipped.scenario == scenario.name)
        #expect(skipped.reason.hasPrefix("rejected hostnameMismatch"), "\(skipped.reason)")
        for mode in BenchmarkResult.Mode.allCases {
            #expect(result.microseconds(backend: "openssl", scenario: scenario.name, mode: mode) == nil)
            #expect(result.rawLoopMicroseconds(backend: "openssl", scenario: scenario.name, mode: mode) == nil)
        }
        #expect(result.parallel.isEmpty)
        // The floor does not depend on the host: it is still measured.
        #expect(result.floorMicroseconds(backend: "openssl", scenario: scenario.name) != nil && result.hasFigures)
    }

    @Test func aRawLoopThatDoesNotVerifyIsAnErrorNamingIt() throws {
        struct Failing: BaselineLoop {
            let label = "failing-c"
            func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? { nil }
        }
        let entries = BuiltInBackends.registry.entries.filter { $0.name == "openssl" }
        let runner = BenchmarkRunner(entries: entries, baselines: BenchmarkBaselines(loops: ["openssl": Failing()]), scenarios: [try Self.scenario()], seconds: 0.002, rounds: 1)
        let error = #expect(throws: BenchmarkError.self) { try runner.run() }
        #expect(error?.kind == .rawLoopFailed)
        #expect(error?.description == "the raw loop failing-c (cold) did not verify valid-chain/p256")
    }
}
