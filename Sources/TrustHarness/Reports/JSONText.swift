import Foundation

/// JSON as every report writes it: pretty-printed, keys sorted, slashes unescaped, and an empty array
/// or object on one line (`[]`, `{}`; Foundation's pretty printer gives each a blank line inside, and
/// a report with hundreds of empty `native` lists had hundreds of blank lines).
public enum JSONText {
    public static func encode<Value: Encodable>(_ value: Value, sortedKeys: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .withoutEscapingSlashes]
        return compactingEmpty(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `[` or `{`, then only white space up to the matching `]` or `}`, becomes `[]` or `{}`. String
    /// contents are left alone: a bracket inside quotes is not a bracket.
    static func compactingEmpty(_ text: String) -> String {
        var out = [UInt8]()
        let bytes = Array(text.utf8)
        out.reserveCapacity(bytes.count)
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            out.append(byte)
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\") && index < bytes.count { out.append(bytes[index]); index += 1 }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true; continue }
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") else { continue }
            let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            var next = index
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x0D || bytes[next] == 0x09 { next += 1 }
            if next < bytes.count && bytes[next] == close && next > index {
                out.append(close)
                index = next + 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
