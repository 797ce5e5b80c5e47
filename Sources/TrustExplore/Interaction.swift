import TrustCore
import TrustVectors

/// When two changes to a valid chain interact, and what the standards say about a mutant of any base.
///
/// A mutation changes some aspects of a chain (a certificate's extension, the host and the names it
/// is checked against, the path's structure, its policies) and its answer rests on some. Two
/// mutations whose aspects do not meet are independent, and their answers compose
/// (``StandardAnswer/composing(_:_:)``). Those that meet interact: one rewrites what the other
/// wrote, or judges what the other changed (a name constraint and the names it constrains, a path
/// length and the path's structure, a policy and its mapping); they are answered only by a rule
/// written for that interaction, and otherwise not at all. A base chain has aspects of its own (a
/// name constraint, a policy, a path that is not leaf-intermediates-self-signed anchor): a mutation
/// that meets one is not answered on that base.
extension MutationCatalogue {
    /// Meets every aspect: the path's structure (what is presented, what is an anchor).
    static let structureAspect = "structure"
    /// The leaf's names (subjectAltName, subject) and the host they are checked against.
    static let namesAspect = "names"
    static let policyAspect = "policy"

    /// A base that carries revocation data (CRLs, OCSP responses or a mode).
    static let revocationAspect = "revocation"

    /// The aspect of the revocation data a role names (a base whose data is not plain has each).
    static func revocationAspect(_ role: ChainModel.Role) -> String { "\(revocationAspect).\(role.rawValue)" }

    /// What `mutation` at `role` changes or rests on.
    static func aspects(_ mutation: String, role: ChainModel.Role) -> Set<String> {
        let family = String(mutation.prefix { $0 != "/" })
        let what = String(mutation.drop { $0 != "/" }.dropFirst())
        let at = role.rawValue
        if role.isRevocationData {
            // A CRL's scope rests on whether the certificate it covers is a CA.
            let covered = role == .crl ? "leaf" : "intermediate"
            return what.hasPrefix("idp-") ? [revocationAspect(role), "\(covered).basicConstraints"] : [revocationAspect(role)]
        }
        switch family {
        case "subjectAltName", "host", "hostName": return [namesAspect]
        case "nameConstraints", "nameConstraintType": return ["\(at).nameConstraints", namesAspect]
        case "policy": return [policyAspect, "\(at).policy"]
        case "extension" where what.hasPrefix("polic"): return [policyAspect, "\(at).extension"]
        case "key": return ["\(at).key"]
        case "signature":
            let issuer = role == .leaf ? "intermediate" : "root"
            return ["\(at).signature", "\(issuer).key"]
        case "keyUsage" where what == "only-keyEncipherment" || what == "only-keyAgreement": return ["\(at).keyUsage", "\(at).key"]
        case "version" where what == "v1-no-extensions": return ["\(at).*", role == .leaf ? namesAspect : "\(at).version"]
        case "subjectName": return ["intermediate.subject", "leaf.issuerName"]
        case "subjectKeyIdentifier" where what == "eight-octets": return ["\(at).subjectKeyIdentifier", "\(role == .root ? "intermediate" : "leaf").authorityKeyIdentifier"]
        case "extensionValue":
            let field = what.replacingOccurrences(of: "trailing-bytes-", with: "")
            return field == "subjectAltName" ? [namesAspect] : ["\(at).\(field)"]
        case "chain":
            switch what {
            case "leaf-twice", "intermediate-twice", "root-included", "unrelated-extra", "intermediates-reversed", "cross-signed-untrusted-first":
                return ["presentation"]
            default: return [structureAspect]
            }
        default: return ["\(at).\(family)"]
        }
    }

