import Foundation
@testable import NSSBackend
import Testing
import TrustBackendKit
import TrustHarnessTestKit
#if canImport(Glibc)
import Glibc
#endif

/// NSS, plugged in from outside, runs TrustHarness's whole conformance, bad-input and contract
/// suites with this package's own deviations file.
@Suite struct NSSBackendTests {
    @Test(arguments: BackendTestKit.Check.allCases)
    func shared(_ check: BackendTestKit.Check) async throws {
        try await BackendTestKit.expect(check, of: NSSBackend.package)
    }

    /// NSS's store and caches are per process and NSS runs in worker processes that are reset only
    /// when a request could meet another's certificates (NSSWorkers): every catalogue vector asked
    /// one at a time, then all of them again in another order from eight tasks at once, twice, gets
    /// the same verdict, diagnostics and path each time.
    @Test func verdictsDoNotDependOnOrderOrCompany() async throws {
        let vectors = try BackendTestKit.vectors(includingExplored: false)
        let backend = NSSBackend()
        var evaluators: [[[UInt8]]: any TrustEvaluator] = [:]
        for anchors in Set(vectors.map(\.anchors)) {
            evaluators[anchors] = try? backend.makeEvaluator(anchors: anchors)
        }
        let cases = vectors.compactMap { vector in evaluators[vector.anchors].map { (vector.id, $0, vector.request) } }
        var first: [String: Verdict] = [:]
        for (id, evaluator, request) in cases { first[id] = evaluator.evaluate(request) }
        let baseline = first
        for round in 0..<2 {
            var order = cases
            order.reverse()
            if round == 1 { order = order.enumerated().sorted { ($0.offset * 7919) % order.count < ($1.offset * 7919) % order.count }.map(\.element) }
            let shuffled = order
            let again = try await withThrowingTaskGroup(of: [(String, Verdict)].self) { group in
                for task in 0..<8 {
                    group.addTask {
                        stride(from: task, to: shuffled.count, by: 8).map { index in
                            let (id, evaluator, request) = shuffled[index]
                            return (id, evaluator.evaluate(request))
                        }
                    }
                }
                var all: [(String, Verdict)] = []
                for try await part in group { all += part }
                return all
            }
            for (id, verdict) in again where verdict != baseline[id] {
                Issue.record("\(id): \(verdict) in round \(round + 2), \(baseline[id].map(String.init(describing:)) ?? "nothing") alone")
            }
        }
    }

    /// A worker process that dies between requests (killed from outside) is replaced: the next
    /// request gets a new worker and its ordinary verdict.
    @Test func aKilledWorkerIsReplaced() throws {
        let vector = try BackendTestKit.vector("valid-chain/rsa2048")
        let evaluator = try NSSBackend().makeEvaluator(anchors: vector.anchors)
        // Requests go to worker processes only while the program's own NSS is off; verdicts are
        // the same either way, so the other tests running meanwhile are not affected.
        NSSWorkers.shared.homeEnabled = false
        defer { NSSWorkers.shared.homeEnabled = true }
        #expect(evaluator.evaluate(vector.request).isTrusted)
        let killed = NSSWorkers.shared.killIdleWorkers()
        #expect(!killed.isEmpty)
        let verdict = evaluator.evaluate(vector.request)
        #expect(verdict.isTrusted, "\(verdict)")
        // (Not that the killed worker has left the idle list: with other requests running beside this
        // test, this one may be served by another live worker, and a killed one is noticed when lent.)
    }

    /// A failure names NSS's own error (here the host check's SSL_ERROR_BAD_CERT_DOMAIN, whose
    /// table NSPR knows only once libssl3 is initialised), never NSPR's "Unknown code" text.
    @Test func aWrongHostNamesNSSsError() throws {
        let vector = try BackendTestKit.vector("valid-chain/rsa2048")
        var request = vector.request
        request.host = .dns("other.example.test")
        let verdict = try NSSBackend().makeEvaluator(anchors: vector.anchors).evaluate(request)
        #expect(verdict.failures == [.hostnameMismatch])
        #expect(verdict.diagnostics.map(\.name) == ["SSL_ERROR_BAD_CERT_DOMAIN"])
        #expect(verdict.diagnostics.allSatisfy { !$0.message.contains("Unknown code") })
    }
}
