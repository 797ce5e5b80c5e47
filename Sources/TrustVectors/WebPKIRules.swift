import Foundation
import TrustCore

/// The Web PKI profile: the rules of the CA/Browser Forum's Baseline Requirements (version 2.2.6)
/// that a strict TLS client enforces on a server's certification path, applied to every certificate
/// of the path, the anchor's included, with RFC 5280 and RFC 9525 beneath them. A rule is in the
/// profile when the Baseline Requirements state it and a strict client checks it from the
/// certificates and the validation time alone: pyca/cryptography's Web PKI verifier is the
/// reference client, with Apple's published TLS requirements and a TLS 1.3 handshake's key usage
/// check where they go further. Requirements no client enforces on a path (authorityInformationAccess
/// and certificatePolicies present, CRL and OCSP pointers, serial entropy) are not in it. Each
/// ``Rule`` quotes its source; ``rules`` lists them for the documentation (docs/profiles.md).
///
/// The answer comes from the certificates themselves, so the same rules answer every vector, the
/// catalogue's and the explored ones. A path here is a chain of names from the leaf through
/// presented certificates to an anchor (the subject of each is the issuer of the one below); when
/// several exist, the chain conforms when one of them does. Certificates that cannot be read keep
/// the RFC 5280 answer (which rejects them).
public enum WebPKIRules {
    /// One rule: what it requires, where the requirement is written (quoted), and which client
    /// enforces it (with its source).
    public struct Rule: Sendable, Hashable {
        public let id: String
        /// The requirement in a sentence.
        public let summary: String
        /// The written source, quoted exactly with its section.
        public let source: String
        /// The client behaviour behind it, with its source.
        public let client: String
        /// As a vector's reference: the rule, its source and its client.
        public var reference: String { "Web PKI rule \(id): \(summary). \(source) Client: \(client)" }
    }

