import TrustDER
import TrustCore
import X509

/// The path the presented certificates form by their signatures, from the leaf: each next
/// certificate is one whose subject is the current issuer and whose key verifies the current
/// signature, taken from the presented certificates or, to end the path, from the anchors.
///
/// Used by the pinning policy when invalid certificates are allowed, so that a pin counts only for
/// a certificate that really is on the leaf's path, never for one merely appended to the chain.
/// No validity, name or constraint checks: that is the evaluator's job.
struct SignatureLinkedPath: Sendable {
    /// The anchors, parsed once.
    let anchors: [(der: [UInt8], certificate: Certificate)]

    init(anchors: [[UInt8]]) {
        self.anchors = anchors.compactMap { der in
            (try? Certificate(derEncoded: der)).map { (der, $0) }
        }
    }

    /// The most certificates and bytes of a presented chain the policy links at all.
    static let maximumPresentedCertificates = 1_000
    static let maximumPresentedBytes = 1 << 20

    /// At most this many certificates, so hostile chains cost bounded time.
    static let maximumLength = 16

    /// The linked path from `chain[0]`; empty when the leaf cannot be parsed or the chain is beyond
    /// the policy's own input limits (``maximumPresentedCertificates`` and ``maximumPresentedBytes``,
    /// the same as the `checks` layer's). A certificate presented more than once is parsed
    /// once, so a chain of repeats costs what one copy costs.
    func build(_ chain: [[UInt8]]) -> [[UInt8]] {
        guard chain.count <= Self.maximumPresentedCertificates,
              chain.reduce(0, { $0 + $1.count }) <= Self.maximumPresentedBytes,
              let leafDER = chain.first, let leaf = try? Certificate(derEncoded: leafDER)
        else { return [] }
        var seen: Set<[UInt8]> = [leafDER]
        var candidates: [(der: [UInt8], certificate: Certificate)] = chain.dropFirst().compactMap { der in
            guard seen.insert(der).inserted else { return nil }
            return (try? Certificate(derEncoded: der)).map { (der, $0) }
        }
        var path = [leafDER]
        var current = leaf
        while path.count < Self.maximumLength {
            if current.subject == current.issuer && current.publicKey.isValidSignature(current.signature, for: current) {
                break  // self-signed: the path ends here
            }
            if let index = candidates.firstIndex(where: { issues($0.certificate, current) }) {
                let next = candidates.remove(at: index)
                path.append(next.der)
                current = next.certificate
                continue
            }
            if let anchor = anchors.first(where: { issues($0.certificate, current) }), !path.contains(anchor.der) {
                path.append(anchor.der)
            }
            break
        }
        return path
    }

    private func issues(_ issuer: Certificate, _ subject: Certificate) -> Bool {
        issuer.subject == subject.issuer && issuer.publicKey.isValidSignature(subject.signature, for: subject)
    }
}
