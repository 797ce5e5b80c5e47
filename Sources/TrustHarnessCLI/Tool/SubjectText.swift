import SwiftASN1
import X509

/// A certificate's subject for people: the name swift-certificates reads, or, when it will not read
/// the whole certificate (a negative serial number, an algorithm it does not know), the subject read
/// from the TBSCertificate alone; an empty name as `(empty subject)`, and only a certificate whose
/// subject cannot be found at all as `(unreadable subject)`.
enum SubjectText {
    static func of(_ der: [UInt8]) -> String {
        if let certificate = try? Certificate(derEncoded: der) { return text(certificate.subject) }
        guard let subject = subjectNode(der), let name = try? DistinguishedName(derEncoded: subject) else {
            return "(unreadable subject)"
        }
        return text(name)
    }

    static func text(_ name: DistinguishedName) -> String {
        name.isEmpty ? "(empty subject)" : "\(name)"
    }

    /// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity,
    /// subject, ... } (RFC 5280 §4.1): the sixth element, or the fifth without a version.
    private static func subjectNode(_ der: [UInt8]) -> ASN1Node? {
        guard let root = try? DER.parse(der), case .constructed(let certificate) = root.content,
              let tbs = certificate.first(where: { _ in true }), case .constructed(let fields) = tbs.content else { return nil }
        var elements = Array(fields)
        if let first = elements.first, first.identifier.tagClass == .contextSpecific, first.identifier.tagNumber == 0 {
            elements.removeFirst()
        }
        return elements.count > 4 ? elements[4] : nil
    }
}
