import TrustVectors

/// The one table of departures weighed by impact that every report shows: a row per impact class
/// (most serious first, accepts before rejects of a severity), a column per back end with how many of
/// its departures fall in the class.
public enum ImpactTable {
    /// `departures`: each departing result's back end and impact (nil: unclassified).
    public static func make(_ departures: [(backend: String, impact: Impact?)], backends: [String]) -> ReportDocument.Table {
        typealias Cell = ReportDocument.Table.Cell
        var first: [String: Impact?] = [:]
        var counts: [String: [String: Int]] = [:]
        for (backend, impact) in departures {
            let name = impact?.class ?? "unclassified"
            if first[name] == nil { first[name] = .some(impact) }
            counts[name, default: [:]][backend, default: 0] += 1
        }
        let classes = first.keys.sorted { a, b in
            switch (first[a]!, first[b]!) {
            case let (x?, y?): return x.order < y.order
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
        let rows = classes.map { name -> [Cell] in
            let impact = first[name]!
            let tone = impact.map(self.tone)
            return [Cell(impact?.severity.rawValue ?? "?", tone: tone), Cell(name, code: true), Cell(impact?.direction.rawValue ?? ""), Cell(impact?.cwe ?? "")]
                + backends.map { backend in
                    let count = counts[name]?[backend] ?? 0
                    return Cell(count == 0 ? "·" : "\(count)", tone: count == 0 ? nil : tone)
                }
        }
        return .init(headers: ["severity", "impact", "direction", "CWE"] + backends, cells: rows, numeric: Set(4..<(4 + backends.count)))
    }

    /// Accepts in the accepting tone, rejects in the rejecting one, the rest as recorded.
    public static func tone(_ impact: Impact) -> ReportDocument.Tone {
        switch impact.direction {
        case .accepts: return .accepts
        case .rejects: return .rejects
        case .other: return .deviation
        }
    }

    /// The paragraph every impact table sits under.
    public static let explanation = "Each departure weighed by what it gives an attacker (accepts) or costs a user (rejects), derived from the rule it tests (Vectors/impacts.json; the classes, their CWEs and the CVEs that calibrate them: docs/impact.md). Most serious first."
}
