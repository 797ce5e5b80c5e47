import Crypto
import Foundation
import TrustVectors

/// An OCSP response of a base (RFC 6960 §4.2.1) as an editable ResponseData, with the certificate
/// whose key signs it (the CA itself or a delegated responder, §4.2.2.2), the certificates it
/// carries, and the certificate its first SingleResponse gives the status of, so that a mutant's
/// response is re-signed with the responder's new key exactly as certificates are
/// (``MutantDraft/renderAll(keys:)``).
///
/// Fields that name a certificate of the chain follow it unless a mutation changed them: the
/// CertID's serial number is the certificate's, its issuerNameHash the hash of that certificate's
/// issuer field (§4.1.1: "calculated over the DER encoding of the issuer's name field in the
/// certificate being checked"), its issuerKeyHash the hash of the issuer's new key, and the
/// responderID names the responder (by name, or by the hash of its new key).
struct EditableOCSPResponse: Sendable {
    /// OCSPResponseStatus (§4.2.1): 0 successful, 1 malformedRequest, 2 internalError, 3 tryLater,
    /// 5 sigRequired, 6 unauthorized.
    var status: UInt8
    /// The BasicOCSPResponse's tbsResponseData; nil when the base's response has no body.
    var data: DERTree?
    /// Whether the responseBytes are written (false: an OCSPResponse of its status alone).
    var hasBody: Bool
    /// The node whose key signs; nil when none of the chain's or the response's certificates did.
    var signer: Int?
    /// The nodes the response carries in `certs`, in order.
    var certs: [Int]
    /// The node the first SingleResponse's CertID names, and the node whose name and key it hashes.
    var subject: Int?
    var certIssuer: Int?
    var followsSerial: Bool
    var followsIssuerNameHash: Bool
    var followsIssuerKeyHash: Bool
    var followsResponderID: Bool
    /// Signed by a key of no certificate.
    var foreignKey = false
    /// Left out of the request.
    var omitted = false
    /// Edits of the signed BasicOCSPResponse (its signature value).
    var afterSigning: [@Sendable (inout DERTree) -> Void] = []

    static let basicResponse = "1.3.6.1.5.5.7.48.1.1"

    // MARK: ResponseData fields

    var responderIndex: Int { data?.children?.first?.tag == 0xA0 ? 1 : 0 }
    var producedAtIndex: Int { responderIndex + 1 }
    var responsesIndex: Int { responderIndex + 2 }

    /// The first SingleResponse (RFC 6960 §4.2.1).
    var single: DERTree {
        get { data![[responsesIndex, 0]] }
        set { data![[responsesIndex, 0]] = newValue }
    }

    var hasSingle: Bool { (data?.children?.count ?? 0) > responsesIndex && (data![[responsesIndex]].children?.isEmpty == false) }

    /// The responderID element (`[1]` byName, `[2]` byKey).
    var responderID: DERTree {
        get { data![[responderIndex]] }
        set { data![[responderIndex]] = newValue }
    }

    /// The certStatus of the first SingleResponse.
    var certStatus: DERTree {
        get { single[[1]] }
        set { single[[1]] = newValue }
    }

    var thisUpdate: DERTree {
        get { single[[2]] }
        set { single[[2]] = newValue }
    }

    /// Sets the first SingleResponse's nextUpdate (nil: removes it).
    mutating func setNextUpdate(_ time: DERTree?) {
        var fields = single.children!
        if fields.count > 3 && fields[3].tag == 0xA0 { fields.remove(at: 3) }
        if let time { fields.insert(.constructed(0xA0, [time]), at: 3) }
        single.children = fields
    }

    /// Adds an extension to responseExtensions (`[1]` after the responses).
    mutating func addResponseExtension(_ field: DERTree) {
        guard var children = data?.children else { return }
        let at = responsesIndex + 1
        if at < children.count && children[at].tag == 0xA1 {
            children[at].children![0].children!.append(field)
        } else {
            children.insert(.constructed(0xA1, [DER.sequence([field])]), at: at)
        }
        data!.children = children
    }

    // MARK: CertID

    /// The hash the CertID names (§4.1.1's hashAlgorithm), nil for one the explorer cannot compute.
    static func hash(_ algorithm: DERTree) -> (@Sendable ([UInt8]) -> [UInt8])? {
        switch DER.dotted(algorithm.children?.first?.content ?? []) {
        case "1.3.14.3.2.26": return { Array(Insecure.SHA1.hash(data: $0)) }
        case "2.16.840.1.101.3.4.2.1": return { Array(SHA256.hash(data: $0)) }
        case "2.16.840.1.101.3.4.2.2": return { Array(SHA384.hash(data: $0)) }
        case "2.16.840.1.101.3.4.2.3": return { Array(SHA512.hash(data: $0)) }
        default: return nil
        }
    }

    /// The value of a certificate's subjectPublicKey BIT STRING, without its unused-bits octet:
    /// what issuerKeyHash and a byKey responderID hash (§4.1.1, §4.2.1).
    static func keyBits(_ certificate: [UInt8]) -> [UInt8]? {
        guard let tbs = try? DERTree(certificate[...])[[0]], let children = tbs.children else { return nil }
        let offset = children.first?.tag == 0xA0 ? 1 : 0
        guard children.count > offset + 5, let bits = children[offset + 5].children?.last, bits.tag == 0x03 else { return nil }
        return Array(bits.content.dropFirst())
    }

    /// Whether this response is as `model` has it (no mutation touched it).
    func isUnchanged(from model: EditableOCSPResponse) -> Bool {
        status == model.status && data == model.data && hasBody == model.hasBody && signer == model.signer && certs == model.certs
            && subject == model.subject && certIssuer == model.certIssuer && followsSerial == model.followsSerial
            && followsIssuerNameHash == model.followsIssuerNameHash && followsIssuerKeyHash == model.followsIssuerKeyHash
            && followsResponderID == model.followsResponderID && foreignKey == model.foreignKey && omitted == model.omitted && afterSigning.isEmpty
    }
}
