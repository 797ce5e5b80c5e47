import Foundation
import TrustCore

/// The revocation part of the catalogue: the certificates only revocation needs (an OCSP-enabled
/// leaf, delegated responders), the CRLs and OCSP responses, and the cases, whose answers come from
/// RFC 5280 §5 and §6.3 and RFC 6960, with the caller's mode (``TrustCore/RevocationMode``) where the
/// answer rests on what a missing or unusable status means.
///
/// Every CRL case presents `leaf` and `intermediate` under `root`, with the root's CRL for the
/// intermediate and the intermediate's for the leaf (one of them missing, defective or listing).
/// Every OCSP case presents `ocsp-leaf` (which names an OCSP responder) and `intermediate`, with one
/// response for the leaf. A defect is tested twice: hard-fail with a defective CRL or response that
/// lists nothing (a library that uses it anyway trusts what it must not), and soft-fail with a
/// defective one that says revoked (a library that uses it anyway refuses what it should trust).
extension Catalogue {
    /// Where the OCSP-enabled certificates point (RFC 2606 reserves `.test`; nothing is fetched).
    static let ocspResponderURL = "http://ocsp.example.test/"

    static let revocationCertificates: [CertificateSpec] = [
        server("ocsp-leaf") { $0.ocspResponderURL = ocspResponderURL },
        // The same leaf declaring must-staple (RFC 7633).
        server("ocsp-leaf-must-staple") { $0.ocspResponderURL = ocspResponderURL; $0.mustStaple = true },
        // Delegated responders issued by the intermediate (RFC 6960 §4.2.2.2), with and without
        // id-kp-OCSPSigning.
        server("ocsp-responder", key: "ocsp-responder", commonName: "OCSP Responder", names: []) { $0.extendedKeyUsage = [.ocspSigning] },
        server("ocsp-responder-no-eku", key: "ocsp-responder", commonName: "OCSP Responder without id-kp-OCSPSigning", names: []) { $0.extendedKeyUsage = nil },
    ]

    // MARK: - CRLs

    /// Every CRL, signed per key type as `crls/<key type>/<name>.pem`.
    static let crls: [CRLSpec] = {
        var lists: [CRLSpec] = [
            CRLSpec(name: "root-crl", issuer: "root"),
            CRLSpec(name: "root-crl-revoking-intermediate", issuer: "root", revoked: [.init(certificate: "intermediate", reason: .keyCompromise)]),
            CRLSpec(name: "intermediate-crl", issuer: "intermediate"),
            CRLSpec(name: "intermediate-crl-revoking-leaf", issuer: "intermediate", revoked: [.init(certificate: "leaf", reason: .keyCompromise)]),
            CRLSpec(name: "intermediate-crl-revoking-leaf-no-reason", issuer: "intermediate", revoked: [.init(certificate: "leaf", reason: nil)]),
            CRLSpec(name: "intermediate-crl-holding-leaf", issuer: "intermediate", revoked: [.init(certificate: "leaf", reason: .certificateHold)]),
            CRLSpec(name: "intermediate-crl-removing-leaf", issuer: "intermediate", revoked: [.init(certificate: "leaf", reason: .removeFromCRL)]),
            CRLSpec(name: "intermediate-crl-user-scope-revoking-leaf", issuer: "intermediate", revoked: [.init(certificate: "leaf", reason: .keyCompromise)], scope: .onlyUserCertificates),
            CRLSpec(name: "other-intermediate-crl", issuer: "other-intermediate"),
            CRLSpec(name: "other-intermediate-crl-revoking-leaf", issuer: "other-intermediate", revoked: [.init(certificate: "leaf", reason: .keyCompromise)]),
        ]
        for defect in CRLDefect.allCases {
            for revoking in [false, true] {
                var list = CRLSpec(name: defect.crlName(revoking: revoking), issuer: "intermediate")
                if revoking { list.revoked = [.init(certificate: "leaf", reason: .keyCompromise)] }
                defect.apply(&list)
                lists.append(list)
            }
        }
        return lists
    }()

    /// The path of a CRL file relative to `Vectors/`.
    static func crlPath(_ name: String, _ keyType: KeyType) -> String {
        "crls/\(keyType.rawValue)/\(name).pem"
    }

