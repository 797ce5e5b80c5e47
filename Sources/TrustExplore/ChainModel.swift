import Foundation
import TrustCore
import TrustVectors
import X509

/// A chain to mutate: every certificate (presented and anchor) as an editable TBSCertificate, who
/// signed whom, which certificates are presented (in order) and which are anchors, and the host and
/// time of the evaluation; with the revocation data given with it (CRLs, OCSP responses and the
/// caller's mode), each as an editable DER tree with the certificate whose key signs it
/// (``EditableCRL``, ``EditableOCSPResponse``).
///
/// Made from any chain and anchors: each certificate's issuer is the one whose subject is its
/// issuer name and whose key verifies its signature. When mutants are drawn, every certificate is
/// re-keyed (one key per original key, see ``SigningKey``) and re-signed by its issuer's new key,
/// so that a mutation changes only the field it names and every signature still verifies.
public struct ChainModel: Sendable {
    public struct Node: Sendable {
        var tbs: DERTree
        /// The node that signed this one (itself when self-signed); nil when no certificate of the
        /// chain or anchors did (re-signed by a key of its own slot's issuer, outside the chain).
        var issuer: Int?
        /// Certificates with the same original key share a slot, and so a new key.
        var slot: Int
    }

    /// Where a mutation applies on the certification path, or on the revocation data given with it.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        case leaf, intermediate, root, chain
        /// The CRL that covers the leaf: the one its issuer signs.
        case crl
        /// The CRL that covers the intermediate: the one the intermediate's issuer signs.
        case caCRL = "ca-crl"
        /// The OCSP response that gives the leaf's status.
        case ocsp

