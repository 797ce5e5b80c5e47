import TrustDER
import TrustCore
/// What a ``SecurityPolicyEvaluator`` decided and why.
///
/// The explanation (``reason``, ``pathPins``) is computed on demand, so a decision on the hot path
/// builds no strings and hashes nothing it does not need.
public struct PolicyDecision: Sendable, Hashable {
    /// The step that decided; it says whether the chain is trusted.
    public var step: PolicyStep
    /// The configured pins (those of the pinned certificates, then the `sha256/` pins).
    public var configuredPins: [SPKIPin]
    /// The back end's verdict on the chain against the evaluator's anchors, when it was evaluated.
    public var chainVerdict: Verdict?
    /// Mode `certificate`: the verdict with the pinned certificates as the only anchors.
    public var pinnedVerdict: Verdict?
    /// The signature-linked path the pins were looked for on (verified, or linked by signatures).
    public var path: [[UInt8]] = []
    /// The chain as presented, to show the pins of certificates that are not on the path.
    public var presented: [[UInt8]] = []
    /// The index in ``path`` of the certificate whose pin matched.
    public var matchedIndex: Int?
    /// The pin that matched.
    public var matchedPin: SPKIPin?

    init(step: PolicyStep, configuredPins: [SPKIPin], presented: [[UInt8]]) {
        self.step = step
        self.configuredPins = configuredPins
        self.presented = presented
    }

    public var trusted: Bool { step.trusts }

    /// The back end's failure classes behind a rejection (from the pinned-anchor verdict when that
    /// decided, else from the chain verdict); empty when the back end was not the reason.
    public var failures: [FailureClass] {
        switch step {
        case .invalidAgainstPinnedCertificates: return pinnedVerdict?.failures ?? []
        case .invalidChain: return chainVerdict?.failures ?? []
        default: return []
        }
    }

    /// The back end's own diagnostics behind a rejection.
    public var diagnostics: [NativeDiagnostic] {
        switch step {
        case .invalidAgainstPinnedCertificates: return pinnedVerdict?.diagnostics ?? []
        case .invalidChain: return chainVerdict?.diagnostics ?? []
        default: return []
        }
    }

    /// The pin of every certificate of ``path``, leaf first (nil for one whose key cannot be found).
    public var pathPins: [SPKIPin?] { path.map(SPKIPin.of(certificate:)) }

    /// One paragraph for a person: the step, the pin that matched or that none did (listing the
    /// path's pins next to the configured ones), and the back end's own failures.
    public var reason: String {
        let configured = configuredPins.isEmpty ? "none" : configuredPins.map(\.description).joined(separator: ", ")
        func list(_ pins: [SPKIPin?]) -> String {
            pins.enumerated().map { "[\($0.offset)] \($0.element?.description ?? "unreadable key")" }.joined(separator: ", ")
        }
        let onPath = list(pathPins)
        let offPath = presented.enumerated().filter { !path.contains($0.element) }
            .map { "presented[\($0.offset)] \(SPKIPin.of(certificate: $0.element)?.description ?? "unreadable key")" }
        let offPathNote = offPath.isEmpty ? "" : "; not on the path, so not counted: \(offPath.joined(separator: ", "))"
        let native = diagnostics.map(\.description).joined(separator: "; ")
        switch step {
        case .domainValidationRequiresPinning:
            return "rejected at step 1: to validate a domain name while allowing invalid certificates (a self-signed certificate) you must pin; the mode is none or nothing is pinned"
        case .allowInvalidWithoutPinning:
            return "trusted: pinning mode none with allowInvalidCertificates trusts any chain without evaluating it"
        case .validChain:
            return "trusted: the chain is valid against the anchors (path of \(path.count))"
        case .invalidChain:
            return "rejected: the chain is not valid against the anchors and invalid certificates are not allowed: \(failures.map(\.rawValue)) \(native)"
        case .invalidAgainstPinnedCertificates:
            if pinnedVerdict == nil { return "rejected: certificate pinning with no pinned certificate" }
            return "rejected: the chain is not valid with the pinned certificates as the only anchors: \(failures.map(\.rawValue)) \(native)"
        case .certificatePinMatched:
            return "trusted: certificate [\(matchedIndex ?? -1)] of the verified path is a pinned certificate (\(matchedPin?.description ?? "?"))"
        case .certificatePinNotMatched:
            return "rejected: no certificate of the verified path is pinned; path pins: \(onPath)\(offPathNote); configured: \(configured)"
        case .publicKeyPinMatched:
            return "trusted: the public key of certificate [\(matchedIndex ?? -1)] of the path is pinned (\(matchedPin?.description ?? "?"))"
        case .publicKeyPinNotMatched:
            return "rejected: no public key on the signature-linked path is pinned; path pins: \(onPath.isEmpty ? "none (no path)" : onPath)\(offPathNote); configured: \(configured)"
        }
    }
}
