import TrustCore
import TrustVectors

/// What the standards call for on a mutant of a valid chain: decided per mutation and place from
/// RFC 5280 (path validation, §6.1, and its MUSTs on encodings), RFC 9525 (host names) and the CA/B
/// Forum Baseline Requirements where they govern TLS server certificates; never from a back end.
/// A verdict, or ``open`` where the standards truly leave it to the relying party (quoting the
/// sentence that does); nil from ``MutationCatalogue/answer(_:role:host:)`` where no answer
/// can be justified (such a mutant is not adopted as a vector).
public struct StandardAnswer: Sendable, Hashable {
    public var trusted: Bool
    /// For a rejection: every failure class the standards allow as the reason.
    public var failures: [FailureClass]
    public var references: [String]
    /// The sentence of the standard that leaves the answer open, with its section; nil when the
    /// standards answer. `trusted` and `failures` mean nothing when set.
    public var open: String? = nil

    static func leftOpen(_ sentence: String) -> StandardAnswer {
        StandardAnswer(trusted: false, failures: [], references: [sentence], open: sentence)
    }

    /// As a profile's answer in a manifest.
    public var profileAnswer: ProfileAnswer { ProfileAnswer(expected: expectation, references: references, open: open) }

    static func trusted(_ references: String...) -> StandardAnswer {
        StandardAnswer(trusted: true, failures: [], references: references)
    }

    static func rejected(_ failures: [FailureClass], _ references: String...) -> StandardAnswer {
        StandardAnswer(trusted: false, failures: failures, references: references)
    }

    public var expectation: Expectation { Expectation(trusted: trusted, failures: open == nil ? failures : []) }

    /// The answer for a chain with both changes, when they do not interact: rejected when either
    /// alone is (with the failure classes of every rejecting change), left open when one is open and
    /// the other trusts, trusted when both trust; nil when one has no answer and the other does not
    /// reject.
    static func composing(_ first: StandardAnswer?, _ second: StandardAnswer?) -> StandardAnswer? {
        let known = [first, second].compactMap { $0 }
        let rejecting = known.filter { $0.open == nil && !$0.trusted }
        if !rejecting.isEmpty {
            var failures: [FailureClass] = []
            for failure in rejecting.flatMap(\.failures) where !failures.contains(failure) { failures.append(failure) }
            return StandardAnswer(trusted: false, failures: failures.sorted(), references: rejecting.flatMap(\.references) + ["two independent changes: the chain is rejected when either alone is"])
        }
        guard known.count == 2 else { return nil }
        if let open = known.compactMap(\.open).first {
            var answer = StandardAnswer.leftOpen(open)
            answer.references = known.flatMap(\.references)
            return answer
        }
        return StandardAnswer(trusted: true, failures: [], references: known.flatMap(\.references) + ["two independent changes, each allowed: the chain is trusted"])
    }

    static let anchor = trusted("RFC 5280 §6.1.1(d): \"When the trust anchor information is provided in the form of a certificate, the name in the subject field is used as the trusted issuer name and the contents of the subjectPublicKeyInfo field is used as the source of the trusted public key algorithm and the trusted public key.\" (a trust anchor is its name and public key; the rest of its certificate is not processed by path validation)")
    /// The deployment choice both profiles make where the TLS version decides: a TLS 1.3 client.
    static let tlsVersion = "TLS version: both profiles judge a TLS 1.3 client (RFC 8446), where the server's key signs the handshake; under TLS 1.2 RSA key transport (RFC 5246 §7.4.2: \"the keyEncipherment bit MUST be set if the key usage extension is present\") a keyEncipherment-only RSA key, and static ECDH (an \"ECDH-capable public key\") a keyAgreement-only EC key, would serve"
    static let anyEKUOpen = "RFC 5280 §4.2.1.12: \"Applications that require the presence of a particular purpose MAY reject certificates that include the anyExtendedKeyUsage OID but not the particular OID expected for the application.\""
    static let wildcardNotAddressed = "RFC 5280 §4.2.1.6: \"the semantics of subject alternative names that include wildcard characters (e.g., as a placeholder for a set of names) are not addressed by this specification. Applications with specific requirements MAY use such names, but they must define the semantics.\" Whether a wildcard dNSName is within a permitted or excluded subtree is therefore the relying party's to define"
    static let subjectEmailConstraint = "RFC 5280 §4.2.1.10: \"When constraints are imposed on the rfc822Name name form, but the certificate does not include a subject alternative name, the rfc822Name constraint MUST be applied to the attribute of type emailAddress in the subject distinguished name.\" This leaf has a subject alternative name, so its subject's emailAddress is not constrained"
    static let keyIdentifiersOpen = "RFC 5280 §4.2.1.2: \"Applications are not required to verify that key identifiers match when performing certification path validation.\" §6.1: \"The procedure performed to obtain this sequence of certificates is outside the scope of this specification.\" Whether a mismatched identifier stops a library building the path is left to it"
    static let der = "RFC 5280 §4.1: \"For signature calculation, the data that is to be signed is encoded using the ASN.1 distinguished encoding rules (DER) [X.690].\" (certificates are DER; an encoding DER forbids is malformed)"
    static let malformed = rejected([.malformed], der)
    static let signatureEncoding = rejected([.malformed, .badSignature], "RFC 5280 §4.1.1.2-3: \"This field MUST contain the same algorithm identifier as the signature field in the sequence tbsCertificate (Section 4.1.2.3).\" and \"The signatureValue field contains a digital signature computed upon the ASN.1 DER encoded tbsCertificate.\" (the signature and its algorithm identifiers as specified)", der)
}

