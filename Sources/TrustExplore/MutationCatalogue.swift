import Foundation
import TrustVectors

/// Every mutation the explorer draws from, by family. Each changes one property; the certificate
/// (or CRL, or OCSP response) is then re-signed (``MutantDraft/renderAll(keys:)``), so only that
/// property differs.
public enum MutationCatalogue {
    public static let all: [Mutation] =
        validity + basicConstraints + keyUsage + extendedKeyUsage + names + nameConstraints
        + nameEncodings + keyIdentifiers + extensions + versions + serials + signatures + chains
        + policies + revocationPointers + extensionEncodings + identifierForms + hostCharacters + constraintTypes
        + crls + ocspMutations

    static let anyCertificate: [ChainModel.Role] = [.leaf, .intermediate, .root]
    static let authorities: [ChainModel.Role] = [.intermediate, .root]
    static let issued: [ChainModel.Role] = [.leaf, .intermediate]

    // MARK: Validity times and their encodings

    static let validity: [Mutation] = [
        Mutation("validity/generalized-time-before-2050", anyCertificate, "both times as GeneralizedTime although before 2050 (RFC 5280 §4.1.2.5: UTCTime)") { d, n in
            Edit.validity(&d, n) { date, _ in Edit.generalizedTime(date) }
        },
        Mutation("validity/utctime-without-seconds", anyCertificate, "UTCTime without seconds (YYMMDDHHMMZ), which RFC 5280 §4.1.2.5.1 forbids") { d, n in
            Edit.validity(&d, n) { date, _ in Edit.utcTime(date, format: "yyMMddHHmm'Z'") }
        },
        Mutation("validity/generalized-time-fraction", anyCertificate, "GeneralizedTime with fractional seconds (RFC 5280 §4.1.2.5.2: MUST NOT)") { d, n in
            Edit.validity(&d, n) { date, _ in Edit.generalizedTime(date, format: "yyyyMMddHHmmss'.5Z'") }
        },
        Mutation("validity/utctime-offset", anyCertificate, "UTCTime with a +0000 offset instead of Z") { d, n in
            Edit.validity(&d, n) { date, _ in Edit.utcTime(date, format: "yyMMddHHmmss'+0000'") }
        },
        Mutation("validity/generalized-time-local", anyCertificate, "GeneralizedTime without Z (local time)") { d, n in
            Edit.validity(&d, n) { date, _ in Edit.generalizedTime(date, format: "yyyyMMddHHmmss") }
        },
        Mutation("validity/not-after-2050-utctime", anyCertificate, "notAfter 2050-01-01 written as UTCTime 500101000000Z, which means 1950: expired") { d, n in
            Edit.validity(&d, n) { _, isNotAfter in isNotAfter ? .primitive(0x17, Array("500101000000Z".utf8)) : nil }
        },
        Mutation("validity/not-after-9999", anyCertificate, "notAfter 99991231235959Z (no well-defined expiration, RFC 5280 §4.1.2.5)") { d, n in
            Edit.validity(&d, n) { _, isNotAfter in isNotAfter ? .primitive(0x18, Array("99991231235959Z".utf8)) : nil }
        },
        Mutation("validity/expired", anyCertificate, "notAfter one day before the validation time") { d, n in
            let time = d.model.time
            return Edit.validity(&d, n) { _, isNotAfter in Edit.utcTime(time.addingTimeInterval(isNotAfter ? -86_400 : -86_400 * 30)) }
        },
        Mutation("validity/not-yet-valid", anyCertificate, "notBefore one day after the validation time") { d, n in
            let time = d.model.time
            return Edit.validity(&d, n) { _, isNotAfter in Edit.utcTime(time.addingTimeInterval(isNotAfter ? 86_400 * 30 : 86_400)) }
        },
        Mutation("validity/inverted", anyCertificate, "notBefore after notAfter, the validation time between them") { d, n in
            let time = d.model.time
            return Edit.validity(&d, n) { _, isNotAfter in Edit.utcTime(time.addingTimeInterval(isNotAfter ? -86_400 : 86_400)) }
        },
    ]

    // MARK: basicConstraints

    static func bc(_ children: [DERTree]) -> DERTree { DER.sequence(children) }