    static let eku = Rule(id: "leaf-eku", summary: "the leaf's extKeyUsage is present, with id-kp-serverAuth and without anyExtendedKeyUsage",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.6: \"`extKeyUsage` | MUST | N\"; §7.1.2.7.10: \"`id-kp-serverAuth` | 1.3.6.1.5.5.7.3.1 | MUST\" and \"`anyExtendedKeyUsage` | 2.5.29.37.0 | MUST NOT\".",
        client: "Apple (support.apple.com/103769): \"TLS server certificates must contain an ExtendedKeyUsage (EKU) extension containing the id-kp-serverAuth OID.\" (pyca/cryptography 50.0.2 enforces serverAuth only when the extension is present: policy/extension.rs:604-628.)")
    static let san = Rule(id: "leaf-san", summary: "the leaf has a subjectAltName",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.12: \"For Subscriber Certificates, the Subject Alternative Name MUST be present and MUST contain at least one `dNSName` or `iPAddress` `GeneralName`.\"",
        client: "pyca/cryptography 50.0.2 requires it of an end-entity certificate (policy/extension.rs:182-186); Apple: \"DNS names in the CommonName of a certificate are no longer trusted.\"")
    static let leafCA = Rule(id: "leaf-not-ca", summary: "the leaf's basicConstraints, if present, do not assert cA",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.8: \"`cA` | MUST be FALSE\".",
        client: "pyca/cryptography 50.0.2 refuses an end-entity certificate that asserts cA (policy/extension.rs:559-575).")
    static let leafNameConstraints = Rule(id: "leaf-no-name-constraints", summary: "the leaf carries no nameConstraints",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.6: \"`nameConstraints` | MUST NOT\".",
        client: "pyca/cryptography 50.0.2's end-entity policy has nameConstraints not present (policy/extension.rs:193-194).")
    static let caEKU = Rule(id: "ca-eku", summary: "every CA of the path, the anchor included, whose extKeyUsage is present lists id-kp-serverAuth or anyExtendedKeyUsage",
        source: "CA/B Forum Baseline Requirements §7.1.2.10.6: \"`id-kp-serverAuth` | 1.3.6.1.5.5.7.3.1 | MUST\".",
        client: "pyca/cryptography 50.0.2 applies exactly this to every CA certificate (policy/extension.rs:750-770), the anchor's included.")
    static let names = Rule(id: "name-chaining", summary: "each certificate's issuer name is byte for byte its issuer's subject name, on a path that reaches an anchor",
        source: "CA/B Forum Baseline Requirements §7.1.4.1: \"the encoded content of the Issuer Distinguished Name field of a Certificate SHALL be byte-for-byte identical with the encoded form of the Subject Distinguished Name field of the Issuing CA certificate.\"",
        client: "pyca/cryptography 50.0.2 looks issuers up by the encoded name (lib.rs:370-382).")
    static let version = Rule(id: "version-3", summary: "every certificate below the anchor is version 3",
        source: "CA/B Forum Baseline Requirements §7.1.1: \"Certificates MUST be of type X.509 v3.\"",
        client: "pyca/cryptography 50.0.2 checks it of every certificate (policy/mod.rs:385-445).")
    static let serial = Rule(id: "serial", summary: "every certificate below the anchor has a positive serialNumber of at most 20 octets",
        source: "CA/B Forum Baseline Requirements §7.1.2.7: \"MUST be a non-sequential number greater than zero (0) and less than 2¹⁵⁹\".",
        client: "pyca/cryptography 50.0.2 refuses negative and over-long serials (policy/mod.rs:403-421).")
    static let aki = Rule(id: "authority-key-identifier", summary: "the leaf carries authorityKeyIdentifier, and no certificate below the anchor marks it critical",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.6: \"`authorityKeyIdentifier` | MUST | N\".",
        client: "pyca/cryptography 50.0.2 requires it, non-critical, of an end-entity certificate (policy/extension.rs:161-166) and refuses it critical on a CA (policy/extension.rs:97-102).")
    static let caExtensions = Rule(id: "ca-extensions", summary: "every CA below the anchor carries basicConstraints, critical, and keyUsage",
        source: "CA/B Forum Baseline Requirements §7.1.2.6.1: \"`basicConstraints` | MUST | Y\" and \"`keyUsage` | MUST | Y\".",
        client: "pyca/cryptography 50.0.2's CA policy (policy/extension.rs:85-147).")
    static let sanCriticality = Rule(id: "leaf-san-criticality", summary: "the leaf's subjectAltName is critical exactly when its subject is empty",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.12: \"If the `subject` field of the certificate is an empty SEQUENCE, this extension MUST be marked critical\" and \"Otherwise, this extension MUST NOT be marked critical.\"",
        client: "pyca/cryptography 50.0.2 checks both (policy/extension.rs:182-186 with ee::subject_alternative_name).")
    static let key = Rule(id: "keys", summary: "every key of the path, the leaf's and the anchor's included, is RSA of at least 2048 bits (a multiple of 8) or ECDSA on P-256, P-384 or P-521 as a named curve",
        source: "CA/B Forum Baseline Requirements §6.1.5: \"Ensure that the modulus size, when encoded, is at least 2048 bits, and;\", \"Ensure that the key represents a valid point on the NIST P-256, NIST P-384 or NIST P-521 elliptic curve.\" and \"No other algorithms or key sizes are permitted.\"; §7.1.3.1.2: \"The parameters MUST use the `namedCurve` encoding.\"",
        client: "Apple: \"TLS server certificates and issuing CAs using RSA keys must use key sizes greater than or equal to 2048 bits.\" pyca/cryptography 50.0.2 checks issuers' keys only (policy/mod.rs:540-593).")
    static let signature = Rule(id: "signatures", summary: "every signature below the anchor is RSASSA-PKCS1-v1_5 or RSASSA-PSS with SHA-256, SHA-384 or SHA-512, or ECDSA with the hash its curve calls for",
        source: "CA/B Forum Baseline Requirements §7.1.3.2.2: \"If the signing key is P-256, the signature MUST use ECDSA with SHA-256.\" (P-384: SHA-384, P-521: SHA-512); §7.1.3.2.1 lists the RSA encodings, SHA-1 not among them.",
        client: "pyca/cryptography 50.0.2's permitted signature algorithms (policy/mod.rs:171-190); Apple: \"SHA-1 signed certificates are no longer trusted for TLS.\"")
    static let anchorValidity = Rule(id: "anchor-validity", summary: "the anchor's certificate is within its validity period at the validation time",
        source: "CA/B Forum Baseline Requirements §7.1.2.1.1 bounds a Root CA certificate's validity (\"`notAfter`  | 2922 days (approx. 8 years) | 9132 days (approx. 25 years)\"); RFC 5280 §6.1.1(d) would take only the anchor's name and key.",
        client: "pyca/cryptography 50.0.2 holds the anchor to the CA profile, validity included (policy/mod.rs:448-491 reached through :536-538).")
    static let anchorCA = Rule(id: "anchor-ca", summary: "the anchor's certificate is a CA certificate: basicConstraints critical with cA TRUE, keyUsage with keyCertSign",
        source: "CA/B Forum Baseline Requirements §7.1.2.1.2: \"`basicConstraints` | MUST | Y\" and \"`keyUsage` | MUST | Y\"; §7.1.2.1.4: \"`cA` | MUST be set TRUE\"; §7.1.2.10.7: \"`keyCertSign` | Y | Y\".",
        client: "pyca/cryptography 50.0.2 applies its CA policy to the anchor (policy/mod.rs:448-491, policy/extension.rs:85-147).")
    static let anchorPathLength = Rule(id: "anchor-path-length", summary: "the anchor's pathLenConstraint bounds the CAs below it, as any CA's does",
        source: "RFC 5280 §6.1.4(m) applied to the anchor as a CA of the path.",
        client: "pyca/cryptography 50.0.2 processes the anchor's basicConstraints like any CA's (policy/mod.rs:448-491).")
    static let anchorCritical = Rule(id: "anchor-critical-extensions", summary: "the anchor's certificate has no critical extension RFC 5280 does not define",
        source: "RFC 5280 §4.2: \"A certificate-using system MUST reject the certificate if it encounters a critical extension it does not recognize or a critical extension that contains information that it cannot process.\"",
        client: "pyca/cryptography 50.0.2 applies it to the anchor as to any certificate (policy/extension.rs:297-311).")
    static let nameConstraints = Rule(id: "name-constraints", summary: "every CA's nameConstraints, the anchor's included, constrain the certificates below it; a wildcard dNSName is within a permitted subtree only when every name it stands for is, and within an excluded one when any is",
        source: "RFC 5280 §4.2.1.10 and §6.1.3(b)-(c); §4.2.1.6 leaves wildcards to the application: \"Applications with specific requirements MAY use such names, but they must define the semantics.\"",
        client: "pyca/cryptography 50.0.2 evaluates every CA's constraints, the anchor's included (lib.rs:429-466), wildcards so (types.rs:188-217).")
    static let dnsConstraintSyntax = Rule(id: "dns-constraint-syntax", summary: "a dNSName in a CA's nameConstraints is a domain name (not empty, no leading dot)",
        source: "CA/B Forum Baseline Requirements §7.1.2.10.8, for a permitted dNSName: \"The CA MUST confirm that the Applicant has registered the `dNSName` or has been authorized by the domain registrant to act on the registrant's behalf.\" (an empty name or one with a leading dot is no registrable domain name), and for an excluded one: \"the CA MAY indicate one or more subordinate domains to be excluded\" (an empty name is no subordinate domain). RFC 5280 §4.2.1.10 writes DNS constraints as names: \"DNS name restrictions are expressed as host.example.com.\"",
        client: "pyca/cryptography 50.0.2 agrees: it refuses any other dNSName constraint as malformed (types.rs:34-60).")

