/// Escaping for the markup reports (HTML and JUnit XML). Everything shown in them (vector ids,
/// library messages, reasons read from files) is treated as hostile text.
package enum Markup {
    /// Escapes `text` for element content and quoted attributes in HTML and XML 1.0; control
    /// characters XML cannot carry become U+FFFD, and newlines and tabs survive in attributes.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
