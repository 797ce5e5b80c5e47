import Foundation

/// The rules a document's vectors cite, each quoted once: a reference (`Web PKI: rejected; RFC 9525
/// §6.3; RFC 5280 §6.1 (Basic Path Validation): "…"`) split into its rules, each with a name (`RFC
/// 5280 §6.1 (Basic Path Validation)`, the text before its quote) and an anchor. Text that repeats a
/// rule's quote (a deviation's reason) names the rule instead and links to it.
struct References {
    /// Distinct rules in order of first citation (a rule another one quotes whole, with more, is
    /// that one's).
    let all: [String]
    private let anchors: [String: String]
    /// The rules with a quote, longest first: what ``citing(_:)`` replaces.
    private let quoted: [String]

    init(_ lists: [[String]]) {
        var seen: [String] = []
        var anchors: [String: String] = [:]
        for rule in lists.joined().flatMap(Self.parts) where anchors[rule] == nil {
            anchors[rule] = "ref-\(seen.count + 1)"
            seen.append(rule)
        }
        // A rule whose quote another rule of the same section holds with more words (a note), or
        // with the same words under a longer name (its section's title), is that rule: one entry,
        // one anchor.
        func words(_ rule: String) -> String { Self.text(rule, label: Self.label(rule)) }
        func wider(_ other: String, than rule: String) -> Bool {
            let (mine, theirs) = (words(rule), words(other))
            return other != rule && Self.short(other) == Self.short(rule) && theirs.contains(mine)
                && (theirs.count > mine.count || (theirs == mine && other.count > rule.count))
        }
        var within: [String: String] = [:]
        for rule in seen where words(rule).contains("\"") {
            if let widest = seen.filter({ wider($0, than: rule) }).max(by: { (words($0).count, $0.count) < (words($1).count, $1.count) }) {
                within[rule] = widest
            }
        }
        for (rule, _) in within {
            var wider = rule
            while let next = within[wider] { wider = next }
            anchors[rule] = anchors[wider]
        }
        all = seen.filter { within[$0] == nil }
        self.anchors = anchors
        quoted = seen.filter { Self.label($0) != $0 && $0.contains("\"") }.sorted { $0.count > $1.count }
    }

    func anchor(_ rule: String) -> String { anchors[rule] ?? "references" }

    /// A link to each rule the references cite, once, in order (a profile's answer cites again
    /// rules the vector's own references name).
    func links(_ references: [String]) -> [ReportDocument.Table.Link] {
        var seen = Set<String>()
        return references.flatMap(Self.parts).filter { seen.insert(anchor($0)).inserted }.map { .init(Self.short($0), anchor: anchor($0)) }
    }

    /// What the rule says beyond its name: its quote or explanation; empty when it is only a name.
    func text(_ rule: String) -> String { Self.text(rule, label: Self.label(rule)) }

    static func text(_ rule: String, label: String) -> String {
        guard label != rule else { return "" }
        return String(rule.dropFirst(label.count).drop { $0 == ":" || $0 == " " })
    }

    /// `text` with each quoted rule in it named instead (`RFC 5280 §6.1.3(b)-(c)`), and a link to
    /// each such rule's quote, in order of first mention.
    /// - Parameter anchor: a rule's own anchor, when `text` is what it says: it cites the others.
    func citing(_ text: String, except anchor: String? = nil) -> (text: String, links: [ReportDocument.Table.Link]) {
        guard text.contains("\"") else { return (text, []) }
        var text = text
        var cited: [(at: String.Index, rule: String)] = []
        for rule in quoted where anchors[rule] != anchor && text.contains(rule) {
            text = text.replacingOccurrences(of: rule, with: Self.label(rule))
            cited.append((text.range(of: Self.label(rule))?.lowerBound ?? text.endIndex, rule))
        }
        let links = cited.sorted { $0.at < $1.at }.map { ReportDocument.Table.Link(Self.short($0.rule), anchor: self.anchor($0.rule), inText: false) }
        return (text, links)
    }

    /// A reference's rules one by one, split at each `; ` outside quotes and parentheses that does
    /// not go on to another section of the same rule (`…; §4.2.1.10: "…"`): a profile's answer
    /// (`Web PKI: rejected; RFC 9525 §6.3; RFC 6125 §6.2.1 (…): "…"`) cites several, and an
    /// explored vector's adds its notes (`…; two independent changes: …`), each written once on its
    /// own; a reference of one rule is itself.
    static func parts(_ reference: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var depth = 0
        var rest = Substring(reference)
        while let character = rest.first {
            if !quoted, depth == 0, rest.hasPrefix("; "), !rest.dropFirst(2).hasPrefix("§") {
                parts.append(current)
                current = ""
                rest = rest.dropFirst(2)
                continue
            }
            switch character {
            case "\"": quoted.toggle()
            case "(" where !quoted: depth += 1
            case ")" where !quoted: depth = max(0, depth - 1)
            default: break
            }
            current.append(character)
            rest = rest.dropFirst()
        }
        parts.append(current)
        return parts.filter { !$0.isEmpty }
    }

    /// The rule's name without its section's title (`RFC 5280 §6.1`), for links to it.
    static func short(_ reference: String) -> String {
        let name = label(reference)
        guard let open = name.range(of: " ("), name.hasSuffix(")") else { return name }
        return String(name[..<open.lowerBound])
    }

    /// The rule's name: the reference up to its quote or explanation (the text before the first
    /// `: ` when something long follows), else the whole reference.
    static func label(_ reference: String) -> String {
        guard let colon = reference.range(of: ": "), reference.distance(from: colon.upperBound, to: reference.endIndex) > 24 else { return reference }
        return String(reference[..<colon.lowerBound])
    }
}
