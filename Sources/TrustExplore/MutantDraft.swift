import Crypto
import Foundation
import TrustVectors

/// One mutant being made: the model's certificates, editable, with what each mutation asked for
/// (a key of another type, another signature hash, edits after signing), the chain, anchors and host
/// to present, and the CRLs and OCSP responses to give with them. ``renderAll(keys:)`` re-keys and
/// re-signs every certificate, and re-signs each CRL and response with its signer's new key.
struct MutantDraft: Sendable {
    /// The fields of a TBSCertificate after the optional version.
    enum Field: Int { case serial = 0, signature, issuer, validity, subject, publicKey }

    struct Certificate: Sendable {
        var tbs: DERTree
        var issuer: Int?
        var slot: Int
        /// Sign this certificate's key with another key type (and so its children).
        var keyKind: SigningKey.Kind?
        /// The hash the issuer signs this certificate with.
        var hash: SigningKey.Hash = .sha256
        /// The AlgorithmIdentifier written in the TBSCertificate and outside it, instead of the
        /// signer's (the signature is still the signer's).
        var innerAlgorithm: DERTree?
        var outerAlgorithm: DERTree?
        /// Publish the key's EC point compressed (P-256 only).
        var compressedPoint = false
        /// Publish the key's curve as explicit parameters (P-256 only).
        var explicitCurve = false
        /// Edits of the whole signed certificate (signature value, outer AlgorithmIdentifier).
        var afterSigning: [@Sendable (inout DERTree) -> Void] = []
    }

    var certificates: [Certificate]
    var presented: [Int]
    var anchors: [Int]
    /// Certificates added as DER, after the presented ones (unrelated extras).
    var host: String?
    var revocationLists: [EditableCRL]
    var ocspResponses: [EditableOCSPResponse]
    let model: ChainModel
    /// The key type every certificate is re-keyed to unless a mutation chose another.
    let slotKind: SigningKey.Kind

    init(_ model: ChainModel, slotKind: SigningKey.Kind = .ed25519) {
        self.model = model
        self.slotKind = slotKind
        certificates = model.nodes.map { Certificate(tbs: $0.tbs, issuer: $0.issuer, slot: $0.slot) }
        presented = model.presented
        anchors = model.anchors
        host = model.host
        revocationLists = model.revocationLists
        ocspResponses = model.ocspResponses
    }

    // MARK: - Fields

    static func versionOffset(_ tbs: DERTree) -> Int { tbs.children?.first?.tag == 0xA0 ? 1 : 0 }

    subscript(node: Int, field: Field) -> DERTree {
        get { certificates[node].tbs[[Self.versionOffset(certificates[node].tbs) + field.rawValue]] }
        set { certificates[node].tbs[[Self.versionOffset(certificates[node].tbs) + field.rawValue]] = newValue }
    }

    /// The extensions, in order (empty when the certificate has none).
    func extensions(_ node: Int) -> [DERTree] {
        certificates[node].tbs.children!.first { $0.tag == 0xA3 }?.children?.first?.children ?? []
    }

    /// Replaces the extensions; an empty list removes the `[3]` field unless `keepEmpty`.
    mutating func setExtensions(_ node: Int, _ extensions: [DERTree], keepEmpty: Bool = false) {
        var children = certificates[node].tbs.children!
        children.removeAll { $0.tag == 0xA3 }
        if !extensions.isEmpty || keepEmpty { children.append(.constructed(0xA3, [DER.sequence(extensions)])) }
        certificates[node].tbs.children = children
    }

    static func extensionOID(_ ext: DERTree) -> String { DER.dotted(ext.children?.first?.content ?? []) }

    /// The extension's value (the element inside the OCTET STRING), if it parses.
    func extensionValue(_ node: Int, _ oid: String) -> DERTree? {
        guard let ext = extensions(node).first(where: { Self.extensionOID($0) == oid }), let octets = ext.children?.last else { return nil }
        return try? DERTree(octets.content[...])
    }

    func isCritical(_ node: Int, _ oid: String) -> Bool? {
        guard let ext = extensions(node).first(where: { Self.extensionOID($0) == oid }) else { return nil }
        return ext.children!.count == 3 && ext.children![1].content == [0xFF]
    }

    /// Sets (replacing the first of that OID, keeping its place) or adds an extension.
    mutating func setExtension(_ node: Int, _ oid: String, critical: Bool, value: DERTree) {
        setExtension(node, oid, critical: critical, rawValue: value.encoded)
    }

    mutating func setExtension(_ node: Int, _ oid: String, critical: Bool, rawValue: [UInt8]) {
        let ext = DER.sequence([DER.oid(oid)] + (critical ? [DER.boolean(true)] : []) + [.primitive(0x04, rawValue)])
        var list = extensions(node)
        if let index = list.firstIndex(where: { Self.extensionOID($0) == oid }) {
            list[index] = ext
        } else {
            list.append(ext)
        }
        setExtensions(node, list)
    }

