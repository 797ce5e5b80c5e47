import Foundation
import TrustCore
import TrustVectors
import X509

/// A chain to mutate: every certificate (presented and anchor) as an editable TBSCertificate, who
/// signed whom, which certificates are presented (in order) and which are anchors, and the host and
/// time of the evaluation.
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

    /// Where a mutation applies on the certification path.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        case leaf, intermediate, root, chain
    }

    public let id: String
    public let description: String
    var nodes: [Node]
    var presented: [Int]
    var anchors: [Int]
    public let host: String?
    public let time: Date

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

    /// The node that plays `role` (the first intermediate for `.intermediate`); nil when the path has none.
    func node(for role: Role) -> Int? {
        let path = path
        switch role {
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

    /// - Throws: ``ModelError`` when a certificate is not DER the model can edit.
    public init(id: String, description: String, chain: [[UInt8]], anchors: [[UInt8]], host: String?, time: Date) throws {
        self.id = id
        self.description = description
        self.host = host
        self.time = time
        var unique: [[UInt8]] = []
        func index(_ der: [UInt8]) -> Int {
            if let found = unique.firstIndex(of: der) { return found }
            unique.append(der)
            return unique.count - 1
        }
        presented = chain.map(index)
        self.anchors = anchors.map(index)
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
            if let model = try? ChainModel(id: vector.id, description: vector.entry.description, chain: vector.chain, anchors: vector.anchors, host: vector.entry.host, time: vector.time) {
                models.append(model)
            }
        }
        return models.enumerated().sorted { ($0.element.nodes.count, $0.offset) < ($1.element.nodes.count, $1.offset) }.map(\.element)
    }
}