    /// Defects that make the intermediate's CRL unusable for the leaf.
    enum CRLDefect: String, CaseIterable {
        case expired
        case signedByAnotherKey = "signed-by-another-key"
        case unknownCriticalExtension = "unknown-critical-extension"
        case caOnlyScope = "ca-only-scope"
        case notYetValid = "not-yet-valid"

        func crlName(revoking: Bool) -> String {
            "intermediate-crl-\(rawValue)" + (revoking ? "-revoking-leaf" : "")
        }

        func apply(_ list: inout CRLSpec) {
            switch self {
            case .expired:
                list.thisUpdate = -8 * 86_400
                list.nextUpdate = -86_400
            case .signedByAnotherKey:
                // Same issuer name and authorityKeyIdentifier, another CA's key.
                list.signer = "other-intermediate"
            case .unknownCriticalExtension:
                list.unknownCriticalExtension = true
            case .caOnlyScope:
                list.scope = .onlyCACertificates
            case .notYetValid:
                list.thisUpdate = 86_400
                list.nextUpdate = 8 * 86_400
            }
        }

        var words: String {
            switch self {
            case .expired: return "whose nextUpdate is a day before the validation time"
            case .signedByAnotherKey: return "in the intermediate's name but signed by another CA's key"
            case .unknownCriticalExtension: return "with a critical extension no verifier knows"
            case .caOnlyScope: return "whose issuingDistributionPoint limits it to CA certificates"
            case .notYetValid: return "whose thisUpdate is a day after the validation time"
            }
        }

        var reference: String {
            switch self {
            case .expired: return rfc5280CRLNextUpdate
            case .signedByAnotherKey: return rfc5280CRLSignature
            case .unknownCriticalExtension: return rfc5280CRLCriticalExtension
            case .caOnlyScope: return rfc5280CRLCAOnly
            case .notYetValid: return rfc5280CRLThisUpdate
            }
        }

        /// Why the answer is left open, for a defect RFC 5280 gives no consequence: §6.3.3 tests a
        /// CRL's nextUpdate against the time, never its thisUpdate.
        var open: String? {
            switch self {
            case .notYetValid: return rfc5280CRLThisUpdate + " RFC 5280 §6.3.3 compares only the next update field with the current time: whether a CRL issued after the validation time may be used is left to the relying party."
            default: return nil
            }
        }
    }

    // MARK: - OCSP responses

    /// Every OCSP response, signed per key type as `ocsp/<key type>/<name>.der`.
    static let ocspResponses: [OCSPSpec] = {
        func leafStatus(_ name: String, _ status: OCSPSpec.Status, adjust: (inout OCSPSpec) -> Void = { _ in }) -> OCSPSpec {
            var response = OCSPSpec(name: name, certificate: "ocsp-leaf", issuer: "intermediate", responder: "intermediate", status: status)
            adjust(&response)
            return response
        }
        let revoked = OCSPSpec.Status.revoked(reason: .keyCompromise)
        return [
            leafStatus("ocsp-leaf-good", .good),
            leafStatus("ocsp-leaf-revoked", revoked),
            leafStatus("ocsp-leaf-unknown", .unknown),
            leafStatus("ocsp-leaf-revoked-unknown-reason", .revoked(reason: nil)),
            leafStatus("ocsp-leaf-good-expired", .good) { $0.thisUpdate = -8 * 86_400; $0.nextUpdate = -86_400 },
            leafStatus("ocsp-leaf-revoked-expired", revoked) { $0.thisUpdate = -8 * 86_400; $0.nextUpdate = -86_400 },
            leafStatus("ocsp-leaf-good-not-yet-valid", .good) { $0.thisUpdate = 86_400; $0.nextUpdate = 8 * 86_400 },
            leafStatus("ocsp-leaf-revoked-not-yet-valid", revoked) { $0.thisUpdate = 86_400; $0.nextUpdate = 8 * 86_400 },
            leafStatus("ocsp-leaf-good-delegated", .good) { $0.responder = "ocsp-responder" },
            leafStatus("ocsp-leaf-good-delegated-no-eku", .good) { $0.responder = "ocsp-responder-no-eku" },
            leafStatus("ocsp-leaf-revoked-delegated-no-eku", revoked) { $0.responder = "ocsp-responder-no-eku" },
            leafStatus("ocsp-leaf-good-bad-signature", .good) { $0.signer = "other-intermediate" },
            leafStatus("ocsp-leaf-revoked-bad-signature", revoked) { $0.signer = "other-intermediate" },
            // For another certificate of the same issuer: the shared-key `leaf`.
            OCSPSpec(name: "other-certificate-good", certificate: "leaf", issuer: "intermediate", responder: "intermediate", status: .good),
            OCSPSpec(name: "other-certificate-revoked", certificate: "leaf", issuer: "intermediate", responder: "intermediate", status: revoked),
            OCSPSpec(name: "ocsp-leaf-must-staple-good", certificate: "ocsp-leaf-must-staple", issuer: "intermediate", responder: "intermediate", status: .good),
        ]
    }()

