import TrustVectors
import Foundation

/// One writer per format, each rendering any ``ReportDocument``.
public enum DocumentWriter {
    // MARK: Text

    public static func text(_ document: ReportDocument) -> String {
        var out = document.title + "\n"
        if let provenance = document.provenance { out += "  by \(provenance.line)\n" }
        if !document.summary.isEmpty { out += "\n" + document.summary + "\n" }
        let ordered = document.sections.filter { $0.inText == .inOrder } + document.sections.filter { $0.inText == .atEnd }
        for section in ordered {
            out += "\n" + section.title + "\n" + String(repeating: "=", count: section.title.count) + "\n"
            for block in section.blocks {
                switch block {
                case .paragraph(let text):
                    out += text + "\n"
                case .table(let table) where table.textLayout == .records:
                    out += records(table)
                case .table(let table):
                    if let filter = table.staticFilter { out += "  \(filter.label): \(table.staticRows.count) of \(table.rows.count) rows\n" }
                    let kept = table.textColumns
                    out += TextTable.render(headers: kept.map { table.headers[$0] }, rows: table.staticRows.map { row in kept.map { $0 < row.count ? row[$0] : "" }.map { mark($0.tone) + $0.plain } },
                                            numeric: Set(kept.indices.filter { table.numeric.contains(kept[$0]) }))
                    out += legend(table, marks: true).map { "  \($0)\n" } ?? ""
                case .heatMap(let map):
                    // Per row, the cells with departures: accepts/rejects of the cell's vectors.
                    let rows = map.rows.map { row in
                        [row.name] + row.cells.map { $0.departures == 0 ? "." : "\($0.accepts.count)/\($0.rejects.count)" + ($0.worst.map { " " + $0.severity.rawValue.prefix(1).uppercased() } ?? "") }
                    }
                    out += "  (each cell: trusted where the standards reject / rejected where they trust, and the worst impact: C critical, H high, M medium, L low, I info; . none)\n"
                    out += TextTable.render(headers: ["back end"] + map.columns, rows: rows, numeric: Set(1...max(1, map.columns.count)))
                case .bars(let chart):
                    out += "  \(chart.title)\n"
                    let widest = chart.bars.map(\.value).max() ?? 1
                    let rows = chart.bars.map { bar in
                        [bar.label, number(bar.value) + " " + chart.unit, String(repeating: "#", count: widest > 0 ? Int((bar.value / widest * 40).rounded()) : 0), bar.note]
                    }
                    out += TextTable.render(headers: ["", chart.unit, "", ""], rows: rows, numeric: [1])
                case .callout(let tone, let text):
                    out += mark(tone) + text + "\n"
                case .details(let details):
                    for detail in details where !detail.items.isEmpty {
                        out += "  \(detail.title) (\(detail.items.count)):\n" + detail.items.prefix(40).map { "    \($0)\n" }.joined()
                            + (detail.items.count > 40 ? "    ... and \(detail.items.count - 40) more\n" : "")
                    }
                }
            }
        }
        return out
    }

    /// A table as one record per row (``ReportDocument/Table/TextLayout/records``).
    static func records(_ table: ReportDocument.Table) -> String {
        let all = table.staticRows
        let rows = table.textLimit.map { Array(all.prefix($0)) } ?? all
        let others = table.textColumns.filter { $0 > 1 }
        var out = table.staticFilter.map { "  \($0.label): \(all.count) of \(table.rows.count) rows\n" } ?? ""
        let width = others.map { table.headers[$0].count }.max() ?? 0
        let labelWidth = rows.flatMap { row in others.compactMap { $0 < row.count ? row[$0].tone.map(word) : nil } }.map(\.count).max() ?? 0
        func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
        for row in rows {
            guard let first = row.first else { continue }
            out += first.plain + (row.count > 1 && table.headers.count > 1 ? "  \(table.headers[1]) \(row[1].plain)" : "") + "\n"
            let indent = String(repeating: " ", count: 2 + width + 2 + (labelWidth > 0 ? labelWidth + 2 : 0))
            for column in others where column < row.count && !(row[column].text.isEmpty && row[column].badge == nil) {
                let cell = row[column]
                out += "  " + pad(table.headers[column], width) + "  " + (labelWidth > 0 ? pad(cell.tone.map(word) ?? "", labelWidth) + "  " : "") + cell.plain + "\n"
                // Why a cell departs (or what leaves it open), in its first lines (the rest is on the page and in JSON).
                if let detail = cell.detail, let tone = cell.tone, [.deviation, .accepts, .rejects, .error, .unstable, .open].contains(tone) {
                    let lines = detail.split(separator: "\n", omittingEmptySubsequences: true)
                    out += lines.prefix(4).enumerated().map { indent + ($0.offset == 0 ? "-> " : "   ") + $0.element + "\n" }.joined()
                        + (lines.count > 4 ? indent + "   ...\n" : "")
                }
            }
        }
        if all.count > rows.count { out += "... and \(all.count - rows.count) more (--format markdown lists them; html and json every row)\n" }
        return out
    }

