import Foundation
import TrustCore
import TrustPolicy
import TrustVectors

extension PolicyDecision {
    /// The decision for a person, as `evaluate` reports it: for a rejection of the chain (with the
    /// evaluator's anchors, or with the pinned certificates as the only anchors) what was wrong, said
    /// from the back end's failure classes (a wrong host as a wrong host, naming `host`; an expired
    /// certificate with `time`), then the library's own diagnostics; for any other step the policy's
    /// own ``reason`` (a pin that matched or that none did).
    func sentence(host: String?, time: Date) -> String {
        let prefix: String
        switch step {
        case .invalidChain: prefix = "rejected: "
        case .invalidAgainstPinnedCertificates where pinnedVerdict != nil: prefix = "rejected with the pinned certificates as the only anchors: "
        default: return reason
        }
        guard !failures.isEmpty else { return reason }
        let what = failures.map { $0.sentence(host: host, time: time) }.joined(separator: "; ")
        let native = diagnostics.map(\.description).joined(separator: "; ")
        return prefix + what + (native.isEmpty ? "" : " (\(native))")
    }
}

extension FailureClass {
    /// What this failure means for the chain asked about, in words: the host and the time named
    /// where the failure is about them.
    func sentence(host: String?, time: Date) -> String {
        switch self {
        case .expired: return "a certificate of the chain had expired by \(Timestamp.format(time))"
        case .notYetValid: return "a certificate of the chain was not yet valid at \(Timestamp.format(time))"
        case .untrusted: return "the chain does not lead to any of the anchors"
        case .hostnameMismatch: return host.map { "wrong host: the certificate is not for \($0)" } ?? "wrong host: the certificate is not for the host asked"
        case .pathLengthExceeded: return "the chain is longer than an issuer's pathLenConstraint allows"
        case .notCA: return "an issuer of the chain is not a CA"
        case .badSignature: return "a signature in the chain does not verify"
        case .purposeMismatch: return "the certificate is not for TLS server authentication (its key usage or extended key usage)"
        case .revoked: return "a certificate of the chain is revoked"
        case .malformed: return "the input cannot be read (bad DER, an empty chain or an unusable host)"
        case .other: return "for a reason outside the failure classes, which the diagnostics give"
        }
    }
}