    static let pointerCriticality = Rule(id: "pointers-not-critical", summary: "no certificate below the anchor marks authorityInformationAccess or crlDistributionPoints critical",
        source: "CA/B Forum Baseline Requirements §7.1.2.7.6: \"`authorityInformationAccess`      | MUST            | N\" and \"`crlDistributionPoints`           | *               | N\"; the CA profiles' rows say N as well (e.g. §7.1.2.6.1).",
        client: "pyca/cryptography 50.0.2 refuses a critical authorityInformationAccess (policy/extension.rs: its validator is non-critical) and any critical extension it has no validator for, crlDistributionPoints among them (policy/extension.rs:297-311).")
    static let akiContent = Rule(id: "authority-key-identifier-content", summary: "every certificate below the anchor that carries authorityKeyIdentifier has a keyIdentifier identical to its issuer's subjectKeyIdentifier, and no authorityCertIssuer or authorityCertSerialNumber",
        source: "CA/B Forum Baseline Requirements §7.1.2.11.1: \"MUST be present. MUST be identical to the `subjectKeyIdentifier` field of the Issuing CA.\" and \"MUST NOT be present\" (authorityCertIssuer, authorityCertSerialNumber). RFC 5280 §4.2.1.2 leaves the match to the application (\"Applications are not required to verify that key identifiers match when performing certification path validation.\"); the profile holds every certificate of the path to the Baseline Requirements' content rules, and this one is read from the certificates alone.",
        client: "pyca/cryptography 50.0.2 does not check it: it uses key identifiers only to order issuer candidates (lib.rs:384-417), as Go's findPotentialParents does.")

