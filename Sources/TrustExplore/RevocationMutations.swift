import Foundation
import TrustVectors

/// The mutations of a base's revocation data: one field, date, signature or scope of the CRL that
/// covers the leaf (`crl`) or the intermediate (`ca-crl`), or of the OCSP response for the leaf
/// (`ocsp`). Each CRL and response is then re-signed with its signer's new key
/// (``MutantDraft/renderAll(keys:)``), so only that property differs. A mutation applies only to a
/// base that has such data (``ChainModel/node(for:)``).
extension MutationCatalogue {
    static let crlRoles: [ChainModel.Role] = [.crl, .caCRL]
    static let unknownRevocationExtension = "1.3.6.1.4.1.55738.666.4"
    /// A serial number no certificate of a base has.
    static let strangerSerial = DERTree.primitive(0x02, [0x7E, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77])

    /// A mutation of the CRL at `n` (skipped when a mutation left it out).
    static func crl(_ name: String, _ summary: String, _ edit: @escaping @Sendable (inout EditableCRL, MutantDraft) -> Bool) -> Mutation {
        Mutation("crl/\(name)", crlRoles, summary) { d, n in
            guard d.revocationLists.indices.contains(n), !d.revocationLists[n].omitted else { return false }
            var list = d.revocationLists[n]
            guard edit(&list, d) else { return false }
            d.revocationLists[n] = list
            return true
        }
    }

    /// The certificate of the path a CRL covers: the one its signer issued.
    static func covered(by list: EditableCRL, in d: MutantDraft) -> Int? {
        guard let signer = list.signer else { return nil }
        return d.model.path.first { $0 != signer && d.certificates[$0].issuer == signer }
    }

    /// The covered certificate's serial number listed, with `reason` (a CRLReason, §5.3.1).
    static func revoking(_ name: String, reason: UInt8?, _ summary: String) -> Mutation {
        crl(name, summary) { list, d in
            guard let node = covered(by: list, in: d) else { return false }
            list.addEntry(serial: d[node, .serial], node: node, time: d.model.time, reason: reason)
            return true
        }
    }

    static let crls: [Mutation] = [
        crl("this-update-future", "the CRL's thisUpdate one day after the validation time (nextUpdate still after it)") { list, d in
            list.thisUpdate = DER.time(d.model.time.addingTimeInterval(86_400))
            return true
        },
        crl("next-update-past", "the CRL's nextUpdate one day before the validation time (thisUpdate eight days before)") { list, d in
            list.thisUpdate = DER.time(d.model.time.addingTimeInterval(-8 * 86_400))
            list.setNextUpdate(DER.time(d.model.time.addingTimeInterval(-86_400)))
            return true
        },
        crl("next-update-absent", "the CRL has no nextUpdate") { list, _ in
            guard list.nextUpdateIndex != nil else { return false }
            list.setNextUpdate(nil)
            return true
        },
        crl("times-generalized", "the CRL's thisUpdate and nextUpdate as GeneralizedTime although before 2050") { list, _ in
            guard let date = Edit.date(list.thisUpdate) else { return false }
            list.thisUpdate = Edit.generalizedTime(date)
            if let next = list.nextUpdateIndex, let date = Edit.date(list.tbs[[next]]) { list.tbs[[next]] = Edit.generalizedTime(date) }
            return true
        },
        crl("signature-broken", "the CRL's signature value with its last octet changed") { list, _ in
            list.afterSigning.append { whole in
                let last = whole.children![2].content.count - 1
                whole.children![2].content[last] ^= 0x01
            }
            return true
        },
        crl("signed-by-another-key", "the CRL in its issuer's name and authorityKeyIdentifier, signed by a key of no certificate") { list, _ in
            list.foreignKey = true
            return true
        },
        crl("issuer-name-changed", "the CRL's issuer is another name than its signer's (CN Another CA)") { list, _ in
            list.followsIssuer = false
            list.tbs[[list.issuerIndex]] = Edit.name(commonName: "Another CA")
            return true
        },
        crl("aki-changed", "the CRL's authorityKeyIdentifier names another key (20 octets AB)") { list, _ in
            list.followsKeyIdentifier = false
            list.setExtension(EditableCRL.authorityKeyIdentifier, critical: false, value: DER.sequence([.primitive(0x80, [UInt8](repeating: 0xAB, count: 20))]))
            return true
        },
        crl("aki-absent", "the CRL has no authorityKeyIdentifier (RFC 5280 §5.2.1: MUST be included)") { list, _ in
            guard list.extensionValue(EditableCRL.authorityKeyIdentifier) != nil else { return false }
            list.followsKeyIdentifier = false
            list.setExtensions(list.extensions.filter { MutantDraft.extensionOID($0) != EditableCRL.authorityKeyIdentifier })
            return true
        },
        revoking("revoked-key-compromise", reason: 1, "the CRL lists the certificate it covers, reason keyCompromise"),
        revoking("revoked-no-reason", reason: nil, "the CRL lists the certificate it covers, without a reason code"),
        revoking("revoked-certificate-hold", reason: 6, "the CRL lists the certificate it covers, reason certificateHold"),
        revoking("revoked-remove-from-crl", reason: 8, "the CRL lists the certificate it covers, reason removeFromCRL"),
        crl("revoked-other-serial", "the CRL lists a serial number of no certificate of the chain, reason keyCompromise") { list, d in
            list.addEntry(serial: strangerSerial, node: nil, time: d.model.time, reason: 1)
            return true
        },
        crl("unknown-critical-extension", "the CRL has a critical extension of an unknown OID") { list, _ in
            list.setExtension(unknownRevocationExtension, critical: true, value: DER.null)
            return true
        },
        crl("unknown-non-critical-extension", "the CRL has a non-critical extension of an unknown OID") { list, _ in
            list.setExtension(unknownRevocationExtension, critical: false, value: DER.null)
            return true
        },
        crl("unknown-critical-entry-extension", "the CRL lists a serial number of no certificate of the chain with a critical entry extension of an unknown OID") { list, d in
            list.addEntry(serial: strangerSerial, node: nil, time: d.model.time, reason: nil,
                          extensions: [DER.extensionField(unknownRevocationExtension, critical: true, value: DER.null)])
            return true
        },
        crl("idp-only-ca-certs", "a critical issuingDistributionPoint with onlyContainsCACerts") { list, _ in
            list.setExtension(EditableCRL.issuingDistributionPoint, critical: true, value: DER.sequence([.primitive(0x82, [0xFF])]))
            return true
        },
        crl("idp-only-user-certs", "a critical issuingDistributionPoint with onlyContainsUserCerts") { list, _ in
            list.setExtension(EditableCRL.issuingDistributionPoint, critical: true, value: DER.sequence([.primitive(0x81, [0xFF])]))
            return true
        },
        crl("v1", "a version 1 CRL: no version field and no extensions") { list, _ in
            guard list.versionOffset == 1 || !list.extensions.isEmpty else { return false }
            list.makeVersion1()
            return true
        },
        crl("absent", "the CRL is not given") { list, _ in
            list.omitted = true
            return true
        },
    ]

