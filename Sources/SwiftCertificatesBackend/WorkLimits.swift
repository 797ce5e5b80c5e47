import X509
import TrustCore

/// Bounds on the work one evaluation may cost, checked before the `Verifier` runs, because the
/// library has none (swift-certificates 1.21): its chain builder verifies the signature of every
/// certificate whose subject matches an issuer name, and its name-constraint check compares every
/// name with every constraint. On x509-limbo's pathological cases that is 30 s
/// (`pathological-chain-same-subject-distinct-key`: 100 intermediates with one subject) and 90 s
/// (`nc-dos-1`, `nc-dos-2`: 4,096 constraints against 2,049 names) for one evaluation in a debug
/// build, several seconds in release: a peer could stall a client with one handshake.
///
/// The limits are Go's and OpenSSL's: at most ``signatureChecks`` candidate issuers over the
/// whole search (Go's `maxChainSignatureChecks` is 100 per chain; this estimate counts every
/// candidate the search could try, so it allows more), and at most ``nameComparisons``
/// (2^20, OpenSSL's `NAME_CHECK_MAX` in crypto/x509/v3_ncons.c) names times constraints for one
/// certificate under one constrained CA. A request beyond them is refused (`other`), never
/// trusted; real chains are far below both.
enum WorkLimits {
    static let signatureChecks = 1_000
    static let nameComparisons = 1 << 20

    /// Up to this many names are counted by comparing them one by one; hashing a
    /// `DistinguishedName` costs more than a handful of comparisons (it hashes every attribute byte
    /// by byte), and a chain usually has two or three.
    static let linearCountLimit = 16

    /// What the anchors contribute, worked out once per evaluator.
    struct Anchors: Sendable {
        /// The anchors' subjects, and how many anchors carry each (for many anchors).
        var subjectList: [DistinguishedName] = []
        var subjects: [DistinguishedName: Int] = [:]
        /// The most name constraints (permitted plus excluded subtrees) of any anchor.
        var mostConstraints = 0

        init(_ anchors: [Certificate]) {
            for anchor in anchors {
                subjectList.append(anchor.subject)
                mostConstraints = max(mostConstraints, WorkLimits.constraintCount(anchor))
            }
            if subjectList.count > WorkLimits.linearCountLimit {
                for subject in subjectList { subjects[subject, default: 0] += 1 }
            }
        }

        /// How many anchors have `name` as their subject.
        func count(_ name: DistinguishedName) -> Int {
            subjectList.count > WorkLimits.linearCountLimit ? subjects[name, default: 0] : subjectList.reduce(0) { $0 + ($1 == name ? 1 : 0) }
        }
    }

    /// The constraints of `certificate`'s nameConstraints extension; 0 without one (or when it
    /// cannot be decoded: the library then fails the chain itself).
    static func constraintCount(_ certificate: Certificate) -> Int {
        guard certificate.extensions[oid: .X509ExtensionID.nameConstraints] != nil,
              let constraints = try? certificate.extensions.nameConstraints else { return 0 }
        return constraints.permittedSubtrees.count + constraints.excludedSubtrees.count
    }

    /// The names the library checks against name constraints: the subject and each subjectAltName.
    static func nameCount(_ certificate: Certificate) -> Int {
        guard certificate.extensions[oid: .X509ExtensionID.subjectAlternativeName] != nil else { return 1 }
        return 1 + ((try? certificate.extensions.subjectAlternativeNames)?.count ?? 0)
    }

    /// A refusal when the presented certificates (distinct, leaf first) would make the library's
    /// search or name-constraint check exceed the limits, or nil.
    static func refusal(_ presented: [Certificate], anchors: Anchors) -> Verdict? {
        var candidates = 0
        if presented.count <= linearCountLimit {
            for certificate in presented {
                for other in presented where other.subject == certificate.issuer { candidates += 1 }
                candidates += anchors.count(certificate.issuer)
            }
        } else {
            var subjects: [DistinguishedName: Int] = [:]
            for certificate in presented { subjects[certificate.subject, default: 0] += 1 }
            for certificate in presented {
                candidates += subjects[certificate.issuer, default: 0] + anchors.count(certificate.issuer)
            }
        }
        if candidates > signatureChecks {
            return .failClosed(
                .other, name: "PATH_SEARCH_LIMIT",
                message: "the presented certificates offer \(candidates) candidate issuers by name (limit \(signatureChecks)): swift-certificates' Verifier would verify a signature for each; refused before it runs",
                origin: .harness
            )
        }
        let constraints = presented.map(constraintCount).max().map { max($0, anchors.mostConstraints) } ?? anchors.mostConstraints
        if constraints > 0 {
            let names = presented.map(nameCount).max() ?? 0
            if constraints * names > nameComparisons {
                return .failClosed(
                    .other, name: "NAME_CONSTRAINTS_LIMIT",
                    message: "\(names) names against \(constraints) name constraints is \(constraints * names) comparisons (limit \(nameComparisons), OpenSSL's NAME_CHECK_MAX); refused before swift-certificates' Verifier runs",
                    origin: .harness
                )
            }
        }
        return nil
    }
}