    /// A tone as a word, for records.
    static func word(_ tone: ReportDocument.Tone) -> String {
        switch tone {
        case .pass: return "PASS"
        case .deviation: return "DEVIATION"
        case .accepts, .rejects: return "FAIL"
        case .open: return "OPEN"
        case .error: return "ERROR"
        case .unstable: return "UNSTABLE"
        case .skipped: return "SKIPPED"
        }
    }

    // MARK: Markdown

    public static func markdown(_ document: ReportDocument) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
        func table(_ headers: [String], _ rows: [[String]]) -> String {
            "| " + headers.map(cell).joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: headers.count) + "\n"
                + rows.map { "| " + $0.map(cell).joined(separator: " | ") + " |\n" }.joined()
        }
        var out = "# \(document.title)\n\n"
        if let provenance = document.provenance {
            let command = provenance.command.map(Provenance.quoted).joined(separator: " ").replacingOccurrences(of: "\n", with: " ")
            // A command holding backticks needs a longer fence (CommonMark code spans).
            let fence = command.contains("`") ? "`` " : "`"
            out += "Made by \(cell(provenance.tool)) at \(provenance.generatedAt): \(fence)\(command)\(String(fence.reversed()))"
                + (provenance.profile.map { ". Judged against profile `\($0.rawValue)`: \($0.summary)" } ?? "") + "\n\n"
        }
        if !document.summary.isEmpty { out += document.summary + "\n\n" }
        for section in document.sections {
            out += "## \(section.title)\n\n"
            for block in section.blocks {
                switch block {
                case .paragraph(let text): out += text + "\n\n"
                case .callout(let tone, let text): out += "**\(icon(tone))\(text)**\n\n"
                case .table(let t):
                    if let filter = t.staticFilter { out += "\(filter.label): \(t.staticRows.count) of \(t.rows.count) rows.\n\n" }
                    guard !t.staticRows.isEmpty else { continue }
                    let kept = t.textColumns
                    out += table(kept.map { t.headers[$0] }, t.staticRows.map { row in kept.map { $0 < row.count ? row[$0] : "" }.map {
                        icon($0.tone) + ($0.code ? "`\($0.text)`" : $0.text) + ($0.links ?? []).filter(\.inText).enumerated().map { n, link in (n == 0 ? " " : " · ") + link.text }.joined() + ($0.badge.map { " (\($0))" } ?? "")
                    } }) + "\n"
                    out += legend(t, marks: false).map { $0 + "\n\n" } ?? ""
                    // What HTML lets a reader unfold: a row's own detail, and each departing cell's.
                    var notes = ""
                    for row in t.staticRows where t.staticNotes {
                        let departing = row.enumerated().filter { $0.offset > 0 && $0.element.detail != nil && [.deviation, .accepts, .rejects, .error, .unstable].contains($0.element.tone) }
                        guard let first = row.first, first.detail != nil || !departing.isEmpty else { continue }
                        notes += "- `\(cell(first.text))`" + (first.detail.map { ": \(cell($0))" } ?? "") + "\n"
                        for (index, value) in departing {
                            notes += "  - \(icon(value.tone))\(cell(index < t.headers.count ? t.headers[index] : "")): \(cell(value.detail ?? ""))\n"
                        }
                    }
                    if !notes.isEmpty { out += notes + "\n" }
                case .heatMap(let map):
                    out += table(["back end"] + map.columns, map.rows.map { row in
                        [row.name] + row.cells.map { $0.departures == 0 ? "" : "\($0.accepts.count) / \($0.rejects.count)" + ($0.worst.map { " (\($0.severity.rawValue))" } ?? "") }
                    }) + "\nEach cell: trusted where the standards reject / rejected where they trust (the worst impact).\n\n"
                case .bars(let chart):
                    out += table([chart.title, chart.unit, "note"], chart.bars.map { [$0.label, number($0.value), $0.note] }) + "\n"
                case .details(let details):
                    for detail in details where !detail.items.isEmpty {
                        // Identifiers in code type, one line each; sentences as they are.
                        out += "- **\(cell(detail.title))** (\(detail.items.count))\n"
                        out += detail.items.map { "  - " + ($0.contains(" ") ? cell($0) : "`\(cell($0))`") + "\n" }.joined()
                    }
                    out += "\n"
                }
            }
        }
        return out
    }

    // MARK: JSON

    /// `{"schemaVersion", "provenance", "document": {...}}`.
    public static func json(_ document: ReportDocument) throws -> String {
        struct File: Encodable {
            var schemaVersion = ReportDocument.schemaVersion
            @ExplicitNull var provenance: Provenance?
            var document: ReportDocument
        }
        return try JSONText.encode(File(provenance: document.provenance, document: document)) + "\n"
    }

    // MARK: HTML

    /// A self-contained page: its style sheet and script inline (module resources), figures as
    /// tables and inline SVG, nothing fetched from a network.
    public static func html(_ document: ReportDocument) -> String {
        typealias N = HTMLNode
        typealias A = HTMLNode.Attribute
        var body: [N] = [.element("h1", [], [.text(document.title)])]
        if let provenance = document.provenance {
            body.append(.element("p", [A("class", "meta")], [.text("Made by \(provenance.tool) at \(provenance.generatedAt): "), .element("code", [], [.text(provenance.command.map(Provenance.quoted).joined(separator: " "))])]
                + (provenance.profile.map { [.text("; judged against profile "), .element("b", [], [.text($0.rawValue)]), .text(": \($0.summary)")] } ?? [])))
        }
        if !document.summary.isEmpty { body.append(.element("p", [A("class", "summary")], [.text(document.summary)])) }
        body.append(.element("nav", [], document.sections.map { .element("a", [A("href", "#" + $0.id)], [.text($0.title)]) }))
        for section in document.sections {
            let blocks = section.blocks.map(html)
            if section.folded == true {
                // Folded: the title is the summary; following a link to the section, or into it,
                // unfolds it (document.js).
                body.append(.element("section", [A("id", section.id)], [.element("details", [A("class", "fold")], [.element("summary", [], [.element("h2", [], [.text(section.title)])])] + blocks)]))
            } else {
                body.append(.element("section", [A("id", section.id)], [.element("h2", [], [.text(section.title)])] + blocks))
            }
        }
        let page = N.element("html", [A("lang", "en")], [
            .element("head", [], [
                .element("meta", [A("charset", "utf-8")]),
                // The page loads nothing: inline style and script only, no other source.
                .element("meta", [A("http-equiv", "Content-Security-Policy"), A("content", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'")]),
                .element("meta", [A("name", "viewport"), A("content", "width=device-width, initial-scale=1")]),
                .element("title", [], [.text(document.title)]),
                .element("style", [], [.asset(ReportAssets.text(PackageResources.document_css))]),
            ]),
            .element("body", [], body + [.element("script", [], [.asset(ReportAssets.text(PackageResources.document_js))])]),
        ])
        return "<!DOCTYPE html>\n" + page.render()
    }

    static func html(_ block: ReportDocument.Block) -> HTMLNode {
        typealias N = HTMLNode
        typealias A = HTMLNode.Attribute
        switch block {
        case .paragraph(let text):
            return .element("p", [], [.text(text)])
        case .callout(let tone, let text):
            return .element("p", [A("class", "callout tone \(tone.rawValue)")], [.text(text)])
        case .table(let table):
            return self.table(table)
        case .heatMap(let map):
            let head = N.element("thead", [], [.element("tr", [], [.element("th", [], [.text("back end")])]
                + map.columns.map { .element("th", [A("class", "family")], [.element("span", [], [.text($0)])]) })])
            let rows = map.rows.enumerated().map { r, row in
                N.element("tr", [], [.element("th", [A("class", "row")], [.text(row.name)])] + row.cells.enumerated().map { c, cell in
                    heatCell(cell, anchor: map.anchor(row: r, column: c), title: "\(row.name), \(map.columns[c])")
                })
            }
            return .element("div", [A("class", "scroll")], [.element("table", [A("class", "heat")], [head, .element("tbody", [], rows)])])
        case .bars(let chart):
            return barChart(chart)
        case .details(let details):
            return .element("div", [A("class", "details")], details.filter { !$0.items.isEmpty }.map { detail in
                .element("details", [A("id", detail.id)], [
                    .element("summary", [], [.text("\(detail.title) (\(detail.items.count))")]),
                    .element("ul", [], detail.items.map { .element("li", [], [.element("code", [], [.text($0)])]) }),
                ])
            })
        }
    }

    /// A table: a toolbar when it has switches or a search (the script filters the rows by their
    /// tags and first cell), one `tbody` per row group, cells toned, with their badge, detail and bar.
    static func table(_ table: ReportDocument.Table) -> HTMLNode {
        typealias N = HTMLNode
        typealias A = HTMLNode.Attribute
        let head = N.element("thead", [], [.element("tr", [], table.headers.map { .element("th", [], [.text($0)]) })])
        let interactive = (!table.filters.isEmpty || table.searchable) && table.id != nil
        func tags(_ number: Int) -> [String] { number < table.rowTags.count ? table.rowTags[number] : [] }
        // Codes stay whole (the style sheet never breaks a word); in a table of more columns than a
        // screen gives each code its width (a column per back end of many), they may break after
        // their underscores rather than widen the table past the screen.
        let breakCodes = table.headers.count > 6
        let foldedRows = table.pageFoldedRows, folded = Set(foldedRows)
        var written = table.rows.indices.filter { !folded.contains($0) }
        // Variants answered alike merge into the first row of their group that reads the same.
        var mergedNames: [Int: [String]] = [:]
        if table.pageMergesEqualVariants {
            var kept: [Int] = []
            var firstOf: [[ReportDocument.Table.Cell]: Int] = [:]
            var group: String?
            for number in written {
                let key = number < table.rowGroups.count ? table.rowGroups[number] : nil
                if key != group { (group, firstOf) = (key, [:]) }
                let rest = Array(table.rows[number].dropFirst())
                if key != nil, let first = firstOf[rest], let name = table.rows[number].first?.text {
                    mergedNames[first, default: []].append(name)
                } else {
                    firstOf[rest] = number
                    kept.append(number)
                }
            }
            written = kept
        }
        func row(_ number: Int) -> N {
            var cells = table.rows[number]
            if let others = mergedNames[number], let key = number < table.rowGroups.count ? table.rowGroups[number] : nil {
                // `case/rsa2048 · p256`: the variants after the case's name.
                let variants = ([cells[0].text] + others).map { $0.hasPrefix(key + "/") ? String($0.dropFirst(key.count + 1)) : $0 }
                cells[0].text = key + "/" + variants.joined(separator: " · ")
            }
            var attributes: [A] = []
            if number < table.rowTags.count { attributes.append(A("data-tags", tags(number).joined(separator: " "))) }
            if number < table.rowIDs.count, !table.rowIDs[number].isEmpty { attributes.append(A("id", table.rowIDs[number])) }
            return .element("tr", attributes, cells.enumerated().map { index, cell in
                let classes = (table.numeric.contains(index) ? ["num"] : []) + (cell.tone.map { ["tone", $0.rawValue] } ?? [])
                var label: [N] = cell.code ? [.element("code", [], [.text(cell.text)])] : breakCodes ? N.breakable(cell.text) : [.text(cell.text)]
                for (n, link) in (cell.links ?? []).enumerated() {
                    label += [.text(n == 0 ? (cell.text.isEmpty ? "" : " ") : " · "), .element("a", [A("href", "#" + link.anchor)], [.text(link.text)])]
                }
                if let badge = cell.badge { label.append(.element("span", [A("class", "badge")], [.text(badge)])) }
                if let segments = cell.segments { label.append(bar(segments)) }
                let content: [N] = (cell.pageDetail ?? cell.detail).map { [.element("details", [], [.element("summary", [], label), .element("div", [A("class", "more")], [.text($0)])])] } ?? label
                return .element("td", classes.isEmpty ? [] : [A("class", classes.joined(separator: " "))], content)
            })
        }
        // Row groups: a new body where the key changes, shaded alternately.
        var bodies: [N] = []
        var current: [N] = []
        var key: String?
        var shaded = false
        for number in written {
            let groupKey = number < table.rowGroups.count ? table.rowGroups[number] : nil
            if groupKey != key, !current.isEmpty {
                bodies.append(.element("tbody", key != nil && shaded ? [A("class", "alt")] : [], current))
                current = []
                if key != nil { shaded.toggle() }
            }
            key = groupKey
            current.append(row(number))
        }
        bodies.append(.element("tbody", key != nil && shaded ? [A("class", "alt")] : [], current))
        var parts: [N] = []
        if interactive, let id = table.id {
            var tools: [N] = table.filters.filter { $0.value != table.pageFold?.value }.map { filter in
                let count = written.filter { tags($0).contains(filter.value) }.count
                return .element("label", [], [
                    .element("input", [A("type", "checkbox"), A("data-filter", filter.value), A("data-mode", filter.hides ? "hide" : "only")]),
                    .text(" " + filter.label + " "), .element("span", [A("class", "count")], [.text("\(count)")]),
                ])
            }
            if table.searchable {
                tools.append(.element("input", [A("type", "search"), A("class", "search"), A("placeholder", "search, e.g. expired p256"), A("aria-label", "search the rows")]))
            }
            if table.rows.contains(where: { $0.contains { $0.detail != nil } }) {
                tools += [.element("button", [A("type", "button"), A("data-action", "expand")], [.text("expand")]),
                          .element("button", [A("type", "button"), A("data-action", "collapse")], [.text("collapse")])]
            }
            tools.append(.element("button", [A("type", "button"), A("data-action", "reset")], [.text("reset")]))
            tools.append(.element("span", [A("class", "shown")], [.text("\(written.count) of \(written.count) rows")]))
            parts.append(.element("div", [A("class", "toolbar"), A("data-table", id)], tools))
        }
        parts.append(.element("div", [A("class", "scroll")], [.element("table", [A("class", "cells")] + (table.id.map { [A("id", $0)] } ?? []), [head] + bodies)]))
        if let fold = table.pageFold, !foldedRows.isEmpty {
            let names = foldedRows.compactMap { table.rows[$0].first?.text }
            parts.append(.element("details", [A("class", "folded-rows")], [
                .element("summary", [], [.text("\(fold.label) (\(names.count)): not written as rows")]),
                .element("p", [], names.enumerated().flatMap { n, name -> [N] in (n == 0 ? [] : [.text(", ")]) + [.element("code", [], [.text(name)])] }),
            ]))
        }
        if interactive, let id = table.id {
            parts.append(.element("p", [A("class", "none"), A("data-table", id), A("hidden", "hidden")], [.text("No row matches the filters.")]))
        }
        let used = usedTones(table)
        if !used.isEmpty {
            parts.append(.element("p", [A("class", "legend")], used.map { .element("span", [A("class", "tone \($0.rawValue)")], [.text(table.legend[$0]!)]) }))
        }
        return .element("div", [], parts)
    }

    /// Counts as one bar of toned parts in proportion, each part naming its tone and count.
    static func bar(_ segments: [ReportDocument.Table.Segment]) -> HTMLNode {
        typealias A = HTMLNode.Attribute
        let total = segments.map(\.count).reduce(0, +)
        guard total > 0 else { return .element("div", [A("class", "dist")]) }
        return .element("div", [A("class", "dist")], segments.filter { $0.count > 0 }.map { segment in
            .element("span", [A("class", "tone \(segment.tone.rawValue)"), A("style", "width:\(String(format: "%.3f", Double(segment.count) * 100 / Double(total)))%"),
                              A("title", "\(segment.tone.rawValue): \(segment.count)")])
        })
    }

    /// A heat-map cell: its colour says how much of the cell departs (its share of the cell's
    /// vectors) and in which direction (red: trusted where the standards reject; blue: rejected
    /// where they trust; purple: both); it links to the vectors behind it.
    static func heatCell(_ cell: ReportDocument.HeatMap.Cell, anchor: String, title: String) -> HTMLNode {
        typealias A = HTMLNode.Attribute
        guard cell.total > 0 else { return .element("td", [A("class", "empty")], []) }
        guard cell.departures > 0 else {
            return .element("td", [A("class", "clean"), A("style", "background: \(css(clean.background)); color: \(css(clean.text))"),
                                   A("title", "\(title): \(cell.total) vectors, no departure")], [.text("·")])
        }
        let label = "\(cell.accepts.count)/\(cell.rejects.count)"
        let colour: RGB
        if let worst = cell.worst {
            // The worst impact decides: accepts in reds, deeper the graver; rejects in blues.
            colour = heatColour(worst)
        } else {
            // No impact known: the hue by direction, deeper the larger the share, laid on white.
            let share = Double(cell.departures) / Double(cell.total)
            let alpha = 0.18 + 0.82 * min(1, share)
            let hue: RGB = cell.rejects.isEmpty ? (211, 47, 47) : cell.accepts.isEmpty ? (25, 118, 210) : (123, 31, 162)
            colour = (255 - alpha * (255 - hue.0), 255 - alpha * (255 - hue.1), 255 - alpha * (255 - hue.2))
        }
        let readable = self.readable(colour)
        let background = "background: \(css(readable)); color: \(css(textColour(on: readable)))"
        let weighed = cell.worst.map { "; worst: \($0.severity.rawValue) \($0.class) (\($0.cwe)); by severity: \(cell.severityLine)" } ?? ""
        return .element("td", [A("class", "hot" + (cell.worst.map { " \($0.severity.rawValue)" } ?? "")), A("style", background),
                               A("title", "\(title): \(cell.accepts.count) trusted where the standards reject, \(cell.rejects.count) rejected where they trust, of \(cell.total)\(weighed)")],
                        [.element("a", [A("href", "#" + anchor)], [.text(label)])])
    }

    /// A heat-map cell's colour for its worst impact: accepts from dark red (critical) to amber
    /// (low), rejects from deep to pale blue, the rest grey.
    static func heatColour(_ impact: Impact) -> RGB {
        switch (impact.direction, impact.severity) {
        case (.accepts, .critical): return (122, 0, 25)
        case (.accepts, .high): return (211, 47, 47)
        case (.accepts, .medium): return (239, 108, 0)
        case (.accepts, _): return (214, 160, 0)
        case (.rejects, .critical), (.rejects, .high): return (21, 82, 160)
        case (.rejects, .medium): return (66, 133, 214)
        case (.rejects, _): return (130, 170, 220)
        case (.other, _): return (140, 140, 140)
        }
    }

    /// A colour's red, green and blue, 0-255.
    typealias RGB = (Double, Double, Double)

    /// `rgb(211, 47, 47)`.
    static func css(_ colour: RGB) -> String {
        "rgb(\(Int(colour.0.rounded())), \(Int(colour.1.rounded())), \(Int(colour.2.rounded())))"
    }

    /// WCAG 2 relative luminance.
    static func luminance(_ colour: RGB) -> Double {
        func channel(_ value: Double) -> Double {
            let c = value / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(colour.0) + 0.7152 * channel(colour.1) + 0.0722 * channel(colour.2)
    }

    /// WCAG 2 contrast ratio of two colours (1 to 21; AA asks 4.5 for text this size).
    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The ink for text on `background`: white or the page's dark ink, whichever contrasts more.
    static let ink: RGB = (31, 35, 40)
    /// `colour`, darkened as little as it takes for white or dark text on it to reach WCAG AA (4.5:1):
    /// mid-tones (luminance about 0.18 to 0.25) reach it with neither.
    static func readable(_ colour: RGB) -> RGB {
        var colour = colour
        while max(contrast(colour, white), contrast(colour, ink)) < 4.5 {
            colour = (colour.0 * 0.92, colour.1 * 0.92, colour.2 * 0.92)
        }
        return colour
    }

    /// White or ``ink``, whichever contrasts more with `background`.
    static func textColour(on background: RGB) -> RGB {
        contrast(background, white) >= contrast(background, ink) ? white : ink
    }

    static let white: RGB = (255, 255, 255)

    /// A cell with no departure: a dot in deep green on pale green (8.8:1; the green of the
    /// page's passes, #2e8540, gave 4.2:1).
    static let clean: (background: RGB, text: RGB) = ((234, 246, 236), (29, 77, 36))

    /// Horizontal bars in inline SVG, on one scale, the reference value of each as a tick; bars
    /// of a group under the group's heading, each group in a colour of its own.
    static func barChart(_ chart: ReportDocument.BarChart) -> HTMLNode {
        typealias N = HTMLNode
        typealias A = HTMLNode.Attribute
        let longest = chart.bars.map(\.label.count).max() ?? 10
        let labelWidth = min(380.0, max(160.0, Double(longest) * 7.2 + 16)), barWidth = 420.0, rowHeight = 24.0, headHeight = 26.0
        let top = max(chart.bars.compactMap { bar in [bar.value, bar.reference ?? 0].filter(\.isFinite).max() }.max() ?? 1, 1e-9)
        let palette = ["#2f6db5", "#8a4fb0", "#1f8a7d", "#c0691a", "#b23b6b", "#5a7a1e"]
        var shapes: [N] = []
        var y = 0.0
        var group: String?
        var groups = 0
        for bar in chart.bars {
            if let name = bar.group, name != group {
                shapes.append(.element("text", [A("x", "0"), A("y", f(y + 18)), A("class", "head")], [.text(name)]))
                y += headHeight
                groups += 1
            }
            group = bar.group
            let value = bar.value.isFinite ? max(0, bar.value) : 0
            let width = barWidth * value / top
            let colour = group == nil ? [] : [A("style", "fill: \(palette[(groups - 1) % palette.count])")]
            shapes.append(.element("text", [A("x", f(labelWidth - 8)), A("y", f(y + 16)), A("class", "label"), A("text-anchor", "end")], [.text(bar.label)]))
            shapes.append(.element("rect", [A("x", f(labelWidth)), A("y", f(y + 4)), A("width", f(max(1, width))), A("height", f(rowHeight - 8)), A("class", "bar")] + colour,
                                   [.element("title", [], [.text("\(bar.label): \(number(bar.value)) \(chart.unit)\(bar.note.isEmpty ? "" : "; \(bar.note)")")])]))
            if let reference = bar.reference, reference.isFinite {
                let x = labelWidth + barWidth * reference / top
                shapes.append(.element("line", [A("x1", f(x)), A("x2", f(x)), A("y1", f(y + 1)), A("y2", f(y + rowHeight - 1)), A("class", "reference")]))
            }
            shapes.append(.element("text", [A("x", f(labelWidth + max(1, width) + 6)), A("y", f(y + 16)), A("class", "value")], [.text("\(number(bar.value)) \(chart.unit) \(bar.note)")]))
            y += rowHeight
        }
        let height = y + 4, width = labelWidth + barWidth + 240
        let svg = N.element("svg", [A("xmlns", "http://www.w3.org/2000/svg"), A("width", f(width)), A("height", f(height)),
                                    A("viewBox", "0 0 \(f(width)) \(f(height))"), A("role", "img"), A("aria-label", chart.title)], shapes)
        return .element("figure", [], [.element("div", [A("class", "scroll")], [svg]), .element("figcaption", [], [.text(chart.title)])])
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A tone in plain text: `! ` for the dangerous direction, `- ` for another departure, `~ ` for
    /// a recorded one, nothing for a pass or an open cell.
    static func mark(_ tone: ReportDocument.Tone?) -> String {
        switch tone {
        case .accepts: return "! "
        case .rejects: return "- "
        case .deviation: return "~ "
        case .error: return "E "
        case .unstable: return "? "
        default: return ""
        }
    }

    /// A tone in Markdown.
    static func icon(_ tone: ReportDocument.Tone?) -> String {
        switch tone {
        case .pass: return "✅ "
        case .deviation: return "🟨 "
        case .accepts: return "🟥 "
        case .rejects: return "❌ "
        case .open: return "⬜ "
        case .error: return "⛔ "
        case .unstable: return "🔀 "
        case .skipped: return "⏭ "
        case nil: return ""
        }
    }

    /// The table's legend, in the order of the tones, with text marks or Markdown icons.
    static func legend(_ table: ReportDocument.Table, marks: Bool) -> String? {
        let used = usedTones(table)
        guard !used.isEmpty else { return nil }
        return used.map { (marks ? mark($0) : icon($0)) + table.legend[$0]! }.joined(separator: marks ? "; " : " · ")
    }

    // MARK: Figures, written alike by every document

    /// A measured value with three significant digits or so: `212`, `48.2`, `7.25`.
    static func number(_ value: Double) -> String {
        value >= 100_000 ? grouped(value) : value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    /// A count with thousands grouped: `20,725`.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "n/a" }
        let digits = String(Int(value.rounded()).magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// One figure against another: `1.03x`.
    static func ratio(_ value: Double, to reference: Double) -> String {
        String(format: "%.2fx", value / reference)
    }

    /// The tones the legend names that some cell of the table has.
    static func usedTones(_ table: ReportDocument.Table) -> [ReportDocument.Tone] {
        let present = Set(table.rows.flatMap { $0.compactMap(\.tone) })
        return ReportDocument.Tone.allCases.filter { table.legend[$0] != nil && present.contains($0) }
    }
}
