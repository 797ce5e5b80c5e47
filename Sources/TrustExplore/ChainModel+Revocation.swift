import Crypto
import Foundation
import TrustCore
import TrustVectors
import X509

/// Reading a base's CRLs and OCSP responses into editable trees linked to the chain's certificates.
extension ChainModel {
    /// The features a request of this base needs of a back end (CRLs, OCSP responses, the mode):
    /// a back end without one is not asked about the base or its mutants.
    public var requiredFeatures: Set<BackendFeature> {
        var features: Set<BackendFeature> = []
        if !revocationLists.isEmpty { features.insert(.revocationLists) }
        if !ocspResponses.isEmpty { features.insert(.ocspResponses) }
        if let revocationMode { features.insert(revocationMode.feature) }
        return features
    }

    /// An OCSPResponse taken apart (RFC 6960 §4.2.1): its status, and for a basic response its
    /// ResponseData, signature and the certificates it carries.
    struct OCSPParts {
        var status: UInt8
        var data: DERTree?
        var algorithm: DERTree?
        var signature: [UInt8]?
        var certificates: [[UInt8]]
    }

    /// nil when `der` is not an OCSPResponse the model can edit.
    static func ocspParts(_ der: [UInt8]) -> OCSPParts? {
        guard let response = try? DERTree(der[...]), let fields = response.children, let status = fields.first, status.tag == 0x0A, status.content.count == 1 else { return nil }
        guard fields.count > 1 else { return OCSPParts(status: status.content[0], certificates: []) }
        // responseBytes [0] EXPLICIT SEQUENCE { responseType OID, response OCTET STRING }.
        guard fields[1].tag == 0xA0, let bytes = fields[1].children?.first?.children, bytes.count == 2,
              DER.dotted(bytes[0].content) == EditableOCSPResponse.basicResponse,
              let basic = try? DERTree(bytes[1].content[...]), let parts = basic.children, parts.count >= 3, parts[2].tag == 0x03,
              parts[0].tag == 0x30, parts[0].children?.isEmpty == false else { return nil }
        let certificates = parts.count > 3 && parts[3].tag == 0xA0 ? (parts[3].children?.first?.children ?? []).map(\.encoded) : []
        return OCSPParts(status: status.content[0], data: parts[0], algorithm: parts[1], signature: Array(parts[2].content.dropFirst()), certificates: certificates)
    }

    /// The signature algorithms the explorer's keys (and the catalogue's) sign with, by OID.
    static func signatureAlgorithm(_ identifier: DERTree) -> Certificate.SignatureAlgorithm? {
        switch DER.dotted(identifier.children?.first?.content ?? []) {
        case "1.2.840.10045.4.3.2": return .ecdsaWithSHA256
        case "1.2.840.10045.4.3.3": return .ecdsaWithSHA384
        case "1.2.840.10045.4.3.4": return .ecdsaWithSHA512
        case "1.2.840.113549.1.1.5": return .sha1WithRSAEncryption
        case "1.2.840.113549.1.1.11": return .sha256WithRSAEncryption
        case "1.2.840.113549.1.1.12": return .sha384WithRSAEncryption
        case "1.2.840.113549.1.1.13": return .sha512WithRSAEncryption
        case "1.3.101.112": return .ed25519
        default: return nil
        }
    }

    /// The node among `candidates` whose key verifies `signature` over `signed`.
    static func verifier(of signed: [UInt8], signature: [UInt8], algorithm: DERTree, among candidates: [Int], certificates: [(tree: DERTree, certificate: Certificate)]) -> Int? {
        guard let algorithm = signatureAlgorithm(algorithm) else { return nil }
        return candidates.first { certificates[$0].certificate.publicKey.isValidSignature(signature, for: signed, signatureAlgorithm: algorithm) }
    }

    static func subject(_ node: Node) -> DERTree { node.tbs[[MutantDraft.versionOffset(node.tbs) + MutantDraft.Field.subject.rawValue]] }
    static func serial(_ node: Node) -> DERTree { node.tbs[[MutantDraft.versionOffset(node.tbs) + MutantDraft.Field.serial.rawValue]] }
    static func subjectKeyIdentifier(_ node: Node) -> [UInt8]? {
        node.tbs.certificateExtensions.first { $0.oid == "2.5.29.14" }?.value.flatMap { $0.tag == 0x04 ? $0.content : nil }
    }