    /// Every rule of the profile, in the order the documentation lists them.
    public static let rules: [Rule] = [eku, san, leafCA, leafNameConstraints, sanCriticality, aki, key, signature, version, serial, names, caExtensions, caEKU,
                                       pointerCriticality, nameConstraints, dnsConstraintSyntax, anchorValidity, anchorCA, anchorPathLength, anchorCritical,
                                       akiContent]

    /// What the Web PKI calls for on `chain` (leaf first) under `anchors` at `time`, given RFC 5280's
    /// answer. The Web PKI adds to RFC 5280, it removes nothing: a rejection by RFC 5280 stands, with
    /// the reasons these rules add to it (a back end that names either is right), and a chain RFC 5280
    /// trusts or leaves open is rejected when the best path breaks a rule. `time` is the validation
    /// time, for the anchor's validity.
    public static func answer(chain: [[UInt8]], anchors: [[UInt8]], rfc5280: ProfileAnswer, time: Date) -> ProfileAnswer {
        guard let leafDER = chain.first, let leaf = Parsed(leafDER) else { return rfc5280 }
        var failures: [FailureClass] = []
        var references: [String] = []
        // The leaf's purpose, names and basic constraints.
        let ekus = leaf.extendedKeyUsage ?? []
        if !ekus.contains(serverAuth) || ekus.contains(anyEKU) {
            failures += [.purposeMismatch]
            references.append(eku.reference)
        }
        if !leaf.hasSubjectAltName {
            failures += [.hostnameMismatch, .other]
            references.append(san.reference)
        }
        if leaf.isCA == true {
            failures += [.purposeMismatch, .other, .notCA]
            references.append(leafCA.reference)
        }
        if leaf.criticality[nameConstraintsOID] != nil {
            failures += [.other, .malformed]
            references.append(leafNameConstraints.reference)
        }
        // Along the path: the one (of those whose names chain byte for byte to an anchor) that
        // breaks the fewest rules decides; a leaf that is itself an anchor is its own path.
        let pool = (chain.dropFirst().compactMap(Parsed.init)).map { (certificate: $0, anchor: false) } + anchors.compactMap(Parsed.init).map { (certificate: $0, anchor: true) }
        let paths = anchors.contains(leafDER) ? [[leaf]] : Self.paths(from: leaf, pool: pool)
        if paths.isEmpty {
            // No path whose names chain: a library that tries a candidate's key anyway reports its signature.
            failures += [.untrusted, .badSignature, .other]
            references.append(names.reference)
        } else if let best = paths.map({ violations($0, time: time) }).min(by: { $0.count < $1.count }) {
            for violation in best {
                failures += violation.failures
                references.append(violation.rule)
            }
        }
        // No rule of the profile decides: RFC 5280's answer stands, an opening included (no
        // client's behaviour closes what the texts leave open; docs/profiles.md, "When an answer is open").
        guard !failures.isEmpty else { return rfc5280 }
        let rejectedByRFC5280 = rfc5280.open == nil && !rfc5280.expected.trusted
        var unique: [FailureClass] = rejectedByRFC5280 ? rfc5280.expected.failures : []
        for failure in failures where !unique.contains(failure) { unique.append(failure) }
        var cited = rejectedByRFC5280 ? rfc5280.references : []
        for reference in references where !cited.contains(reference) { cited.append(reference) }
        return ProfileAnswer(expected: Expectation(trusted: false, failures: unique.sorted()), references: cited)
    }

    static let serverAuth = "1.3.6.1.5.5.7.3.1"
    static let anyEKU = "2.5.29.37.0"

    /// Every name path from `leaf` to an anchor, leaf first, the anchor last (at most 64 deep; the Baseline Requirements set no limit).
    static func paths(from leaf: Parsed, pool: [(certificate: Parsed, anchor: Bool)]) -> [[Parsed]] {
        var found: [[Parsed]] = []
        func walk(_ path: [Parsed]) {
            guard found.count < 64, path.count <= 64 else { return }
            let last = path.last!
            for candidate in pool where candidate.certificate.subject == last.issuer && !path.contains(where: { $0.der == candidate.certificate.der }) {
                if candidate.anchor { found.append(path + [candidate.certificate]) } else { walk(path + [candidate.certificate]) }
            }
        }
        walk([leaf])
        return found
    }

