import TrustCore
import TrustVectors

/// The standard answers of the revocation mutations (``MutationCatalogue/crls``,
/// ``MutationCatalogue/ocspMutations``) on a base whose revocation data is plain
/// (``ChainModel/revocationDataIsPlain``: current, valid, nothing revoked), from RFC 5280 §5 and
/// §6.3.3 and RFC 6960 §2.2, §3.2, §4.2.1 and §4.2.2, given the caller's mode: what a certificate
/// whose status cannot be determined means is the mode's (hard-fail: not trusted; soft-fail: not
/// revoked); with no mode asked it is the library's default, which the standards leave to the
/// relying party, so such answers are open. The references the revocation catalogue also cites are
/// its own (`RevocationCatalogue.swift`).
extension MutationCatalogue {
    /// A status that cannot be determined under hard-fail is rejected for no particular reason class
    /// (as in the revocation catalogue): libraries call it revoked, untrusted or other.
    static let undeterminedFailures = Catalogue.undetermined

    static let hardFailMode = Catalogue.hardFailMode
    static let softFailMode = Catalogue.softFailMode
    static let noModeOpen = "No mode was asked: RFC 5280 gives no rule for a certificate whose status is UNDETERMINED (§6.3.3: \"After processing such CRLs, if the revocation status has still not been determined, then return the cert_status UNDETERMINED.\"), and RFC 6960 none for a certificate without an acceptable response: the relying party's policy (hard-fail or soft-fail) decides."
    static let softFailEitherWay = "Under soft-fail the answer is the same whether the data is used or not: used, it says the certificate is not revoked; not used, the status is not determined, which counts as not revoked."

    static let crlProcessing = Catalogue.rfc5280CRLProcessing
    static let crlEntryFound = Catalogue.rfc5280CRLEntryFound
    static let crlNoReason = Catalogue.rfc5280CRLNoReason
    static let crlReturnStatus = Catalogue.rfc5280CRLReturnStatus
    static let crlRemove = Catalogue.rfc5280CRLRemove
    static let crlUndetermined = Catalogue.rfc5280CRLUndetermined
    static let everyCertificate = Catalogue.rfc5280RevocationEveryCertificate
    static let crlIssuerMatch = Catalogue.rfc5280CRLIssuerMatch
    static let crlNextUpdate = Catalogue.rfc5280CRLNextUpdate
    static let crlSignature = Catalogue.rfc5280CRLSignature
    static let crlCriticalExtension = Catalogue.rfc5280CRLCriticalExtension
    static let crlNonCriticalExtension = "RFC 5280 §5.2 (CRL Extensions): \"However, applications may ignore unrecognized non-critical extensions.\""
    static let crlCriticalEntryExtension = "RFC 5280 §5.3 (CRL Entry Extensions): \"If a CRL contains a critical CRL entry extension that the application cannot process, then the application MUST NOT use that CRL to determine the status of any certificates.\""
    static let crlCAOnly = Catalogue.rfc5280CRLCAOnly
    static let crlUserOnly = Catalogue.rfc5280CRLUserOnly
    static let crlThisUpdateOpen = "RFC 5280 §5.1.2.4: \"This field indicates the issue date of this CRL.\" §6.3.3(a) compares only the next update with the current time (\"If the current time is after the value of the CRL next update field\"): whether a CRL issued after the validation time is used is the relying party's."
    static let crlNextUpdateAbsentOpen = "RFC 5280 §5.1.2.5: \"Conforming CRL issuers MUST include the nextUpdate time in all CRLs.\" and \"The behavior of clients processing CRLs that omit nextUpdate is not specified by this profile.\""
    static let crlKeyIdentifierOpen = "RFC 5280 §4.2.1.2: \"Applications are not required to verify that key identifiers match when performing certification path validation.\" §6.3.3(f): \"Obtain and validate the certification path for the issuer of the complete CRL.\" Whether a library finds the CRL's issuer by name or by an authorityKeyIdentifier that names no key is left to it."
    static let crlKeyIdentifierAbsent = "RFC 5280 §5.2.1: \"Conforming CRL issuers MUST use the key identifier method, and MUST include this extension in all CRLs issued.\" (a MUST of the CRL issuer; §6.3.3 finds the CRL by its issuer name, (b)(1), and checks its signature with the issuer's key, (g))"
    static let crlTimes = "RFC 5280 §5.1.2.4: \"Conforming applications MUST be able to process dates that are encoded in either UTCTime or GeneralizedTime.\""
    static let crlVersion1 = "RFC 5280 §5: \"Conforming applications that support CRLs are REQUIRED to process both version 1 and version 2 complete CRLs that provide revocation information for all certificates issued by one CA.\""
    static let crlGiven = "RFC 5280 §6.3.3 (CRL Processing) assumes \"that all of the needed CRLs are available in a local cache\": none covering the certificate is given, so its status is not determined."