    /// The CRL `der` linked to the nodes: its signer is the certificate with the CRL's issuer as
    /// subject whose key verifies it (else whose subjectKeyIdentifier is its authorityKeyIdentifier,
    /// else the first of that name); each entry the certificate of that serial number the signer
    /// issued. nil when it is not a CertificateList.
    static func crl(_ der: [UInt8], certificates: [(tree: DERTree, certificate: Certificate)], nodes: [Node]) -> EditableCRL? {
        guard let whole = try? DERTree(der[...]), let parts = whole.children, parts.count == 3, parts[2].tag == 0x03,
              parts[0].tag == 0x30, let fields = parts[0].children else { return nil }
        var list = EditableCRL(tbs: parts[0], signer: nil, entries: [], followsIssuer: false, followsKeyIdentifier: false)
        guard fields.count > list.thisUpdateIndex, EditableCRL.isTime(fields[list.thisUpdateIndex]) else { return nil }
        let issuer = fields[list.issuerIndex]
        let named = nodes.indices.filter { subject(nodes[$0]) == issuer }
        let keyIdentifier = list.extensionValue(EditableCRL.authorityKeyIdentifier)?.children?.first { $0.tag == 0x80 }?.content
        list.signer = verifier(of: parts[0].encoded, signature: Array(parts[2].content.dropFirst()), algorithm: parts[1], among: named, certificates: certificates)
            ?? named.first { keyIdentifier != nil && subjectKeyIdentifier(nodes[$0]) == keyIdentifier } ?? named.first
        list.followsIssuer = list.signer != nil
        list.followsKeyIdentifier = list.signer.map { keyIdentifier != nil && subjectKeyIdentifier(nodes[$0]) == keyIdentifier } ?? false
        list.entries = list.revokedEntries.map { entry in
            guard let serial = entry.children?.first else { return nil }
            return nodes.indices.first { nodes[$0].issuer == list.signer && nodes[$0].issuer != $0 && Self.serial(nodes[$0]) == serial }
        }
        return list
    }

    /// The OCSP response of `parts` linked to the nodes: the certificate its first SingleResponse's
    /// CertID names (by serial number, its issuer's name and key hashed as the CertID says), the
    /// responder whose key verifies it (a carried certificate or one of the chain's, the one the
    /// responderID names first), and the carried certificates.
    static func ocspResponse(_ parts: OCSPParts, carrying carried: [Int], certificates: [(tree: DERTree, certificate: Certificate)], nodes: [Node]) -> EditableOCSPResponse {
        var response = EditableOCSPResponse(status: parts.status, data: parts.data, hasBody: parts.data != nil, signer: nil, certs: carried, subject: nil, certIssuer: nil,
                                            followsSerial: false, followsIssuerNameHash: false, followsIssuerKeyHash: false, followsResponderID: false)
        guard let data = parts.data, let algorithm = parts.algorithm, let signature = parts.signature else { return response }
        if response.hasSingle, let certID = response.single.children?.first?.children, certID.count == 4, let hash = EditableOCSPResponse.hash(certID[0]) {
            let subject = nodes.indices.first { node in
                guard let issuer = nodes[node].issuer, issuer != node, serial(nodes[node]) == certID[3] else { return false }
                return hash(nodes[node].tbs[[MutantDraft.versionOffset(nodes[node].tbs) + MutantDraft.Field.issuer.rawValue]].encoded) == certID[1].content
            }
            if let subject, let issuer = nodes[subject].issuer {
                response.subject = subject
                response.certIssuer = issuer
                response.followsSerial = true
                response.followsIssuerNameHash = true
                response.followsIssuerKeyHash = EditableOCSPResponse.keyBits(certificates[issuer].tree.encoded).map(hash) == certID[2].content
            }
        }
        let responderID = response.responderID
        func named(_ node: Int) -> Bool {
            switch responderID.tag {
            case 0xA1: return responderID.children?.first == subject(nodes[node])
            case 0xA2: return EditableOCSPResponse.keyBits(certificates[node].tree.encoded).map { Array(Insecure.SHA1.hash(data: $0)) } == responderID.children?.first?.content
            default: return false
            }
        }
        // The carried certificates first, and of each group those the responderID names first.
        let ordered = carried + nodes.indices.filter { !carried.contains($0) }
        let candidates = ordered.filter(named) + ordered.filter { !named($0) }
        response.signer = verifier(of: data.encoded, signature: signature, algorithm: algorithm, among: candidates, certificates: certificates) ?? candidates.first(where: named)
        response.followsResponderID = response.signer.map(named) ?? false
        return response
    }

    /// Whether the revocation data is what the revocation mutations' standard answers assume of a
    /// base: every CRL signed by a certificate of the chain, current at the validation time, listing
    /// nothing, with no critical extension and no issuingDistributionPoint; every OCSP response
    /// successful, signed by a certificate of the chain or one it carries, for a certificate of the
    /// chain, saying good, current. Other data (a base whose CRL lists the leaf as removeFromCRL, an
    /// expired response under soft-fail) leaves the revocation mutations unanswered on that base.
    var revocationDataIsPlain: Bool {
        func current(_ thisUpdate: DERTree, _ nextUpdate: DERTree?) -> Bool {
            guard let issued = Edit.date(thisUpdate), issued <= time else { return false }
            return nextUpdate.map { Edit.date($0).map { $0 > time } ?? false } ?? true
        }
        for list in revocationLists {
            guard list.signer != nil, list.followsIssuer, list.revokedEntries.isEmpty, let next = list.nextUpdateIndex,
                  current(list.thisUpdate, list.tbs[[next]]) else { return false }
            for field in list.extensions {
                let oid = MutantDraft.extensionOID(field)
                let critical = field.children?.count == 3 && field.children?[1].content == [0xFF]
                if critical || oid == EditableCRL.issuingDistributionPoint { return false }
            }
        }
        for response in ocspResponses {
            guard response.status == 0, response.hasBody, response.hasSingle, response.signer != nil, response.subject != nil,
                  response.followsIssuerKeyHash, response.certStatus.tag == 0x80 else { return false }
            let fields = response.single.children!
            guard current(response.thisUpdate, fields.count > 3 && fields[3].tag == 0xA0 ? fields[3].children?.first : nil) else { return false }
        }
        return true
    }
}
