import TrustCore

/// The Web PKI profile's answer on a chain, from the certificates themselves: the RFC 5280 answer,
/// and where that trusts (or leaves open) a chain, the rules of the CA/Browser Forum's Baseline
/// Requirements (version 2.0 and later) a TLS client enforces on the certification path. The same
/// rules answer every vector, the catalogue's and the explored ones, so no vector needs its own.
///
/// A path here is a chain of names from the leaf through presented certificates to an anchor (the
/// subject of each is the issuer of the one below); when several exist, the chain conforms when one
/// of them does. Certificates that cannot be read keep the RFC 5280 answer (which rejects them).
public enum WebPKIRules {
    static let ekuRule = "CA/B Forum Baseline Requirements §7.1.2.7.10: a subscriber certificate's extKeyUsage MUST be present and include id-kp-serverAuth; anyExtendedKeyUsage MUST NOT be present"
    static let sanRule = "CA/B Forum Baseline Requirements §7.1.2.7.12: a subscriber certificate MUST contain subjectAltName"
    static let caRule = "CA/B Forum Baseline Requirements §7.1.2.7.8: a subscriber certificate's basicConstraints, when present, MUST NOT assert cA TRUE"
    static let caEKURule = "CA/B Forum Baseline Requirements §7.1.2.10.6 and §7.1.2.2.6: a subordinate CA that issues TLS server certificates includes id-kp-serverAuth in its extKeyUsage; TLS clients enforce it on the path"
    static let nameRule = "CA/B Forum Baseline Requirements §7.1.4.1: each certificate's issuer name is byte for byte the subject name of its issuing CA's certificate; no such path reaches an anchor"
    static let versionRule = "CA/B Forum Baseline Requirements §7.1.1 and §7.1.2: certificates are version 3"
    static let serialRule = "CA/B Forum Baseline Requirements §7.1.2.7 and §7.1.2.10: serialNumber greater than zero and less than 2^159 (at most 20 octets)"
    static let akiRule = "CA/B Forum Baseline Requirements §7.1.2.7.6 and §7.1.2.11.1: a subscriber certificate carries authorityKeyIdentifier, never critical (nor on a CA)"
    static let caExtensionsRule = "CA/B Forum Baseline Requirements §7.1.2.10.2, §7.1.2.10.4 and §7.1.2.10.7: a subordinate CA certificate carries basicConstraints, critical, and keyUsage"
    static let sanCriticalityRule = "CA/B Forum Baseline Requirements §7.1.2.7.12: subjectAltName is critical exactly when the subject is empty"
    static let keyRule = "CA/B Forum Baseline Requirements §6.1.5 and §7.1.3.1: RSA keys of at least 2048 bits (modulus a multiple of 8), or ECDSA keys on P-256, P-384 or P-521; no other key types (no Ed25519)"
    static let signatureRule = "CA/B Forum Baseline Requirements §7.1.3.2: RSASSA-PKCS1-v1_5 or RSASSA-PSS with SHA-256, SHA-384 or SHA-512, or ECDSA with the hash its curve calls for (P-256: SHA-256, P-384: SHA-384, P-521: SHA-512); no SHA-1, no other algorithm"