    /// Whether two sets of aspects meet (structure meets everything; `R.*` every aspect of R).
    static func meet(_ a: Set<String>, _ b: Set<String>) -> Bool {
        if (a.contains(structureAspect) && !b.isEmpty) || (b.contains(structureAspect) && !a.isEmpty) { return true }
        if !a.isDisjoint(with: b) { return true }
        func wholes(_ set: Set<String>) -> [String] { set.filter { $0.hasSuffix(".*") }.map { String($0.dropLast(1)) } }
        return wholes(a).contains { prefix in b.contains { $0.hasPrefix(prefix) } } || wholes(b).contains { prefix in a.contains { $0.hasPrefix(prefix) } }
    }

    /// Whether a certificate mutation at `role` changes what revocation checking rests on (a CA's
    /// keyUsage and its cRLSign bit, a CA's extendedKeyUsage, the names and key identifiers that tie
    /// a CRL or OCSP response to its issuer, the revocation pointers): its answer, written for a
    /// chain without revocation data, does not hold on a base that has some.
    static func meetsRevocation(_ mutation: String, role: ChainModel.Role) -> Bool {
        let family = String(mutation.prefix { $0 != "/" })
        switch family {
        case "keyUsage", "extendedKeyUsage": return role == .intermediate || role == .root
        case "subjectName", "subjectKeyIdentifier", "authorityKeyIdentifier", "revocation": return true
        default: return false
        }
    }

    /// The standards' answer (RFC 5280 with RFC 9525, and for revocation data RFC 5280 §5 and §6.3
    /// and RFC 6960 under the base's `revocationMode`) for a mutant of a base with `baseAspects`
    /// made by `steps` (one or two): a single mutation's answer when it does not meet the base's
    /// aspects; two independent mutations' answers composed; an interaction's own rule; nil otherwise.
    public static func answer(steps: [(mutation: String, role: ChainModel.Role)], baseAspects: Set<String>, host: String?, revocationMode: RevocationMode? = nil) -> StandardAnswer? {
        let singles = steps.map { answer($0.mutation, role: $0.role, host: host, revocationMode: revocationMode) }
        let aspects = steps.map { Self.aspects($0.mutation, role: $0.role) }
        // The base's own structure leaves only rejections standing that nothing can cure.
        if aspects.contains(where: { Self.meet($0, baseAspects) }) { return nil }
        if baseAspects.contains(revocationAspect) && steps.contains(where: { meetsRevocation($0.mutation, role: $0.role) }) { return nil }
        switch steps.count {
        case 1: return singles[0]
        case 2:
            if !meet(aspects[0], aspects[1]) { return StandardAnswer.composing(singles[0], singles[1]) }
            if steps[0].role.isRevocationData && steps[0].role == steps[1].role { return revocationInteraction(steps[0], steps[1], mode: revocationMode) }
            return interaction(steps[0], singles[0], steps[1], singles[1])
        default: return nil
        }
    }