    /// The rules `path` (leaf first, anchor last) breaks: keys and signatures, a CA's EKU, the
    /// encodings and extensions the profiles give every certificate below the anchor, and the
    /// anchor's certificate held to the CA profile and processed as a CA of the path.
    static func violations(_ path: [Parsed], time: Date) -> [(failures: [FailureClass], rule: String)] {
        var found: [(failures: [FailureClass], rule: String)] = []
        // Each rule from its own check, so an answer cites exactly the rules its certificates break
        // (an RSA-1024 key signed with SHA-256 breaks the key rule alone, a SHA-1 signature by an
        // RSA-2048 key the signature rule alone).
        if !keysConform(path) {
            found.append(([.badSignature, .other, .untrusted, .malformed], key.reference))
        }
        if !signaturesConform(path) {
            found.append(([.badSignature, .other, .untrusted, .malformed], signature.reference))
        }
        let below = path.count > 1 ? Array(path.dropLast()) : path
        // The CAs: every certificate above the leaf, the anchor included.
        let cas = path.dropFirst()
        if !cas.allSatisfy({ $0.extendedKeyUsage.map { $0.contains(serverAuth) || $0.contains(anyEKU) } ?? true }) {
            found.append(([.purposeMismatch], caEKU.reference))
        }
        if !below.allSatisfy({ $0.version == 2 }) { found.append(([.malformed, .other], version.reference)) }
        if !below.allSatisfy({ $0.serialIsPositive && $0.serialOctets <= 20 }) { found.append(([.malformed, .other], serial.reference)) }
        if below[0].criticality[authorityKeyIdentifierOID] == nil || below.contains(where: { $0.criticality[authorityKeyIdentifierOID] == true }) {
            found.append(([.malformed, .other], aki.reference))
        }
        // BR §7.1.2.11.1 on every certificate below the anchor that carries one: the keyIdentifier
        // identical to the issuing CA's subjectKeyIdentifier, no authorityCertIssuer or serial number.
        if path.count > 1, path.indices.dropLast().contains(where: { index in
            let certificate = path[index]
            guard certificate.criticality[authorityKeyIdentifierOID] != nil else { return false }
            return certificate.authorityKeyNamesIssuer || certificate.authorityKeyIdentifier == nil
                || certificate.authorityKeyIdentifier != path[index + 1].subjectKeyIdentifier
        }) {
            found.append(([.untrusted, .malformed, .other], akiContent.reference))
        }
        if !below.dropFirst().allSatisfy({ $0.criticality[basicConstraintsOID] == true && $0.criticality[keyUsageOID] != nil }) {
            found.append(([.notCA, .malformed, .other], caExtensions.reference))
        }
        if below.contains(where: { $0.criticality["1.3.6.1.5.5.7.1.1"] == true || $0.criticality["2.5.29.31"] == true }) {
            found.append(([.other, .malformed], pointerCriticality.reference))
        }
        if let san = below[0].criticality[subjectAltNameOID], san != below[0].subjectIsEmpty {
            found.append(([.malformed, .other, .hostnameMismatch], sanCriticality.reference))
        }
        if path.count > 1, let anchor = path.last {
            found += anchorViolations(anchor, below: below, time: time)
        }
        if path.dropFirst().contains(where: { ca in
            ca.nameConstraints.map { ($0.permitted + $0.excluded).contains { WebPKINameConstraints.malformedDNS($0) } } ?? false
        }) {
            found.append(([.malformed, .other, .untrusted], dnsConstraintSyntax.reference))
        }
        // Every CA's name constraints, the anchor's included, over the certificates below it.
        if path.indices.dropFirst().contains(where: { index in
            path[index].nameConstraints.map { !WebPKINameConstraints.allow($0, Array(path[..<index])) } ?? false
        }) {
            found.append(([.other, .untrusted, .hostnameMismatch], nameConstraints.reference))
        }
        return found
    }