    /// The path of an OCSP response file relative to `Vectors/`.
    static func ocspPath(_ name: String, _ keyType: KeyType) -> String {
        "ocsp/\(keyType.rawValue)/\(name).der"
    }

    // MARK: - Cases

    /// A status that cannot be determined is rejected under hard-fail for no particular reason
    /// class: libraries call it revoked, untrusted or other.
    package static let undetermined: [FailureClass] = [.other, .revoked, .untrusted]

    static let revocationCases: [VectorCase] = {
        let chain = ["leaf", "intermediate"]
        let path = ["leaf", "intermediate", "root"]
        let ocspChain = ["ocsp-leaf", "intermediate"]
        let ocspPath = ["ocsp-leaf", "intermediate", "root"]
        func with(_ vectorCase: VectorCase, crls: [String] = [], ocsp: [String] = [], mode: RevocationMode? = nil) -> VectorCase {
            var vectorCase = vectorCase
            vectorCase.revocation = RevocationInputs(crls: crls, ocspResponses: ocsp, mode: mode)
            return vectorCase
        }
        func crlCase(_ name: String, _ description: String, crls: [String], mode: RevocationMode? = nil, trusted: Bool, failures: [FailureClass] = [.revoked], references: [String]) -> VectorCase {
            let base = trusted
                ? accept("revocation-" + name, description, chain: chain, path: path, references: references)
                : reject("revocation-" + name, description, chain: chain, failures: failures, references: references)
            return with(base, crls: crls, mode: mode)
        }
        func ocspCase(_ name: String, _ description: String, responses: [String], mode: RevocationMode? = nil, trusted: Bool, failures: [FailureClass] = [.revoked], references: [String]) -> VectorCase {
            let base = trusted
                ? accept("revocation-" + name, description, chain: ocspChain, path: ocspPath, references: references)
                : reject("revocation-" + name, description, chain: ocspChain, failures: failures, references: references)
            return with(base, ocsp: responses, mode: mode)
        }
        let both = ["root-crl", "intermediate-crl"]
        var cases: [VectorCase] = [
            crlCase("crl-none-revoked", "Current CRLs of the root and of the intermediate, listing neither certificate: nothing is revoked.",
                    crls: both, trusted: true, references: [rfc5280CRLProcessing]),
            crlCase("crl-revoked-leaf", "The intermediate's current CRL lists the leaf (keyCompromise).",
                    crls: ["root-crl", "intermediate-crl-revoking-leaf"], trusted: false, references: [rfc5280CRLEntryFound]),
            crlCase("crl-revoked-leaf-no-reason", "The intermediate's current CRL lists the leaf without a reason code (unspecified).",
                    crls: ["root-crl", "intermediate-crl-revoking-leaf-no-reason"], trusted: false, references: [rfc5280CRLEntryFound, rfc5280CRLNoReason]),
            crlCase("crl-revoked-intermediate", "The root's current CRL lists the intermediate (keyCompromise): every certificate of the path is checked, not the leaf alone.",
                    crls: ["root-crl-revoking-intermediate", "intermediate-crl"], trusted: false, references: [rfc5280RevocationEveryCertificate, rfc5280CRLEntryFound]),
            crlCase("crl-hold-leaf", "The intermediate's current CRL lists the leaf with reason certificateHold: on hold, not valid.",
                    crls: ["root-crl", "intermediate-crl-holding-leaf"], trusted: false, references: [rfc5280CRLEntryFound, rfc5280CRLReturnStatus]),
            crlCase("crl-remove-from-crl-leaf", "The intermediate's current CRL lists the leaf with reason removeFromCRL: the status found is UNREVOKED.",
                    crls: ["root-crl", "intermediate-crl-removing-leaf"], trusted: true, references: [rfc5280CRLRemove]),
            crlCase("crl-user-scope-revoked-leaf", "The intermediate's CRL, limited to end-entity certificates by its issuingDistributionPoint, lists the leaf: it covers the leaf.",
                    crls: ["root-crl", "intermediate-crl-user-scope-revoking-leaf"], trusted: false, references: [rfc5280CRLUserOnly, rfc5280CRLEntryFound]),
            crlCase("crl-missing-leaf-hard", "Hard-fail, and no CRL of the intermediate: the leaf's status is UNDETERMINED.",
                    crls: ["root-crl"], mode: .hardFail, trusted: false, failures: undetermined, references: [rfc5280CRLUndetermined, hardFailMode]),
            crlCase("crl-missing-leaf-soft", "Soft-fail, and no CRL of the intermediate: the leaf's UNDETERMINED status counts as not revoked.",
                    crls: ["root-crl"], mode: .softFail, trusted: true, references: [rfc5280CRLUndetermined, softFailMode]),
            crlCase("crl-missing-intermediate-hard", "Hard-fail, and no CRL of the root: the intermediate's status is UNDETERMINED.",
                    crls: ["intermediate-crl"], mode: .hardFail, trusted: false, failures: undetermined, references: [rfc5280RevocationEveryCertificate, rfc5280CRLUndetermined, hardFailMode]),
            crlCase("crl-missing-intermediate-soft", "Soft-fail, and no CRL of the root: the intermediate's UNDETERMINED status counts as not revoked.",
                    crls: ["intermediate-crl"], mode: .softFail, trusted: true, references: [rfc5280CRLUndetermined, softFailMode]),
            crlCase("crl-other-issuer-hard", "Hard-fail, and the only CRL for the leaf's level is another CA's: it does not cover the leaf, whose status is UNDETERMINED.",
                    crls: ["root-crl", "other-intermediate-crl"], mode: .hardFail, trusted: false, failures: undetermined, references: [rfc5280CRLIssuerMatch, rfc5280CRLUndetermined, hardFailMode]),
            crlCase("crl-other-issuer-soft", "Soft-fail, and another CA's CRL lists the leaf's serial number: it does not cover the leaf, whose UNDETERMINED status counts as not revoked.",
                    crls: ["root-crl", "other-intermediate-crl-revoking-leaf"], mode: .softFail, trusted: true, references: [rfc5280CRLIssuerMatch, rfc5280CRLUndetermined, softFailMode]),
        ]
        // The library's own default: no mode asked, and a status it cannot determine. RFC 5280
        // leaves UNDETERMINED to the relying party, so the vector is open and shows the default.
        var byDefault = crlCase("crl-missing-leaf-default", "No mode asked, and no CRL of the intermediate: the leaf's status is UNDETERMINED, and the library's default decides.",
                                crls: ["root-crl"], trusted: true, references: [rfc5280CRLUndetermined])
        byDefault.open = rfc5280CRLUndetermined + " RFC 5280 gives no rule for a certificate whose status is UNDETERMINED: the relying party's policy (hard-fail or soft-fail) decides."
        cases.append(byDefault)
        for defect in CRLDefect.allCases {
            if let open = defect.open {
                // Open: the two vectors show whether the library uses such a CRL, listing nothing
                // (hard-fail: used, the leaf is not revoked) and listing the leaf (soft-fail: used,
                // it is revoked).
                var hard = crlCase("crl-\(defect.rawValue)-hard", "Hard-fail, and the intermediate's only CRL, listing nothing, is one \(defect.words): whether it determines the leaf's status is the relying party's choice.",
                                   crls: ["root-crl", defect.crlName(revoking: false)], mode: .hardFail, trusted: true, references: [defect.reference, hardFailMode])
                var soft = crlCase("crl-\(defect.rawValue)-soft", "Soft-fail, and the intermediate's only CRL, listing the leaf, is one \(defect.words): whether it revokes the leaf is the relying party's choice.",
                                   crls: ["root-crl", defect.crlName(revoking: true)], mode: .softFail, trusted: true, references: [defect.reference, softFailMode])
                (hard.open, soft.open) = (open, open)
                cases += [hard, soft]
                continue
            }
            cases.append(crlCase("crl-\(defect.rawValue)-hard", "Hard-fail, and the intermediate's CRL, listing nothing, is one \(defect.words): unusable, so the leaf's status is UNDETERMINED.",
                                 crls: ["root-crl", defect.crlName(revoking: false)], mode: .hardFail, trusted: false, failures: undetermined,
                                 references: [defect.reference, rfc5280CRLUndetermined, hardFailMode]))
            cases.append(crlCase("crl-\(defect.rawValue)-soft", "Soft-fail, and the intermediate's CRL listing the leaf is one \(defect.words): unusable, so the leaf's UNDETERMINED status counts as not revoked.",
                                 crls: ["root-crl", defect.crlName(revoking: true)], mode: .softFail, trusted: true,
                                 references: [defect.reference, rfc5280CRLUndetermined, softFailMode]))
        }
        cases += [
            ocspCase("ocsp-good", "A current OCSP response from the intermediate says the leaf is good.",
                     responses: ["ocsp-leaf-good"], trusted: true, references: [rfc6960Acceptance]),
            ocspCase("ocsp-revoked", "A current OCSP response from the intermediate says the leaf is revoked (keyCompromise).",
                     responses: ["ocsp-leaf-revoked"], trusted: false, references: [rfc6960Acceptance, rfc6960Revoked]),
            ocspCase("ocsp-revoked-no-reason", "A current OCSP response from the intermediate says the leaf is revoked, without a reason.",
                     responses: ["ocsp-leaf-revoked-unknown-reason"], trusted: false, references: [rfc6960Acceptance, rfc6960Revoked]),
            ocspCase("ocsp-delegated-good", "A current OCSP response says the leaf is good, signed by a responder the intermediate designated with id-kp-OCSPSigning.",
                     responses: ["ocsp-leaf-good-delegated"], trusted: true, references: [rfc6960Delegation]),
            ocspCase("ocsp-unknown-hard", "Hard-fail, and the OCSP response says unknown: the leaf's status is not determined.",
                     responses: ["ocsp-leaf-unknown"], mode: .hardFail, trusted: false, failures: undetermined, references: [rfc6960Unknown, hardFailMode]),
            ocspCase("ocsp-unknown-soft", "Soft-fail, and the OCSP response says unknown: no status, so not revoked.",
                     responses: ["ocsp-leaf-unknown"], mode: .softFail, trusted: true, references: [rfc6960Unknown, softFailMode]),
            {
                var unknown = ocspCase("ocsp-unknown-default", "No mode asked, and the OCSP response says unknown: no status, and the library's default decides.",
                                       responses: ["ocsp-leaf-unknown"], trusted: true, references: [rfc6960Unknown])
                unknown.open = rfc6960Unknown + " RFC 6960 gives the unknown state no consequence for the relying party: the relying party's policy (hard-fail or soft-fail) decides."
                return unknown
            }(),
            ocspCase("ocsp-missing-hard", "Hard-fail, and no OCSP response and no CRL: the leaf's status is not determined.",
                     responses: [], mode: .hardFail, trusted: false, failures: undetermined, references: [hardFailMode]),
        ]
        let ocspDefects: [(name: String, words: String, hard: String, soft: String, reference: String)] = [
            ("expired", "whose nextUpdate is a day before the validation time", "ocsp-leaf-good-expired", "ocsp-leaf-revoked-expired", rfc6960NextUpdate),
            ("not-yet-valid", "whose thisUpdate is a day after the validation time", "ocsp-leaf-good-not-yet-valid", "ocsp-leaf-revoked-not-yet-valid", rfc6960ThisUpdate),
            ("delegated-no-eku", "signed by a certificate of the intermediate without id-kp-OCSPSigning", "ocsp-leaf-good-delegated-no-eku", "ocsp-leaf-revoked-delegated-no-eku", rfc6960Delegation),
            ("bad-signature", "signed by another CA's key", "ocsp-leaf-good-bad-signature", "ocsp-leaf-revoked-bad-signature", rfc6960Signature),
            ("other-certificate", "for another certificate of the intermediate", "other-certificate-good", "other-certificate-revoked", rfc6960Certificate),
        ]
        for defect in ocspDefects {
            cases.append(ocspCase("ocsp-\(defect.name)-hard", "Hard-fail, and the only OCSP response, saying good, is one \(defect.words): not acceptable, so the leaf's status is not determined.",
                                  responses: [defect.hard], mode: .hardFail, trusted: false, failures: undetermined, references: [defect.reference, hardFailMode]))
            cases.append(ocspCase("ocsp-\(defect.name)-soft", "Soft-fail, and the only OCSP response, saying revoked, is one \(defect.words): not acceptable, so no status, so not revoked.",
                                  responses: [defect.soft], mode: .softFail, trusted: true, references: [defect.reference, softFailMode]))
        }
        // Must-staple (RFC 7633): the leaf's TLS feature extension binds a TLS client that asked for
        // status, not path validation (the explorer's answer for the extension alike), so the chain
        // is trusted under soft-fail without a response; a handshake that brings no staple must be
        // refused (`handshake`, which `run --handshake` and `probe` judge).
        let mustStapleChain = ["ocsp-leaf-must-staple", "intermediate"]
        var mustStapleMissing = with(accept("revocation-ocsp-must-staple-missing", "Soft-fail, no OCSP response, and the leaf declares must-staple (TLS feature status_request): path validation trusts it; a TLS client that asked for status and got no staple must refuse the handshake.",
                                            chain: mustStapleChain, path: mustStapleChain + ["root"], references: [rfc7633PathValidation, softFailMode, rfc7633Client]),
                                     ocsp: [], mode: .softFail)
        mustStapleMissing.handshake = ProfileAnswer(expected: Expectation(trusted: false, failures: undetermined), references: [rfc7633Client])
        cases += [
            with(accept("revocation-ocsp-must-staple-good", "A current OCSP response says the must-staple leaf is good: trusted, in a handshake that staples it too.",
                        chain: mustStapleChain, path: mustStapleChain + ["root"], references: [rfc6960Acceptance, rfc7633Client]),
                 ocsp: ["ocsp-leaf-must-staple-good"]),
            mustStapleMissing,
        ]
        return cases
    }()

