import TrustVectors
import Foundation

/// A report as data: what a command found, independent of how it is written. Every writer
/// (``DocumentWriter``: text, Markdown, HTML, JSON) renders any document, so a command builds a
/// document once and the format is the reader's choice.
public struct ReportDocument: Sendable, Codable, Hashable {
    /// The version of this shape in JSON; 1 is the first. 2 added callouts, a cell's badge and
    /// segments, a table's row groups, search and hiding filters, and a bar's group. 3 added a section's
    /// folding, a cell's links and page detail, and a table's row anchors and page fold.
    public static let schemaVersion = 3

    public var title: String
    public var provenance: Provenance?
    /// A line or two under the title: what the document is about.
    public var summary: String
    public var sections: [Section]
    /// What a CI system reads as tests (JUnit): one group per back end, one check per case; nil
    /// when the command's findings are not pass/fail checks.
    public var checks: Checks?

    public init(title: String, provenance: Provenance?, summary: String = "", sections: [Section], checks: Checks? = nil) {
        self.title = title
        self.provenance = provenance
        self.summary = summary
        self.sections = sections
        self.checks = checks
    }

    /// The document's cases as checks: a suite name (`<testsuites name>`), then per back end its
    /// library and its cases in order.
    public struct Checks: Sendable, Codable, Hashable {
        public var suite: String
        public var groups: [Group]

        public init(suite: String, groups: [Group]) {
            self.suite = suite
            self.groups = groups
        }

        /// One group per back end, `cases(name)` giving its checks in order.
        public init(suite: String, backends: [BackendInfo], cases: (String) -> [Check]) {
            self.init(suite: suite, groups: backends.map { Group(name: $0.name, library: $0.version, checks: cases($0.name)) })
        }

        public struct Group: Sendable, Codable, Hashable {
            public var name: String
            public var library: String
            public var checks: [Check]

            public init(name: String, library: String, checks: [Check]) {
                self.name = name
                self.library = library
                self.checks = checks
            }
        }
    }

    /// One case on one back end: passed; skipped (a recorded departure, a case not asked) with why;
    /// failed with its `type` (a failure class); or an error (the case could not be evaluated).
    public struct Check: Sendable, Codable, Hashable {
        public enum Status: String, Sendable, Codable, Hashable { case passed, skipped, failed, error }
        public var name: String
        public var status: Status
        /// The class of a failure (such as `acceptedShouldReject`).
        public var type: String?
        /// The one-line message of a skip, failure or error.
        public var message: String
        /// The body of a failure or error: what was expected and observed.
        public var body: String
        public var seconds: Double

        public init(name: String, status: Status, type: String? = nil, message: String = "", body: String = "", seconds: Double = 0) {
            self.name = name
            self.status = status
            self.type = type
            self.message = message
            self.body = body
            self.seconds = seconds
        }
    }

    /// A titled part of the document; `id` is its anchor in HTML (`#id`).
    public struct Section: Sendable, Codable, Hashable {
        public var id: String
        public var title: String
        public var blocks: [Block]
        /// Where text (a terminal) shows the section.
        public var inText: TextPlacement
        /// Whether a page shows the section folded (its title, unfolded on a click or by its
        /// address): detail a reader may want, kept off the page's first screens.
        public var folded: Bool?

        public init(id: String, title: String, blocks: [Block], inText: TextPlacement = .inOrder, folded: Bool = false) {
            self.id = id
            self.title = title
            self.blocks = blocks
            self.inText = inText
            self.folded = folded ? true : nil
        }

        public enum TextPlacement: String, Sendable, Codable, Hashable {
            case inOrder
            /// After every other section: a terminal shows the last lines (a run's summary).
            case atEnd
            /// Not at all, where another section already says it there (the matrix's records carry
            /// the reasons the page lists in a section of their own).
            case omitted
        }
    }

    /// What a section holds.
    public enum Block: Sendable, Codable, Hashable {
        case paragraph(String)
        case table(Table)
        case heatMap(HeatMap)
        case bars(BarChart)
        /// Named groups of items, each group with an anchor (`id`): the cases behind a figure.
        case details([Detail])
        /// A line that stands out, toned by how things stand (e.g. `.pass`: nothing unexpected).
        case callout(Tone, String)
    }

    /// How a cell's answer stands against what was expected of it.
    public enum Tone: String, Sendable, Codable, Hashable, CaseIterable {
        /// As expected.
        case pass
        /// Otherwise than expected, exactly as recorded.
        case deviation
        /// Trusted where a rejection was expected (the dangerous direction).
        case accepts
        /// Rejected where trust (or another reason) was expected.
        case rejects
        /// Nothing to judge against (left open, not run).
        case open
        /// The request could not be evaluated (an error, not a verdict).
        case error
        /// Different verdicts when the same request was asked again.
        case unstable
        /// Not asked: the back end cannot honour what the case needs.
        case skipped
    }