    /// The anchor's certificate as a CA of the Web PKI (BR §7.1.2.1), processed like any CA of the
    /// path: valid at `time`, basicConstraints critical with cA TRUE and a pathLenConstraint that
    /// the CAs below keep, keyUsage with keyCertSign, no critical extension RFC 5280 does not define,
    /// and its name constraints applied to every certificate below it.
    static func anchorViolations(_ anchor: Parsed, below: [Parsed], time: Date) -> [(failures: [FailureClass], rule: String)] {
        var found: [(failures: [FailureClass], rule: String)] = []
        if let notBefore = anchor.notBefore, let notAfter = anchor.notAfter {
            var dates: [FailureClass] = []
            if time < notBefore { dates.append(.notYetValid) }
            if time > notAfter { dates.append(.expired) }
            if notAfter < notBefore { dates = [.expired, .notYetValid] }
            if !dates.isEmpty { found.append((dates + [.untrusted], anchorValidity.reference)) }
        }
        if anchor.isCA != true || anchor.criticality[basicConstraintsOID] != true || !anchor.keyUsageAllowsCertSign {
            found.append(([.notCA, .untrusted, .malformed, .other], anchorCA.reference))
        }
        // CAs below the anchor, the self-issued ones not counted (RFC 5280 §6.1.4(l)).
        let intermediates = below.dropFirst().filter { $0.subject != $0.issuer }.count
        if let limit = anchor.pathLength, intermediates > limit {
            found.append(([.pathLengthExceeded, .untrusted], anchorPathLength.reference))
        }
        if anchor.criticality.contains(where: { $0.value && !recognisedExtensions.contains($0.key) }) {
            found.append(([.other, .untrusted], anchorCritical.reference))
        }
        return found
    }

    /// The extensions RFC 5280 §4.2 defines for certificates, and authorityInfoAccess (§4.2.2.1).
    static let recognisedExtensions: Set<String> = [
        "2.5.29.14", "2.5.29.15", "2.5.29.17", "2.5.29.18", "2.5.29.19", "2.5.29.30", "2.5.29.31", "2.5.29.32",
        "2.5.29.33", "2.5.29.35", "2.5.29.36", "2.5.29.37", "2.5.29.46", "2.5.29.54", "2.5.29.9", "1.3.6.1.5.5.7.1.1", "1.3.6.1.5.5.7.1.11",
    ]
    static let authorityKeyIdentifierOID = "2.5.29.35"
    static let basicConstraintsOID = "2.5.29.19"
    static let keyUsageOID = "2.5.29.15"
    static let subjectAltNameOID = "2.5.29.17"
    static let nameConstraintsOID = "2.5.29.30"

    /// Whether every key of the path is permitted: the leaf's (also when it is the anchor: BR §6.1.5
    /// binds every subscriber key), each CA's, and the anchor's.
    static func keysConform(_ path: [Parsed]) -> Bool {
        path.allSatisfy { $0.key.permitted }
    }

    /// Whether every signature below the anchor is a permitted algorithm for the issuer's key:
    /// RSASSA-PKCS1-v1_5 or RSASSA-PSS with SHA-256, SHA-384 or SHA-512 by an RSA key (of any size:
    /// the size is the key rule's), ECDSA with the hash the issuer's curve calls for (any SHA-2
    /// ECDSA for a curve the rules do not list, which the key rule refuses), and nothing else (no
    /// Ed25519, no DSA). The anchor's self-signature is not processed.
    static func signaturesConform(_ path: [Parsed]) -> Bool {
        for index in 0..<(path.count - 1) {
            guard let hash = path[index].signatureHash else { return false }
            switch path[index + 1].key {
            case .rsa: if !["sha256", "sha384", "sha512", "pss"].contains(hash) { return false }
            case .ec(let curve):
                if let wanted = ["P-256": "ecdsa-sha256", "P-384": "ecdsa-sha384", "P-521": "ecdsa-sha512"][curve] {
                    if hash != wanted { return false }
                } else if !["ecdsa-sha256", "ecdsa-sha384", "ecdsa-sha512"].contains(hash) {
                    return false
                }
            case .other: return false
            }
        }
        return true
    }

    enum Key: Equatable {
        case rsa(bits: Int), ec(String), other(String)

        var permitted: Bool {
            switch self {
            case .rsa(let bits): bits >= 2048 && bits % 8 == 0
            case .ec(let curve): ["P-256", "P-384", "P-521"].contains(curve)
            case .other: false
            }
        }
    }

