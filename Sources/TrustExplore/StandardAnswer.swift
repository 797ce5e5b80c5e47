import TrustCore
import TrustVectors

/// What the standards call for on a mutant of a valid chain: decided per mutation and place from
/// RFC 5280 (path validation, §6.1, and its MUSTs on encodings), RFC 9525 (host names) and the CA/B
/// Forum Baseline Requirements where they govern TLS server certificates; never from a back end.
/// A verdict, or ``open`` where the standards truly leave it to the relying party (quoting the
/// sentence that does); nil from ``MutationCatalogue/answer(_:role:host:keyType:)`` where no answer
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

    static let anchor = trusted("RFC 5280 §6.1.1(d): a trust anchor is its name and public key; the rest of its certificate is not processed by path validation")
    /// The deployment choice both profiles make where the TLS version decides: a TLS 1.3 client.
    static let tlsVersion = "TLS version: both profiles judge a TLS 1.3 client (RFC 8446), where the server's key signs the handshake; under TLS 1.2 RSA key transport (RFC 5246 §7.4.2) a keyEncipherment-only RSA key, and static ECDH a keyAgreement-only EC key, would serve"
    static let anyEKUOpen = "RFC 5280 §4.2.1.12: \"Applications that require the presence of a particular purpose MAY reject certificates that include the anyExtendedKeyUsage OID but not the particular OID expected for the application.\""
    static let wildcardNotAddressed = "RFC 5280 §4.2.1.6: \"the semantics of subject alternative names that include wildcard characters (e.g., as a placeholder for a set of names) are not addressed by this specification. Applications with specific requirements MAY use such names, but they must define the semantics.\" Whether a wildcard dNSName is within a permitted or excluded subtree is therefore the relying party's to define"
    static let subjectEmailConstraint = "RFC 5280 §4.2.1.10: \"When constraints are imposed on the rfc822Name name form, but the certificate does not include a subject alternative name, the rfc822Name constraint MUST be applied to the attribute of type emailAddress in the subject distinguished name.\" This leaf has a subject alternative name, so its subject's emailAddress is not constrained"
    static let keyIdentifiersOpen = "RFC 5280 §4.2.1.2: \"Applications are not required to verify that key identifiers match when performing certification path validation.\" §6.1: \"The procedure performed to obtain this sequence of certificates is outside the scope of this specification.\" Whether a mismatched identifier stops a library building the path is left to it"
    static let der = "RFC 5280 §4.1: certificates are DER (X.690); an encoding DER forbids is malformed"
    static let malformed = rejected([.malformed], der)
    static let signatureEncoding = rejected([.malformed, .badSignature], "RFC 5280 §4.1.1.2-3: the signature and its algorithm identifiers as specified", der)
}

extension MutationCatalogue {
    /// The standard answer for `mutation` applied at `role` of a chain the standards trust, or nil
    /// when the standards leave it open.
    public static func answer(_ mutation: String, role: ChainModel.Role, host: String?) -> StandardAnswer? {
        answer(mutation, role: role, host: host, keyType: nil)
    }