    /// Rows of cells under headers; `numeric` columns are right-aligned; `legend` says what each
    /// tone used means here.
    public struct Table: Sendable, Codable, Hashable {
        /// A cell: its text, how it stands, and what a reader may unfold (a library's diagnostics).
        public struct Cell: Sendable, Codable, Hashable, ExpressibleByStringLiteral {
            public var text: String
            public var tone: Tone?
            public var detail: String?
            /// An identifier (a vector's or a case's id): set in code type.
            public var code: Bool
            /// A short label beside the text, so that colour is not the only signal ("accepts!").
            public var badge: String?
            /// A figure in the cell: counts drawn as one bar of proportional, toned parts (HTML);
            /// a column whose every cell is only a figure is left out of text and Markdown.
            public var segments: [Segment]?
            /// Links after the text to anchors of the same document (a rule's quote, written once).
            public var links: [Link]?
            /// What a page unfolds instead of ``detail``, when the document writes the rest once
            /// elsewhere (a recorded deviation's reason, under its own section): text and Markdown,
            /// which have no links to follow, keep ``detail``.
            public var pageDetail: String?

            public init(_ text: String, tone: Tone? = nil, detail: String? = nil, code: Bool = false, badge: String? = nil, segments: [Segment]? = nil, links: [Link]? = nil) {
                self.text = text
                self.tone = tone
                self.detail = detail
                self.code = code
                self.badge = badge
                self.segments = segments
                self.links = links
            }

            public init(stringLiteral text: String) { self.init(text) }
        }

        /// A link to an anchor of the same document: its text and the anchor (without `#`).
        public struct Link: Sendable, Codable, Hashable {
            public var text: String
            public var anchor: String
            /// Whether formats without a page's anchors (text, Markdown) show the text: a rule's name
            /// does; a pointer ("about", "why") to what those formats write beside it does not.
            public var inText: Bool

            public init(_ text: String, anchor: String, inText: Bool = true) {
                self.text = text
                self.anchor = anchor
                self.inText = inText
            }
        }

        /// One part of a ``Cell/segments`` bar.
        public struct Segment: Sendable, Codable, Hashable {
            public var tone: Tone
            public var count: Int

            public init(_ tone: Tone, _ count: Int) {
                self.tone = tone
                self.count = count
            }
        }

        /// A switch over the rows (HTML): show only the rows whose tags hold `value`, or, when
        /// `hides`, hide them. Switches combine: every "only" switched on must hold, no "hide" may.
        public struct Filter: Sendable, Codable, Hashable {
            public var value: String
            public var label: String
            public var hides: Bool

            public init(_ value: String, _ label: String, hides: Bool = false) {
                self.value = value
                self.label = label
                self.hides = hides
            }
        }

        public var headers: [String]
        public var rows: [[Cell]]
        public var numeric: Set<Int>
        public var legend: [Tone: String]
        /// The table's anchor, and the filter's choices with each row's tags (parallel to `rows`);
        /// a page's `#only=VALUE` presets the filter.
        public var id: String?
        public var filters: [Filter]
        public var rowTags: [[String]]
        /// In formats with no filter (text, Markdown): only the rows tagged with this filter's value,
        /// when set (a page holds every case; a pull-request comment the departures).
        public var staticFilter: Filter?
        /// Whether text and Markdown list, after the table, what a page lets a reader unfold (false
        /// when the document says it elsewhere).
        public var staticNotes = true
        /// Whether a page offers a search over the rows' first cells (words that must all occur).
        public var searchable = false
        /// How text lays the table out: a grid, or one record per row (for a row per vector and a
        /// column per back end, which a terminal cannot fit side by side).
        public var textLayout: TextLayout = .grid
        /// At most this many rows in text (a terminal), then how many more the other formats list.
        public var textLimit: Int?

        public enum TextLayout: String, Sendable, Codable, Hashable {
            /// Columns side by side, padded.
            case grid
            /// Per row, a heading line (the first cell, then the second under its header), then one
            /// line per other column: its header, the cell's tone as a word, its text, and, where the
            /// cell departs (not a pass), its detail indented below.
            case records
        }
        /// A key per row (parallel to `rows`): consecutive rows with one key are shaded as a group
        /// (the key-type variants of one case).
        public var rowGroups: [String] = []
        /// An anchor per row (parallel to `rows`, empty for none): where links to a row land.
        public var rowIDs: [String] = []
        /// On a page, the rows tagged with this filter's value are not written as rows but as one
        /// folded list of their first cells under the table (the conformance matrix's vectors every
        /// back end passes: hundreds of rows that say the same thing); text and Markdown keep them.
        public var pageFold: Filter?
        /// On a page, a row whose cells after the first equal an earlier row's of its group
        /// (``rowGroups``: a case's key-type variants that every back end answers word for word
        /// alike) is not written: that row names both, `case/rsa2048 · p256`. Text and Markdown
        /// keep every row.
        public var pageMergesEqualVariants = false

