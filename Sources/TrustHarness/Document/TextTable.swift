/// Rows under headers as plain text, each column as wide as its widest cell, indented by two spaces;
/// `numeric` columns right-aligned. The one padded-table layout of every text report.
public enum TextTable {
    public static func render(headers: [String], rows: [[String]], numeric: Set<Int> = []) -> String {
        let count = headers.count
        let cells = rows.map { row in (0..<count).map { $0 < row.count ? row[$0] : "" } }
        let widths = (0..<count).map { column in ([headers[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0 }
        func line(_ values: [String]) -> String {
            "  " + values.enumerated().map { index, value in
                let pad = String(repeating: " ", count: max(0, widths[index] - value.count))
                return numeric.contains(index) ? pad + value : value + pad
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        return line(headers) + cells.map(line).joined()
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