        /// Whether the role names revocation data rather than a certificate or the chain.
        public var isRevocationData: Bool { self == .crl || self == .caCRL || self == .ocsp }
    }

    public let id: String
    public let description: String
    var nodes: [Node]
    var presented: [Int]
    var anchors: [Int]
    public let host: String?
    public let time: Date
    /// The CRLs and OCSP responses given with the chain, in their order, and the caller's mode.
    var revocationLists: [EditableCRL] = []
    var ocspResponses: [EditableOCSPResponse] = []
    public let revocationMode: RevocationMode?
    /// Whether every CRL and OCSP response is one the revocation mutations' standard answers assume
    /// (``revocationDataIsPlain``); true without any.
    var revocationIsPlain = true

    /// Whether the base carries revocation data or a mode.
    public var hasRevocation: Bool { !revocationLists.isEmpty || !ocspResponses.isEmpty || revocationMode != nil }

    /// The certification path, leaf first: issuer links from the first presented certificate.
    var path: [Int] {
        var path: [Int] = []
        var current: Int? = presented.first
        while let node = current, !path.contains(node) {
            path.append(node)
            current = nodes[node].issuer
        }
        return path
    }

    /// Whether the path is the one the mutations' standard answers assume: a leaf that is no anchor,
    /// intermediates that are no anchors, and a self-issued root that is the anchor. On other bases
    /// (a leaf or an intermediate as the anchor) a mutation at the intermediate or the root changes a
    /// certificate off the path, and the standard answer does not hold.
    var isCanonicalPath: Bool {
        let path = path
        guard path.count >= 3, let root = path.last, nodes[root].issuer == root, anchors == [root] else { return false }
        return path.dropLast().allSatisfy { !anchors.contains($0) }
    }

    /// The node that plays `role` (the first intermediate for `.intermediate`), or for a role of the
    /// revocation data the index of that CRL (in ``revocationLists``) or OCSP response (in
    /// ``ocspResponses``); nil when there is none.
    func node(for role: Role) -> Int? {
        let path = path
        switch role {
        case .crl:
            guard path.count > 1, let issuer = nodes[path[0]].issuer else { return nil }
            return revocationLists.firstIndex { $0.signer == issuer }
        case .caCRL:
            guard let intermediate = node(for: .intermediate), let issuer = nodes[intermediate].issuer, issuer != intermediate else { return nil }
            return revocationLists.firstIndex { $0.signer == issuer }
        case .ocsp:
            guard let leaf = path.first else { return nil }
            return ocspResponses.firstIndex { $0.subject == leaf }
        case .leaf: return path.first
        case .root: return path.count > 1 && anchors.contains(path.last!) ? path.last : nil
        case .intermediate:
            let inner = path.dropFirst().filter { !anchors.contains($0) }
            return inner.first
        case .chain: return path.first
        }
    }

    public enum ModelError: Error, CustomStringConvertible {
        case unusable(String)
        public var description: String {
            switch self { case .unusable(let why): return why }
        }
    }

    /// The certificates carry over as nodes; the CRLs (DER CertificateList) and OCSP responses
    /// (DER OCSPResponse) each as an editable tree linked to the nodes that sign them and that they
    /// speak of; the certificates a response carries become nodes too (neither presented nor
    /// anchors), re-keyed and re-signed like the others.
    /// - Throws: ``ModelError`` when a certificate, CRL or OCSP response is not DER the model can edit.
    public init(id: String, description: String, chain: [[UInt8]], anchors: [[UInt8]], host: String?, time: Date,
                revocationLists: [[UInt8]] = [], ocspResponses: [[UInt8]] = [], revocationMode: RevocationMode? = nil) throws {
        self.id = id
        self.description = description
        self.host = host
        self.time = time
        self.revocationMode = revocationMode
        var unique: [[UInt8]] = []
        func index(_ der: [UInt8]) -> Int {
            if let found = unique.firstIndex(of: der) { return found }
            unique.append(der)
            return unique.count - 1
        }
        presented = chain.map(index)
        self.anchors = anchors.map(index)
        let responses = try ocspResponses.map { der in
            guard let parts = Self.ocspParts(der) else { throw ModelError.unusable("an OCSP response of \(id) cannot be parsed for mutation") }
            return parts
        }
        let carried = responses.map { $0.certificates.map(index) }
        let parsed = try unique.map { der -> (tree: DERTree, certificate: Certificate) in
            guard let tree = try? DERTree(der[...]), tree.children?.count == 3, let certificate = try? Certificate(derEncoded: der) else {
                throw ModelError.unusable("a certificate of \(id) cannot be parsed for mutation")
            }
            return (tree, certificate)
        }
        var slots: [[UInt8]] = []
        nodes = parsed.enumerated().map { offset, item in
            let spki = item.tree[[0]].children!.first { $0.tag == 0x30 && $0.children?.first?.tag == 0x30 && $0.children?.count == 2 && $0.children![1].tag == 0x03 }
            let key = spki?.encoded ?? []
            let slot = slots.firstIndex(of: key) ?? { slots.append(key); return slots.count - 1 }()
            let candidates = parsed.indices.filter { parsed[$0].certificate.subject == item.certificate.issuer }
            let issuer = candidates.first { parsed[$0].certificate.publicKey.isValidSignature(item.certificate.signature, for: item.certificate) } ?? candidates.first
            _ = offset
            return Node(tbs: item.tree[[0]], issuer: issuer, slot: slot)
        }
        self.revocationLists = try revocationLists.map { der in
            guard let list = Self.crl(der, certificates: parsed, nodes: nodes) else { throw ModelError.unusable("a CRL of \(id) cannot be parsed for mutation") }
            return list
        }
        self.ocspResponses = zip(responses, carried).map { parts, carried in
            Self.ocspResponse(parts, carrying: carried, certificates: parsed, nodes: nodes)
        }
        revocationIsPlain = revocationDataIsPlain
    }

    /// Models of every vector of `suite` whose presented chain the model can edit, one per case
    /// (the first key type listed), sorted by the number of certificates (the smallest first, so
    /// that the first example found of a class is the smallest).
    ///
    /// Only vectors both profiles trust: a mutant is then a valid chain with one property changed,
    /// so its standard answer is the mutation's (``MutationCatalogue/answer(_:role:host:)``).
    public static func bases(from suite: VectorSuite, matching patterns: [String] = []) -> [ChainModel] {
        var seen = Set<String>()
        var models: [ChainModel] = []
        // Bases conform to both profiles, so that a mutant's answer in each is its mutation's.
        for vector in suite.vectors where !vector.id.hasPrefix("explored/") && vector.entry.trustedUnder == StandardsProfile.allCases {
            guard patterns.isEmpty || patterns.contains(where: { Glob.matches($0, vector.id) }) else { continue }
            let caseName = vector.id.split(separator: "/").dropLast().joined(separator: "/")
            guard seen.insert(caseName).inserted || !patterns.isEmpty else { continue }
            if let model = try? ChainModel(id: vector.id, description: vector.entry.description, chain: vector.chain, anchors: vector.anchors, host: vector.entry.host, time: vector.time,
                                           revocationLists: vector.revocationLists, ocspResponses: vector.ocspResponses, revocationMode: vector.entry.revocation?.mode) {
                models.append(model)
            }
        }
        return models.enumerated().sorted { ($0.element.nodes.count, $0.offset) < ($1.element.nodes.count, $1.offset) }.map(\.element)
    }
}