    static let ocspAcceptance = Catalogue.rfc6960Acceptance
    static let ocspRevoked = Catalogue.rfc6960Revoked
    static let ocspUnknown = Catalogue.rfc6960Unknown
    static let ocspNextUpdate = Catalogue.rfc6960NextUpdate
    static let ocspNextUpdateAbsent = "RFC 6960 §2.4: \"If nextUpdate is not set, the responder is indicating that newer information is available all the time.\" §3.2 checks nextUpdate only \"When available\"; thisUpdate is an hour before the validation time"
    /// A SHOULD of the relying party decides (docs/profiles.md, "When an answer is open").
    static let ocspThisUpdate = Catalogue.rfc6960ThisUpdate
    static let ocspDelegation = Catalogue.rfc6960Delegation
    static let ocspSignature = Catalogue.rfc6960Signature
    static let ocspCertificate = Catalogue.rfc6960Certificate
    static let ocspCertIDHashOpen = "RFC 6960 §4.1.1: \"hashAlgorithm is the hash algorithm used to generate the issuerNameHash and issuerKeyHash values.\" RFC 6960 names no CertID hash a client must be able to match; RFC 5019 §2.1.1's \"Clients MUST use SHA1 as the hashing algorithm for the CertID.issuerNameHash and the CertID.issuerKeyHash values.\" binds a client's requests"
    static let ocspResponderIDOpen = "RFC 6960 §4.2.2.3: \"The ResponderID information MUST correspond to the certificate that was used to sign the response.\" (a MUST of the responder); what a client does with a response whose responderID names another responder, its signature made by an authorized key, is not said"
    static let ocspResponderByKey = "RFC 6960 §4.2.1: \"ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash }\" and \"KeyHash ::= OCTET STRING -- SHA-1 hash of responder's public key (excluding the tag and length fields)\""
    static let ocspNotCarried = "RFC 6960 §4.2.1: \"The responder MAY include certificates in the certs field of BasicOCSPResponse that help the OCSP client verify the responder's signature.\" Without the delegated responder's certificate, which nothing else given holds, the signature cannot be verified (§3.2: \"The signature on the response is valid;\")."
    static let ocspNotSuccessful = "RFC 6960 §4.2.1: \"If the value of responseStatus is one of the error conditions, the responseBytes field is not set.\" A response that is not successful, or carries no responseBytes, gives no status for any certificate (§2.3: \"tryLater\" and \"unauthorized\" are exception cases)."
    static let ocspCriticalExtensionOpen = "RFC 6960 §4.4: \"Unrecognized extensions MUST be ignored (unless they have the critical flag set and are not understood).\" It does not say what a client does with a response whose critical extension it does not understand."
    static let ocspMissing = "No OCSP response for the certificate is given, and no CRL: its status is not determined."

    /// A status that cannot be determined, because of `references`, under `mode`.
    static func undetermined(_ references: [String], mode: RevocationMode?) -> StandardAnswer {
        switch mode {
        case .hardFail?: return StandardAnswer(trusted: false, failures: undeterminedFailures, references: references + [hardFailMode])
        case .softFail?: return StandardAnswer(trusted: true, failures: [], references: references + [softFailMode])
        case nil: return .leftOpen(references.joined(separator: " ") + " " + noModeOpen)
        }
    }

    /// Data the standards do not say whether to use, which says the certificate is not revoked:
    /// trusted under soft-fail (either way), open otherwise.
    static func usedOrNot(_ sentence: String, mode: RevocationMode?) -> StandardAnswer {
        mode == .softFail ? StandardAnswer(trusted: true, failures: [], references: [sentence, softFailEitherWay, softFailMode]) : .leftOpen(sentence)
    }