    /// The fields the rules read, from a certificate's DER.
    struct Parsed {
        var der: [UInt8]
        var issuer: [UInt8]
        var subject: [UInt8]
        var key: Key
        /// `sha256`, `pss`, `ecdsa-sha256`, ...; nil for an algorithm the rules do not permit.
        var signatureHash: String?
        var extendedKeyUsage: [String]?
        var hasSubjectAltName: Bool
        var isCA: Bool?
        /// 0 for v1, 2 for v3.
        var version: Int
        var serialIsPositive: Bool
        var serialOctets: Int
        var subjectIsEmpty: Bool
        /// Each extension present, by dotted OID: whether it is marked critical.
        var criticality: [String: Bool]
        var notBefore: Date?
        var notAfter: Date?
        /// Whether keyUsage is present and asserts keyCertSign.
        var keyUsageAllowsCertSign = false
        var pathLength: Int?
        var nameConstraints: WebPKINameConstraints.Subtrees?
        /// The subjectAltName's names (empty without one).
        var alternativeNames: [WebPKINameConstraints.Name] = []
        /// The subject's RDNs, each as encoded, and its emailAddress values.
        var subjectRDNs: [[UInt8]] = []
        var subjectEmails: [String] = []
        /// subjectKeyIdentifier's octets, when present and readable.
        var subjectKeyIdentifier: [UInt8]?
        /// authorityKeyIdentifier's keyIdentifier ([0]), when present.
        var authorityKeyIdentifier: [UInt8]?
        /// Whether authorityKeyIdentifier carries authorityCertIssuer ([1]) or authorityCertSerialNumber ([2]).
        var authorityKeyNamesIssuer = false

        init?(_ der: [UInt8]) {
            guard let tree = try? DERTree(der[...]), let parts = tree.children, parts.count == 3, let tbs = parts[0].children else { return nil }
            let offset = tbs.first?.tag == 0xA0 ? 1 : 0
            guard tbs.count >= offset + 6 else { return nil }
            self.der = der
            version = offset == 1 ? Int(tbs[0].children?.first?.content.last ?? 0) : 0
            let serial = tbs[offset].content
            serialOctets = serial.count
            serialIsPositive = (serial.first.map { $0 & 0x80 == 0 } ?? false) && serial.contains { $0 != 0 }
            issuer = tbs[offset + 2].encoded
            subject = tbs[offset + 4].encoded
            subjectIsEmpty = tbs[offset + 4].children?.isEmpty ?? true
            subjectRDNs = (tbs[offset + 4].children ?? []).map(\.encoded)
            for rdn in tbs[offset + 4].children ?? [] {
                for attribute in rdn.children ?? [] where attribute.children?.count == 2 && DERTree.dotted(attribute.children![0].content) == "1.2.840.113549.1.9.1" {
                    subjectEmails.append(String(decoding: attribute.children![1].content, as: UTF8.self))
                }
            }
            if let times = tbs[offset + 3].children, times.count == 2 {
                notBefore = Self.date(times[0])
                notAfter = Self.date(times[1])
            }
            let spki = tbs[offset + 5]
            key = Self.key(spki)
            let algorithm = parts[1].children?.first.map { DERTree.dotted($0.content) } ?? ""
            signatureHash = [
                "1.2.840.113549.1.1.11": "sha256", "1.2.840.113549.1.1.12": "sha384", "1.2.840.113549.1.1.13": "sha512",
                "1.2.840.113549.1.1.10": "pss",
                "1.2.840.10045.4.3.2": "ecdsa-sha256", "1.2.840.10045.4.3.3": "ecdsa-sha384", "1.2.840.10045.4.3.4": "ecdsa-sha512",
            ][algorithm]
            var ekus: [String]?
            var san = false
            var ca: Bool?
            var criticality: [String: Bool] = [:]
            for (oid, critical, inner) in parts[0].certificateExtensions {
                criticality[oid] = critical
                switch oid {
                case "2.5.29.37": ekus = inner?.children?.map { DERTree.dotted($0.content) } ?? []
                case "2.5.29.17":
                    san = true
                    alternativeNames = (inner?.children ?? []).map(WebPKINameConstraints.Name.init)
                case "2.5.29.19":
                    ca = inner?.children?.first.map { $0.tag == 0x01 && $0.content.first.map { $0 != 0 } == true } ?? false
                    if let last = inner?.children?.last, last.tag == 0x02, last.content.count <= 4 {
                        pathLength = last.content.reduce(0) { $0 << 8 | Int($1) }
                    }
                case "2.5.29.15":
                    // KeyUsage BIT STRING: keyCertSign is bit 5 of the first octet after the unused-bits count.
                    if let bits = inner, bits.tag == 0x03, bits.content.count > 1 { keyUsageAllowsCertSign = bits.content[1] & 0x04 != 0 }
                case "2.5.29.30": nameConstraints = inner.flatMap(WebPKINameConstraints.Subtrees.init)
                case "2.5.29.14": if let octets = inner, octets.tag == 0x04 { subjectKeyIdentifier = Array(octets.content) }
                case "2.5.29.35":
                    for field in inner?.children ?? [] {
                        if field.tag == 0x80 { authorityKeyIdentifier = Array(field.content) }
                        if field.tag == 0xA1 || field.tag == 0x82 { authorityKeyNamesIssuer = true }
                    }
                default: break
                }
            }
            extendedKeyUsage = ekus
            hasSubjectAltName = san
            isCA = ca
            self.criticality = criticality
        }