    // MARK: OCSP responses

    /// A mutation of the OCSP response at `n` with a body and a SingleResponse (skipped otherwise).
    static func ocsp(_ name: String, _ summary: String, _ edit: @escaping @Sendable (inout EditableOCSPResponse, inout MutantDraft) -> Bool) -> Mutation {
        Mutation("ocsp/\(name)", [.ocsp], summary) { d, n in
            guard d.ocspResponses.indices.contains(n), !d.ocspResponses[n].omitted, d.ocspResponses[n].hasBody, d.ocspResponses[n].hasSingle else { return false }
            var response = d.ocspResponses[n]
            guard edit(&response, &d) else { return false }
            d.ocspResponses[n] = response
            return true
        }
    }

    /// RevokedInfo (§4.2.1): revoked a day before the validation time, with a reason when given.
    static func revokedStatus(_ time: Date, reason: UInt8?) -> DERTree {
        .constructed(0xA1, [DER.generalizedTime(time.addingTimeInterval(-86_400))] + (reason.map { [.constructed(0xA0, [DER.enumerated($0)])] } ?? []))
    }

    /// A CertID field changed to a value that names no certificate.
    static func certIDField(_ index: Int, _ value: DERTree, _ release: @escaping @Sendable (inout EditableOCSPResponse) -> Void) -> @Sendable (inout EditableOCSPResponse, inout MutantDraft) -> Bool {
        { response, _ in
            guard var certID = response.single.children?.first, certID.children?.count == 4 else { return false }
            release(&response)
            certID[[index]] = value
            response.single[[0]] = certID
            return true
        }
    }

    /// The response's status, with or without its body.
    static func status(_ name: String, _ value: UInt8, body: Bool, _ summary: String) -> Mutation {
        ocsp(name, summary) { response, _ in
            response.status = value
            response.hasBody = body
            return true
        }
    }

