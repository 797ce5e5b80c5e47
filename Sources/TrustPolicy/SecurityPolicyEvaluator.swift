import TrustDER
import TrustCore
import Foundation

/// A ``SecurityPolicy`` bound to a back end and its anchors: evaluates presented chains for a domain.
/// Safe to use from many tasks at once.
public struct SecurityPolicyEvaluator: Sendable {
    public let policy: SecurityPolicy
    /// The back end's name, for reports.
    public let backend: String
    let anchors: any TrustEvaluator
    let pinnedAnchors: (any TrustEvaluator)?
    let linker: SignatureLinkedPath?
    let matcher: PinMatcher

    init(policy: SecurityPolicy, backend: String, anchors: any TrustEvaluator, pinnedAnchors: (any TrustEvaluator)?, linker: SignatureLinkedPath?) {
        self.policy = policy
        self.backend = backend
        self.anchors = anchors
        self.pinnedAnchors = pinnedAnchors
        self.linker = linker
        self.matcher = PinMatcher(pins: policy.pinDigests)
    }

    /// Step 6's pin matching alone: the index and pin of the first certificate of `path` (DER, leaf
    /// first) whose public key is pinned, or nil. Public keys this evaluator has hashed before are
    /// recognised by their bytes and not hashed again (see ``SecurityPolicy/firstPinnedKey(in:)``
    /// for the same answer without the memo).
    public func firstPinnedKey(in path: [[UInt8]]) -> (index: Int, pin: SPKIPin)? {
        matcher.firstPinned(in: path)
    }

    /// Decides whether to trust `chain` (DER, leaf first) for `domain` at `time`. Never throws: every
    /// failure is a rejection that says which step decided and why.
    public func evaluate(chain: [[UInt8]], forDomain domain: String?, at time: Date) -> PolicyDecision {
        evaluate(chain: chain, forDomain: domain, at: time, connectedAddress: nil)
    }

    /// As ``evaluate(chain:forDomain:at:)``, for a client that connected to `connectedAddress` (4
    /// or 16 bytes; ``TrustCore/EvaluationRequest/connectedAddress``), which the chain's evaluation
    /// is given as the request's.
    public func evaluate(chain: [[UInt8]], forDomain domain: String?, at time: Date, connectedAddress: [UInt8]?) -> PolicyDecision {
        let policy = self.policy
        var decision = PolicyDecision(step: .invalidChain, configuredPins: policy.pins, presented: chain)

        // Step 1.
        if domain != nil && policy.allowInvalidCertificates && policy.validatesDomainName && !policy.hasPins {
            decision.step = .domainValidationRequiresPinning
            return decision
        }
        // Step 2.
        let host = policy.validatesDomainName ? domain.map(HostIdentity.init) : nil
        var request = EvaluationRequest(chain: chain, host: host, time: time)
        request.connectedAddress = connectedAddress

        if policy.pinningMode == .none {
            if policy.allowInvalidCertificates {
                decision.step = .allowInvalidWithoutPinning
                return decision
            }
            let verdict = anchors.evaluate(request)
            decision.chainVerdict = verdict
            decision.path = verdict.path ?? []
            decision.step = verdict.isTrusted ? .validChain : .invalidChain
            return decision
        }

        if !policy.allowInvalidCertificates {
            let verdict = anchors.evaluate(request)
            decision.chainVerdict = verdict
            guard verdict.isTrusted else {
                decision.step = .invalidChain
                return decision
            }
            decision.path = verdict.path ?? []
        }

        switch policy.pinningMode {
        case .certificate:
            guard let pinnedAnchors else {
                decision.step = .invalidAgainstPinnedCertificates
                return decision
            }
            let verdict = pinnedAnchors.evaluate(request)
            decision.pinnedVerdict = verdict
            guard let path = verdict.path else {
                decision.step = .invalidAgainstPinnedCertificates
                return decision
            }
            decision.path = path
            if let index = path.firstIndex(where: policy.pinnedCertificateSet.contains) {
                decision.step = .certificatePinMatched
                decision.matchedIndex = index
                decision.matchedPin = SPKIPin.of(certificate: path[index])
            } else {
                decision.step = .certificatePinNotMatched
            }
        case .publicKey:
            if decision.path.isEmpty {
                decision.path = linker?.build(chain) ?? []
            }
            if let match = matcher.firstPinned(in: decision.path) {
                decision.step = .publicKeyPinMatched
                decision.matchedIndex = match.index
                decision.matchedPin = match.pin
            } else {
                decision.step = .publicKeyPinNotMatched
            }
        case .none:
            break
        }
        return decision
    }
}