        /// A UTCTime (RFC 5280 §4.1.2.5.1: YY below 50 is 20YY) or GeneralizedTime, Zulu.
        static func date(_ element: DERTree) -> Date? {
            let text = String(decoding: element.content, as: UTF8.self)
            var digits = text.hasSuffix("Z") ? String(text.dropLast()) : text
            if element.tag == 0x17, let year = Int(digits.prefix(2)) { digits = (year < 50 ? "20" : "19") + digits }
            guard digits.count == 14, digits.allSatisfy(\.isNumber) else { return nil }
            let parts = [0, 4, 6, 8, 10, 12].enumerated().map { index, start -> Int in
                let length = index == 0 ? 4 : 2
                let from = digits.index(digits.startIndex, offsetBy: start)
                return Int(digits[from..<digits.index(from, offsetBy: length)])!
            }
            var components = DateComponents()
            (components.year, components.month, components.day, components.hour, components.minute, components.second) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: components)
        }

        static func key(_ spki: DERTree) -> Key {
            guard let algorithm = spki.children?.first?.children, let oid = algorithm.first else { return .other("unreadable") }
            switch DERTree.dotted(oid.content) {
            case "1.2.840.113549.1.1.1":
                // The modulus: RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }.
                guard let bits = spki.children?.last, bits.tag == 0x03, bits.content.count > 1,
                      let rsa = try? DERTree(bits.content.dropFirst()), let modulus = rsa.children?.first?.content else { return .other("rsa unreadable") }
                let significant = modulus.drop { $0 == 0 }
                guard let top = significant.first else { return .rsa(bits: 0) }
                return .rsa(bits: (significant.count - 1) * 8 + (8 - top.leadingZeroBitCount))
            case "1.2.840.10045.2.1":
                guard algorithm.count == 2, algorithm[1].tag == 0x06 else { return .other("ec with explicit parameters") }
                // §7.1.3.1.2 fixes the AlgorithmIdentifier (a named curve), not the point's form.
                let curve = ["1.2.840.10045.3.1.7": "P-256", "1.3.132.0.34": "P-384", "1.3.132.0.35": "P-521"][DERTree.dotted(algorithm[1].content)]
                return curve.map(Key.ec) ?? .other("ec curve \(DERTree.dotted(algorithm[1].content))")
            case let other:
                return .other(other)
            }
        }
    }
}

extension VectorManifest {
    /// Derives every entry's answers again: RFC 5280's from `rfc5280` (the stored one where it gives
    /// none), the Web PKI's from the entry's certificates in `folder` at its own time
    /// (``WebPKIRules``). `generate` and `explore --reanswer` both bring the adopted vectors to the
    /// rules this way.
    /// - Throws: ``FileProblem`` for a certificate that is missing or unreadable, or a time that
    ///   does not parse.
    public mutating func deriveAnswers(in folder: URL, rfc5280: (VectorEntry) -> ProfileAnswer?) throws {
        func certificates(_ paths: [String]) throws -> [[UInt8]] {
            try paths.flatMap { path in
                try CertificateFile.decode([UInt8](try FileProblem.contents(of: folder.appendingPathComponent(path))), file: path)
            }
        }
        for index in vectors.indices {
            let entry = vectors[index]
            let first = rfc5280(entry) ?? entry.answer(for: .rfc5280)
            guard let time = Timestamp.parse(entry.time) else { throw FileProblem(file: entry.id, problem: "time \(entry.time) does not parse") }
            let webpki = WebPKIRules.answer(chain: try certificates(entry.chain), anchors: try certificates(entry.anchors), rfc5280: first, time: time)
            vectors[index].setAnswers(rfc5280: first, webpki: webpki)
        }
    }
}
