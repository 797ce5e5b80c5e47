import TrustDER
import TrustCore
import Foundation

/// Server-trust decisions with the semantics of AFNetworking's `AFSecurityPolicy`
/// (`evaluateServerTrust:forDomain:`), on any ``TrustBackend``.
///
/// Settings: ``pinningMode`` (default `none`), pinned certificates (DER) and `sha256/` pins,
/// ``allowInvalidCertificates`` (default false), ``validatesDomainName`` (default true).
///
/// Evaluation, in order:
/// 1. A domain is given, invalid certificates are allowed, domain names are validated, and the mode is
///    `none` or nothing is pinned: rejected.
/// 2. The host is checked only when ``validatesDomainName`` is true and a domain is given.
/// 3. Mode `none`: trusted if invalid certificates are allowed, else if the chain is valid against the
///    evaluator's anchors.
/// 4. Modes `publicKey` and `certificate`: unless invalid certificates are allowed, a chain that is not
///    valid against the anchors is rejected.
/// 5. `certificate`: the pinned certificates become the only anchors and the chain must be valid against
///    them, host included, even when invalid certificates are allowed; trusted if a certificate of the
///    verified path is byte-identical to a pinned certificate.
/// 6. `publicKey`: trusted if a certificate of the path has the public key of a pin.
///
/// Hardening (deliberate, beyond AFNetworking): a pin counts only for a certificate on the
/// signature-linked path from the leaf: the verified path, or, with ``allowInvalidCertificates`` and
/// no valid chain, the path the presented certificates form by their signatures (continued to an
/// anchor that signed its last certificate). A pinned certificate appended to an unrelated chain never
/// makes that chain trusted.
///
/// A policy is built once: pinned certificates are parsed and hashed in the initialiser, never during
/// an evaluation. It is a value and `Sendable`.
public struct SecurityPolicy: Sendable, Hashable {
    public let pinningMode: PinningMode
    /// Pinned certificates, DER, as given.
    public let pinnedCertificates: [[UInt8]]
    /// Every configured public-key pin: those of the pinned certificates, then the `sha256/` pins.
    public let pins: [SPKIPin]
    public let allowInvalidCertificates: Bool
    public let validatesDomainName: Bool

    let pinnedCertificateSet: Set<[UInt8]>
    let pinDigests: Set<PinDigest>

    /// - Throws: ``PinError`` when a pinned certificate has no SubjectPublicKeyInfo that can be found
    ///   (it is not a DER certificate); a policy never silently drops a pin.
    public init(
        pinningMode: PinningMode = .none,
        pinnedCertificates: [[UInt8]] = [],
        pins: [SPKIPin] = [],
        allowInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true
    ) throws {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        var all: [SPKIPin] = []
        for (index, der) in pinnedCertificates.enumerated() {
            guard let pin = SPKIPin.of(certificate: der) else {
                throw PinError(input: "pinned certificate \(index + 1)", problem: "is not a DER certificate (no SubjectPublicKeyInfo found)")
            }
            all.append(pin)
        }
        all += pins
        self.pins = all
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.pinnedCertificateSet = Set(pinnedCertificates)
        self.pinDigests = Set(all.map { PinDigest($0.digest) })
    }

    /// Whether the policy has something to pin in its mode: certificates for `certificate`, any pin
    /// for `publicKey`, nothing for `none`.
    public var hasPins: Bool {
        switch pinningMode {
        case .none: return false
        case .certificate: return !pinnedCertificates.isEmpty
        case .publicKey: return !pins.isEmpty
        }
    }

    /// Makes the evaluator that applies this policy on `backend` with `anchors` (the system trust
    /// store in real use, a vector's anchors in tests). Anchors and, in `certificate` mode, the pinned
    /// certificates are parsed once here.
    /// - Throws: ``TrustBackendError`` when the back end refuses the anchors or the pinned certificates.
    public func evaluator(on backend: any TrustBackend, anchors: [[UInt8]]) throws -> SecurityPolicyEvaluator {
        let pinned = pinningMode == .certificate && !pinnedCertificates.isEmpty
            ? try backend.makeEvaluator(anchors: pinnedCertificates) : nil
        return SecurityPolicyEvaluator(
            policy: self,
            backend: backend.name,
            anchors: try backend.makeEvaluator(anchors: anchors),
            pinnedAnchors: pinned,
            linker: pinningMode == .publicKey && allowInvalidCertificates ? SignatureLinkedPath(anchors: anchors) : nil
        )
    }

    /// The first certificate of `path` (DER, leaf first) whose public key is pinned: its index and
    /// pin, or nil when none is. This is step 6's pin matching, and costs one SHA-256 of each
    /// SubjectPublicKeyInfo up to the match, found and hashed in place. (An evaluator's
    /// ``SecurityPolicyEvaluator/firstPinnedKey(in:)`` also remembers keys it has hashed.)
    public func firstPinnedKey(in path: [[UInt8]]) -> (index: Int, pin: SPKIPin)? {
        PinMatcher.firstPinned(in: path, pins: pinDigests)
    }
}

/// A SHA-256 digest as four words: hashed and compared without touching an array.
struct PinDigest: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ bytes: some ContiguousBytes) {
        words = bytes.withUnsafeBytes { raw in
            precondition(raw.count == 32, "a SHA-256 digest has 32 bytes")
            return (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        }
    }

    static func == (lhs: PinDigest, rhs: PinDigest) -> Bool { lhs.words == rhs.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
