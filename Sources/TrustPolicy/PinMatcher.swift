import TrustDER
import TrustCore
import Crypto
import Synchronization

/// Step 6's pin matching for one ``SecurityPolicyEvaluator``: the first certificate of a path whose
/// public key is pinned.
///
/// Hashing a SubjectPublicKeyInfo costs about 0.2-0.3 µs, most of it swift-crypto's per-hash setup, so
/// a client that keeps reconnecting to one server would pay it for every certificate on every
/// evaluation. The matcher remembers the last ``capacity`` public keys it hashed, by their exact
/// bytes, with their digest: a key seen before is found by comparing bytes (tens of nanoseconds) and
/// not hashed again. The memo only saves work: the answer for a key is a pure function of its bytes
/// and the policy's pins, both fixed, so it can never change a decision.
final class PinMatcher: Sendable {
    /// Public keys remembered: a server's path is two or three certificates, a few servers fit.
    static let capacity = 16

    private let pins: Set<PinDigest>
    private let memo = Mutex(Memo())

    init(pins: Set<PinDigest>) {
        self.pins = pins
    }

    /// The index and pin of the first certificate in `path` (DER, leaf first) whose public key is
    /// pinned; nil when none is (a certificate whose key cannot be found never matches).
    func firstPinned(in path: [[UInt8]]) -> (index: Int, pin: SPKIPin)? {
        Self.firstPinned(in: path, pins: pins, digest: digest(of:))
    }

    /// The same, hashing each SubjectPublicKeyInfo with `digest` (in place, from the certificate's bytes).
    static func firstPinned(
        in path: [[UInt8]],
        pins: Set<PinDigest>,
        digest: (UnsafeRawBufferPointer) -> SHA256Digest = { SHA256.hash(data: $0) }
    ) -> (index: Int, pin: SPKIPin)? {
        for (index, der) in path.enumerated() {
            guard let digest = SPKIPin.spkiDigest(of: der, hash: digest) else { continue }
            if pins.contains(PinDigest(digest)) {
                return (index, SPKIPin(digest: Array(digest)))
            }
        }
        return nil
    }

    private func digest(of spki: UnsafeRawBufferPointer) -> SHA256Digest {
        if let known = memo.withLock({ $0.digest(of: spki) }) { return known }
        let digest = SHA256.hash(data: spki)
        let entry = Memo.Entry(spki: Array(spki), digest: digest)
        memo.withLock { $0.remember(entry) }
        return digest
    }

    private struct Memo {
        struct Entry {
            let spki: [UInt8]
            let digest: SHA256Digest
        }

        var entries: [Entry] = []
        /// The entry the next new key replaces once the memo is full (oldest first).
        var next = 0

        func digest(of spki: UnsafeRawBufferPointer) -> SHA256Digest? {
            for entry in entries where entry.spki.count == spki.count {
                if entry.spki.withUnsafeBytes({ DERBytes.equal($0, spki) }) { return entry.digest }
            }
            return nil
        }

        mutating func remember(_ entry: Entry) {
            // Another task may have hashed the same key meanwhile: keep one entry per key.
            if entry.spki.withUnsafeBytes({ digest(of: $0) }) != nil { return }
            if entries.count < PinMatcher.capacity {
                entries.append(entry)
            } else {
                entries[next] = entry
                next = (next + 1) % PinMatcher.capacity
            }
        }
    }
}