    static let ocspMutations: [Mutation] = [
        ocsp("status-revoked", "the OCSP response says revoked, reason keyCompromise") { response, d in
            response.certStatus = revokedStatus(d.model.time, reason: 1); return true
        },
        ocsp("status-revoked-no-reason", "the OCSP response says revoked, without a reason") { response, d in
            response.certStatus = revokedStatus(d.model.time, reason: nil); return true
        },
        ocsp("status-revoked-certificate-hold", "the OCSP response says revoked, reason certificateHold") { response, d in
            response.certStatus = revokedStatus(d.model.time, reason: 6); return true
        },
        ocsp("status-unknown", "the OCSP response says unknown") { response, _ in
            response.certStatus = .primitive(0x82, []); return true
        },
        ocsp("this-update-future", "the OCSP response's thisUpdate one day after the validation time (nextUpdate, if any, still after it)") { response, d in
            response.thisUpdate = DER.generalizedTime(d.model.time.addingTimeInterval(86_400))
            let fields = response.single.children!
            if fields.count > 3, fields[3].tag == 0xA0, let next = fields[3].children?.first.flatMap(Edit.date), next <= d.model.time.addingTimeInterval(86_400) {
                response.setNextUpdate(DER.generalizedTime(d.model.time.addingTimeInterval(4 * 86_400)))
            }
            return true
        },
        ocsp("next-update-past", "the OCSP response's nextUpdate one day before the validation time (thisUpdate eight days before)") { response, d in
            response.thisUpdate = DER.generalizedTime(d.model.time.addingTimeInterval(-8 * 86_400))
            response.setNextUpdate(DER.generalizedTime(d.model.time.addingTimeInterval(-86_400)))
            return true
        },
        ocsp("next-update-absent", "the OCSP response has no nextUpdate") { response, _ in
            let fields = response.single.children!
            guard fields.count > 3, fields[3].tag == 0xA0 else { return false }
            response.setNextUpdate(nil); return true
        },
        ocsp("certid-serial-changed", "the OCSP response's CertID names another serial number", certIDField(3, strangerSerial) { $0.followsSerial = false }),
        ocsp("certid-issuer-name-hash-changed", "the OCSP response's CertID has another issuerNameHash", certIDField(1, .primitive(0x04, [UInt8](repeating: 0xAB, count: 20))) { $0.followsIssuerNameHash = false }),
        ocsp("certid-issuer-key-hash-changed", "the OCSP response's CertID has another issuerKeyHash", certIDField(2, .primitive(0x04, [UInt8](repeating: 0xAB, count: 20))) { $0.followsIssuerKeyHash = false }),
        ocsp("certid-sha256", "the OCSP response's CertID hashes the issuer's name and key with SHA-256") { response, _ in
            guard response.followsSerial && response.followsIssuerNameHash && response.followsIssuerKeyHash, var certID = response.single.children?.first else { return false }
            certID[[0]] = DER.sequence([DER.oid("2.16.840.1.101.3.4.2.1"), DER.null])
            response.single[[0]] = certID
            return true
        },
        ocsp("responder-id-changed", "the OCSP response's responderID names another responder (CN Another Responder)") { response, _ in
            response.followsResponderID = false
            response.responderID = .constructed(0xA1, [Edit.name(commonName: "Another Responder")])
            return true
        },
        ocsp("responder-id-by-key", "the OCSP response's responderID is the SHA-1 hash of the responder's key (byKey)") { response, _ in
            guard response.responderID.tag == 0xA1, response.followsResponderID else { return false }
            response.responderID = .constructed(0xA2, [.primitive(0x04, [])])
            return true
        },
        ocsp("signature-broken", "the OCSP response's signature value with its last octet changed") { response, _ in
            response.afterSigning.append { whole in
                let last = whole.children![2].content.count - 1
                whole.children![2].content[last] ^= 0x01
            }
            return true
        },
        ocsp("signed-by-another-key", "the OCSP response signed by a key of no certificate, its responderID unchanged") { response, _ in
            response.foreignKey = true; return true
        },
        ocsp("responder-without-ocsp-signing", "the delegated responder's certificate has no extendedKeyUsage (so no id-kp-OCSPSigning)") { response, d in
            guard let signer = response.signer, signer != response.certIssuer, d.extensions(signer).contains(where: { MutantDraft.extensionOID($0) == Edit.extendedKeyUsage }) else { return false }
            return d.removeExtension(signer, Edit.extendedKeyUsage)
        },
        ocsp("responder-not-carried", "the OCSP response does not carry its delegated responder's certificate") { response, _ in
            guard let signer = response.signer, signer != response.certIssuer, response.certs.contains(signer) else { return false }
            response.certs.removeAll { $0 == signer }
            return true
        },
        status("status-try-later", 3, body: false, "an OCSPResponse with status tryLater and no body"),
        status("status-unauthorized", 6, body: false, "an OCSPResponse with status unauthorized and no body"),
        status("try-later-with-body", 3, body: true, "an OCSPResponse with status tryLater that still carries the good response"),
        status("successful-without-body", 0, body: false, "an OCSPResponse with status successful and no responseBytes"),
        ocsp("unknown-critical-response-extension", "the OCSP response has a critical responseExtension of an unknown OID") { response, _ in
            response.addResponseExtension(DER.extensionField(unknownRevocationExtension, critical: true, value: DER.null))
            return true
        },
        Mutation("ocsp/absent", [.ocsp], "no OCSP response is given") { d, n in
            guard d.ocspResponses.indices.contains(n), !d.ocspResponses[n].omitted else { return false }
            d.ocspResponses[n].omitted = true
            return true
        },
    ]
}
