import BuiltInBackends
import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors
import TrustPolicy

/// Decisions explain themselves: the step, the pin that matched, or the pins on and off the path.
@Suite struct PolicyDecisionTests {
    func decide(_ id: String, on backend: any TrustBackend) throws -> PolicyDecision {
        let suite = try Fixtures.suite()
        let vector = try #require(suite.policies.first { $0.id == id })
        return try vector.policy.evaluator(on: backend, anchors: vector.anchors)
            .evaluate(chain: vector.chain, forDomain: vector.domain, at: vector.time)
    }

    @Test(arguments: BuiltInBackends.registry.all().map(\.name))
    func appendedPinIsShownOffThePath(backend: String) throws {
        let decision = try decide("policy/appended-pin-public-key-valid-chain/p256", on: try BuiltInBackends.registry.named([backend])[0])
        #expect(decision.step == .publicKeyPinNotMatched)
        let pinned = try #require(decision.configuredPins.first)
        #expect(!decision.pathPins.contains(pinned))
        #expect(decision.reason.contains("not on the path, so not counted: presented[3] \(pinned)"))
    }

    @Test(arguments: BuiltInBackends.registry.all().map(\.name))
    func matchNamesThePinAndItsPlace(backend: String) throws {
        let decision = try decide("policy/public-key-pin-root-not-sent/rsa2048", on: try BuiltInBackends.registry.named([backend])[0])
        #expect(decision.trusted)
        #expect(decision.matchedIndex == decision.path.count - 1)
        let pin = try #require(decision.matchedPin)
        #expect(decision.configuredPins.contains(pin))
        #expect(decision.reason.contains(pin.description))
    }

    @Test(arguments: BuiltInBackends.registry.all().map(\.name))
    func invalidChainCarriesTheBackEndsFailures(backend: String) throws {
        let decision = try decide("policy/expired-pinned-public-key/ed25519", on: try BuiltInBackends.registry.named([backend])[0])
        #expect(decision.step == .invalidChain)
        #expect(decision.failures == [.expired])
        #expect(!decision.diagnostics.isEmpty)
    }

    @Test func step1ExplainsWhyPinningIsNeeded() throws {
        let decision = try decide("policy/step1-none-allow-invalid-with-domain/p256", on: BuiltInBackends.registry.all()[0])
        #expect(!decision.trusted)
        #expect(decision.reason.contains("you must pin"))
    }

    /// Allowing invalid certificates, the public-key pin is looked for on the signature-linked path.
    /// Repeats of a certificate are parsed once and do not lengthen the path; a chain beyond the
    /// limits every back end applies links nothing, so no pin on it counts.
    @Test func linkedPathIgnoresRepeatsAndStopsAtTheLimits() throws {
        let vector = try #require(try Fixtures.suite().vectors.first { $0.id == "valid-chain/ed25519" })
        let leaf = vector.chain[0], intermediate = vector.chain[1]
        let pin = try #require(SPKIPin.of(certificate: intermediate))
        let policy = try SecurityPolicy(pinningMode: .publicKey, pins: [pin], allowInvalidCertificates: true, validatesDomainName: false)
        let evaluator = try policy.evaluator(on: BuiltInBackends.registry.all()[0], anchors: [])
        let time = vector.time

        let repeated = evaluator.evaluate(chain: [leaf] + Array(repeating: intermediate, count: 999), forDomain: nil, at: time)
        #expect(repeated.step == .publicKeyPinMatched)
        #expect(repeated.path == [leaf, intermediate])

        let tooMany = evaluator.evaluate(chain: [leaf] + Array(repeating: intermediate, count: 1_000), forDomain: nil, at: time)
        #expect(tooMany.step == .publicKeyPinNotMatched)
        #expect(tooMany.path.isEmpty)
    }
}