    /// Removes every extension of `oid`; false when there was none.
    @discardableResult
    mutating func removeExtension(_ node: Int, _ oid: String) -> Bool {
        var list = extensions(node)
        let before = list.count
        list.removeAll { Self.extensionOID($0) == oid }
        setExtensions(node, list)
        return list.count != before
    }

    /// Whether the edits left everything as the model has it (a mutation that sets what the chain
    /// already holds): such a draft is no mutant.
    var isUnchanged: Bool {
        certificates.count == model.nodes.count
            && zip(certificates, model.nodes).allSatisfy { draft, node in
                draft.tbs == node.tbs && draft.keyKind == nil && draft.hash == .sha256 && draft.innerAlgorithm == nil && !draft.compressedPoint && !draft.explicitCurve
                    && draft.outerAlgorithm == nil && draft.afterSigning.isEmpty
            }
            && presented == model.presented && anchors == model.anchors && host == model.host
            && revocationLists.count == model.revocationLists.count && zip(revocationLists, model.revocationLists).allSatisfy { $0.isUnchanged(from: $1) }
            && ocspResponses.count == model.ocspResponses.count && zip(ocspResponses, model.ocspResponses).allSatisfy { $0.isUnchanged(from: $1) }
    }

    // MARK: - Rendering

    /// The presented chain and anchors as DER: every certificate re-keyed (slot keys of type
    /// ``slotKind`` from `keys`, or the alternative key a mutation chose) and signed by its issuer's
    /// key; and the key of the first certificate presented (nil when none is).
    func render(keys: KeySource) throws -> (chain: [[UInt8]], anchors: [[UInt8]], leafKey: SigningKey?) {
        let rendered = try renderAll(keys: keys)
        return (rendered.chain, rendered.anchors, rendered.leafKey)
    }

    /// A mutant as DER: the presented chain, the anchors, and the CRLs and OCSP responses to give
    /// with them (those a mutation left out omitted).
    struct Rendered: Sendable {
        var chain: [[UInt8]]
        var anchors: [[UInt8]]
        var revocationLists: [[UInt8]]
        var ocspResponses: [[UInt8]]
        /// The key of the first presented certificate (nil when none is presented): what a TLS
        /// server presenting the chain needs.
        var leafKey: SigningKey?
    }