    /// The standard answer of a revocation mutation at `role`, under `mode`; nil for none.
    static func revocationAnswer(_ mutation: String, role: ChainModel.Role, mode: RevocationMode?) -> StandardAnswer? {
        let family = String(mutation.prefix { $0 != "/" })
        let what = String(mutation.drop { $0 != "/" }.dropFirst())
        let covers = role == .caCRL ? [everyCertificate] : []
        switch (family, role) {
        case ("crl", .crl), ("crl", .caCRL):
            switch what {
            case "this-update-future": return usedOrNot(crlThisUpdateOpen, mode: mode)
            case "next-update-past": return undetermined([crlNextUpdate, crlUndetermined], mode: mode)
            case "next-update-absent": return usedOrNot(crlNextUpdateAbsentOpen, mode: mode)
            case "times-generalized": return .trusted(crlTimes, crlProcessing)
            case "signature-broken", "signed-by-another-key": return undetermined([crlSignature, crlUndetermined], mode: mode)
            case "issuer-name-changed": return undetermined([crlIssuerMatch, crlUndetermined], mode: mode)
            case "aki-changed": return usedOrNot(crlKeyIdentifierOpen, mode: mode)
            case "aki-absent": return .trusted(crlKeyIdentifierAbsent, crlProcessing)
            case "revoked-key-compromise", "revoked-certificate-hold":
                return StandardAnswer(trusted: false, failures: [.revoked], references: covers + [crlEntryFound, crlReturnStatus])
            case "revoked-no-reason": return StandardAnswer(trusted: false, failures: [.revoked], references: covers + [crlEntryFound, crlNoReason])
            case "revoked-remove-from-crl": return .trusted(crlRemove)
            case "revoked-other-serial": return .trusted(crlProcessing, crlEntryFound + " (no entry matches the certificate's serial number)")
            case "unknown-critical-extension": return undetermined([crlCriticalExtension, crlUndetermined], mode: mode)
            case "unknown-non-critical-extension": return .trusted(crlNonCriticalExtension, crlProcessing)
            case "unknown-critical-entry-extension": return undetermined([crlCriticalEntryExtension, crlUndetermined], mode: mode)
            case "idp-only-ca-certs":
                // The CRL of the leaf's issuer covers no end entity; the intermediate is a CA.
                return role == .crl ? undetermined([crlCAOnly, crlUndetermined], mode: mode) : .trusted(crlCAOnly, crlProcessing)
            case "idp-only-user-certs":
                return role == .crl ? .trusted(crlUserOnly, crlProcessing) : undetermined([crlUserOnly, crlUndetermined], mode: mode)
            case "v1": return .trusted(crlVersion1, crlProcessing)
            case "absent": return undetermined(covers + [crlGiven, crlUndetermined], mode: mode)
            default: return nil
            }
        case ("ocsp", .ocsp):
            switch what {
            case "status-revoked", "status-revoked-no-reason", "status-revoked-certificate-hold":
                return StandardAnswer(trusted: false, failures: [.revoked], references: [ocspAcceptance, ocspRevoked])
            case "status-unknown": return undetermined([ocspUnknown], mode: mode)
            case "this-update-future": return undetermined([ocspThisUpdate], mode: mode)
            case "next-update-past": return undetermined([ocspNextUpdate], mode: mode)
            case "next-update-absent": return .trusted(ocspAcceptance, ocspNextUpdateAbsent)
            case "certid-serial-changed", "certid-issuer-name-hash-changed", "certid-issuer-key-hash-changed": return undetermined([ocspCertificate], mode: mode)
            case "certid-sha256": return usedOrNot(ocspCertIDHashOpen, mode: mode)
            case "responder-id-changed": return usedOrNot(ocspResponderIDOpen, mode: mode)
            case "responder-id-by-key": return .trusted(ocspAcceptance, ocspResponderByKey)
            case "signature-broken", "signed-by-another-key": return undetermined([ocspSignature], mode: mode)
            case "responder-without-ocsp-signing": return undetermined([ocspDelegation], mode: mode)
            case "responder-not-carried": return undetermined([ocspNotCarried], mode: mode)
            case "status-try-later", "status-unauthorized", "try-later-with-body", "successful-without-body": return undetermined([ocspNotSuccessful], mode: mode)
            case "unknown-critical-response-extension": return usedOrNot(ocspCriticalExtensionOpen, mode: mode)
            case "absent": return undetermined([ocspMissing], mode: mode)
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: Two changes to the same CRL or response

    /// What a revocation mutation does to the data it changes, for answering two of them on the same
    /// CRL or response.
    enum RevocationEffect: Equatable {
        /// The data is not used (its status not determined).
        case unusable
        /// It lists the certificate (or says revoked), or gives it another status.
        case status
        /// It is used and says nothing of the certificate beyond what it said.
        case usable
        /// The standards leave it open whether it is used.
        case open
    }

    static func revocationEffect(_ mutation: String, role: ChainModel.Role) -> RevocationEffect? {
        let what = String(mutation.drop { $0 != "/" }.dropFirst())
        if what.hasPrefix("revoked-") && what != "revoked-other-serial" || what.hasPrefix("status-revoked") || what == "status-unknown" { return .status }
        guard let answer = revocationAnswer(mutation, role: role, mode: .hardFail) else { return nil }
        if answer.open != nil { return .open }
        return answer.trusted ? .usable : .unusable
    }

    /// The fields of the data a revocation mutation writes: two that write the same one do not
    /// compose (the later edit decides).
    static func revocationFields(_ mutation: String) -> Set<String> {
        let what = String(mutation.drop { $0 != "/" }.dropFirst())
        switch what {
        case "this-update-future", "next-update-past", "next-update-absent", "times-generalized": return ["times"]
        case "signature-broken", "signed-by-another-key": return ["signature"]
        case "issuer-name-changed": return ["issuer"]
        case "aki-changed", "aki-absent": return ["authorityKeyIdentifier"]
        case "unknown-critical-extension", "unknown-non-critical-extension": return ["unknownExtension"]
        case "idp-only-ca-certs", "idp-only-user-certs": return ["issuingDistributionPoint"]
        case "v1", "absent", "status-try-later", "status-unauthorized", "try-later-with-body", "successful-without-body": return ["*"]
        case "certid-serial-changed", "certid-issuer-name-hash-changed", "certid-issuer-key-hash-changed", "certid-sha256": return ["certID"]
        case "responder-id-changed", "responder-id-by-key": return ["responderID"]
        case "responder-without-ocsp-signing", "responder-not-carried": return ["responder"]
        default: return what.hasPrefix("status-") ? ["certStatus"] : [what]
        }
    }

    /// Two revocation mutations of the same CRL or response, under `mode`: not used when either
    /// makes it unusable; revoked when one lists the certificate and the other leaves it usable;
    /// trusted when both leave it usable and list nothing; nil when they write the same field, when
    /// both change the certificate's status, or when one leaves it open whether the data is used.
    static func revocationInteraction(_ a: (mutation: String, role: ChainModel.Role), _ b: (mutation: String, role: ChainModel.Role), mode: RevocationMode?) -> StandardAnswer? {
        let fields = (revocationFields(a.mutation), revocationFields(b.mutation))
        guard fields.0.isDisjoint(with: fields.1), !fields.0.contains("*"), !fields.1.contains("*"),
              let effectA = revocationEffect(a.mutation, role: a.role), let effectB = revocationEffect(b.mutation, role: b.role),
              let answerA = revocationAnswer(a.mutation, role: a.role, mode: mode), let answerB = revocationAnswer(b.mutation, role: b.role, mode: mode) else { return nil }
        let pair = [(effectA, answerA), (effectB, answerB)]
        if let unusable = pair.first(where: { $0.0 == .unusable }) {
            var answer = unusable.1
            answer.references.append("Whatever else the data says: it is not used")
            return answer
        }
        if pair.contains(where: { $0.0 == .open }) { return nil }
        let statuses = pair.filter { $0.0 == .status }
        if statuses.count > 1 { return nil }
        if let status = statuses.first {
            var answer = status.1
            answer.references.append("The data is usable with the other change: the status it gives stands")
            return answer
        }
        return StandardAnswer.composing(answerA, answerB)
    }
}
