import Foundation
import TrustVectors

/// A CRL of a base (RFC 5280 §5.1) as an editable TBSCertList, with the certificate whose key signs
/// it and the certificates its entries list, so that a mutant's CRL is re-signed with that
/// certificate's new key exactly as its certificates are (``MutantDraft/renderAll(keys:)``).
///
/// Fields that name a certificate of the chain follow it unless a mutation changed them: the
/// issuer name is the signer's subject, the authorityKeyIdentifier its subjectKeyIdentifier, and an
/// entry's serial number that of the certificate it lists. A certificate mutation (a serial number,
/// a subject name, a key identifier) then changes only what it names, and the CRL still speaks of
/// the same certificates.
struct EditableCRL: Sendable {
    var tbs: DERTree
    /// The node whose key signs it (a CA of the chain); nil when none of the chain's did (signed by a
    /// key of no certificate, as before).
    var signer: Int?
    /// For each entry of revokedCertificates, in order, the node it lists; nil for a serial number
    /// of no certificate of the chain.
    var entries: [Int?]
    /// Whether the issuer name is the signer's subject and follows it.
    var followsIssuer: Bool
    /// Whether the authorityKeyIdentifier's keyIdentifier is the signer's subjectKeyIdentifier and
    /// follows it.
    var followsKeyIdentifier: Bool
    /// Signed by a key of no certificate (the same name and identifiers, another key).
    var foreignKey = false
    /// Left out of the request.
    var omitted = false
    /// Edits of the whole signed CRL (its signature value).
    var afterSigning: [@Sendable (inout DERTree) -> Void] = []

    static let authorityKeyIdentifier = "2.5.29.35"
    static let issuingDistributionPoint = "2.5.29.28"
    static let reasonCode = "2.5.29.21"

    // MARK: Fields

    /// Where the fields after the optional version are.
    var versionOffset: Int { tbs.children?.first?.tag == 0x02 ? 1 : 0 }
    var signatureIndex: Int { versionOffset }
    var issuerIndex: Int { versionOffset + 1 }
    var thisUpdateIndex: Int { versionOffset + 2 }

    static func isTime(_ element: DERTree) -> Bool { element.tag == 0x17 || element.tag == 0x18 }

    /// The nextUpdate element's index, nil when absent.
    var nextUpdateIndex: Int? {
        let index = thisUpdateIndex + 1
        guard let children = tbs.children, index < children.count, Self.isTime(children[index]) else { return nil }
        return index
    }

    /// The revokedCertificates SEQUENCE's index, nil when absent (a CRL that lists nothing).
    var revokedIndex: Int? {
        guard let children = tbs.children else { return nil }
        let after = (nextUpdateIndex ?? thisUpdateIndex) + 1
        return after < children.count && children[after].tag == 0x30 ? after : nil
    }

    var thisUpdate: DERTree {
        get { tbs[[thisUpdateIndex]] }
        set { tbs[[thisUpdateIndex]] = newValue }
    }

    /// Sets nextUpdate (nil: removes it).
    mutating func setNextUpdate(_ time: DERTree?) {
        var children = tbs.children!
        if let index = nextUpdateIndex { children.remove(at: index) }
        if let time { children.insert(time, at: thisUpdateIndex + 1) }
        tbs.children = children
    }

    /// The revokedCertificates entries, in order (empty when absent).
    var revokedEntries: [DERTree] { revokedIndex.map { tbs[[$0]].children ?? [] } ?? [] }

    /// Replaces the entries; an empty list removes the field (§5.1.2.6: "When there are no revoked
    /// certificates, the revoked certificates list MUST be absent.").
    mutating func setRevokedEntries(_ list: [DERTree], nodes: [Int?]) {
        var children = tbs.children!
        if let index = revokedIndex { children.remove(at: index) }
        if !list.isEmpty { children.insert(DER.sequence(list), at: (nextUpdateIndex ?? thisUpdateIndex) + 1) }
        tbs.children = children
        entries = nodes
    }

    /// Adds an entry listing `serial` (its node, when it is one of the chain's) revoked a day before
    /// `time`, with a reasonCode when given and any other entry extensions.
    mutating func addEntry(serial: DERTree, node: Int?, time: Date, reason: UInt8?, extensions: [DERTree] = []) {
        var fields: [DERTree] = [serial, DER.time(time.addingTimeInterval(-86_400))]
        let all = (reason.map { [DER.extensionField(Self.reasonCode, value: DER.enumerated($0))] } ?? []) + extensions
        if !all.isEmpty { fields.append(DER.sequence(all)) }
        setRevokedEntries(revokedEntries + [DER.sequence(fields)], nodes: entries + [node])
    }

    /// The crlExtensions, in order (empty when absent).
    var extensions: [DERTree] { tbs.children?.first { $0.tag == 0xA0 }?.children?.first?.children ?? [] }

    /// Replaces the crlExtensions; an empty list removes the `[0]` field.
    mutating func setExtensions(_ list: [DERTree]) {
        var children = tbs.children!
        children.removeAll { $0.tag == 0xA0 }
        if !list.isEmpty { children.append(.constructed(0xA0, [DER.sequence(list)])) }
        tbs.children = children
    }

    /// Sets (replacing the first of that OID, keeping its place) or adds a CRL extension.
    mutating func setExtension(_ oid: String, critical: Bool, value: DERTree) {
        let field = DER.extensionField(oid, critical: critical, value: value)
        var list = extensions
        if let index = list.firstIndex(where: { MutantDraft.extensionOID($0) == oid }) { list[index] = field } else { list.append(field) }
        setExtensions(list)
    }

    /// The value of the CRL extension `oid`, if present and one DER element.
    func extensionValue(_ oid: String) -> DERTree? {
        guard let field = extensions.first(where: { MutantDraft.extensionOID($0) == oid }), let octets = field.children?.last else { return nil }
        return try? DERTree(octets.content[...])
    }

    /// Removes the version field and every extension: a version 1 CRL (§5.1.2.1).
    mutating func makeVersion1() {
        var children = tbs.children!
        if versionOffset == 1 { children.removeFirst() }
        children.removeAll { $0.tag == 0xA0 }
        tbs.children = children
        followsKeyIdentifier = false
    }

    /// Whether this CRL is as `model` has it (no mutation touched it).
    func isUnchanged(from model: EditableCRL) -> Bool {
        tbs == model.tbs && signer == model.signer && entries == model.entries && followsIssuer == model.followsIssuer
            && followsKeyIdentifier == model.followsKeyIdentifier && foreignKey == model.foreignKey && omitted == model.omitted && afterSigning.isEmpty
    }
}
