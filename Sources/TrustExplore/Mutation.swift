import Foundation
import TrustVectors

/// One property changed on one certificate (or on the chain as presented): its name (`family/what`),
/// where on the path it applies, and the edit. An edit returns false when it does not apply to the
/// chain at hand (no such extension to change, no second intermediate, ...).
public struct Mutation: Sendable {
    public let name: String
    public let roles: [ChainModel.Role]
    /// What it changes, in a sentence, for reports and candidate vectors.
    public let summary: String
    let edit: @Sendable (inout MutantDraft, Int) -> Bool

    init(_ name: String, _ roles: [ChainModel.Role], _ summary: String, _ edit: @escaping @Sendable (inout MutantDraft, Int) -> Bool) {
        self.name = name
        self.roles = roles
        self.summary = summary
        self.edit = edit
    }

    /// `validity`, `basicConstraints`, ...: the part before the slash.
    public var family: String { String(name.prefix { $0 != "/" }) }
}

/// Field-level helpers the mutations share.
enum Edit {
    static let basicConstraints = "2.5.29.19"
    static let keyUsage = "2.5.29.15"
    static let extendedKeyUsage = "2.5.29.37"
    static let subjectAltName = "2.5.29.17"
    static let nameConstraints = "2.5.29.30"
    static let subjectKeyIdentifier = "2.5.29.14"
    static let authorityKeyIdentifier = "2.5.29.35"
    static let certificatePolicies = "2.5.29.32"
    static let unknown = "1.3.6.1.4.1.55738.666.1"
    static let commonName = "2.5.4.3"

    // MARK: Times

    static func date(_ element: DERTree) -> Date? {
        let text = String(decoding: element.content, as: UTF8.self)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = element.tag == 0x17 ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'"
        guard var date = formatter.date(from: text) else { return nil }
        // RFC 5280 §4.1.2.5.1: UTCTime YY >= 50 is 19YY, else 20YY.
        if element.tag == 0x17, let year = Int(text.prefix(2)) {
            let calendar = Calendar(identifier: .gregorian)
            var utc = calendar
            utc.timeZone = TimeZone(identifier: "UTC")!
            let parsedYear = utc.component(.year, from: date)
            let wanted = year >= 50 ? 1900 + year : 2000 + year
            date = utc.date(byAdding: .year, value: wanted - parsedYear, to: date) ?? date
        }
        return date
    }

    static func text(_ date: Date, _ format: String) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return Array(formatter.string(from: date).utf8)
    }

    static func utcTime(_ date: Date, format: String = "yyMMddHHmmss'Z'") -> DERTree { .primitive(0x17, text(date, format)) }
    static func generalizedTime(_ date: Date, format: String = "yyyyMMddHHmmss'Z'") -> DERTree { .primitive(0x18, text(date, format)) }

    /// Rewrites both times of `node`'s validity with `encode` (nil: leave that one).
    static func validity(_ draft: inout MutantDraft, _ node: Int, _ encode: (_ date: Date, _ isNotAfter: Bool) -> DERTree?) -> Bool {
        var validity = draft[node, .validity]
        guard let children = validity.children, children.count == 2 else { return false }
        var changed = false
        for index in 0..<2 {
            guard let date = date(children[index]), let new = encode(date, index == 1) else { continue }
            validity.children![index] = new
            changed = changed || new != children[index]
        }
        draft[node, .validity] = validity
        return changed
    }

    // MARK: Names

    /// Applies `change` to every attribute value (tag, bytes) of a Name.
    static func mapValues(_ name: DERTree, _ change: (UInt8, [UInt8]) -> (UInt8, [UInt8])) -> DERTree {
        var name = name
        for rdn in name.children!.indices {
            for attribute in name.children![rdn].children!.indices {
                var pair = name.children![rdn].children![attribute]
                guard pair.children?.count == 2 else { continue }
                let (tag, bytes) = change(pair.children![1].tag, pair.children![1].content)
                pair.children![1] = .primitive(tag, bytes)
                name.children![rdn].children![attribute] = pair
            }
        }
        return name
    }

    static func commonName(_ name: DERTree) -> String? {
        for rdn in name.children ?? [] {
            for attribute in rdn.children ?? [] where attribute.children?.count == 2 && DER.dotted(attribute.children![0].content) == Edit.commonName {
                return String(decoding: attribute.children![1].content, as: UTF8.self)
            }
        }
        return nil
    }

    static func name(commonName: String, organisation: String = "TrustHarness Explore") -> DERTree {
        DER.sequence([
            DER.set([DER.sequence([DER.oid("2.5.4.10"), DER.utf8(organisation)])]),
            DER.set([DER.sequence([DER.oid(Edit.commonName), DER.utf8(commonName)])]),
        ])
    }

    // MARK: General names

    static func dns(_ name: String) -> DERTree { .primitive(0x82, Array(name.utf8)) }
    static func dnsBytes(_ bytes: [UInt8]) -> DERTree { .primitive(0x82, bytes) }
    static func ip(_ octets: [UInt8]) -> DERTree { .primitive(0x87, octets) }
    static func uri(_ text: String) -> DERTree { .primitive(0x86, Array(text.utf8)) }
    static func email(_ text: String) -> DERTree { .primitive(0x81, Array(text.utf8)) }
    static func directoryName(_ name: DERTree) -> DERTree { .constructed(0xA4, [name]) }

    /// The leaf's SAN replaced by `names`.
    static func san(_ draft: inout MutantDraft, _ node: Int, _ names: [DERTree], critical: Bool = false) -> Bool {
        draft.setExtension(node, subjectAltName, critical: critical, value: DER.sequence(names))
        return true
    }

    /// Name constraints from permitted and excluded subtrees (nil: that part absent).
    static func nameConstraints(permitted: [DERTree]?, excluded: [DERTree]? = nil, minimum: Int? = nil, maximum: Int? = nil) -> DERTree {
        func subtrees(_ tag: UInt8, _ bases: [DERTree]) -> DERTree {
            .constructed(tag, bases.map { base in
                DER.sequence([base] + (minimum.map { [.primitive(0x80, DER.integer($0).content)] } ?? []) + (maximum.map { [.primitive(0x81, DER.integer($0).content)] } ?? []))
            })
        }
        var parts: [DERTree] = []
        if let permitted { parts.append(subtrees(0xA0, permitted)) }
        if let excluded { parts.append(subtrees(0xA1, excluded)) }
        return DER.sequence(parts)
    }

    /// The host's IPv4 octets, if it is an IPv4 literal.
    static func ipv4(_ host: String?) -> [UInt8]? {
        guard let host else { return nil }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        return parts.count == 4 && host.split(separator: ".").count == 4 ? parts : nil
    }

    /// The host if it is a DNS name with at least three labels (`www.example.test`).
    static func dnsHost(_ draft: MutantDraft) -> (host: String, labels: [String])? {
        guard let host = draft.host, ipv4(host) == nil, !host.contains(":") else { return nil }
        let labels = host.split(separator: ".").map(String.init)
        return labels.count >= 3 ? (host, labels) : nil
    }
}