    /// The rules written for pairs that interact.
    static func interaction(_ a: (mutation: String, role: ChainModel.Role), _ answerA: StandardAnswer?, _ b: (mutation: String, role: ChainModel.Role), _ answerB: StandardAnswer?) -> StandardAnswer? {
        // Changes to the anchor set that keep the real anchor in it, in any order, with any copies.
        let anchorSet: Set<String> = ["chain/anchor-non-ca-copy-first", "chain/anchor-non-ca-copy-after", "chain/anchor-non-ca-intermediate-copy", "chain/anchor-non-ca-intermediate-copy-first", "chain/anchors-reversed"]
        if anchorSet.contains(a.mutation) && anchorSet.contains(b.mutation) {
            return .trusted("RFC 5280 §6.1.1(d): \"The trust anchor information includes: (1) the trusted issuer name, (2) the trusted public key algorithm, (3) the trusted public key, and (4) optionally, the trusted public key parameters associated with the public key.\" (the trust anchors are a set of names and keys; the real anchor is in it, whatever the order and whatever copies stand beside it)")
        }
        let noPath: Set<String> = ["chain/intermediates-missing", "chain/same-name-anchor-only"]
        for (chain, other, otherAnswer) in [(a, b, answerB), (b, a, answerA)] where noPath.contains(chain.mutation) && !other.mutation.hasPrefix("chain/") {
            // No certificate change supplies a missing issuer or the anchor's key.
            var failures: [FailureClass] = [.untrusted, .badSignature]
            if other.role == .leaf, let otherAnswer, otherAnswer.open == nil, !otherAnswer.trusted {
                for failure in otherAnswer.failures where !failures.contains(failure) { failures.append(failure) }
            }
            return StandardAnswer(trusted: false, failures: failures.sorted(), references: ["RFC 5280 §6.1: no path to a trust anchor (\(chain.mutation)), whatever else changes: a prospective certification path must satisfy \"(b) certificate 1 is issued by the trust anchor\""] + (otherAnswer?.references ?? []))
        }
        for (chain, other, otherAnswer) in [(a, b, answerB), (b, a, answerA)] where chain.mutation == "chain/anchor-is-intermediate" && !other.mutation.hasPrefix("chain/") {
            switch other.role {
            case .root where !other.mutation.hasPrefix("signature/"):
                return .trusted("RFC 5280 §6.1: with the intermediate as the anchor, the root is off the path (\"(b) certificate 1 is issued by the trust anchor\"); a change to it decides nothing")
            case .intermediate where !other.mutation.hasPrefix("signature/") && !aspects(other.mutation, role: .intermediate).contains(namesAspect):
                return .trusted("RFC 5280 §6.1.1(d): \"When the trust anchor information is provided in the form of a certificate, the name in the subject field is used as the trusted issuer name and the contents of the subjectPublicKeyInfo field is used as the source of the trusted public key algorithm and the trusted public key.\" (the intermediate is now the trust anchor, whose certificate fields path validation does not process)")
            case .leaf where !aspects(other.mutation, role: .leaf).contains(structureAspect):
                return otherAnswer.map { answer in var copy = answer; copy.references.append("RFC 5280 §6.1: the path is the leaf and the intermediate as anchor (\"(b) certificate 1 is issued by the trust anchor\"); the leaf is validated as before"); return copy }
            default: return nil
            }
        }
        return nil
    }
}

extension ChainModel {
    /// The aspects of this base that a mutation's answer could meet: a path that is not leaf,
    /// intermediates and a self-signed anchor (structure), name constraints or a wildcard name
    /// (names), policy extensions (policy), revocation data (revocation; and each role of it when
    /// the data is not plain, ``revocationDataIsPlain``). A pathLenConstraint needs no aspect: only a change of the
    /// path's structure could meet it, and that meets everything.
    var aspects: Set<String> {
        var found: Set<String> = isCanonicalPath ? [] : [MutationCatalogue.structureAspect]
        let path = path
        for (position, node) in path.enumerated() {
            let isAnchor = anchors.contains(node)
            for (oid, _, value) in nodes[node].tbs.certificateExtensions {
                switch oid {
                case "2.5.29.30" where !isAnchor: found.insert(MutationCatalogue.namesAspect)
                case "2.5.29.32", "2.5.29.33", "2.5.29.36", "2.5.29.54": if !isAnchor || position == 0 { found.insert(MutationCatalogue.policyAspect) }
                case "2.5.29.17" where position == 0:
                    if value?.children?.contains(where: { $0.tag == 0x82 && $0.content.first == UInt8(ascii: "*") }) ?? false { found.insert(MutationCatalogue.namesAspect) }
                default: break
                }
            }
        }
        if hasRevocation { found.insert(MutationCatalogue.revocationAspect) }
        // Revocation data the revocation mutations' answers do not assume leaves them unanswered.
        if !revocationIsPlain {
            for role in Role.allCases where role.isRevocationData { found.insert(MutationCatalogue.revocationAspect(role)) }
        }
        return found
    }
}