    // MARK: - References

    package static let hardFailMode = "The caller's revocation mode, hard-fail (TrustCore's RevocationMode.hardFail): a certificate whose revocation status is not determined is not trusted."
    package static let softFailMode = "The caller's revocation mode, soft-fail (TrustCore's RevocationMode.softFail): a certificate whose revocation status is not determined counts as not revoked; only a usable status that says revoked rejects."
    package static let rfc5280CRLProcessing = "RFC 5280 §6.3.3 (CRL Processing): \"This algorithm begins by assuming that the certificate is not revoked.\""
    package static let rfc5280CRLEntryFound = "RFC 5280 §6.3.3(j) (CRL Processing): \"If (cert_status is UNREVOKED), then search for the certificate on the complete CRL.  If an entry is found that matches the certificate issuer and serial number as described in Section 5.3.3, then set the cert_status variable to the indicated reason as described in step (i).\""
    package static let rfc5280CRLNoReason = "RFC 5280 §6.3.3(i)(2) (CRL Processing): \"If the reason code CRL entry extension is not present, set the cert_status variable to the value unspecified.\""
    package static let rfc5280CRLReturnStatus = "RFC 5280 §6.3.3 (CRL Processing): \"If ((reasons_mask is all-reasons) OR (cert_status is not UNREVOKED)), then the revocation status has been determined, so return cert_status.\""
    package static let rfc5280CRLRemove = "RFC 5280 §6.3.3(k) (CRL Processing): \"If (cert_status is removeFromCRL), then set cert_status to UNREVOKED.\""
    package static let rfc5280CRLUndetermined = "RFC 5280 §6.3.3 (CRL Processing): \"After processing such CRLs, if the revocation status has still not been determined, then return the cert_status UNDETERMINED.\""
    package static let rfc5280RevocationEveryCertificate = "RFC 5280 §6.1.3(a)(3) (Basic Certificate Processing): \"At the current time, the certificate is not revoked.\""
    package static let rfc5280CRLIssuerMatch = "RFC 5280 §6.3.3(b)(1) (CRL Processing): \"Otherwise, verify that the CRL issuer matches the certificate issuer.\""
    package static let rfc5280CRLNextUpdate = "RFC 5280 §6.3.3(a)(1) (CRL Processing): \"If the current time is after the value of the CRL next update field, then do one of the following:\" (obtain a current CRL, or a delta CRL with a later next update)"
    package static let rfc5280CRLSignature = "RFC 5280 §6.3.3(g) (CRL Processing): \"Validate the signature on the complete CRL using the public key validated in step (f).\""
    package static let rfc5280CRLCriticalExtension = "RFC 5280 §5.2 (CRL Extensions): \"If a CRL contains a critical extension that the application cannot process, then the application MUST NOT use that CRL to determine the status of certificates.\""
    package static let rfc5280CRLCAOnly = "RFC 5280 §6.3.3(b)(2)(iii) (CRL Processing): \"If the onlyContainsCACerts boolean is asserted in the IDP CRL extension, verify that the certificate includes the basic constraints extension with the cA boolean asserted.\""
    package static let rfc5280CRLUserOnly = "RFC 5280 §6.3.3(b)(2)(ii) (CRL Processing): \"If the onlyContainsUserCerts boolean is asserted in the IDP CRL extension, verify that the certificate does not include the basic constraints extension with the cA boolean asserted.\""
    package static let rfc6960Acceptance = "RFC 6960 §3.2 (Signed Response Acceptance Requirements): \"Prior to accepting a signed response for a particular certificate as valid, OCSP clients SHALL confirm that:\" it is for the certificate, its signature is valid, its signer is authorized, and it is current."
    package static let rfc6960Revoked = "RFC 6960 §2.2 (Response): \"The \"revoked\" state indicates that the certificate has been revoked, either temporarily (the revocation reason is certificateHold) or permanently.\""
    package static let rfc6960Unknown = "RFC 6960 §2.2 (Response): \"The \"unknown\" state indicates that the responder doesn't know about the certificate being requested, usually because the request indicates an unrecognized issuer that is not served by this responder.\""
    package static let rfc6960NextUpdate = "RFC 6960 §3.2 (Signed Response Acceptance Requirements): \"When available, the time at or before which newer information will be available about the status of the certificate (nextUpdate) is greater than the current time.\""
    static let rfc5280CRLThisUpdate = "RFC 5280 §5.1.2.4 (This Update): \"This field indicates the issue date of this CRL.\""
    package static let rfc6960ThisUpdate = "RFC 6960 §4.2.2.1 (Time): \"Responses whose thisUpdate time is later than the local system time SHOULD be considered unreliable.\""
    static let rfc7633PathValidation = "RFC 7633 §4.3 (Processing): \"Advertising a TLS feature extension may change the expectations of relying parties.\" What it binds is a TLS client's handshake (§4.3.3); RFC 5280 path validation does not process it."
    static let rfc7633Client = "RFC 7633 §4.3.3 (Client): \"A client MUST treat a certificate with a TLS feature extension as an invalid certificate if the features offered by the server do not contain all features present in both the client's ClientHello message and the TLS feature extension.\""
    package static let rfc6960Delegation = "RFC 6960 §4.2.2.2 (Authorized Responders): \"They MUST reject the response if the certificate required to validate the signature on the response does not meet at least one of the following criteria:\" (the issuing CA's own certificate, or one it issued with id-kp-OCSPSigning)"
    package static let rfc6960Signature = "RFC 6960 §3.2 (Signed Response Acceptance Requirements): \"The signature on the response is valid;\""
    package static let rfc6960Certificate = "RFC 6960 §3.2 (Signed Response Acceptance Requirements): \"The certificate identified in a received response corresponds to the certificate that was identified in the corresponding request;\""
}