    static let basicConstraints: [Mutation] = [
        Mutation("basicConstraints/absent", anyCertificate, "no basicConstraints extension") { d, n in d.removeExtension(n, Edit.basicConstraints) },
        Mutation("basicConstraints/ca-false-explicit", anyCertificate, "cA FALSE encoded although it is the DEFAULT (DER forbids it)") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(false)])); return true
        },
        Mutation("basicConstraints/empty", anyCertificate, "basicConstraints with an empty SEQUENCE: cA false") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([])); return true
        },
        Mutation("basicConstraints/non-critical", authorities, "cA TRUE in a non-critical extension (RFC 5280 §4.2.1.9: MUST be critical in CA certificates)") { d, n in
            guard let value = d.extensionValue(n, Edit.basicConstraints) else { return false }
            d.setExtension(n, Edit.basicConstraints, critical: false, value: value); return true
        },
        Mutation("basicConstraints/ca-true-ber-boolean", authorities, "cA TRUE encoded as 0x01 (BER; DER requires 0xFF)") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([.primitive(0x01, [0x01])])); return true
        },
        Mutation("basicConstraints/pathlen-0", authorities, "pathLenConstraint 0") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(true), DER.integer(0)])); return true
        },
        Mutation("basicConstraints/pathlen-negative", authorities, "pathLenConstraint -1") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(true), DER.integer(-1)])); return true
        },
        Mutation("basicConstraints/pathlen-non-minimal", authorities, "pathLenConstraint 5 encoded in two octets (00 05)") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(true), .primitive(0x02, [0x00, 0x05])])); return true
        },
        Mutation("basicConstraints/pathlen-huge", authorities, "pathLenConstraint 2^40") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(true), DER.integer(1 << 40)])); return true
        },
        Mutation("basicConstraints/pathlen-without-ca", [.leaf], "pathLenConstraint 0 with cA FALSE (RFC 5280 §4.2.1.9: MUST NOT)") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.integer(0)])); return true
        },
        Mutation("basicConstraints/leaf-is-ca", [.leaf], "the leaf asserts cA TRUE") { d, n in
            d.setExtension(n, Edit.basicConstraints, critical: true, value: bc([DER.boolean(true)])); return true
        },
    ]

    // MARK: keyUsage

    static let usageNames = ["digitalSignature", "contentCommitment", "keyEncipherment", "dataEncipherment", "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]

    static let keyUsage: [Mutation] = [
        Mutation("keyUsage/absent", anyCertificate, "no keyUsage extension") { d, n in d.removeExtension(n, Edit.keyUsage) },
        Mutation("keyUsage/empty", anyCertificate, "keyUsage with no bit set (RFC 5280 §4.2.1.3: at least one MUST be)") { d, n in
            d.setExtension(n, Edit.keyUsage, critical: true, value: .primitive(0x03, [0])); return true
        },
        Mutation("keyUsage/non-critical", anyCertificate, "keyUsage not critical") { d, n in
            guard let value = d.extensionValue(n, Edit.keyUsage) else { return false }
            d.setExtension(n, Edit.keyUsage, critical: false, value: value); return true
        },
        Mutation("keyUsage/padding-bits-set", anyCertificate, "keyUsage whose unused bits are not zero") { d, n in
            guard var value = d.extensionValue(n, Edit.keyUsage), value.content.count >= 2, value.content[0] > 0 else { return false }
            value.content[value.content.count - 1] |= 0x01
            d.setExtension(n, Edit.keyUsage, critical: true, value: value); return true
        },
        Mutation("keyUsage/trailing-zero-octet", anyCertificate, "keyUsage with a trailing zero octet (not DER)") { d, n in
            guard var value = d.extensionValue(n, Edit.keyUsage), value.content.count >= 2 else { return false }
            value.content[0] = 0
            value.content.append(0)
            d.setExtension(n, Edit.keyUsage, critical: true, value: value); return true
        },
    ] + usageNames.enumerated().map { bit, name in
        Mutation("keyUsage/only-\(name)", anyCertificate, "keyUsage with \(name) alone") { d, n in
            d.setExtension(n, Edit.keyUsage, critical: true, value: DER.namedBits([bit])); return true
        }
    }

    // MARK: extendedKeyUsage

    static let purposes: [(String, String)] = [
        ("serverAuth", "1.3.6.1.5.5.7.3.1"), ("clientAuth", "1.3.6.1.5.5.7.3.2"), ("codeSigning", "1.3.6.1.5.5.7.3.3"),
        ("OCSPSigning", "1.3.6.1.5.5.7.3.9"), ("anyExtendedKeyUsage", "2.5.29.37.0"), ("unknown", "1.3.6.1.4.1.55738.666.2"),
        // Obsolete and vendor purposes: Netscape and Microsoft Server Gated Crypto (step-up).
        ("netscapeSGC", "2.16.840.1.113730.4.1"), ("microsoftSGC", "1.3.6.1.4.1.311.10.3.3"),
    ]

    static let extendedKeyUsage: [Mutation] = [
        Mutation("extendedKeyUsage/absent", anyCertificate, "no extendedKeyUsage extension") { d, n in d.removeExtension(n, Edit.extendedKeyUsage) },
        Mutation("extendedKeyUsage/empty", anyCertificate, "extendedKeyUsage with no purpose (RFC 5280: SIZE (1..MAX))") { d, n in
            d.setExtension(n, Edit.extendedKeyUsage, critical: false, value: DER.sequence([])); return true
        },
        Mutation("extendedKeyUsage/serverAuth-critical", anyCertificate, "extendedKeyUsage serverAuth, critical") { d, n in
            d.setExtension(n, Edit.extendedKeyUsage, critical: true, value: DER.sequence([DER.oid("1.3.6.1.5.5.7.3.1")])); return true
        },
        Mutation("extendedKeyUsage/serverAuth-and-any", anyCertificate, "extendedKeyUsage serverAuth and anyExtendedKeyUsage") { d, n in
            d.setExtension(n, Edit.extendedKeyUsage, critical: false, value: DER.sequence([DER.oid("1.3.6.1.5.5.7.3.1"), DER.oid("2.5.29.37.0")])); return true
        },
    ] + purposes.map { name, oid in
        Mutation("extendedKeyUsage/only-\(name)", anyCertificate, "extendedKeyUsage with \(name) alone") { d, n in
            d.setExtension(n, Edit.extendedKeyUsage, critical: false, value: DER.sequence([DER.oid(oid)])); return true
        }
    }

    // MARK: subjectAltName and commonName forms, against the host

    static func sanName(_ name: String, _ summary: String, _ make: @escaping @Sendable (String, [String]) -> String?) -> Mutation {
        Mutation("subjectAltName/\(name)", [.leaf], summary) { d, n in
            guard let (host, labels) = Edit.dnsHost(d), let value = make(host, labels) else { return false }
            return Edit.san(&d, n, [Edit.dns(value)])
        }
    }

    /// Whether the certificate at `node` names a wildcard dNSName (which a changed host may still match).
    static func hasWildcardName(_ d: MutantDraft, _ node: Int) -> Bool {
        guard let san = d.extensionValue(node, Edit.subjectAltName) else { return false }
        return (san.children ?? []).contains { $0.tag == 0x82 && $0.content.first == UInt8(ascii: "*") }
    }

    static func hostChange(_ name: String, _ summary: String, _ make: @escaping @Sendable (String) -> String) -> Mutation {
        Mutation("host/\(name)", [.leaf], summary) { d, n in
            // A wildcard name covers a sibling host: the mutation is then no mismatch.
            guard let (host, _) = Edit.dnsHost(d), !hasWildcardName(d, n) else { return false }
            d.host = make(host)
            return true
        }
    }

    static let names: [Mutation] = [
        sanName("wildcard-leftmost", "dNSName *.<parent of the host>") { _, l in "*." + l.dropFirst().joined(separator: ".") },
        sanName("wildcard-partial-prefix", "dNSName with a partial wildcard label f*.<parent> (RFC 9525 §6.3: need not match)") { _, l in "\(l[0].prefix(1))*." + l.dropFirst().joined(separator: ".") },
        sanName("wildcard-partial-suffix", "dNSName with a partial wildcard label *xy.<parent>") { _, l in "*\(l[0].dropFirst())." + l.dropFirst().joined(separator: ".") },
        sanName("wildcard-middle-label", "dNSName with the wildcard in the second label") { _, l in "\(l[0]).*." + l.dropFirst(2).joined(separator: ".") },
        sanName("wildcard-two-labels", "dNSName *.*.<tld>") { _, l in "*.*." + l.dropFirst(2).joined(separator: ".") },
        sanName("wildcard-alone", "dNSName *") { _, _ in "*" },
        sanName("wildcard-double-star", "dNSName **.<parent>") { _, l in "**." + l.dropFirst().joined(separator: ".") },
        sanName("wildcard-on-tld", "dNSName *.<tld> (one label under the wildcard)") { _, l in "*." + l.last! },
        sanName("uppercase", "dNSName in upper case (RFC 9525: case-insensitive)") { h, _ in h.uppercased() },
        sanName("trailing-dot", "dNSName with a trailing dot") { h, _ in h + "." },
        sanName("leading-dot", "dNSName with a leading dot") { h, _ in "." + h },
        sanName("empty", "an empty dNSName") { _, _ in "" },
        sanName("embedded-nul", "dNSName <host>\\0.evil.test") { h, _ in h + "\u{0}.evil.test" },
        sanName("trailing-space", "dNSName with a trailing space") { h, _ in h + " " },
        sanName("utf8-label", "dNSName with a UTF-8 label (IA5String holds ASCII only)") { _, l in "wäw." + l.dropFirst().joined(separator: ".") },
        sanName("idna-label", "dNSName with an A-label (xn--) that is not the host") { _, l in "xn--ww-fka." + l.dropFirst().joined(separator: ".") },
        Mutation("subjectAltName/ip-as-dns", [.leaf], "dNSName 127.0.0.1 and the host 127.0.0.1 (an IP must match an iPAddress)") { d, n in
            d.host = "127.0.0.1"
            return Edit.san(&d, n, [Edit.dns("127.0.0.1")])
        },
        Mutation("subjectAltName/ipv4-mapped-ipv6", [.leaf], "iPAddress ::ffff:127.0.0.1 and the host 127.0.0.1") { d, n in
            d.host = "127.0.0.1"
            return Edit.san(&d, n, [Edit.ip([UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1])])
        },
        Mutation("subjectAltName/ip-five-octets", [.leaf], "an iPAddress of five octets, the host 127.0.0.1") { d, n in
            d.host = "127.0.0.1"
            return Edit.san(&d, n, [Edit.ip([127, 0, 0, 1, 0])])
        },
        Mutation("subjectAltName/ip-and-dns", [.leaf], "iPAddress 127.0.0.1 and the host's dNSName; the host 127.0.0.1") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            d.host = "127.0.0.1"
            return Edit.san(&d, n, [Edit.dns(host), Edit.ip([127, 0, 0, 1])])
        },
        Mutation("subjectAltName/othername-and-dns", [.leaf], "an otherName (a UPN) beside the host's dNSName") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            let upn = DERTree.constructed(0xA0, [DER.oid("1.3.6.1.4.1.311.20.2.3"), .constructed(0xA0, [DER.utf8("admin@" + host)])])
            return Edit.san(&d, n, [upn, Edit.dns(host)])
        },
        Mutation("subjectAltName/empty-sequence", [.leaf], "subjectAltName with no names (RFC 5280: SIZE (1..MAX))") { d, n in Edit.san(&d, n, []) },
        Mutation("subjectAltName/critical", [.leaf], "subjectAltName critical, subject kept") { d, n in
            guard let value = d.extensionValue(n, Edit.subjectAltName) else { return false }
            d.setExtension(n, Edit.subjectAltName, critical: true, value: value); return true
        },
        Mutation("subjectAltName/uri-only-cn-host", [.leaf], "subjectAltName with a URI only; the commonName is the host") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            d[n, .subject] = Edit.name(commonName: host)
            return Edit.san(&d, n, [Edit.uri("https://\(host)/")])
        },
        Mutation("subjectAltName/email-only-cn-host", [.leaf], "subjectAltName with an rfc822Name only; the commonName is the host") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            d[n, .subject] = Edit.name(commonName: host)
            return Edit.san(&d, n, [Edit.email("admin@\(host)")])
        },
        Mutation("subjectAltName/absent-cn-host", [.leaf], "no subjectAltName; the commonName is the host (RFC 9525 §6.3: no CN fallback)") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            d[n, .subject] = Edit.name(commonName: host)
            return d.removeExtension(n, Edit.subjectAltName) || true
        },
        Mutation("subjectAltName/absent-cn-wildcard", [.leaf], "no subjectAltName; the commonName is *.<parent>") { d, n in
            guard let (_, labels) = Edit.dnsHost(d) else { return false }
            d[n, .subject] = Edit.name(commonName: "*." + labels.dropFirst().joined(separator: "."))
            return d.removeExtension(n, Edit.subjectAltName) || true
        },
        Mutation("subjectAltName/empty-subject-non-critical", [.leaf], "an empty subject with a non-critical subjectAltName (RFC 5280 §4.2.1.6: MUST be critical)") { d, n in
            guard let value = d.extensionValue(n, Edit.subjectAltName) else { return false }
            d[n, .subject] = DER.sequence([])
            d.setExtension(n, Edit.subjectAltName, critical: false, value: value); return true
        },
        hostChange("uppercase", "the host in upper case") { $0.uppercased() },
        hostChange("trailing-dot", "the host with a trailing dot (an absolute name)") { $0 + "." },
        hostChange("sibling", "a host in the same parent domain") { host in "other." + host.split(separator: ".").dropFirst().joined(separator: ".") },
        hostChange("subdomain", "a host one label below the certified name") { "a." + $0 },
    ]

    // MARK: nameConstraints

    static func nc(_ name: String, roles: [ChainModel.Role] = authorities, critical: Bool = true, _ summary: String, _ make: @escaping @Sendable (MutantDraft) -> DERTree?) -> Mutation {
        Mutation("nameConstraints/\(name)", roles, summary) { d, n in
            guard let value = make(d) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: critical, value: value); return true
        }
    }

    static func parent(_ d: MutantDraft) -> String? {
        Edit.dnsHost(d).map { $0.labels.dropFirst().joined(separator: ".") }
    }

    static let nameConstraints: [Mutation] = [
        nc("permitted-dns-parent", "permitted dNSName <parent of the host>") { d in parent(d).map { Edit.nameConstraints(permitted: [Edit.dns($0)]) } },
        nc("permitted-dns-other", "permitted dNSName other.test only") { d in Edit.dnsHost(d).map { _ in Edit.nameConstraints(permitted: [Edit.dns("other.test")]) } },
        nc("excluded-dns-parent", "excluded dNSName <parent of the host>") { d in parent(d).map { Edit.nameConstraints(permitted: nil, excluded: [Edit.dns($0)]) } },
        nc("permitted-dns-leading-dot", "permitted dNSName .<parent> (leading dot)") { d in parent(d).map { Edit.nameConstraints(permitted: [Edit.dns("." + $0)]) } },
        nc("permitted-dns-uppercase", "permitted dNSName <PARENT> in upper case") { d in parent(d).map { Edit.nameConstraints(permitted: [Edit.dns($0.uppercased())]) } },
        nc("permitted-dns-host-exact", "permitted dNSName equal to the host") { d in Edit.dnsHost(d).map { Edit.nameConstraints(permitted: [Edit.dns($0.host)]) } },
        nc("permitted-dns-empty", "permitted dNSName \"\" (every name)") { d in Edit.dnsHost(d).map { _ in Edit.nameConstraints(permitted: [Edit.dns("")]) } },
        nc("excluded-dns-empty", "excluded dNSName \"\" (every DNS name)") { d in Edit.dnsHost(d).map { _ in Edit.nameConstraints(permitted: nil, excluded: [Edit.dns("")]) } },
        nc("permitted-ip-only", "permitted iPAddress 10.0.0.0/8 only: DNS names unconstrained") { _ in Edit.nameConstraints(permitted: [Edit.ip([10, 0, 0, 0, 255, 0, 0, 0])]) },
        nc("excluded-ip-all", "excluded iPAddress 0.0.0.0/0") { _ in Edit.nameConstraints(permitted: nil, excluded: [Edit.ip([0, 0, 0, 0, 0, 0, 0, 0])]) },
        nc("permitted-email-only", "permitted rfc822Name other.test only: DNS names unconstrained") { _ in Edit.nameConstraints(permitted: [Edit.email("other.test")]) },
        nc("permitted-dirname-other", "permitted directoryName O=Other: the leaf's subject is outside") { _ in
            Edit.nameConstraints(permitted: [Edit.directoryName(DER.sequence([DER.set([DER.sequence([DER.oid("2.5.4.10"), DER.utf8("Other")])])]))])
        },
        nc("permitted-uri-only", "permitted URI other.test only: DNS names unconstrained") { _ in Edit.nameConstraints(permitted: [Edit.uri("other.test")]) },
        nc("empty", "nameConstraints with neither subtree (RFC 5280 §4.2.1.10: MUST NOT be empty)") { _ in DER.sequence([]) },
        nc("empty-permitted", "permittedSubtrees present and empty") { _ in DER.sequence([.constructed(0xA0, [])]) },
        nc("minimum-one", "permitted dNSName <parent> with minimum 1 (MUST be zero)") { d in parent(d).map { Edit.nameConstraints(permitted: [Edit.dns($0)], minimum: 1) } },
        nc("maximum-set", "permitted dNSName <parent> with maximum 2 (MUST be absent)") { d in parent(d).map { Edit.nameConstraints(permitted: [Edit.dns($0)], maximum: 2) } },
        nc("non-critical-excluded", critical: false, "excluded dNSName <parent>, not critical (MUST be critical)") { d in parent(d).map { Edit.nameConstraints(permitted: nil, excluded: [Edit.dns($0)]) } },
        Mutation("nameConstraints/excluded-dns-cn-only-leaf", authorities, "excluded dNSName <parent>; the leaf has no subjectAltName, the host as commonName") { d, n in
            guard let parent = parent(d), let (host, _) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: nil, excluded: [Edit.dns(parent)]))
            d[leaf, .subject] = Edit.name(commonName: host)
            d.removeExtension(leaf, Edit.subjectAltName)
            return true
        },
        Mutation("nameConstraints/excluded-host-wildcard-leaf", authorities, "excluded dNSName <host>; the leaf's only name is the wildcard *.<parent>, which covers it") { d, n in
            guard let (host, labels) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: nil, excluded: [Edit.dns(host)]))
            return Edit.san(&d, leaf, [Edit.dns("*." + labels.dropFirst().joined(separator: "."))])
        },
        Mutation("nameConstraints/permitted-host-wildcard-leaf", authorities, "permitted dNSName <host> only; the leaf's only name is *.<parent>, which also covers names outside it") { d, n in
            guard let (host, labels) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.dns(host)]))
            return Edit.san(&d, leaf, [Edit.dns("*." + labels.dropFirst().joined(separator: "."))])
        },
        Mutation("nameConstraints/rfc822-against-subject-email", authorities, "permitted rfc822Name other.test; the leaf's subject carries emailAddress admin@<host> beside its subjectAltName (§4.2.1.10 applies an rfc822Name constraint to the subject's emailAddress only when the certificate has no subjectAltName)") { d, n in
            guard let (host, _) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.email("other.test")]))
            var subject = d[leaf, .subject]
            subject.children = (subject.children ?? []) + [DER.set([DER.sequence([DER.oid("1.2.840.113549.1.9.1"), DER.ia5("admin@" + host)])])]
            d[leaf, .subject] = subject
            return true
        },
        nc("on-leaf-excluded", roles: [.leaf], "excluded dNSName <parent> on the leaf itself (MUST appear only in CA certificates)") { d in parent(d).map { Edit.nameConstraints(permitted: nil, excluded: [Edit.dns($0)]) } },
    ]

    // MARK: Name encodings between issuer and subject (the issuer field of this certificate)

    static func issuerName(_ name: String, _ summary: String, _ change: @escaping @Sendable (UInt8, [UInt8]) -> (UInt8, [UInt8])?) -> Mutation {
        Mutation("issuerName/\(name)", issued, summary) { d, n in
            var changed = false
            d[n, .issuer] = Edit.mapValues(d[n, .issuer]) { tag, bytes in
                guard let new = change(tag, bytes) else { return (tag, bytes) }
                changed = changed || new.0 != tag || new.1 != bytes
                return new
            }
            return changed
        }
    }

    static let nameEncodings: [Mutation] = [
        issuerName("printable-to-utf8", "the issuer name's PrintableStrings as UTF8String (RFC 5280 §7.1: compare after normalising)") { tag, bytes in tag == 0x13 ? (0x0C, bytes) : nil },
        issuerName("utf8-to-printable", "the issuer name's UTF8Strings as PrintableString") { tag, bytes in tag == 0x0C ? (0x13, bytes) : nil },
        issuerName("uppercase", "the issuer name's values in upper case (RFC 4518: case-insensitive match)") { tag, bytes in (tag, Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8)) },
        issuerName("extra-spaces", "the issuer name's values with doubled inner and trailing spaces (RFC 4518: insignificant)") { tag, bytes in
            (tag, Array((String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: " ", with: "  ") + " ").utf8))
        },
        issuerName("bmpstring", "the issuer name's values as BMPString") { _, bytes in
            (0x1E, String(decoding: bytes, as: UTF8.self).utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        },
        issuerName("teletex", "the issuer name's values as TeletexString") { _, bytes in (0x14, bytes) },
        Mutation("issuerName/rdns-reversed", issued, "the issuer name's RDNs in reverse order (a different name)") { d, n in
            var name = d[n, .issuer]
            guard let rdns = name.children, rdns.count > 1 else { return false }
            name.children = rdns.reversed()
            d[n, .issuer] = name; return true
        },
        Mutation("issuerName/multi-valued-rdn", issued, "the issuer name's attributes in one multi-valued RDN (a different name)") { d, n in
            var name = d[n, .issuer]
            guard let rdns = name.children, rdns.count > 1 else { return false }
            name.children = [DER.set(rdns.flatMap { $0.children ?? [] })]
            d[n, .issuer] = name; return true
        },
        Mutation("subjectName/empty", [.intermediate], "an intermediate with an empty subject, its children's issuer empty too") { d, n in
            d[n, .subject] = DER.sequence([])
            for child in d.certificates.indices where d.certificates[child].issuer == n && child != n { d[child, .issuer] = DER.sequence([]) }
            return true
        },
    ]

    // MARK: Key identifiers

    static let keyIdentifiers: [Mutation] = [
        Mutation("authorityKeyIdentifier/absent", issued, "no authorityKeyIdentifier (RFC 5280 §4.2.1.1: MUST be present)") { d, n in d.removeExtension(n, Edit.authorityKeyIdentifier) },
        Mutation("authorityKeyIdentifier/mismatch", issued, "an authorityKeyIdentifier that is not the issuer's subjectKeyIdentifier") { d, n in
            d.setExtension(n, Edit.authorityKeyIdentifier, critical: false, value: DER.sequence([.primitive(0x80, [UInt8](repeating: 0xAB, count: 20))])); return true
        },
        Mutation("authorityKeyIdentifier/malformed", issued, "an authorityKeyIdentifier whose value is not a SEQUENCE") { d, n in
            d.setExtension(n, Edit.authorityKeyIdentifier, critical: false, rawValue: [0x04, 0x02, 0xAB, 0xCD]); return true
        },
        Mutation("authorityKeyIdentifier/issuer-and-serial-mismatch", issued, "an authorityKeyIdentifier with authorityCertIssuer and a serial number that name no certificate") { d, n in
            guard let aki = d.extensionValue(n, Edit.authorityKeyIdentifier), let keyID = aki.children?.first(where: { $0.tag == 0x80 }) else { return false }
            let issuer = Edit.directoryName(Edit.name(commonName: "Nobody"))
            d.setExtension(n, Edit.authorityKeyIdentifier, critical: false, value: DER.sequence([keyID, .constructed(0xA1, [issuer]), .primitive(0x82, [0x7F, 0x01])])); return true
        },
        Mutation("authorityKeyIdentifier/critical", issued, "authorityKeyIdentifier marked critical (RFC 5280: MUST NOT)") { d, n in
            guard let value = d.extensionValue(n, Edit.authorityKeyIdentifier) else { return false }
            d.setExtension(n, Edit.authorityKeyIdentifier, critical: true, value: value); return true
        },
        Mutation("subjectKeyIdentifier/absent", authorities, "the issuer has no subjectKeyIdentifier (RFC 5280: MUST for CAs)") { d, n in d.removeExtension(n, Edit.subjectKeyIdentifier) },
        Mutation("subjectKeyIdentifier/mismatch", authorities, "the issuer's subjectKeyIdentifier differs from its children's authorityKeyIdentifier") { d, n in
            d.setExtension(n, Edit.subjectKeyIdentifier, critical: false, value: .primitive(0x04, [UInt8](repeating: 0xCD, count: 20))); return true
        },
    ]

    // MARK: Unknown and duplicate extensions

    static let extensions: [Mutation] = [
        Mutation("extension/unknown-non-critical", anyCertificate, "an unknown non-critical extension") { d, n in
            d.setExtension(n, Edit.unknown, critical: false, value: .primitive(0x05, [])); return true
        },
        Mutation("extension/unknown-critical", anyCertificate, "an unknown critical extension (RFC 5280 §4.2: a certificate-using system that does not recognise it rejects the certificate; an anchor's certificate is not processed, §6.1.1(d))") { d, n in
            d.setExtension(n, Edit.unknown, critical: true, value: .primitive(0x05, [])); return true
        },
        Mutation("extension/duplicate-unknown", anyCertificate, "the same unknown non-critical extension twice (RFC 5280 §4.2: MUST NOT)") { d, n in
            let ext = DER.sequence([DER.oid(Edit.unknown), DER.octetString(.primitive(0x05, []))])
            d.setExtensions(n, d.extensions(n) + [ext, ext]); return true
        },
        Mutation("extension/duplicate-own", anyCertificate, "the certificate's first extension twice") { d, n in
            guard let first = d.extensions(n).first else { return false }
            d.setExtensions(n, d.extensions(n) + [first]); return true
        },
        Mutation("extension/critical-false-explicit", anyCertificate, "an extension with critical FALSE encoded (DEFAULT; DER forbids)") { d, n in
            var list = d.extensions(n)
            guard let index = list.firstIndex(where: { $0.children?.count == 2 }) else { return false }
            list[index].children!.insert(DER.boolean(false), at: 1)
            d.setExtensions(n, list); return true
        },
        Mutation("extension/empty-list", [.leaf], "a v3 certificate with an empty extensions SEQUENCE (SIZE (1..MAX))") { d, n in
            d.setExtensions(n, [], keepEmpty: true); return true
        },
        Mutation("extension/policies-critical-unknown", anyCertificate, "a critical certificatePolicies with one unknown policy") { d, n in
            d.setExtension(n, Edit.certificatePolicies, critical: true, value: DER.sequence([DER.sequence([DER.oid("1.3.6.1.4.1.55738.666.3")])])); return true
        },
        Mutation("extension/policies-any", anyCertificate, "a non-critical certificatePolicies anyPolicy") { d, n in
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: DER.sequence([DER.sequence([DER.oid("2.5.29.32.0")])])); return true
        },
        Mutation("extension/tls-feature-must-staple", [.leaf], "a TLS feature extension asking for OCSP stapling (RFC 7633 must-staple)") { d, n in
            d.setExtension(n, "1.3.6.1.5.5.7.1.24", critical: false, value: DER.sequence([DER.integer(5)])); return true
        },
        Mutation("extension/policy-constraints-require-explicit", authorities, "a critical policyConstraints requireExplicitPolicy 0, no policies") { d, n in
            d.setExtension(n, "2.5.29.36", critical: true, value: DER.sequence([.primitive(0x80, [0])])); return true
        },
    ]

    // MARK: Versions

    static func setVersion(_ d: inout MutantDraft, _ n: Int, _ version: DERTree?) {
        var children = d.certificates[n].tbs.children!
        if children.first?.tag == 0xA0 { children.removeFirst() }
        if let version { children.insert(.constructed(0xA0, [version]), at: 0) }
        d.certificates[n].tbs.children = children
    }

    static let versions: [Mutation] = [
        Mutation("version/v1-with-extensions", anyCertificate, "version 1 (the field left out) with extensions") { d, n in setVersion(&d, n, nil); return true },
        Mutation("version/v1-no-extensions", anyCertificate, "version 1 without extensions") { d, n in
            setVersion(&d, n, nil); d.setExtensions(n, []); return true
        },
        Mutation("version/v2", anyCertificate, "version 2 with extensions") { d, n in setVersion(&d, n, DER.integer(1)); return true },
        Mutation("version/v4", anyCertificate, "version value 3 (v4, undefined)") { d, n in setVersion(&d, n, DER.integer(3)); return true },
        Mutation("version/unique-identifiers", anyCertificate, "issuerUniqueID and subjectUniqueID present (RFC 5280 §4.1.2.8: CAs MUST NOT generate them; applications SHOULD parse them)") { d, n in
            var children = d.certificates[n].tbs.children!
            let at = MutantDraft.versionOffset(d.certificates[n].tbs) + MutantDraft.Field.publicKey.rawValue + 1
            children.insert(contentsOf: [.primitive(0x81, [0x00, 0x01, 0x02]), .primitive(0x82, [0x00, 0x03, 0x04])], at: at)
            d.certificates[n].tbs.children = children
            return true
        },
        Mutation("version/v1-explicit", anyCertificate, "version 1 encoded explicitly ([0] INTEGER 0, DEFAULT: DER forbids)") { d, n in setVersion(&d, n, DER.integer(0)); return true },
    ]

    // MARK: Serial numbers

    static let serials: [Mutation] = [
        Mutation("serial/zero", anyCertificate, "serial number 0 (RFC 5280 §4.1.2.2: positive)") { d, n in d[n, .serial] = DER.integer(0); return true },
        Mutation("serial/negative", anyCertificate, "serial number -1") { d, n in d[n, .serial] = DER.integer(-1); return true },
        Mutation("serial/21-octets", anyCertificate, "a 21-octet serial number (RFC 5280: at most 20)") { d, n in d[n, .serial] = .primitive(0x02, [0x01] + [UInt8](repeating: 0x23, count: 20)); return true },
        Mutation("serial/20-octets-high-bit", anyCertificate, "a 20-octet serial with the high bit set (negative)") { d, n in d[n, .serial] = .primitive(0x02, [0x80] + [UInt8](repeating: 0x23, count: 19)); return true },
        Mutation("serial/non-minimal", anyCertificate, "serial number 1 encoded as 00 01 (not DER)") { d, n in d[n, .serial] = .primitive(0x02, [0x00, 0x01]); return true },
        Mutation("serial/empty", anyCertificate, "a serial number INTEGER with no content octets") { d, n in d[n, .serial] = .primitive(0x02, []); return true },
    ]

    // MARK: Signature algorithms, key sizes and signature encodings

    static func key(_ kind: SigningKey.Kind, _ summary: String) -> Mutation {
        Mutation("key/\(kind.rawValue)", anyCertificate, summary) { d, n in d.certificates[n].keyKind = kind; return true }
    }

    /// This certificate signed by its issuer with another key type and hash.
    static func signedWith(_ name: String, _ kind: SigningKey.Kind, _ hash: SigningKey.Hash, _ summary: String) -> Mutation {
        Mutation("signature/\(name)", issued + [.root], summary) { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            // Every certificate the issuer signs uses its new key; only this one the new hash.
            d.certificates[issuer].keyKind = kind
            d.certificates[n].hash = hash
            return true
        }
    }

    static let signatures: [Mutation] = [
        key(.p256, "the certificate's key is P-256"),
        key(.p384, "the certificate's key is P-384"),
        key(.rsa2048, "the certificate's key is RSA-2048"),
        key(.rsa1024, "the certificate's key is RSA-1024 (weak)"),
        Mutation("key/p256-compressed", anyCertificate, "the certificate's key is P-256 with the point in compressed form (RFC 5480 §2.2: MAY be supported)") { d, n in
            d.certificates[n].keyKind = .p256
            d.certificates[n].compressedPoint = true
            return true
        },
        Mutation("key/p256-explicit-parameters", anyCertificate, "the certificate's P-256 key with its curve spelled out as explicit parameters (RFC 5480 §2.1.1: specifiedCurve MUST NOT be used)") { d, n in
            d.certificates[n].keyKind = .p256
            d.certificates[n].explicitCurve = true
            return true
        },
        Mutation("signature/unknown-algorithm", issued, "both signature AlgorithmIdentifiers name an unknown algorithm") { d, n in
            let unknown = SigningKey.algorithm("1.3.6.1.4.1.55738.666.9", null: false)
            d.certificates[n].innerAlgorithm = unknown
            d.certificates[n].outerAlgorithm = unknown
            return true
        },
        signedWith("ecdsa-sha1", .p256, .sha1, "signed by its issuer with ECDSA P-256 and SHA-1"),
        signedWith("rsa-sha1", .rsa2048, .sha1, "signed by its issuer with RSA PKCS#1 v1.5 and SHA-1"),
        signedWith("ecdsa-p256-sha512", .p256, .sha512, "signed with ECDSA P-256 and SHA-512"),
        signedWith("ecdsa-p384-sha256", .p384, .sha256, "signed with ECDSA P-384 and SHA-256"),
        signedWith("rsa-sha512", .rsa2048, .sha512, "signed with RSA PKCS#1 v1.5 and SHA-512"),
        Mutation("signature/inner-outer-mismatch", issued + [.root], "the TBSCertificate names another signature algorithm than the signature and the outer field (ecdsa-with-SHA256 beside Ed25519, Ed25519 beside ECDSA or RSA; RFC 5280 §4.1.1.2: MUST be equal)") { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            let signerKind = d.certificates[issuer].keyKind ?? d.slotKind
            d.certificates[n].innerAlgorithm = signerKind == .ed25519
                ? SigningKey.algorithm(SigningKey.ecdsaOID(.sha256), null: false)
                : SigningKey.algorithm("1.3.101.112", null: false)
            return true
        },
        Mutation("signature/ed25519-null-parameters", issued + [.root], "id-Ed25519 with NULL parameters in both fields (RFC 8410: absent); the issuer's key is Ed25519") { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            if d.slotKind != .ed25519 { d.certificates[issuer].keyKind = .ed25519 }
            let algorithm = SigningKey.algorithm("1.3.101.112", null: true)
            d.certificates[n].innerAlgorithm = algorithm
            d.certificates[n].outerAlgorithm = algorithm
            return true
        },
        Mutation("signature/ecdsa-null-parameters", issued + [.root], "ecdsa-with-SHA256 with NULL parameters in both fields (RFC 5758: absent)") { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            d.certificates[issuer].keyKind = .p256
            let algorithm = SigningKey.algorithm(SigningKey.ecdsaOID(.sha256), null: true)
            d.certificates[n].innerAlgorithm = algorithm
            d.certificates[n].outerAlgorithm = algorithm
            return true
        },
        Mutation("signature/unused-bits", issued + [.root], "the signature BIT STRING declares one unused bit") { d, n in
            // The unused bit set too: whether the encoding is DER must not depend on the last bit
            // of a signature (random for RSA keys made anew and for ECDSA), or the class would.
            // (The summary does not say "set": the adopted vectors were made before this line and
            // leave it clear; a description states only what every vector of the mutation holds.)
            d.certificates[n].afterSigning.append { whole in
                whole.children![2].content[0] = 1
                whole.children![2].content[whole.children![2].content.count - 1] |= 0x01
            }
            return true
        },
        Mutation("signature/trailing-octet", issued + [.root], "the signature value with one octet appended") { d, n in
            d.certificates[n].afterSigning.append { $0.children![2].content.append(0) }; return true
        },
        Mutation("signature/ecdsa-r-padded", issued + [.root], "an ECDSA signature whose r has a superfluous leading zero (BER)") { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            d.certificates[issuer].keyKind = .p256
            d.certificates[n].afterSigning.append { whole in
                guard var signature = try? DERTree(whole.children![2].content.dropFirst()), signature.children?.count == 2 else { return }
                signature.children![0].content.insert(0, at: 0)
                whole.children![2].content = [0] + signature.encoded
            }
            return true
        },
        Mutation("signature/outer-sha384", issued + [.root], "the outer signatureAlgorithm says ecdsa-with-SHA384, the TBSCertificate ecdsa-with-SHA256 (signed with SHA-256)") { d, n in
            guard let issuer = d.certificates[n].issuer else { return false }
            d.certificates[issuer].keyKind = .p256
            d.certificates[n].outerAlgorithm = SigningKey.algorithm(SigningKey.ecdsaOID(.sha384), null: false)
            return true
        },
    ]

    // MARK: The chain as presented, and the anchors

    static func chain(_ name: String, _ summary: String, _ edit: @escaping @Sendable (inout MutantDraft) -> Bool) -> Mutation {
        Mutation("chain/\(name)", [.chain], summary) { d, _ in edit(&d) }
    }

    /// A self-issued CA certificate under the intermediate (subject and issuer the intermediate's
    /// name, a key of its own, signed by the intermediate's key) that issues the leaf: the leaf's
    /// issuer name is unchanged, so a verifier must tell the two same-name issuers apart by
    /// signature. With `pathLengthZero`, the intermediate says pathLenConstraint 0, which the
    /// self-issued certificate does not consume (RFC 5280 §4.2.1.9, §6.1.4(l)).
    static func selfIssued(_ d: inout MutantDraft, pathLengthZero: Bool) -> Bool {
        guard let intermediate = d.model.node(for: .intermediate), let leaf = d.model.node(for: .leaf),
              d.certificates[leaf].issuer == intermediate else { return false }
        // pathLenConstraint 0, or none (whatever the base says), so that the rollover tests the
        // self-issued certificate alone and the other variant the pathLenConstraint rule.
        d.setExtension(intermediate, Edit.basicConstraints, critical: true, value: DER.sequence(pathLengthZero ? [DER.boolean(true), DER.integer(0)] : [DER.boolean(true)]))
        var copy = d.certificates[intermediate]
        copy.tbs[[MutantDraft.versionOffset(copy.tbs) + MutantDraft.Field.issuer.rawValue]] = d[intermediate, .subject]
        copy.issuer = intermediate
        copy.slot = 130
        d.certificates.append(copy)
        let index = d.certificates.count - 1
        // Key identifiers as a CA issues them (both profiles' bases carry them, BR §7.1.2.7.6): the
        // new certificate's own, its issuer's, and the leaf's naming the new key.
        linkKeyIdentifiers(&d, index, identifier: 130, issuer: intermediate)
        d.certificates[leaf].issuer = index
        linkKeyIdentifiers(&d, leaf, identifier: nil, issuer: index)
        let position = d.presented.firstIndex(of: intermediate) ?? 1
        d.presented.insert(index, at: position)
        return true
    }

    /// Gives `node` a subjectKeyIdentifier of its own (20 octets from `identifier`; nil: keep its own)
    /// and an authorityKeyIdentifier naming `issuer`'s subjectKeyIdentifier.
    static func linkKeyIdentifiers(_ d: inout MutantDraft, _ node: Int, identifier: Int?, issuer: Int) {
        if let identifier {
            d.setExtension(node, Edit.subjectKeyIdentifier, critical: false, value: .primitive(0x04, [0x4B, 0x49] + Array(repeating: UInt8(identifier & 0xFF), count: 18)))
        }
        let issuerIdentifier = d.extensions(issuer).first { MutantDraft.extensionOID($0) == Edit.subjectKeyIdentifier }
            .flatMap { $0.children?.last }.flatMap { try? DERTree($0.content[...]) }?.content
        if let issuerIdentifier {
            d.setExtension(node, Edit.authorityKeyIdentifier, critical: false, value: DER.sequence([.primitive(0x80, issuerIdentifier)]))
        } else {
            d.removeExtension(node, Edit.authorityKeyIdentifier)
        }
    }

    /// A copy of `node` (its name and key, in its slot) whose basicConstraints say cA FALSE: an
    /// anchor set mixing a CA and a non-CA certificate of one name and key. Self-signed, or signed
    /// as `node` is.
    static func nonCACopy(_ d: inout MutantDraft, of node: Int, selfSigned: Bool) -> Int {
        var copy = d.certificates[node]
        let index = d.certificates.count
        if selfSigned { copy.issuer = index }
        d.certificates.append(copy)
        d.setExtension(index, Edit.basicConstraints, critical: true, value: DER.sequence([]))
        d.removeExtension(index, Edit.keyUsage)
        return index
    }

    /// A new self-signed certificate node named `commonName`, with a slot of its own.
    static func addSelfSigned(_ d: inout MutantDraft, like template: Int, commonName: String?, subject: DERTree? = nil) -> Int {
        var tbs = d.certificates[template].tbs
        let offset = MutantDraft.versionOffset(tbs)
        let name = subject ?? Edit.name(commonName: commonName ?? "Unrelated Root")
        tbs[[offset + MutantDraft.Field.subject.rawValue]] = name
        tbs[[offset + MutantDraft.Field.issuer.rawValue]] = name
        let index = d.certificates.count
        d.certificates.append(MutantDraft.Certificate(tbs: tbs, issuer: index, slot: 50 + index))
        return index
    }

    static let chains: [Mutation] = [
        chain("intermediates-reversed", "the intermediates presented in reverse order") { d in
            guard d.presented.count >= 3 else { return false }
            d.presented = [d.presented[0]] + d.presented.dropFirst().reversed(); return true
        },
        chain("leaf-last", "the leaf presented after the intermediates") { d in
            guard d.presented.count >= 2 else { return false }
            d.presented = Array(d.presented.dropFirst()) + [d.presented[0]]; return true
        },
        chain("twenty-intermediates", "twenty more intermediate CAs between the first intermediate and the leaf (a path of 23 certificates; no pathLenConstraint)") { d in
            guard let intermediate = d.model.node(for: .intermediate), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(intermediate, Edit.basicConstraints, critical: true, value: DER.sequence([DER.boolean(true)]))
            var issuer = intermediate
            var added: [Int] = []
            for level in 1...20 {
                var copy = d.certificates[intermediate]
                let offset = MutantDraft.versionOffset(copy.tbs)
                copy.tbs[[offset + MutantDraft.Field.issuer.rawValue]] = d[issuer, .subject]
                copy.tbs[[offset + MutantDraft.Field.subject.rawValue]] = Edit.name(commonName: "Intermediate CA \(level)")
                copy.issuer = issuer
                copy.slot = 100 + level
                // Key identifiers of their own, each naming its issuer's, as a CA issues them.
                d.certificates.append(copy)
                let index = d.certificates.count - 1
                linkKeyIdentifiers(&d, index, identifier: 100 + level, issuer: issuer)
                added.append(index)
                issuer = index
            }
            d[leaf, .issuer] = d[issuer, .subject]
            d.certificates[leaf].issuer = issuer
            linkKeyIdentifiers(&d, leaf, identifier: nil, issuer: issuer)
            let position = d.presented.firstIndex(of: intermediate) ?? 1
            d.presented.insert(contentsOf: added.reversed(), at: position)
            return true
        },
        chain("self-issued-rollover", "a self-issued CA certificate (the intermediate's name, a new key, signed by the intermediate's key, as in a key rollover) issues the leaf, presented between the leaf and the intermediate") { d in
            selfIssued(&d, pathLengthZero: false)
        },
        chain("self-issued-under-pathlen-0", "the intermediate has pathLenConstraint 0 and a self-issued CA certificate (its name, a new key) issues the leaf: self-issued certificates do not count against it (RFC 5280 §6.1.4(l))") { d in
            selfIssued(&d, pathLengthZero: true)
        },
        chain("leaf-twice", "the leaf presented twice") { d in d.presented.insert(d.presented[0], at: 1); return true },
        chain("intermediate-twice", "an intermediate presented twice") { d in
            guard d.presented.count >= 2 else { return false }
            d.presented.append(d.presented[1]); return true
        },
        chain("root-included", "the anchor presented at the end of the chain") { d in
            guard let root = d.model.node(for: .root), !d.presented.contains(root) else { return false }
            d.presented.append(root); return true
        },
        chain("intermediates-missing", "only the leaf presented") { d in
            guard d.presented.count >= 2 else { return false }
            d.presented = [d.presented[0]]; return true
        },
        chain("unrelated-extra", "an unrelated self-signed certificate presented after the chain") { d in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.presented.append(addSelfSigned(&d, like: d.model.node(for: .root) ?? leaf, commonName: "Unrelated Root")); return true
        },
        chain("cross-signed-untrusted-first", "a copy of the first intermediate (same name and key) issued by an untrusted root, presented before the real one") { d in
            guard let intermediate = d.model.node(for: .intermediate), let root = d.model.node(for: .root) else { return false }
            let stranger = addSelfSigned(&d, like: root, commonName: "Untrusted Cross Root")
            var copy = d.certificates[intermediate]
            copy.tbs[[MutantDraft.versionOffset(copy.tbs) + MutantDraft.Field.issuer.rawValue]] = d[stranger, .subject]
            copy.issuer = stranger
            d.certificates.append(copy)
            let index = d.presented.firstIndex(of: intermediate) ?? 1
            d.presented.insert(d.certificates.count - 1, at: index); return true
        },
        chain("same-name-anchor-first", "another anchor with the root's name but another key, listed before the real one") { d in
            guard let root = d.model.node(for: .root) else { return false }
            let impostor = addSelfSigned(&d, like: root, commonName: nil, subject: d[root, .subject])
            d.anchors.insert(impostor, at: 0); return true
        },
        chain("same-name-anchor-only", "the anchor replaced by one with the root's name but another key") { d in
            guard let root = d.model.node(for: .root) else { return false }
            d.anchors = [addSelfSigned(&d, like: root, commonName: nil, subject: d[root, .subject])]; return true
        },
        chain("anchor-is-intermediate", "the first intermediate is the only anchor (a partial chain)") { d in
            guard let intermediate = d.model.node(for: .intermediate) else { return false }
            d.anchors = [intermediate]; return true
        },
        chain("anchor-non-ca-copy-first", "a copy of the root (its name and key) with cA FALSE listed as an anchor before the root") { d in
            guard let root = d.model.node(for: .root) else { return false }
            d.anchors.insert(nonCACopy(&d, of: root, selfSigned: true), at: 0); return true
        },
        chain("anchor-non-ca-copy-after", "a copy of the root (its name and key) with cA FALSE listed as an anchor after the root") { d in
            guard let root = d.model.node(for: .root) else { return false }
            d.anchors.append(nonCACopy(&d, of: root, selfSigned: true)); return true
        },
        chain("anchor-non-ca-intermediate-copy-first", "a copy of the intermediate (its name and key) with cA FALSE listed as an anchor before the root") { d in
            guard let intermediate = d.model.node(for: .intermediate), d.model.node(for: .root) != nil else { return false }
            d.anchors.insert(nonCACopy(&d, of: intermediate, selfSigned: false), at: 0); return true
        },
        chain("anchors-reversed", "the anchors listed in reverse order (a base, or an earlier change, with two or more)") { d in
            guard d.anchors.count >= 2 else { return false }
            d.anchors.reverse(); return true
        },
        chain("anchor-non-ca-copy-only", "the anchor replaced by a copy of the root (its name and key) with cA FALSE") { d in
            guard let root = d.model.node(for: .root) else { return false }
            d.anchors = [nonCACopy(&d, of: root, selfSigned: true)]; return true
        },
        chain("anchor-non-ca-intermediate-copy", "a copy of the intermediate (its name and key) with cA FALSE added to the anchors beside the root") { d in
            guard let intermediate = d.model.node(for: .intermediate), d.model.node(for: .root) != nil else { return false }
            d.anchors.append(nonCACopy(&d, of: intermediate, selfSigned: false)); return true
        },
        chain("anchor-is-leaf", "the leaf itself is the only anchor") { d in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.anchors = [leaf]; return true
        },
    ]

    // MARK: Policies: mappings, inhibitAnyPolicy, inhibitPolicyMapping, requireExplicitPolicy

    static let policyA = "1.3.6.1.4.1.55738.1.1"
    static let policyB = "1.3.6.1.4.1.55738.1.2"
    static let anyPolicy = "2.5.29.32.0"

    static func policies(_ oids: [String]) -> DERTree { DER.sequence(oids.map { DER.sequence([DER.oid($0)]) }) }

    static let policies: [Mutation] = [
        Mutation("policy/mapping-to-anyPolicy", [.intermediate], "a critical policyMappings mapping a policy to anyPolicy (RFC 5280 §6.1.4(a): the path is invalid)") { d, n in
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: policies([policyA]))
            d.setExtension(n, "2.5.29.33", critical: true, value: DER.sequence([DER.sequence([DER.oid(policyA), DER.oid(anyPolicy)])])); return true
        },
        Mutation("policy/mapping-ordinary", [.intermediate], "a critical policyMappings mapping policy A to policy B, the intermediate asserting A and the leaf B") { d, n in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: policies([policyA]))
            d.setExtension(n, "2.5.29.33", critical: true, value: DER.sequence([DER.sequence([DER.oid(policyA), DER.oid(policyB)])]))
            d.setExtension(leaf, Edit.certificatePolicies, critical: false, value: policies([policyB])); return true
        },
        Mutation("policy/inhibit-any-policy-0", [.intermediate], "a critical inhibitAnyPolicy 0, every certificate asserting only anyPolicy") { d, n in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: policies([anyPolicy]))
            d.setExtension(leaf, Edit.certificatePolicies, critical: false, value: policies([anyPolicy]))
            d.setExtension(n, "2.5.29.54", critical: true, value: DER.integer(0)); return true
        },
        Mutation("policy/inhibit-policy-mapping-0", [.intermediate], "a critical policyConstraints inhibitPolicyMapping 0") { d, n in
            d.setExtension(n, "2.5.29.36", critical: true, value: DER.sequence([.primitive(0x81, [0])])); return true
        },
        Mutation("policy/require-explicit-satisfied", [.intermediate], "a critical policyConstraints requireExplicitPolicy 0, the intermediate and the leaf asserting policy A") { d, n in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: policies([policyA]))
            d.setExtension(leaf, Edit.certificatePolicies, critical: false, value: policies([policyA]))
            d.setExtension(n, "2.5.29.36", critical: true, value: DER.sequence([.primitive(0x80, [0])])); return true
        },
        Mutation("policy/require-explicit-unmet", [.intermediate], "a critical policyConstraints requireExplicitPolicy 0, the intermediate asserting A and the leaf B") { d, n in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.certificatePolicies, critical: false, value: policies([policyA]))
            d.setExtension(leaf, Edit.certificatePolicies, critical: false, value: policies([policyB]))
            d.setExtension(n, "2.5.29.36", critical: true, value: DER.sequence([.primitive(0x80, [0])])); return true
        },
    ]

    // MARK: CRL distribution points and authority information access

    static let revocationPointers: [Mutation] = [
        Mutation("revocation/crl-distribution-point", issued, "a non-critical cRLDistributionPoints with an HTTP URI") { d, n in
            d.setExtension(n, "2.5.29.31", critical: false, value: DER.sequence([DER.sequence([.constructed(0xA0, [.constructed(0xA0, [Edit.uri("http://crl.invalid/ca.crl")])])])])); return true
        },
        Mutation("revocation/crl-distribution-point-critical", issued, "a critical cRLDistributionPoints (RFC 5280 §4.2.1.13: SHOULD be non-critical)") { d, n in
            d.setExtension(n, "2.5.29.31", critical: true, value: DER.sequence([DER.sequence([.constructed(0xA0, [.constructed(0xA0, [Edit.uri("http://crl.invalid/ca.crl")])])])])); return true
        },
        Mutation("revocation/aia-ca-issuers", issued, "a non-critical authorityInfoAccess with caIssuers and OCSP URIs") { d, n in
            d.setExtension(n, "1.3.6.1.5.5.7.1.1", critical: false, value: DER.sequence([
                DER.sequence([DER.oid("1.3.6.1.5.5.7.48.2"), Edit.uri("http://ca.invalid/ca.der")]),
                DER.sequence([DER.oid("1.3.6.1.5.5.7.48.1"), Edit.uri("http://ocsp.invalid/")]),
            ])); return true
        },
        Mutation("revocation/aia-critical", issued, "a critical authorityInfoAccess (RFC 5280 §4.2.2.1: MUST be non-critical)") { d, n in
            d.setExtension(n, "1.3.6.1.5.5.7.1.1", critical: true, value: DER.sequence([DER.sequence([DER.oid("1.3.6.1.5.5.7.48.2"), Edit.uri("http://ca.invalid/ca.der")])])); return true
        },
    ]

    // MARK: Bytes after an extension's value

    static let extensionEncodings: [Mutation] = [
        Mutation("extensionValue/trailing-bytes-basicConstraints", authorities, "basicConstraints with a zero octet after its value inside the OCTET STRING") { d, n in
            guard let value = d.extensionValue(n, Edit.basicConstraints) else { return false }
            d.setExtension(n, Edit.basicConstraints, critical: true, rawValue: value.encoded + [0x00]); return true
        },
        Mutation("extensionValue/trailing-bytes-keyUsage", anyCertificate, "keyUsage with a zero octet after its value inside the OCTET STRING") { d, n in
            guard let value = d.extensionValue(n, Edit.keyUsage) else { return false }
            d.setExtension(n, Edit.keyUsage, critical: true, rawValue: value.encoded + [0x00]); return true
        },
        Mutation("extensionValue/trailing-bytes-subjectAltName", [.leaf], "subjectAltName with a zero octet after its value inside the OCTET STRING") { d, n in
            guard let value = d.extensionValue(n, Edit.subjectAltName) else { return false }
            d.setExtension(n, Edit.subjectAltName, critical: false, rawValue: value.encoded + [0x00]); return true
        },
    ]

    // MARK: The subject key identifier's form

    static let identifierForms: [Mutation] = [
        Mutation("subjectKeyIdentifier/eight-octets", authorities, "an 8-octet subjectKeyIdentifier, its children's authorityKeyIdentifier the same (RFC 5280 §4.2.1.2: any method)") { d, n in
            let id = [UInt8](repeating: 0x5A, count: 8)
            d.setExtension(n, Edit.subjectKeyIdentifier, critical: false, value: .primitive(0x04, id))
            for child in d.certificates.indices where d.certificates[child].issuer == n && child != n {
                d.setExtension(child, Edit.authorityKeyIdentifier, critical: false, value: DER.sequence([.primitive(0x80, id)]))
            }
            return true
        },
        Mutation("subjectKeyIdentifier/not-octet-string", authorities, "a subjectKeyIdentifier whose value is an INTEGER, not an OCTET STRING") { d, n in
            d.setExtension(n, Edit.subjectKeyIdentifier, critical: false, value: DER.integer(5)); return true
        },
    ]

    // MARK: Host names and SANs: characters

    /// The host and the leaf's only dNSName both `label` + the host's parent domain.
    static func hostLabel(_ name: String, _ summary: String, label: @escaping @Sendable (String) -> String, san: (@Sendable (String) -> String)? = nil) -> Mutation {
        Mutation("hostName/\(name)", [.leaf], summary) { d, n in
            guard let (_, labels) = Edit.dnsHost(d) else { return false }
            let parent = labels.dropFirst().joined(separator: ".")
            d.host = label(labels[0]) + "." + parent
            return Edit.san(&d, n, [Edit.dns(san.map { $0(parent) } ?? d.host!)])
        }
    }

    static let hostCharacters: [Mutation] = [
        hostLabel("digit-first-label", "host and dNSName with a label that starts with a digit (1ww.<parent>; RFC 1123 §2.1 allows it)", label: { "1" + $0 }),
        hostLabel("underscore-label", "host and dNSName with an underscore in a label (w_w.<parent>; not letter-digit-hyphen)", label: { $0.prefix(1) + "_" + $0.dropFirst() }),
        hostLabel("hyphen-first-label", "host and dNSName with a label that starts with a hyphen (-ww.<parent>)", label: { "-" + $0 }),
        hostLabel("label-64-octets", "host and dNSName with a 64-octet label (RFC 1034 §3.1: at most 63)", label: { _ in String(repeating: "a", count: 64) }),
        hostLabel("wildcard-over-digit-label", "dNSName *.<parent> against a host whose first label starts with a digit (1ww.<parent>)", label: { "1" + $0 }, san: { "*." + $0 }),
        hostLabel("wildcard-over-underscore-label", "dNSName *.<parent> against a host with an underscore in its first label (w_w.<parent>)", label: { $0.prefix(1) + "_" + $0.dropFirst() }, san: { "*." + $0 }),
        Mutation("hostName/idna-a-label-match", [.leaf], "an IDNA A-label host (xn--) named the same in the dNSName") { d, n in
            guard let (_, labels) = Edit.dnsHost(d) else { return false }
            let host = "xn--ww-fka." + labels.dropFirst().joined(separator: ".")
            d.host = host
            return Edit.san(&d, n, [Edit.dns(host)])
        },
        Mutation("hostName/mixed-case-both", [.leaf], "host and dNSName in different mixed case (WwW.Example vs wWw.eXample)") { d, n in
            guard let (host, _) = Edit.dnsHost(d) else { return false }
            let upper = String(host.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            let lower = String(host.enumerated().map { $0.offset % 2 == 1 ? Character($0.element.uppercased()) : $0.element })
            d.host = upper
            return Edit.san(&d, n, [Edit.dns(lower)])
        },
        Mutation("hostName/wildcard-idna-label", [.leaf], "dNSName *.<parent> against an A-label host xn--ww-fka.<parent>") { d, n in
            guard let (_, labels) = Edit.dnsHost(d) else { return false }
            let parent = labels.dropFirst().joined(separator: ".")
            d.host = "xn--ww-fka." + parent
            return Edit.san(&d, n, [Edit.dns("*." + parent)])
        },
        Mutation("hostName/wildcard-matches-a-label-prefix", [.leaf], "dNSName xn--*.<parent> (a wildcard inside an A-label) against an A-label host") { d, n in
            guard let (_, labels) = Edit.dnsHost(d) else { return false }
            let parent = labels.dropFirst().joined(separator: ".")
            d.host = "xn--ww-fka." + parent
            return Edit.san(&d, n, [Edit.dns("xn--*." + parent)])
        },
    ]

    // MARK: Name constraints of each type against names of that type

    static let constraintTypes: [Mutation] = [
        Mutation("nameConstraintType/uri-against-uri-san", authorities, "permitted URI other.test; the leaf names a URI https://<host>/ beside its dNSName") { d, n in
            guard let (host, _) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.uri("other.test")]))
            return Edit.san(&d, leaf, [Edit.dns(host), Edit.uri("https://\(host)/")])
        },
        Mutation("nameConstraintType/email-against-email-san", authorities, "permitted rfc822Name other.test; the leaf names admin@<host> beside its dNSName") { d, n in
            guard let (host, _) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.email("other.test")]))
            return Edit.san(&d, leaf, [Edit.dns(host), Edit.email("admin@\(host)")])
        },
        Mutation("nameConstraintType/ip-range-against-ip-san", authorities, "permitted iPAddress 10.0.0.0/8; the leaf names 192.0.2.1 beside its dNSName") { d, n in
            guard let (host, _) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.ip([10, 0, 0, 0, 255, 0, 0, 0])]))
            return Edit.san(&d, leaf, [Edit.dns(host), Edit.ip([192, 0, 2, 1])])
        },
        Mutation("nameConstraintType/ip-range-permits-ip-san", authorities, "permitted iPAddress 192.0.2.0/24 and dNSName <parent>; the leaf names 192.0.2.1 and its dNSName") { d, n in
            guard let (host, labels) = Edit.dnsHost(d), let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.ip([192, 0, 2, 0, 255, 255, 255, 0]), Edit.dns(labels.dropFirst().joined(separator: "."))]))
            return Edit.san(&d, leaf, [Edit.dns(host), Edit.ip([192, 0, 2, 1])])
        },
        Mutation("nameConstraintType/dirname-permits-subject", authorities, "permitted directoryName equal to the leaf's subject") { d, n in
            guard let leaf = d.model.node(for: .leaf) else { return false }
            d.setExtension(n, Edit.nameConstraints, critical: true, value: Edit.nameConstraints(permitted: [Edit.directoryName(d[leaf, .subject])])); return true
        },
    ]

}