        public init(headers: [String], cells: [[Cell]], numeric: Set<Int> = [], legend: [Tone: String] = [:],
                    id: String? = nil, filters: [Filter] = [], rowTags: [[String]] = [], staticFilter: Filter? = nil) {
            self.headers = headers
            self.rows = cells
            self.numeric = numeric
            self.legend = legend
            self.id = id
            self.filters = filters
            self.rowTags = rowTags
            self.staticFilter = staticFilter
        }

        /// The table as a format with no filter shows it: with ``staticFilter``, only its rows.
        public var staticRows: [[Cell]] {
            guard let filter = staticFilter else { return rows }
            return rows.indices.filter { $0 < rowTags.count && rowTags[$0].contains(filter.value) }.map { rows[$0] }
        }

        public init(headers: [String], rows: [[String]], numeric: Set<Int> = []) {
            self.init(headers: headers, cells: rows.map { $0.map { Cell($0) } }, numeric: numeric)
        }

        /// The rows ``pageFold`` lists by their first cells instead of writing them.
        public var pageFoldedRows: [Int] {
            guard let fold = pageFold else { return [] }
            return rows.indices.filter { $0 < rowTags.count && rowTags[$0].contains(fold.value) }
        }
    }

    /// Rows (back ends) against columns (families of the standards): in each cell, how many of the
    /// cell's vectors the row departs on, in which direction, and which they are.
    public struct HeatMap: Sendable, Codable, Hashable {
        public struct Cell: Sendable, Codable, Hashable {
            /// Vectors in the cell the row answered (left-open ones excluded).
            public var total: Int
            /// Trusted where the standards call for rejection, and the vectors.
            public var accepts: [String]
            /// Rejected where the standards call for trust (or for another reason), and the vectors.
            public var rejects: [String]

            /// The most serious impact among the cell's departures (``TrustVectors/Impact``): its
            /// severity and class, which colour the cell; nil when none is known.
            public var worst: Impact?
            /// The cell's departures by severity (`critical`, `high`, ...; `unclassified`).
            public var bySeverity: [String: Int]?

            public init(total: Int, accepts: [String], rejects: [String], worst: Impact? = nil, bySeverity: [String: Int]? = nil) {
                self.total = total
                self.accepts = accepts
                self.rejects = rejects
                self.worst = worst
                self.bySeverity = bySeverity
            }

            /// `critical 1 · high 3`: the departures by severity, most serious first.
            public var severityLine: String { ImpactCatalogue.Severity.line(bySeverity ?? [:]) }

            public var departures: Int { accepts.count + rejects.count }
        }

        public struct Row: Sendable, Codable, Hashable {
            public var name: String
            public var cells: [Cell]

            public init(name: String, cells: [Cell]) {
                self.name = name
                self.cells = cells
            }
        }

        public var columns: [String]
        public var rows: [Row]
        /// The anchor prefix of the cells' details (`<prefix>-<row>-<column>`).
        public var detailPrefix: String

        public init(columns: [String], rows: [Row], detailPrefix: String) {
            self.columns = columns
            self.rows = rows
            self.detailPrefix = detailPrefix
        }

        /// The anchor of a cell's details.
        public func anchor(row: Int, column: Int) -> String { "\(detailPrefix)-\(row)-\(column)" }
    }

    /// Horizontal bars, each with a value and, where there is one, a reference value drawn as a tick
    /// (e.g. a bridge's time per evaluation against its library's own loop).
    public struct BarChart: Sendable, Codable, Hashable {
        public struct Bar: Sendable, Codable, Hashable {
            public var label: String
            public var value: Double
            public var reference: Double?
            public var note: String
            /// Consecutive bars with one group are drawn under its heading, in its colour.
            public var group: String?

            public init(label: String, value: Double, reference: Double? = nil, note: String = "", group: String? = nil) {
                self.label = label
                self.value = value
                self.reference = reference
                self.note = note
                self.group = group
            }
        }

        public var title: String
        public var unit: String
        public var bars: [Bar]

        public init(title: String, unit: String, bars: [Bar]) {
            self.title = title
            self.unit = unit
            self.bars = bars
        }
    }

    /// A group of items behind a figure, with its anchor.
    public struct Detail: Sendable, Codable, Hashable {
        public var id: String
        public var title: String
        public var items: [String]

        public init(id: String, title: String, items: [String]) {
            self.id = id
            self.title = title
            self.items = items
        }
    }
}

extension ReportDocument.Table {
    /// The columns text and Markdown show: all but those whose every cell is only a figure.
    public var textColumns: [Int] {
        guard !rows.isEmpty else { return Array(headers.indices) }
        return headers.indices.filter { column in
            !rows.allSatisfy { column < $0.count && $0[column].segments != nil && $0[column].text.isEmpty }
        }
    }
}

extension ReportDocument.Table.Cell {
    /// The text with its badge, as formats without colour show it.
    public var plain: String { badge.map { "\(text) (\($0))" } ?? text }
}