    /// What the Web PKI calls for on `chain` (leaf first) under `anchors`, given RFC 5280's answer.
    /// A rejection by RFC 5280 stands (the Web PKI adds to RFC 5280, it removes nothing).
    public static func answer(chain: [[UInt8]], anchors: [[UInt8]], rfc5280: ProfileAnswer) -> ProfileAnswer {
        guard rfc5280.open != nil || rfc5280.expected.trusted, let leafDER = chain.first, let leaf = Parsed(leafDER) else { return rfc5280 }
        var failures: [FailureClass] = []
        var references: [String] = []
        // The leaf's purpose, names and basic constraints.
        let ekus = leaf.extendedKeyUsage ?? []
        if !ekus.contains(serverAuth) || ekus.contains(anyEKU) {
            failures += [.purposeMismatch]
            references.append(ekuRule)
        }
        if !leaf.hasSubjectAltName {
            failures += [.hostnameMismatch, .other]
            references.append(sanRule)
        }
        if leaf.isCA == true {
            failures += [.purposeMismatch, .other, .notCA]
            references.append(caRule)
        }
        // Along the path: the one (of those whose names chain byte for byte to an anchor) that
        // breaks the fewest rules decides; a leaf that is itself an anchor is its own path.
        let pool = (chain.dropFirst().compactMap(Parsed.init)).map { (certificate: $0, anchor: false) } + anchors.compactMap(Parsed.init).map { (certificate: $0, anchor: true) }
        let paths = anchors.contains(leafDER) ? [[leaf]] : Self.paths(from: leaf, pool: pool)
        if paths.isEmpty {
            failures += [.untrusted, .other]
            references.append(nameRule)
        } else if let best = paths.map(violations).min(by: { $0.count < $1.count }) {
            for violation in best {
                failures += violation.failures
                references.append(violation.rule)
            }
        }
        guard !failures.isEmpty else { return rfc5280 }
        var unique: [FailureClass] = []
        for failure in failures where !unique.contains(failure) { unique.append(failure) }
        return ProfileAnswer(expected: Expectation(trusted: false, failures: unique.sorted()), references: references)
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

    /// The rules `path` (leaf first, anchor last) breaks: keys and signatures, a CA's EKU, and the
    /// encodings and extensions the profiles give every certificate below the anchor.
    static func violations(_ path: [Parsed]) -> [(failures: [FailureClass], rule: String)] {
        var found: [(failures: [FailureClass], rule: String)] = []
        if !algorithmsConform(path) {
            found.append(([.badSignature, .other, .untrusted, .malformed], keyRule))
            found.append(([.badSignature, .other, .untrusted, .malformed], signatureRule))
        }
        let below = path.count > 1 ? Array(path.dropLast()) : path
        let cas = below.dropFirst()
        if !cas.allSatisfy({ $0.extendedKeyUsage.map { $0.contains(serverAuth) || $0.contains(anyEKU) } ?? true }) {
            found.append(([.purposeMismatch], caEKURule))
        }
        if !below.allSatisfy({ $0.version == 2 }) { found.append(([.malformed, .other], versionRule)) }
        if !below.allSatisfy({ $0.serialIsPositive && $0.serialOctets <= 20 }) { found.append(([.malformed, .other], serialRule)) }
        if below[0].criticality["2.5.29.35"] == nil || below.contains(where: { $0.criticality["2.5.29.35"] == true }) {
            found.append(([.malformed, .other], akiRule))
        }
        if !cas.allSatisfy({ $0.criticality["2.5.29.19"] == true && $0.criticality["2.5.29.15"] != nil }) {
            found.append(([.notCA, .malformed, .other], caExtensionsRule))
        }
        if let san = below[0].criticality["2.5.29.17"], san != below[0].subjectIsEmpty {
            found.append(([.malformed, .other, .hostnameMismatch], sanCriticalityRule))
        }
        return found
    }

    /// Whether the leaf and every certificate below the anchor have a permitted key and a permitted
    /// signature by the issuer's key (the anchor's own key signs the top one; its self-signature is
    /// not processed).
    static func algorithmsConform(_ path: [Parsed]) -> Bool {
        // The leaf's own key, also when it is the anchor (BR §6.1.5 binds every subscriber key).
        guard path[0].key.permitted else { return false }
        for index in 0..<(path.count - 1) {
            let certificate = path[index]
            let issuerKey = path[index + 1].key
            guard certificate.key.permitted, issuerKey.permitted else { return false }
            guard let hash = certificate.signatureHash else { return false }
            switch issuerKey {
            case .rsa: if !["sha256", "sha384", "sha512", "pss"].contains(hash) { return false }
            case .ec(let curve):
                let wanted = ["P-256": "ecdsa-sha256", "P-384": "ecdsa-sha384", "P-521": "ecdsa-sha512"][curve]
                if hash != wanted { return false }
            default: return false
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
                case "2.5.29.17": san = true
                case "2.5.29.19": ca = inner?.children?.first.map { $0.tag == 0x01 && $0.content.first.map { $0 != 0 } == true } ?? false
                default: break
                }
            }
            extendedKeyUsage = ekus
            hasSubjectAltName = san
            isCA = ca
            self.criticality = criticality
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
                // §7.1.3.1.2 gives the uncompressed encoding only.
                guard let point = spki.children?.last, point.content.count > 1, point.content[1] == 0x04 else { return .other("ec point not uncompressed") }
                let curve = ["1.2.840.10045.3.1.7": "P-256", "1.3.132.0.34": "P-384", "1.3.132.0.35": "P-521"][DERTree.dotted(algorithm[1].content)]
                return curve.map(Key.ec) ?? .other("ec curve \(DERTree.dotted(algorithm[1].content))")
            case let other:
                return .other(other)
            }
        }
    }
}
