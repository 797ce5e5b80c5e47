import Foundation
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
    static let leafNameConstraintsRule = "CA/B Forum Baseline Requirements §7.1.2.7.6: a subscriber certificate carries no nameConstraints (strict TLS clients such as pyca/cryptography refuse an end-entity certificate with the extension)"
    static let anchorValidityRule = "Web PKI profile, anchor rule: the anchor's certificate is within its validity period at the validation time (CA/B Forum Baseline Requirements §7.1.2.1 profiles Root CA certificates, validity included; strict TLS clients such as pyca/cryptography check every certificate of the path, the anchor's too)"
    static let anchorCARule = "Web PKI profile, anchor rule: the anchor's certificate is a CA certificate: basicConstraints critical with cA TRUE, keyUsage with keyCertSign (CA/B Forum Baseline Requirements §7.1.2.1.2; strict TLS clients such as pyca/cryptography hold the anchor to the CA profile)"
    static let anchorPathLengthRule = "Web PKI profile, anchor rule: the anchor's pathLenConstraint bounds the CAs below it, as for any CA (RFC 5280 §6.1.4(m); strict TLS clients such as pyca/cryptography process the anchor as a CA of the path)"
    static let anchorCriticalRule = "Web PKI profile, anchor rule: a critical extension the client does not recognise rejects the anchor's certificate, as any certificate's (RFC 5280 §4.2; strict TLS clients such as pyca/cryptography process the anchor as a CA of the path)"
    static let nameConstraintsRule = "Web PKI profile, name constraints: every CA's nameConstraints, the anchor's included, constrain the certificates below it (RFC 5280 §4.2.1.10, §6.1.3(b)-(c)); a wildcard dNSName is within a permitted subtree only when every name it stands for is, and within an excluded one when any is (RFC 5280 §4.2.1.6 leaves wildcards unaddressed; strict TLS clients such as pyca/cryptography decide so)"
    static let signatureRule = "CA/B Forum Baseline Requirements §7.1.3.2: RSASSA-PKCS1-v1_5 or RSASSA-PSS with SHA-256, SHA-384 or SHA-512, or ECDSA with the hash its curve calls for (P-256: SHA-256, P-384: SHA-384, P-521: SHA-512); no SHA-1, no other algorithm"

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
        if leaf.criticality[nameConstraintsOID] != nil {
            failures += [.other, .malformed]
            references.append(leafNameConstraintsRule)
        }
        // Along the path: the one (of those whose names chain byte for byte to an anchor) that
        // breaks the fewest rules decides; a leaf that is itself an anchor is its own path.
        let pool = (chain.dropFirst().compactMap(Parsed.init)).map { (certificate: $0, anchor: false) } + anchors.compactMap(Parsed.init).map { (certificate: $0, anchor: true) }
        let paths = anchors.contains(leafDER) ? [[leaf]] : Self.paths(from: leaf, pool: pool)
        if paths.isEmpty {
            failures += [.untrusted, .other]
            references.append(nameRule)
        } else if let best = paths.map({ violations($0, time: time) }).min(by: { $0.count < $1.count }) {
            for violation in best {
                failures += violation.failures
                references.append(violation.rule)
            }
        }
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
        if !algorithmsConform(path) {
            found.append(([.badSignature, .other, .untrusted, .malformed], keyRule))
            found.append(([.badSignature, .other, .untrusted, .malformed], signatureRule))
        }
        let below = path.count > 1 ? Array(path.dropLast()) : path
        // The CAs: every certificate above the leaf, the anchor included.
        let cas = path.dropFirst()
        if !cas.allSatisfy({ $0.extendedKeyUsage.map { $0.contains(serverAuth) || $0.contains(anyEKU) } ?? true }) {
            found.append(([.purposeMismatch], caEKURule))
        }
        if !below.allSatisfy({ $0.version == 2 }) { found.append(([.malformed, .other], versionRule)) }
        if !below.allSatisfy({ $0.serialIsPositive && $0.serialOctets <= 20 }) { found.append(([.malformed, .other], serialRule)) }
        if below[0].criticality[authorityKeyIdentifierOID] == nil || below.contains(where: { $0.criticality[authorityKeyIdentifierOID] == true }) {
            found.append(([.malformed, .other], akiRule))
        }
        if !below.dropFirst().allSatisfy({ $0.criticality[basicConstraintsOID] == true && $0.criticality[keyUsageOID] != nil }) {
            found.append(([.notCA, .malformed, .other], caExtensionsRule))
        }
        if let san = below[0].criticality[subjectAltNameOID], san != below[0].subjectIsEmpty {
            found.append(([.malformed, .other, .hostnameMismatch], sanCriticalityRule))
        }
        if path.count > 1, let anchor = path.last {
            found += anchorViolations(anchor, below: below, time: time)
        }
        // Every CA's name constraints, the anchor's included, over the certificates below it.
        if path.indices.dropFirst().contains(where: { index in
            path[index].nameConstraints.map { !AnchorNameConstraints.allow($0, Array(path[..<index])) } ?? false
        }) {
            found.append(([.other, .untrusted, .hostnameMismatch], nameConstraintsRule))
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
            if !dates.isEmpty { found.append((dates + [.untrusted], anchorValidityRule)) }
        }
        if anchor.isCA != true || anchor.criticality[basicConstraintsOID] != true || !anchor.keyUsageAllowsCertSign {
            found.append(([.notCA, .untrusted, .malformed, .other], anchorCARule))
        }
        // CAs below the anchor, the self-issued ones not counted (RFC 5280 §6.1.4(l)).
        let intermediates = below.dropFirst().filter { $0.subject != $0.issuer }.count
        if let limit = anchor.pathLength, intermediates > limit {
            found.append(([.pathLengthExceeded, .untrusted], anchorPathLengthRule))
        }
        if anchor.criticality.contains(where: { $0.value && !recognisedExtensions.contains($0.key) }) {
            found.append(([.other, .untrusted], anchorCriticalRule))
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
        var notBefore: Date?
        var notAfter: Date?
        /// Whether keyUsage is present and asserts keyCertSign.
        var keyUsageAllowsCertSign = false
        var pathLength: Int?
        var nameConstraints: AnchorNameConstraints.Subtrees?
        /// The subjectAltName's names (empty without one).
        var alternativeNames: [AnchorNameConstraints.Name] = []
        /// The subject's RDNs, each as encoded, and its emailAddress values.
        var subjectRDNs: [[UInt8]] = []
        var subjectEmails: [String] = []

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
                    alternativeNames = (inner?.children ?? []).map(AnchorNameConstraints.Name.init)
                case "2.5.29.19":
                    ca = inner?.children?.first.map { $0.tag == 0x01 && $0.content.first.map { $0 != 0 } == true } ?? false
                    if let last = inner?.children?.last, last.tag == 0x02, last.content.count <= 4 {
                        pathLength = last.content.reduce(0) { $0 << 8 | Int($1) }
                    }
                case "2.5.29.15":
                    // KeyUsage BIT STRING: keyCertSign is bit 5 of the first octet after the unused-bits count.
                    if let bits = inner, bits.tag == 0x03, bits.content.count > 1 { keyUsageAllowsCertSign = bits.content[1] & 0x04 != 0 }
                case "2.5.29.30": nameConstraints = inner.flatMap(AnchorNameConstraints.Subtrees.init)
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
