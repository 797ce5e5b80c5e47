/// An HTML element tree, rendered with every text and attribute value escaped: the reports build
/// pages from elements, never from HTML written in strings.
public struct HTMLNode: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case element(String, [Attribute], [HTMLNode])
        case text(String)
        /// Already-safe content for a `<style>` or `<script>` element: a resource file of the module.
        case asset(String)
    }

    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    let kind: Kind

    /// An element: `name` its tag, `attributes` in order.
    public static func element(_ name: String, _ attributes: [Attribute] = [], _ children: [HTMLNode] = []) -> HTMLNode {
        HTMLNode(kind: .element(name, attributes, children))
    }

    public static func text(_ text: String) -> HTMLNode {
        HTMLNode(kind: .text(text))
    }

    /// Text whose long codes (`X509_V_ERR_CERT_HAS_EXPIRED`, a library's names for its reasons)
    /// may break after an underscore, and nowhere else inside a word, in a narrow column.
    static func breakable(_ text: String) -> [HTMLNode] {
        guard text.contains("_") else { return [.text(text)] }
        var nodes: [HTMLNode] = []
        var run = ""
        var word = ""
        func flush() {
            // Words this long are codes that would widen a column; shorter ones (NOT_A_CA) stay whole.
            if word.count >= breakableLength, word.contains("_") {
                let parts = word.split(separator: "_", omittingEmptySubsequences: false)
                for part in parts.dropLast() {
                    nodes += [.text(run + part + "_"), .element("wbr")]
                    run = ""
                }
                run += parts.last ?? ""
            } else {
                run += word
            }
            word = ""
        }
        for character in text {
            if character == "_" || character.isLetter || character.isNumber {
                word.append(character)
            } else {
                flush()
                run.append(character)
            }
        }
        flush()
        if !run.isEmpty { nodes.append(.text(run)) }
        return nodes
    }

    /// The shortest code ``breakable(_:)`` lets break.
    static let breakableLength = 24

    /// A style sheet or script from the module's resources (never data).
    static func asset(_ text: String) -> HTMLNode {
        HTMLNode(kind: .asset(text))
    }

    /// Elements with no closing tag.
    static let void: Set<String> = ["meta", "br", "hr", "img", "link", "input", "wbr"]

    public func render() -> String {
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch kind {
        case .text(let text):
            out += Markup.escape(text)
        case .asset(let text):
            out += text
        case .element(let name, let attributes, let children):
            out += "<" + name
            for attribute in attributes {
                out += " " + attribute.name + "=\"" + Markup.escape(attribute.value) + "\""
            }
            out += ">"
            if Self.void.contains(name) { return }
            for child in children { child.render(into: &out) }
            out += "</" + name + ">"
            if ["p", "tr", "table", "section", "details", "ul", "li", "h1", "h2", "div", "svg", "head", "style", "script"].contains(name) { out += "\n" }
        }
    }
}
