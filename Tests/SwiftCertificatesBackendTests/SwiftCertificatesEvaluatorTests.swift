import Foundation
import SwiftCertificatesBackend
import TestPKI
import Testing
import TrustCore
import X509

/// What is this back end's own: the path in the caller's bytes, the work limits, the EKU policy, the
/// features it refuses, the version, and validation run on the calling thread under load.
@Suite(.timeLimit(.minutes(2))) struct SwiftCertificatesEvaluatorTests {
    static let rootDER = TestPKI.root.der
    static let intermediateDER = TestPKI.intermediate.der
    static let leafDER = TestPKI.leaf.der

    /// A leaf issued by `issuer` for `names`.
    static func leaf(_ names: [String], issuer: TestPKI.Node, usages: [ExtendedKeyUsage.Usage] = [.serverAuth]) -> [UInt8] {
        TestPKI.leaf("leaf", issuer: issuer, names: names.map { .dnsName($0) }, usages: usages).der
    }

    func evaluate(_ chain: [[UInt8]], anchors: [[UInt8]] = [rootDER], host: String? = "www.example.com", settings: SwiftCertificatesBackend.Settings = .standard) throws -> Verdict {
        try SwiftCertificatesBackend(settings: settings).makeEvaluator(anchors: anchors)
            .evaluate(EvaluationRequest(chain: chain, host: host.map(HostIdentity.init), time: TestPKI.start))
    }

    @Test func theVerifiedPathIsInTheCallersBytes() throws {
        let unrelated = Self.leaf(["other.example.com"], issuer: TestPKI.root)
        let verdict = try evaluate([Self.leafDER, unrelated, Self.intermediateDER, Self.leafDER, Self.intermediateDER])
        #expect(verdict.path == [Self.leafDER, Self.intermediateDER, Self.rootDER])
        #expect(try evaluate([Self.leafDER, Self.intermediateDER], host: "mail.example.com").failures == [.hostnameMismatch])
        #expect(try evaluate([Self.leafDER]).diagnostics.map(\.name) == ["NO_CHAIN_TO_ANCHOR"])
    }

    /// Forty CAs sharing one subject, each with its own key: 1,600 candidate issuers by name.
    @Test func aSearchBeyondTheLimitIsRefusedBeforeTheVerifier() throws {
        var chain = [Self.leaf(["www.example.com"], issuer: TestPKI.ca("same subject", issuer: nil))]
        for _ in 0..<40 {
            chain.append(TestPKI.ca("same subject", issuer: TestPKI.ca("same subject", issuer: nil)).der)
        }
        let verdict = try evaluate(chain)
        #expect(verdict.failures == [.other])
        #expect(verdict.diagnostics.map(\.name) == ["PATH_SEARCH_LIMIT"])
        // Ten are within it, and simply not trusted.
        #expect(try evaluate(Array(chain.prefix(10))).diagnostics.map(\.name) != ["PATH_SEARCH_LIMIT"])
    }

    /// A CA with 1,100 name constraints above a leaf with 1,000 names: 1.1 million comparisons.
    @Test func nameConstraintWorkBeyondTheLimitIsRefused() throws {
        let subtrees = (0..<1_100).map { GeneralName.dnsName("n\($0).example.com") }
        let constrained = TestPKI.ca("constrained", issuer: TestPKI.root, nameConstraints: NameConstraints(permittedSubtrees: subtrees))
        let ca = constrained.der
        let many = Self.leaf((0..<1_000).map { "n\($0).example.com" }, issuer: constrained)
        let limited = try evaluate([many, ca], host: "n5.example.com")
        #expect(limited.diagnostics.map(\.name) == ["NAME_CONSTRAINTS_LIMIT"])
        // Our refusal, not a limit of the library (it has none): the harness did not put it to the library.
        #expect(limited.origin == .harness)
        // Ten names under the same constraints are checked by the library, and trusted.
        let few = Self.leaf((0..<10).map { "n\($0).example.com" }, issuer: constrained)
        #expect(try evaluate([few, ca], host: "n5.example.com").isTrusted)
    }

    @Test func serverAuthenticationIsRequiredOnlyByOurPolicy() throws {
        let clientOnly = Self.leaf(["www.example.com"], issuer: TestPKI.intermediate, usages: [.clientAuth])
        #expect(try evaluate([clientOnly, Self.intermediateDER], settings: .withServerAuthentication).failures == [.purposeMismatch])
        // The library has no EKU policy: its column trusts a clientAuth-only leaf.
        #expect(try evaluate([clientOnly, Self.intermediateDER]).isTrusted)
        // A critical EKU is handled only by the policy that checks it.
        let critical = TestPKI.leaf("leaf", issuer: TestPKI.intermediate, names: [.dnsName("www.example.com")], usages: nil) {
            try $0.append(Certificate.Extension(ExtendedKeyUsage([.serverAuth]), critical: true))
        }.der
        #expect(try evaluate([critical, Self.intermediateDER], settings: .withServerAuthentication).isTrusted)
        #expect(try evaluate([critical, Self.intermediateDER]).diagnostics.map(\.name) == ["UNHANDLED_CRITICAL_EXTENSION"])
    }

    @Test func whatItCannotHonourIsRefused() throws {
        let evaluator = try SwiftCertificatesBackend().makeEvaluator(anchors: [Self.rootDER])
        var request = EvaluationRequest(chain: [Self.leafDER, Self.intermediateDER], host: .dns("www.example.com"), time: TestPKI.start, maximumChainDepth: 5)
        #expect(evaluator.evaluate(request).diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
        request.maximumChainDepth = nil
        request.revocationLists = [[0x30, 0x00]]
        #expect(evaluator.evaluate(request).diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
        request.revocationLists = []
        request.policy = PolicyInputs()
        #expect(evaluator.evaluate(request).diagnostics.map(\.name) == ["UNSUPPORTED_CONSTRAINT"])
        #expect(SwiftCertificatesBackend().features == [.anyPurpose, .ocspResponses, .hardFailRevocation, .softFailRevocation])
    }

    /// Any purpose: the TLS server policy is left out, RFC 5280 path validation stays (a valid path
    /// validates without a host; expiry is still checked).
    @Test func anyPurposeLeavesOutTheServerPolicy() throws {
        let evaluator = try SwiftCertificatesBackend().makeEvaluator(anchors: [Self.rootDER])
        var request = EvaluationRequest(chain: [Self.leafDER, Self.intermediateDER], host: nil, time: TestPKI.start, purpose: .anyPurpose)
        #expect(evaluator.evaluate(request).isTrusted)
        request.time = TestPKI.start + TestPKI.days(3_650)
        #expect(!evaluator.evaluate(request).isTrusted, "expiry is still checked")
    }

    @Test func theVersionIsTheResolvedOne() {
        #expect(SwiftCertificatesBackend().libraryVersion.wholeMatch(of: /swift-certificates [0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(SwiftCertificatesBackend().libraryVersion)")
    }

    /// Validation runs on the calling thread: many more tasks than the cooperative pool has threads,
    /// and plain threads besides, all finish with the right verdicts (a semaphore around a `Task`
    /// would deadlock here).
    @Test func manyTasksAndThreadsAtOnceAllFinish() async throws {
        let evaluator = try SwiftCertificatesBackend().makeEvaluator(anchors: [Self.rootDER])
        let valid = EvaluationRequest(chain: [Self.leafDER, Self.intermediateDER], host: .dns("www.example.com"), time: TestPKI.start)
        let expired = EvaluationRequest(chain: [Self.leafDER, Self.intermediateDER], host: .dns("www.example.com"), time: TestPKI.leaf.certificate.notValidAfter + TestPKI.days(1))
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<64 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<8 {
                        let expectTrusted = (task + round) % 2 == 0
                        if evaluator.evaluate(expectTrusted ? valid : expired).isTrusted != expectTrusted { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        let threads = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if evaluator.evaluate(index % 2 == 0 ? valid : expired).isTrusted == (index % 2 == 0) { threads.add() }
        }
        #expect(threads.value == 16)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}