    /// Every certificate re-keyed (slot keys of type ``slotKind`` from `keys`, or the alternative key
    /// a mutation chose) and signed by its issuer's key; every CRL and OCSP response re-signed by its
    /// signer's new key (a key of no certificate when it has none, or when a mutation asked for
    /// one), the fields that follow a certificate (``EditableCRL``, ``EditableOCSPResponse``) made
    /// from the mutant's certificates.
    func renderAll(keys: KeySource) throws -> Rendered {
        func key(_ node: Int) throws -> SigningKey {
            try certificates[node].keyKind.map { try keys.alternative($0) } ?? keys.slot(certificates[node].slot, kind: slotKind)
        }
        var cache: [Int: [UInt8]] = [:]
        func signed(_ node: Int) throws -> [UInt8] {
            if let done = cache[node] { return done }
            var certificate = certificates[node]
            let own = try key(node)
            let offset = Self.versionOffset(certificate.tbs)
            let spki = certificate.explicitCurve ? own.explicitParametersSPKI : certificate.compressedPoint ? own.compressedSPKI : nil
            certificate.tbs[[offset + Field.publicKey.rawValue]] = try DERTree((spki ?? own.spki)[...])
            // A certificate whose issuer is outside the chain is signed by a key of its own: its
            // signature cannot verify against anything presented, as before.
            let signer = try certificate.issuer.map(key) ?? keys.slot(10_000 + node, kind: slotKind)
            let algorithm = signer.algorithm(hash: certificate.hash)
            certificate.tbs[[offset + Field.signature.rawValue]] = certificate.innerAlgorithm ?? algorithm
            let signature = try signer.sign(certificate.tbs.encoded, hash: certificate.hash)
            var whole = DER.sequence([certificate.tbs, certificate.outerAlgorithm ?? algorithm, .primitive(0x03, [0] + signature)])
            for edit in certificate.afterSigning { edit(&whole) }
            cache[node] = whole.encoded
            return whole.encoded
        }
        let chain = try presented.map(signed)
        let anchors = try anchors.map(signed)
        // Revocation data is signed by its signer's key, or by a key of no certificate (slots from
        // 20,000 on, one per CRL or response) when it has none or a mutation asked for another.
        func signer(_ node: Int?, foreign: Bool, slot: Int) throws -> SigningKey {
            guard !foreign, let node else { return try keys.slot(slot, kind: slotKind) }
            return try key(node)
        }
        var lists: [[UInt8]] = []
        for (index, list) in revocationLists.enumerated() where !list.omitted {
            var tbs = list
            if let node = list.signer {
                if list.followsIssuer { tbs.tbs[[tbs.issuerIndex]] = self[node, .subject] }
                if list.followsKeyIdentifier, let identifier = subjectKeyIdentifier(node),
                   var value = tbs.extensionValue(EditableCRL.authorityKeyIdentifier), let at = value.children?.firstIndex(where: { $0.tag == 0x80 }) {
                    value.children![at].content = identifier
                    tbs.setExtension(EditableCRL.authorityKeyIdentifier, critical: false, value: value)
                }
            }
            if let at = tbs.revokedIndex {
                for (entry, node) in list.entries.enumerated() {
                    if let node { tbs.tbs[[at, entry, 0]] = self[node, .serial] }
                }
            }
            let key = try signer(list.signer, foreign: list.foreignKey, slot: 20_000 + index)
            let algorithm = key.algorithm(hash: .sha256)
            tbs.tbs[[tbs.signatureIndex]] = algorithm
            var whole = DER.sequence([tbs.tbs, algorithm, .primitive(0x03, [0] + (try key.sign(tbs.tbs.encoded)))])
            for edit in list.afterSigning { edit(&whole) }
            lists.append(whole.encoded)
        }
        var responses: [[UInt8]] = []
        for (index, response) in ocspResponses.enumerated() where !response.omitted {
            var body: DERTree?
            if response.hasBody, var data = response.data {
                var edited = response
                edited.data = data
                if let subject = response.subject, edited.hasSingle, var certID = edited.single.children?.first, let hash = EditableOCSPResponse.hash(certID[[0]]) {
                    if response.followsSerial { certID[[3]] = self[subject, .serial] }
                    if response.followsIssuerNameHash { certID[[1]].content = hash(self[subject, .issuer].encoded) }
                    if response.followsIssuerKeyHash, let issuer = response.certIssuer, let bits = EditableOCSPResponse.keyBits(try signed(issuer)) {
                        certID[[2]].content = hash(bits)
                    }
                    edited.single[[0]] = certID
                }
                if response.followsResponderID, let node = response.signer {
                    switch edited.responderID.tag {
                    case 0xA1: edited.responderID = .constructed(0xA1, [self[node, .subject]])
                    case 0xA2:
                        if let bits = EditableOCSPResponse.keyBits(try signed(node)) { edited.responderID = .constructed(0xA2, [.primitive(0x04, Array(Insecure.SHA1.hash(data: bits)))]) }
                    default: break
                    }
                }
                data = edited.data!
                let key = try signer(response.signer, foreign: response.foreignKey, slot: 20_500 + index)
                let algorithm = key.algorithm(hash: .sha256)
                var basic = [data, algorithm, .primitive(0x03, [0] + (try key.sign(data.encoded)))]
                if !response.certs.isEmpty { basic.append(.constructed(0xA0, [DER.sequence(try response.certs.map { try DERTree(signed($0)[...]) })])) }
                var whole = DER.sequence(basic)
                for edit in response.afterSigning { edit(&whole) }
                body = .constructed(0xA0, [DER.sequence([DER.oid(EditableOCSPResponse.basicResponse), .primitive(0x04, whole.encoded)])])
            }
            responses.append(DER.sequence([DER.enumerated(response.status)] + (body.map { [$0] } ?? [])).encoded)
        }
        return Rendered(chain: chain, anchors: anchors, revocationLists: lists, ocspResponses: responses, leafKey: try presented.first.map(key))
    }

    /// The subjectKeyIdentifier of `node` as the draft has it, if any.
    func subjectKeyIdentifier(_ node: Int) -> [UInt8]? {
        extensionValue(node, "2.5.29.14").flatMap { $0.tag == 0x04 ? $0.content : nil }
    }
}

/// The keys of an exploration: one key per slot and key type (``SigningKey/init(kind:seed:slot:)``:
/// Ed25519, P-256 and P-384 derived from the seed, RSA from the committed pool or from the slot),
/// and the alternative keys: each can be made again from its type, slot and the seed.
final class KeySource: @unchecked Sendable {
    let seed: UInt64
    private let alternatives: AlternativeKeys
    // Keys made so far, by type and slot; guarded by `lock` (RSA keys take ~0.1 s each to make,
    // so each is made once).
    private var made: [SigningKey.Kind: [Int: SigningKey]] = [:]
    private let lock = NSLock()

    init(seed: UInt64, slots: Int = 16, kinds: [SigningKey.Kind] = [.ed25519]) throws {
        self.seed = seed
        alternatives = try AlternativeKeys(seed: seed)
        for kind in kinds {
            for index in 0..<slots { _ = try slot(index, kind: kind) }
        }
    }

    func slot(_ index: Int, kind: SigningKey.Kind = .ed25519) throws -> SigningKey {
        lock.lock()
        if let key = made[kind]?[index] { lock.unlock(); return key }
        lock.unlock()
        let key = try SigningKey(kind: kind, seed: seed, slot: index)
        lock.lock()
        defer { lock.unlock() }
        // Another task may have made it meanwhile: keep the first, so a slot has one key.
        if let existing = made[kind]?[index] { return existing }
        made[kind, default: [:]][index] = key
        return key
    }

    func alternative(_ kind: SigningKey.Kind) throws -> SigningKey {
        try alternatives.keys[kind] ?? slot(1_000, kind: kind)
    }
}