    /// The standard answer when the chain's keys are of `keyType` (nil: Ed25519): a TLS 1.2 server
    /// may use an RSA key for key transport (keyEncipherment) and an EC key for static ECDH
    /// (keyAgreement), so a leaf restricted to those is open rather than rejected for those types.
    public static func answer(_ mutation: String, role: ChainModel.Role, host: String?, keyType: Explorer.KeyType?) -> StandardAnswer? {
        _ = keyType
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
            case "generalized-time-before-2050": return .trusted("RFC 5280 §4.1.2.5: conforming applications MUST be able to process validity dates encoded in either UTCTime or GeneralizedTime")
            case "utctime-without-seconds", "utctime-offset": return .rejected([.malformed], "RFC 5280 §4.1.2.5.1: UTCTime MUST be Zulu and MUST include seconds")
            case "generalized-time-fraction", "generalized-time-local": return .rejected([.malformed], "RFC 5280 §4.1.2.5.2: GeneralizedTime MUST be Zulu, MUST include seconds and MUST NOT include fractional seconds")
            case "not-after-2050-utctime", "expired": return .rejected([.expired], "RFC 5280 §6.1.3(a)(2): the validation time must be within the validity period; §4.1.2.5.1: UTCTime 50 is 1950")
            case "not-after-9999": return .trusted("RFC 5280 §4.1.2.5: 99991231235959Z means no well-defined expiration")
            case "not-yet-valid": return .rejected([.notYetValid], "RFC 5280 §6.1.3(a)(2)")
            case "inverted": return .rejected([.expired, .notYetValid], "RFC 5280 §6.1.3(a)(2)")
            default: return nil
            }
        case "basicConstraints":
            let kRule = "RFC 5280 §6.1.4(k): a version 3 intermediate must have basicConstraints with cA TRUE"
            switch (what, role) {
            case ("absent", .intermediate), ("empty", .intermediate): return .rejected([.notCA], kRule)
            case ("absent", _), ("empty", _): return .trusted("RFC 5280 §4.2.1.9: an end entity need not carry basicConstraints")
            case ("ca-false-explicit", .intermediate): return .rejected([.notCA, .malformed], kRule, StandardAnswer.der)
            case ("ca-false-explicit", _), ("ca-true-ber-boolean", _), ("pathlen-non-minimal", _): return StandardAnswer.malformed
            case ("non-critical", _): return .trusted("RFC 5280 §6.1.4(k) checks cA TRUE, not criticality (§4.2.1.9's MUST binds the CA)")
            case ("pathlen-0", _), ("pathlen-huge", _): return .trusted("RFC 5280 §6.1.4(l)-(m): one CA below the leaf is within pathLenConstraint 0; any value is allowed")
            case ("pathlen-negative", _): return .rejected([.malformed], "RFC 5280 §4.2.1.9: pathLenConstraint INTEGER (0..MAX)")
            case ("pathlen-without-ca", _), ("leaf-is-ca", _): return .trusted("RFC 5280 §6.1 does not examine the end entity's basicConstraints (§4.2.1.9's rules bind the CA)")
            default: return nil
            }
        case "keyUsage":
            if what == "padding-bits-set" || what == "trailing-zero-octet" { return StandardAnswer.malformed }
            if what == "absent" || what == "non-critical" { return .trusted("RFC 5280 §4.2.1.3 and §6.1.4(n): keyUsage restricts only when present; criticality binds the CA") }
            if role == .intermediate {
                if what == "only-keyCertSign" { return .trusted("RFC 5280 §6.1.4(n): keyCertSign is set") }
                return .rejected([.notCA, .other, .malformed], "RFC 5280 §6.1.4(n): a CA's keyUsage, when present, must assert keyCertSign")
            }
            if what == "only-digitalSignature" { return .trusted("RFC 5280 §4.2.1.3; RFC 8446 §4.4.2.2: a TLS server's key signs the handshake (digitalSignature)") }
            return .rejected([.purposeMismatch, .malformed], StandardAnswer.tlsVersion, "RFC 8446 §4.4.2.2: \"The certificate MUST allow the key to be used for signing (i.e., the digitalSignature bit MUST be set if the Key Usage extension is present) with a signature scheme indicated in the client's \"signature_algorithms\"/\"signature_algorithms_cert\" extensions (see Section 4.2.3).\"")
        case "extendedKeyUsage":
            switch what {
            case "only-anyExtendedKeyUsage" where role == .leaf:
                return .leftOpen(StandardAnswer.anyEKUOpen)
            case "absent", "serverAuth-critical", "serverAuth-and-any", "only-serverAuth", "only-anyExtendedKeyUsage":
                return .trusted("RFC 5280 §4.2.1.12: serverAuth or anyExtendedKeyUsage permits TLS server use; no EKU restricts nothing")
            case "empty": return .rejected([.malformed, .purposeMismatch], "RFC 5280 §4.2.1.12: KeyPurposeId SIZE (1..MAX)")
            default:
                return role == .leaf
                    ? .rejected([.purposeMismatch], "RFC 5280 §4.2.1.12: the certificate MUST only be used for a purpose indicated")
                    : .leftOpen("RFC 5280 §4.2.1.12: \"Certificate using applications MAY require that the extended key usage extension be present and that a particular purpose be indicated in order for the certificate to be acceptable to that application\"; path validation (§6.1) does not process a CA's extendedKeyUsage")
            }
        case "subjectAltName":
            let mismatch = "RFC 9525 §6.3-6.4: the reference identity matches a DNS-ID or IP-ID only as specified"
            switch what {
            case "wildcard-leftmost": return .trusted("RFC 9525 §6.3: a wildcard in the left-most label matches one label")
            case "uppercase", "critical": return .trusted("RFC 9525 §6.3: DNS names compare case-insensitively; RFC 5280 §4.2.1.6: SAN may be critical")
            case "ip-and-dns": return .trusted("RFC 9525 §6.4: an IP reference identity matches an iPAddress SAN")
            case "othername-and-dns": return .trusted("RFC 5280 §4.2.1.6: other name forms beside the dNSName; RFC 9525 §6.3 matches the DNS-ID")
            case "empty-subject-non-critical": return .trusted("RFC 5280 §6.1 does not check SAN criticality; §4.2.1.6's MUST binds the CA")
            case "trailing-dot", "leading-dot", "empty", "embedded-nul", "trailing-space", "utf8-label", "empty-sequence", "ip-five-octets":
                return .rejected([.hostnameMismatch, .malformed], mismatch, "RFC 5280 §4.2.1.6: dNSName in the preferred name syntax; iPAddress four or sixteen octets; SIZE (1..MAX)")
            default: return .rejected([.hostnameMismatch], mismatch, "RFC 9525 §6.3: no partial or non-left-most wildcards, no commonName fallback")
            }
        case "host":
            switch what {
            case "uppercase", "trailing-dot": return .trusted("RFC 9525 §6.3 (case-insensitive); RFC 1034 §3.1: a trailing dot makes the name absolute, the same name")
            default: return .rejected([.hostnameMismatch], "RFC 9525 §6.3: a wildcard-free DNS-ID matches only the same name")
            }
        case "nameConstraints":
            let rule = "RFC 5280 §6.1.3(b)-(c) and §4.2.1.10"
            switch what {
            case "permitted-dns-parent", "permitted-dns-uppercase", "permitted-dns-host-exact", "permitted-dns-empty", "permitted-email-only", "permitted-uri-only", "on-leaf-excluded":
                return .trusted(rule, "names of other types are unconstrained; DNS constraints match by adding labels on the left, case-insensitively; an end entity's constraints constrain nothing (§6.1.4(g) applies to CAs)")
            case "permitted-dns-other", "excluded-dns-parent", "excluded-dns-empty", "permitted-dirname-other", "non-critical-excluded":
                return .rejected([.other], rule, "the leaf's names fall outside the permitted or inside the excluded subtrees (criticality binds the CA)")
            case "empty-permitted": return .rejected([.malformed, .other], rule, "GeneralSubtrees SIZE (1..MAX)")
            case "rfc822-against-subject-email":
                return .trusted(rule, StandardAnswer.subjectEmailConstraint)
            case "permitted-host-wildcard-leaf", "excluded-host-wildcard-leaf":
                return .leftOpen(StandardAnswer.wildcardNotAddressed)
            case "excluded-dns-cn-only-leaf":
                return host == nil ? .trusted(rule, "dNSName constraints apply to dNSName names; a commonName is not one (§4.2.1.10)")
                    : .rejected([.hostnameMismatch, .other], "RFC 9525 §6.3: without a DNS-ID no name matches", rule)
            default: return nil
            }
        case "issuerName":
            switch what {
            case "printable-to-utf8", "utf8-to-printable", "uppercase", "extra-spaces":
                return .trusted("RFC 5280 §7.1: \"Conforming implementations MUST use the LDAP StringPrep profile (including insignificant space handling), as specified in [RFC4518], as the basis for comparison of distinguished name attributes encoded in either PrintableString or UTF8String.\"")
            default: return .rejected([.untrusted, .badSignature], "RFC 5280 §6.1.3(a)(4): the issuer name must equal the issuer's subject; §7.1: other string types and other RDN structures compare unequal")
            }
        case "authorityKeyIdentifier":
            if what == "malformed" { return .rejected([.malformed], "RFC 5280 §4.2.1.1: AuthorityKeyIdentifier syntax") }
            if what == "mismatch" || what == "issuer-and-serial-mismatch" { return .leftOpen(StandardAnswer.keyIdentifiersOpen) }
            return .trusted("RFC 5280 §6.1: key identifiers help path building and are not checked by path validation (§4.2.1.1's MUSTs bind the CA)")
        case "subjectKeyIdentifier":
            if what == "not-octet-string" { return .rejected([.malformed], "RFC 5280 §4.2.1.2: SubjectKeyIdentifier ::= KeyIdentifier (OCTET STRING)") }
            if what == "mismatch" { return .leftOpen(StandardAnswer.keyIdentifiersOpen) }
            return .trusted("RFC 5280 §6.1: key identifiers are not checked by path validation; §4.2.1.2: any method of generating them")
        case "extension":
            switch what {
            case "unknown-non-critical", "policies-critical-unknown", "policies-any":
                return .trusted("RFC 5280 §4.2: a non-critical unknown extension may be ignored; certificatePolicies is recognised, and with any-policy user input no explicit policy is required (§6.1.1)")
            case "tls-feature-must-staple": return .trusted("RFC 7633 §4: the TLS feature extension binds the TLS handshake; path validation does not process it")
            case "unknown-critical": return .rejected([.other], "RFC 5280 §4.2: a critical extension that is not recognised MUST be rejected")
            case "duplicate-unknown", "duplicate-own": return .rejected([.malformed, .other], "RFC 5280 §4.2: a certificate MUST NOT include more than one instance of an extension")
            case "critical-false-explicit", "empty-list": return .rejected([.malformed], StandardAnswer.der, "Extensions SIZE (1..MAX)")
            case "policy-constraints-require-explicit":
                return .rejected([.other], "RFC 5280 §6.1.4(i) and §6.1.5: requireExplicitPolicy 0 makes explicit_policy 0; with no policies the valid_policy_tree is NULL and the path fails")
            default: return nil
            }
        case "version":
            switch (what, role) {
            case ("unique-identifiers", _): return .trusted("RFC 5280 §4.1.2.8: applications SHOULD be capable of parsing unique identifiers; path validation ignores them")
            case ("v1-no-extensions", .intermediate): return .trusted("RFC 5280 §6.1.4(k): the cA check applies to version 3 certificates only")
            case ("v1-no-extensions", .leaf):
                return host == nil ? .trusted("RFC 5280 §6.1") : .rejected([.hostnameMismatch], "RFC 9525 §6.3: without subjectAltName no DNS-ID; no commonName fallback")
            default: return .rejected([.malformed], "RFC 5280 §4.1.2.1: extensions require version 3; version is v1, v2 or v3, DEFAULT v1 not encoded")
            }
        case "serial":
            switch what {
            case "zero", "negative", "20-octets-high-bit": return .trusted("RFC 5280 §4.1.2.2: certificate users SHOULD gracefully handle non-positive serial numbers")
            case "non-minimal", "empty": return StandardAnswer.malformed
            case "21-octets": return .leftOpen("RFC 5280 §4.1.2.2: \"Certificate users MUST be able to handle serialNumber values up to 20 octets. Conforming CAs MUST NOT use serialNumber values longer than 20 octets\": longer values are left to the certificate user")
            default: return nil
            }
        case "key":
            if what == "p256-compressed" { return .leftOpen("RFC 5480 §2.2: implementations \"MUST support the uncompressed form and MAY support the compressed form\" of the ECC public key") }
            if what == "p256-explicit-parameters" {
                return .rejected([.malformed, .badSignature, .other, .untrusted], "RFC 5480 §2.1.1: \"implicitCurve and specifiedCurve MUST NOT be used in PKIX.\"")
            }
            if what == "rsa1024" { return .trusted("RFC 3279 §2.3.1 and RFC 5280 §4.1.2.7: an RSA key; RFC 5280 sets no minimum size (the Web PKI profile's Baseline Requirements §6.1.5 do)") }
            return .trusted("RFC 5280 §4.1.2.7; RFC 5480 and RFC 8410: P-256, P-384, RSA-2048 and Ed25519 keys")
        case "signature":
            switch what {
            case "ecdsa-sha1", "rsa-sha1":
                return .trusted("RFC 3279 §2.2.1 and §2.2.3 define sha1WithRSAEncryption and ecdsa-with-SHA1 for RFC 5280 certificates, which set no hash policy (the Web PKI profile's Baseline Requirements §7.1.3.2 forbid SHA-1)")
            case "rsa-sha512": return .trusted("RFC 4055; CA/B Forum Baseline Requirements §7.1.3.2: RSASSA-PKCS1-v1_5 with SHA-512")
            case "ecdsa-p256-sha512", "ecdsa-p384-sha256": return .trusted("RFC 5758 §3.2 defines ecdsa-with-SHA256/384/512 for any curve; RFC 5480 §4's curve-hash pairings are recommendations (the Web PKI profile's Baseline Requirements §7.1.3.2.2 require them)")
            case "unknown-algorithm": return .rejected([.badSignature, .malformed, .other, .untrusted], "RFC 5280 §6.1.3(a)(1): the signature must be verified; an unknown algorithm cannot be")
            default: return StandardAnswer.signatureEncoding
            }
        case "policy":
            switch what {
            case "mapping-to-anyPolicy": return .rejected([.other, .malformed], "RFC 5280 §6.1.4(a): anyPolicy MUST NOT appear in a policy mapping (the path is invalid)")
            case "require-explicit-unmet": return .rejected([.other], "RFC 5280 §6.1.4(i), §6.1.5: explicit_policy 0 and no valid policy at the leaf (A is not B, no mapping)")
            default: return .trusted("RFC 5280 §6.1: with any-policy user input and initial-explicit-policy false, policy processing constrains nothing here (§6.1.4(b), (g), (i))")
            }
        case "revocation":
            switch what {
            case "crl-distribution-point", "aia-ca-issuers": return .trusted("RFC 5280 §4.2.1.13, §4.2.2.1: pointers for revocation and path building; no revocation checking was requested")
            default: return .leftOpen("RFC 5280 §4.2: \"A certificate-using system MUST reject the certificate if it encounters a critical extension it does not recognize or a critical extension that contains information that it cannot process\": whether a relying party without revocation checking or AIA fetching processes a critical cRLDistributionPoints or authorityInfoAccess is its own")
            }
        case "extensionValue":
            return .rejected([.malformed], StandardAnswer.der, "RFC 5280 §4.1: extnValue contains the DER encoding of the extension's value, and nothing after it")
        case "hostName":
            switch what {
            case "idna-a-label-match", "mixed-case-both": return .trusted("RFC 9525 §6.3: A-labels compare as ASCII, case-insensitively")
            case "wildcard-idna-label": return .trusted("RFC 9525 §6.3: the wildcard stands for the whole left-most label, an A-label included")
            case "digit-first-label", "wildcard-over-digit-label":
                return .trusted("RFC 1123 §2.1: a host name label may start with a digit; RFC 5280 §4.2.1.6 (preferred name syntax) and RFC 9525 §6.3 match it like any other")
            case "underscore-label", "hyphen-first-label", "label-64-octets":
                return .rejected([.hostnameMismatch, .malformed], "RFC 5280 §4.2.1.6: a dNSName MUST be in the preferred name syntax of RFC 1034 §3.5 as modified by RFC 1123 §2.1 (letters, digits and hyphens, not first or last; at most 63 octets a label)", "RFC 9525 §6.3: the reference identity is such a name")
            case "wildcard-over-underscore-label":
                return .rejected([.hostnameMismatch], "RFC 9525 §6.2-6.3: a DNS domain name reference identity is a traditional (LDH) domain name or an A-label form; w_w is neither, so no DNS-ID matches it", "RFC 1034 §3.5")
            default: return .rejected([.hostnameMismatch], "RFC 9525 §6.3: a wildcard is only the complete left-most label; not inside an A-label (RFC 6125 §7.2)")
            }
        case "nameConstraintType":
            let rule = "RFC 5280 §6.1.3(b)-(c) and §4.2.1.10"
            switch what {
            case "ip-range-permits-ip-san", "dirname-permits-subject": return .trusted(rule, "every name is inside the permitted subtrees of its type")
            default: return .rejected([.other], rule, "a name of the constrained type falls outside the permitted subtrees")
            }
        case "chain":
            switch what {
            case "intermediates-missing", "same-name-anchor-only": return .rejected([.untrusted, .badSignature], "RFC 5280 §6.1: no path to a trust anchor")
            case "leaf-last": return nil
            case "anchors-reversed":
                return .trusted("RFC 5280 §6.1.1(d): the trust anchors are a set of names and keys; the order a relying party lists them in is no input to path validation")
            case "anchor-non-ca-copy-first", "anchor-non-ca-copy-after", "anchor-non-ca-copy-only", "anchor-non-ca-intermediate-copy", "anchor-non-ca-intermediate-copy-first":
                return .trusted("RFC 5280 §6.1.1(d): a trust anchor is a name and a public key; whether the certificate that carries them says cA FALSE is not processed, and each anchor here has the name and key the path needs")
            case "twenty-intermediates": return .trusted("RFC 5280 §6.1: path validation sets no limit on the number of certificates beyond pathLenConstraint (none here)")
            case "self-issued-rollover": return .trusted("RFC 5280 §6.1: a self-issued CA certificate is an intermediate like any other; the path leaf, self-issued CA, intermediate, anchor verifies")
            case "self-issued-under-pathlen-0": return .trusted("RFC 5280 §4.2.1.9 and §6.1.4(l): self-issued certificates other than the leaf do not count against pathLenConstraint")
            default: return .trusted("RFC 8446 §4.4.2 and RFC 4158: extra, repeated or reordered certificates are allowed; a path to a trust anchor (any certificate may be one, RFC 5280 §6.1.1(d)) exists")
            }
        default:
            return nil
        }
    }
}