extension MutationCatalogue {
    /// The standard answer for `mutation` applied at `role` of a chain both profiles trust (an open
    /// answer quotes the sentence that leaves it open), or nil where no answer can be justified. The
    /// key type does not enter: where the TLS version would decide, both profiles judge TLS 1.3. A
    /// mutation of the revocation data is answered under the base's `revocationMode`
    /// (``revocationAnswer(_:role:mode:)``).
    public static func answer(_ mutation: String, role: ChainModel.Role, host: String?, revocationMode: RevocationMode? = nil) -> StandardAnswer? {
        if role.isRevocationData { return revocationAnswer(mutation, role: role, mode: revocationMode) }
        return baseAnswer(mutation, role: role, host: host)
    }

    static func baseAnswer(_ mutation: String, role: ChainModel.Role, host: String?) -> StandardAnswer? {
        // The anchor's own fields are outside path validation, whatever they hold; a new key at
        // the root changes the signatures below it, decided with the other key mutations.
        if role == .root && !mutation.hasPrefix("key/") {
            // A few mutations at the anchor also change the leaf's names: the leaf's answer holds.
            if mutation == "nameConstraints/excluded-dns-cn-only-leaf" { return baseAnswer("subjectAltName/absent-cn-host", role: .leaf, host: host) }
            return StandardAnswer.anchor
        }
        let family = String(mutation.prefix { $0 != "/" })
        let what = String(mutation.drop { $0 != "/" }.dropFirst())
        switch family {
        case "validity":
            switch what {
            case "generalized-time-before-2050": return .trusted("RFC 5280 §4.1.2.5: \"Conforming applications MUST be able to process validity dates that are encoded in either UTCTime or GeneralizedTime.\"")
            case "utctime-without-seconds", "utctime-offset": return .rejected([.malformed], "RFC 5280 §4.1.2.5.1: \"For the purposes of this profile, UTCTime values MUST be expressed in Greenwich Mean Time (Zulu) and MUST include seconds (i.e., times are YYMMDDHHMMSSZ), even where the number of seconds is zero.\"")
            case "generalized-time-fraction", "generalized-time-local": return .rejected([.malformed], "RFC 5280 §4.1.2.5.2: \"For the purposes of this profile, GeneralizedTime values MUST be expressed in Greenwich Mean Time (Zulu) and MUST include seconds (i.e., times are YYYYMMDDHHMMSSZ), even where the number of seconds is zero. GeneralizedTime values MUST NOT include fractional seconds.\"")
            case "not-after-2050-utctime", "expired": return .rejected([.expired], "RFC 5280 §6.1.3(a)(2): \"The certificate validity period includes the current time.\" (the validation time must be within the validity period); §4.1.2.5.1: \"Where YY is greater than or equal to 50, the year SHALL be interpreted as 19YY\" (UTCTime 50 is 1950)")
            case "not-after-9999": return .trusted("RFC 5280 §4.1.2.5: \"To indicate that a certificate has no well-defined expiration date, the notAfter SHOULD be assigned the GeneralizedTime value of 99991231235959Z.\"")
            case "not-yet-valid": return .rejected([.notYetValid], "RFC 5280 §6.1.3(a)(2): \"The certificate validity period includes the current time.\"")
            case "inverted": return .rejected([.expired, .notYetValid], "RFC 5280 §6.1.3(a)(2): \"The certificate validity period includes the current time.\"")
            default: return nil
            }
        case "basicConstraints":
            let kRule = "RFC 5280 §6.1.4(k): \"If certificate i is a version 3 certificate, verify that the basicConstraints extension is present and that cA is set to TRUE.\" (a version 3 intermediate must have basicConstraints with cA TRUE)"
            switch (what, role) {
            case ("absent", .intermediate), ("empty", .intermediate): return .rejected([.notCA], kRule)
            case ("absent", _), ("empty", _): return .trusted("RFC 5280 §4.2.1.9: \"This extension MAY appear as a critical or non-critical extension in end entity certificates.\" (an end entity need not carry basicConstraints)")
            case ("ca-false-explicit", .intermediate): return .rejected([.notCA, .malformed], kRule, StandardAnswer.der)
            case ("ca-false-explicit", _), ("ca-true-ber-boolean", _), ("pathlen-non-minimal", _): return StandardAnswer.malformed
            case ("non-critical", _): return .trusted("RFC 5280 §6.1.4(k) checks cA TRUE, not criticality: \"If certificate i is a version 3 certificate, verify that the basicConstraints extension is present and that cA is set to TRUE.\" §4.2.1.9's MUST binds the CA: \"Conforming CAs MUST include this extension in all CA certificates that contain public keys used to validate digital signatures on certificates and MUST mark the extension as critical in such certificates.\"")
            case ("pathlen-0", _), ("pathlen-huge", _): return .trusted("RFC 5280 §6.1.4(l)-(m): \"If the certificate was not self-issued, verify that max_path_length is greater than zero and decrement max_path_length by 1.\" and \"If pathLenConstraint is present in the certificate and is less than max_path_length, set max_path_length to the value of pathLenConstraint.\" (one CA below the leaf is within pathLenConstraint 0; any value is allowed)")
            case ("pathlen-negative", _): return .rejected([.malformed], "RFC 5280 §4.2.1.9: \"Where it appears, the pathLenConstraint field MUST be greater than or equal to zero.\" (pathLenConstraint INTEGER (0..MAX))")
            case ("pathlen-without-ca", _), ("leaf-is-ca", _): return .trusted("RFC 5280 §6.1 does not examine the end entity's basicConstraints: \"Step (3) is performed for all certificates in the path except the final certificate.\" §4.2.1.9's rules bind the CA: \"CAs MUST NOT include the pathLenConstraint field unless the cA boolean is asserted and the key usage extension asserts the keyCertSign bit.\"")
            default: return nil
            }
        case "keyUsage":
            if what == "padding-bits-set" || what == "trailing-zero-octet" { return StandardAnswer.malformed }
            if what == "absent" || what == "non-critical" { return .trusted("RFC 5280 §4.2.1.3: \"When present, conforming CAs SHOULD mark this extension as critical.\" §6.1.4(n): \"If a key usage extension is present, verify that the keyCertSign bit is set.\" (keyUsage restricts only when present; criticality binds the CA)") }
            if role == .intermediate {
                if what == "only-keyCertSign" { return .trusted("RFC 5280 §6.1.4(n): \"If a key usage extension is present, verify that the keyCertSign bit is set.\" (keyCertSign is set)") }
                return .rejected([.notCA, .other, .malformed], "RFC 5280 §6.1.4(n): \"If a key usage extension is present, verify that the keyCertSign bit is set.\" (a CA's keyUsage, when present, must assert keyCertSign)")
            }
            if what == "only-digitalSignature" { return .trusted("RFC 5280 §4.2.1.3: \"The digitalSignature bit is asserted when the subject public key is used for verifying digital signatures, other than signatures on certificates (bit 5) and CRLs (bit 6), such as those used in an entity authentication service, a data origin authentication service, and/or an integrity service.\" RFC 8446 §4.4.2.2: \"the digitalSignature bit MUST be set if the Key Usage extension is present\" (a TLS server's key signs the handshake)") }
            return .rejected([.purposeMismatch, .malformed], StandardAnswer.tlsVersion, "RFC 8446 §4.4.2.2: \"The certificate MUST allow the key to be used for signing (i.e., the digitalSignature bit MUST be set if the Key Usage extension is present) with a signature scheme indicated in the client's \"signature_algorithms\"/\"signature_algorithms_cert\" extensions (see Section 4.2.3).\"")
        case "extendedKeyUsage":
            switch what {
            case "only-anyExtendedKeyUsage" where role == .leaf:
                return .leftOpen(StandardAnswer.anyEKUOpen)
            case "absent", "serverAuth-critical", "serverAuth-and-any", "only-serverAuth", "only-anyExtendedKeyUsage":
                return .trusted("RFC 5280 §4.2.1.12: \"If the extension is present, then the certificate MUST only be used for one of the purposes indicated.\" and a CA that \"does not wish to restrict usages of the key\" can \"include the special KeyPurposeId anyExtendedKeyUsage\" (serverAuth or anyExtendedKeyUsage permits TLS server use; no EKU restricts nothing)")
            case "empty": return .rejected([.malformed, .purposeMismatch], "RFC 5280 §4.2.1.12: \"ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId\"")
            default:
                return role == .leaf
                    ? .rejected([.purposeMismatch], "RFC 5280 §4.2.1.12: \"If the extension is present, then the certificate MUST only be used for one of the purposes indicated.\"")
                    : .leftOpen("RFC 5280 §4.2.1.12: \"Certificate using applications MAY require that the extended key usage extension be present and that a particular purpose be indicated in order for the certificate to be acceptable to that application\"; path validation (§6.1) does not process a CA's extendedKeyUsage")
            }
        case "subjectAltName":
            let mismatch = "RFC 9525 §6.3-6.4: the reference identity matches a DNS-ID or IP-ID only as specified"
            switch what {
            case "wildcard-leftmost": return .trusted("RFC 9525 §6.3: a wildcard in the left-most label matches one label")
            case "uppercase", "critical": return .trusted("RFC 9525 §6.3: DNS names compare case-insensitively; RFC 5280 §4.2.1.6: \"Note that while uppercase and lowercase letters are allowed in domain names, no significance is attached to the case.\" and \"When including the subjectAltName extension in a certificate that has a non-empty subject distinguished name, conforming CAs SHOULD mark the subjectAltName extension as non-critical.\" (a SHOULD for the CA: SAN may be critical)")
            case "ip-and-dns": return .trusted("RFC 9525 §6.4: an IP reference identity matches an iPAddress SAN")
            case "othername-and-dns": return .trusted("RFC 5280 §4.2.1.6: \"The subjectAltName MAY carry additional name types through the use of the otherName field.\" (other name forms beside the dNSName); RFC 9525 §6.3 matches the DNS-ID")
            case "empty-subject-non-critical": return .trusted("RFC 5280 §6.1 does not check SAN criticality; §4.2.1.6's MUST binds the CA: \"If the subject field contains an empty sequence, then the issuing CA MUST include a subjectAltName extension that is marked as critical.\"")
            case "trailing-dot", "leading-dot", "empty", "embedded-nul", "trailing-space", "utf8-label", "empty-sequence", "ip-five-octets":
                return .rejected([.hostnameMismatch, .malformed], mismatch, "RFC 5280 §4.2.1.6: \"If the subjectAltName extension is present, the sequence MUST contain at least one entry.\"; an iPAddress \"octet string MUST contain exactly four octets\" or \"the octet string MUST contain exactly sixteen octets\"; a dNSName \"MUST be in the \"preferred name syntax\", as specified by Section 3.5 of [RFC1034] and as modified by Section 2.1 of [RFC1123].\"")
            default: return .rejected([.hostnameMismatch], mismatch, "RFC 9525 §6.3: no partial or non-left-most wildcards, no commonName fallback")
            }
        case "host":
            switch what {
            case "uppercase", "trailing-dot": return .trusted("RFC 9525 §6.3 (case-insensitive); RFC 1034 §3.1: \"Since a complete domain name ends with the root label, this leads to a printed form which ends in a dot.\" (a trailing dot makes the name absolute, the same name)")
            default: return .rejected([.hostnameMismatch], "RFC 9525 §6.3: a wildcard-free DNS-ID matches only the same name")
            }
        case "nameConstraints":
            let rule = "RFC 5280 §6.1.3(b)-(c): \"verify that the subject name is within one of the permitted_subtrees for X.500 distinguished names, and verify that each of the alternative names in the subjectAltName extension (critical or non-critical) is within one of the permitted_subtrees for that name type\" and \"is not within any of the excluded_subtrees for that name type\"; §4.2.1.10: \"Restrictions apply only when the specified name form is present.\""
            switch what {
            case "permitted-dns-parent", "permitted-dns-uppercase", "permitted-dns-host-exact", "permitted-dns-empty", "permitted-email-only", "permitted-uri-only", "on-leaf-excluded":
                return .trusted(rule, "names of other types are unconstrained; DNS constraints match by adding labels on the left, case-insensitively; an end entity's constraints constrain nothing (§6.1.4(g) applies to CAs)")
            case "permitted-dns-other", "excluded-dns-parent", "excluded-dns-empty", "permitted-dirname-other", "non-critical-excluded":
                return .rejected([.other], rule, "the leaf's names fall outside the permitted or inside the excluded subtrees (criticality binds the CA)")
            case "empty-permitted": return .rejected([.malformed, .other], rule, "RFC 5280 §4.2.1.10: \"GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree\"")
            case "rfc822-against-subject-email":
                return .trusted(rule, StandardAnswer.subjectEmailConstraint)
            case "permitted-host-wildcard-leaf", "excluded-host-wildcard-leaf":
                return .leftOpen(StandardAnswer.wildcardNotAddressed)
            case "excluded-dns-cn-only-leaf":
                return host == nil ? .trusted(rule, "RFC 5280 §4.2.1.10: \"Restrictions apply only when the specified name form is present. If no name of the type is in the certificate, the certificate is acceptable.\" (dNSName constraints apply to dNSName names; a commonName is not one)")
                    : .rejected([.hostnameMismatch, .other], "RFC 9525 §6.3: without a DNS-ID no name matches", rule)
            default: return nil
            }
        case "issuerName":
            switch what {
            case "printable-to-utf8", "utf8-to-printable", "uppercase", "extra-spaces":
                return .trusted("RFC 5280 §7.1: \"Conforming implementations MUST use the LDAP StringPrep profile (including insignificant space handling), as specified in [RFC4518], as the basis for comparison of distinguished name attributes encoded in either PrintableString or UTF8String.\"")
            case "bmpstring", "teletex":
                return .leftOpen("RFC 5280 §7.1: \"Implementations may encounter certificates and CRLs with names encoded using TeletexString, BMPString, or UniversalString, but support for these is OPTIONAL.\" An implementation that supports the type compares the value after string preparation (RFC 4518 transcodes it to Unicode first) and finds the issuer; one that does not cannot")
            default: return .rejected([.untrusted, .badSignature], "RFC 5280 §6.1.3(a)(4): \"The certificate issuer name is the working_issuer_name.\" (the issuer name must equal the issuer's subject); §7.1: \"Two distinguished names DN1 and DN2 match if they have the same number of RDNs, for each RDN in DN1 there is a matching RDN in DN2, and the matching RDNs appear in the same order in both DNs.\" (RDNs in another order or grouping do not match)")
            }
        case "authorityKeyIdentifier":
            if what == "malformed" { return .rejected([.malformed], "RFC 5280 §4.2.1.1: \"AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] KeyIdentifier OPTIONAL, authorityCertIssuer [1] GeneralNames OPTIONAL, authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }\"") }
            if what == "mismatch" || what == "issuer-and-serial-mismatch" { return .leftOpen(StandardAnswer.keyIdentifiersOpen) }
            return .trusted("RFC 5280 §6.1: key identifiers help path building and are not checked by path validation (§4.2.1.2: \"Applications are not required to verify that key identifiers match when performing certification path validation.\"); §4.2.1.1's MUSTs bind the CA: \"The keyIdentifier field of the authorityKeyIdentifier extension MUST be included in all certificates generated by conforming CAs to facilitate certification path construction.\" and \"Conforming CAs MUST mark this extension as non-critical.\"")
        case "subjectKeyIdentifier":
            if what == "not-octet-string" { return .rejected([.malformed], "RFC 5280 §4.2.1.2: \"SubjectKeyIdentifier ::= KeyIdentifier\"; §4.2.1.1: \"KeyIdentifier ::= OCTET STRING\"") }
            if what == "mismatch" { return .leftOpen(StandardAnswer.keyIdentifiersOpen) }
            return .trusted("RFC 5280 §6.1: key identifiers are not checked by path validation (§4.2.1.2: \"Applications are not required to verify that key identifiers match when performing certification path validation.\"); §4.2.1.2: \"Other methods of generating unique numbers are also acceptable.\" (any method of generating them)")
        case "extension":
            switch what {
            case "unknown-non-critical", "policies-critical-unknown", "policies-any":
                return .trusted("RFC 5280 §4.2: \"A non-critical extension MAY be ignored if it is not recognized, but MUST be processed if it is recognized.\"; certificatePolicies is recognised, and with any-policy user input no explicit policy is required (§6.1.1(c): \"The user-initial-policy-set contains the special value any-policy if the user is not concerned about certificate policy.\")")
            case "tls-feature-must-staple": return .trusted("RFC 7633 §4: the TLS feature extension binds the TLS handshake; path validation does not process it")
            case "unknown-critical": return .rejected([.other], "RFC 5280 §4.2: \"A certificate-using system MUST reject the certificate if it encounters a critical extension it does not recognize or a critical extension that contains information that it cannot process.\"")
            case "duplicate-unknown", "duplicate-own": return .rejected([.malformed, .other], "RFC 5280 §4.2: \"A certificate MUST NOT include more than one instance of a particular extension.\"")
            case "critical-false-explicit", "empty-list": return .rejected([.malformed], StandardAnswer.der, "RFC 5280 §4.1: \"critical BOOLEAN DEFAULT FALSE\" and \"Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension\"")
            case "policy-constraints-require-explicit":
                return .rejected([.other], "RFC 5280 §6.1.4(i): \"If requireExplicitPolicy is present and is less than explicit_policy, set explicit_policy to the value of requireExplicitPolicy.\" §6.1.5: \"If either (1) the value of explicit_policy variable is greater than zero or (2) the valid_policy_tree is not NULL, then path processing has succeeded.\" (requireExplicitPolicy 0 makes explicit_policy 0; with no policies the valid_policy_tree is NULL and the path fails)")
            default: return nil
            }
        case "version":
            switch (what, role) {
            case ("unique-identifiers", _): return .trusted("RFC 5280 §4.1.2.8: \"Applications conforming to this profile SHOULD be capable of parsing certificates that include unique identifiers, but there are no processing requirements associated with the unique identifiers.\"")
            case ("v1-no-extensions", .intermediate): return .rejected([.notCA, .untrusted], "RFC 5280 §6.1.4(k): \"If certificate i is a version 1 or version 2 certificate, then the application MUST either verify that certificate i is a CA certificate through out-of-band means or reject the certificate.\" (a request carries no out-of-band knowledge: the chain, the anchors, the host and the time)")
            case ("v1-no-extensions", .leaf):
                return host == nil ? .trusted("RFC 5280 §6.1 with §4.1.2.1: \"If only basic fields are present, the version SHOULD be 1 (the value is omitted from the certificate as the default value); however, the version MAY be 2 or 3.\"") : .rejected([.hostnameMismatch], "RFC 9525 §6.3: without subjectAltName no DNS-ID; no commonName fallback")
            default: return .rejected([.malformed], "RFC 5280 §4.1.2.1: \"When extensions are used, as expected in this profile, version MUST be 3 (value is 2).\"; §4.1: \"version [0] EXPLICIT Version DEFAULT v1\" and \"Version ::= INTEGER { v1(0), v2(1), v3(2) }\" (extensions require version 3; version is v1, v2 or v3, DEFAULT v1 not encoded)")
            }
        case "serial":
            switch what {
            case "zero", "negative", "20-octets-high-bit": return .trusted("RFC 5280 §4.1.2.2: \"Non-conforming CAs may issue certificates with serial numbers that are negative or zero. Certificate users SHOULD be prepared to gracefully handle such certificates.\"")
            case "non-minimal", "empty": return StandardAnswer.malformed
            case "21-octets": return .leftOpen("RFC 5280 §4.1.2.2: \"Certificate users MUST be able to handle serialNumber values up to 20 octets. Conforming CAs MUST NOT use serialNumber values longer than 20 octets\": longer values are left to the certificate user")
            default: return nil
            }
        case "key":
            if what == "p256-compressed" { return .leftOpen("RFC 5480 §2.2: implementations \"MUST support the uncompressed form and MAY support the compressed form\" of the ECC public key") }
            if what == "p256-explicit-parameters" {
                return .rejected([.malformed, .badSignature, .other, .untrusted], "RFC 5480 §2.1.1: \"implicitCurve and specifiedCurve MUST NOT be used in PKIX.\"")
            }
            if what == "rsa1024" { return .trusted("RFC 3279 §2.3.1: \"The OID rsaEncryption identifies RSA public keys.\" RFC 5280 §4.1.2.7: \"This field is used to carry the public key and identify the algorithm with which the key is used (e.g., RSA, DSA, or Diffie-Hellman).\" RFC 5280 sets no minimum size (the Web PKI profile's Baseline Requirements §6.1.5 do)") }
            return .trusted("RFC 5280 §4.1.2.7: \"This field is used to carry the public key and identify the algorithm with which the key is used (e.g., RSA, DSA, or Diffie-Hellman).\"; RFC 5480 and RFC 8410: P-256, P-384, RSA-2048 and Ed25519 keys")
        case "signature":
            switch what {
            case "ecdsa-sha1", "rsa-sha1":
                return .trusted("RFC 3279 §2.2.1: \"The signature algorithms combine RSA with either the MD2, MD5, or the SHA-1 one-way hash functions.\" §2.2.3: \"ECDSA is used in conjunction with the SHA-1 one-way hash function.\" These define sha1WithRSAEncryption and ecdsa-with-SHA1 for RFC 5280 certificates, which set no hash policy (the Web PKI profile's Baseline Requirements §7.1.3.2 forbid SHA-1)")
            case "rsa-sha512": return .trusted("RFC 4055 §5: \"This section specifies the algorithm identifiers for using the SHA-224, SHA-256, SHA-384, and SHA-512 one-way hash functions with the PKCS #1 version 1.5 signature algorithm.\"; CA/B Forum Baseline Requirements §7.1.3.2.1: \"The CA SHALL use one of the following signature algorithms and encodings.\" (RSASSA-PKCS1-v1_5 with SHA-512 among them)")
            case "ecdsa-p256-sha512", "ecdsa-p384-sha256": return .trusted("RFC 5758 §3.2: \"Conforming client implementations that process ECDSA signatures with any of the SHA2 hash algorithms when processing certificates and CRLs MUST recognize the corresponding OIDs specified above.\" (ecdsa-with-SHA256/384/512, for any curve); RFC 5480 §4's curve-hash pairings are recommendations (the Web PKI profile's Baseline Requirements §7.1.3.2.2 require them)")
            case "unknown-algorithm": return .rejected([.badSignature, .malformed, .other, .untrusted], "RFC 5280 §6.1.3(a)(1): \"The signature on the certificate can be verified using working_public_key_algorithm, the working_public_key, and the working_public_key_parameters.\" (an unknown algorithm cannot be)")
            default: return StandardAnswer.signatureEncoding
            }
        case "policy":
            switch what {
            case "mapping-to-anyPolicy": return .rejected([.other, .malformed], "RFC 5280 §6.1.4(a): \"If a policy mappings extension is present, verify that the special value anyPolicy does not appear as an issuerDomainPolicy or a subjectDomainPolicy.\" (the path is invalid)")
            case "require-explicit-unmet": return .rejected([.other], "RFC 5280 §6.1.4(i): \"If requireExplicitPolicy is present and is less than explicit_policy, set explicit_policy to the value of requireExplicitPolicy.\" §6.1.5: \"If either (1) the value of explicit_policy variable is greater than zero or (2) the valid_policy_tree is not NULL, then path processing has succeeded.\" (explicit_policy 0 and no valid policy at the leaf: A is not B, no mapping)")
            default: return .trusted("RFC 5280 §6.1: with any-policy user input and initial-explicit-policy false, policy processing constrains nothing here (§6.1.4(b), (i), (j) and §6.1.5(g)); §6.1.1(c): \"The user-initial-policy-set contains the special value any-policy if the user is not concerned about certificate policy.\" §6.1.5: \"If either (1) the value of explicit_policy variable is greater than zero or (2) the valid_policy_tree is not NULL, then path processing has succeeded.\"")
            }
        case "revocation":
            switch what {
            case "crl-distribution-point", "aia-ca-issuers": return .trusted("RFC 5280 §4.2.1.13: \"The CRL distribution points extension identifies how CRL information is obtained.\" §4.2.2.1: \"The authority information access extension indicates how to access information and services for the issuer of the certificate in which the extension appears.\" (pointers for revocation and path building; no revocation checking was requested)")
            default: return .leftOpen("RFC 5280 §4.2: \"A certificate-using system MUST reject the certificate if it encounters a critical extension it does not recognize or a critical extension that contains information that it cannot process\": whether a relying party without revocation checking or AIA fetching processes a critical cRLDistributionPoints or authorityInfoAccess is its own")
            }
        case "extensionValue":
            return .rejected([.malformed], StandardAnswer.der, "RFC 5280 §4.1: \"extnValue OCTET STRING -- contains the DER encoding of an ASN.1 value -- corresponding to the extension type identified -- by extnID\" (the DER encoding of the extension's value, and nothing after it)")
        case "hostName":
            switch what {
            case "idna-a-label-match", "mixed-case-both": return .trusted("RFC 9525 §6.3: A-labels compare as ASCII, case-insensitively")
            case "wildcard-idna-label": return .trusted("RFC 9525 §6.3: the wildcard stands for the whole left-most label, an A-label included")
            case "digit-first-label", "wildcard-over-digit-label":
                return .trusted("RFC 1123 §2.1: \"One aspect of host name syntax is hereby changed: the restriction on the first character is relaxed to allow either a letter or a digit.\" RFC 5280 §4.2.1.6 takes the preferred name syntax \"as specified by Section 3.5 of [RFC1034] and as modified by Section 2.1 of [RFC1123]\", and RFC 9525 §6.3 matches it like any other")
            case "underscore-label", "hyphen-first-label", "label-64-octets":
                return .rejected([.hostnameMismatch, .malformed], "RFC 5280 §4.2.1.6: \"The name MUST be in the \"preferred name syntax\", as specified by Section 3.5 of [RFC1034] and as modified by Section 2.1 of [RFC1123].\" RFC 1034 §3.5: \"They must start with a letter, end with a letter or digit, and have as interior characters only letters, digits, and hyphen.\" and \"Labels must be 63 characters or less.\" RFC 1123 §2.1: \"the restriction on the first character is relaxed to allow either a letter or a digit.\"", "RFC 9525 §6.3: the reference identity is such a name")
            case "wildcard-over-underscore-label":
                return .rejected([.hostnameMismatch], "RFC 9525 §6.2-6.3: a DNS domain name reference identity is a traditional (LDH) domain name or an A-label form; w_w is neither, so no DNS-ID matches it", "RFC 1034 §3.5: \"They must start with a letter, end with a letter or digit, and have as interior characters only letters, digits, and hyphen.\"")
            default: return .rejected([.hostnameMismatch], "RFC 9525 §6.3: a wildcard is only the complete left-most label; not inside an A-label (RFC 6125 §7.2: \"implementations are strongly discouraged from including or attempting to check for the wildcard character embedded within the A-labels or U-labels of an internationalized domain name\")")
            }
        case "nameConstraintType":
            let rule = "RFC 5280 §6.1.3(b)-(c): \"verify that the subject name is within one of the permitted_subtrees for X.500 distinguished names, and verify that each of the alternative names in the subjectAltName extension (critical or non-critical) is within one of the permitted_subtrees for that name type\" and \"is not within any of the excluded_subtrees for that name type\"; §4.2.1.10: \"Restrictions apply only when the specified name form is present.\""
            switch what {
            case "ip-range-permits-ip-san", "dirname-permits-subject": return .trusted(rule, "every name is inside the permitted subtrees of its type")
            default: return .rejected([.other], rule, "a name of the constrained type falls outside the permitted subtrees")
            }
        case "chain":
            switch what {
            case "intermediates-missing", "same-name-anchor-only": return .rejected([.untrusted, .badSignature], "RFC 5280 §6.1: no path to a trust anchor: a prospective certification path must satisfy \"(b) certificate 1 is issued by the trust anchor\"")
            case "leaf-last": return nil
            case "anchors-reversed":
                return .trusted("RFC 5280 §6.1.1(d): \"The trust anchor information includes: (1) the trusted issuer name, (2) the trusted public key algorithm, (3) the trusted public key, and (4) optionally, the trusted public key parameters associated with the public key.\" (the trust anchors are a set of names and keys; the order a relying party lists them in is no input to path validation)")
            case "anchor-non-ca-copy-first", "anchor-non-ca-copy-after", "anchor-non-ca-copy-only", "anchor-non-ca-intermediate-copy", "anchor-non-ca-intermediate-copy-first":
                return .trusted("RFC 5280 §6.1.1(d): \"When the trust anchor information is provided in the form of a certificate, the name in the subject field is used as the trusted issuer name and the contents of the subjectPublicKeyInfo field is used as the source of the trusted public key algorithm and the trusted public key.\" (a trust anchor is a name and a public key; whether the certificate that carries them says cA FALSE is not processed, and each anchor here has the name and key the path needs)")
            case "twenty-intermediates": return .trusted("RFC 5280 §6.1: path validation sets no limit on the number of certificates beyond pathLenConstraint (none here); §6.1.2(k): \"max_path_length: this integer is initialized to n, is decremented for each non-self-issued certificate in the path, and may be reduced to the value in the path length constraint field within the basic constraints extension of a CA certificate.\"")
            case "self-issued-rollover": return .trusted("RFC 5280 §6.1: \"However, a CA may issue a certificate to itself to support key rollover or changes in certificate policies.\" (a self-issued CA certificate is an intermediate like any other; the path leaf, self-issued CA, intermediate, anchor verifies)")
            case "self-issued-under-pathlen-0": return .trusted("RFC 5280 §4.2.1.9: pathLenConstraint \"gives the maximum number of non-self-issued intermediate certificates that may follow this certificate in a valid certification path\"; §6.1.4(l): \"If the certificate was not self-issued, verify that max_path_length is greater than zero and decrement max_path_length by 1.\" (self-issued certificates other than the leaf do not count against pathLenConstraint)")
            default: return .trusted("RFC 8446 §4.4.2: \"For maximum compatibility, all implementations SHOULD be prepared to handle potentially extraneous certificates and arbitrary orderings from any TLS version, with the exception of the end-entity certificate which MUST be first.\" (extra, repeated or reordered certificates are to be handled: a SHOULD of the TLS 1.3 deployment both profiles judge); a path to a trust anchor (any certificate may be one, RFC 5280 §6.1.1(d): \"the name in the subject field is used as the trusted issuer name\") exists")
            }
        default:
            return nil
        }
    }
}
