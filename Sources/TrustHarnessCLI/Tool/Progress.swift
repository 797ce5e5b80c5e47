import Foundation
import Synchronization

/// How far a long run is, on standard error, counted in what was asked for (vectors, cases,
/// mutants), with what multiplies the work said beside it:
/// `evaluating 12/741 vectors (3 back ends, each asked 3 times)`.
///
/// On a terminal it is one line rewritten in place (at most every ``terminalInterval``) and erased
/// at the end, so the report's own lines are left alone. Anywhere else (a CI log, a file) it writes
/// whole lines: one at the start, then at most one every ``logInterval``, and one at the end with
/// the time taken, so a long run is never silent and a log is not flooded. Standard output, the
/// report, is never touched.
///
/// A runner reports its own steps (one per request, or per measurement); ``update(_:of:note:)``
/// turns them into the unit shown: step `done` of `total` is `done * count / total` of `count`
/// items. The clock is injected, so the intervals are tested without sleeping.
final class Progress: Sendable {
    /// How the progress is written: in place on a terminal, or as whole lines.
    enum Style: Sendable {
        /// One line rewritten with a carriage return: standard error is a terminal.
        case inPlace
        /// Whole lines at most every ``Progress/logInterval``: standard error is a log or a file.
        case lines
    }

    /// The least time between two lines written where standard error is not a terminal.
    static let logInterval: Duration = .seconds(10)
    /// The least time between two rewrites of the line on a terminal.
    static let terminalInterval: Duration = .milliseconds(100)

    private let label: String
    private let count: Int?
    private let unit: String
    private let detail: String?
    private let style: Style
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> ContinuousClock.Instant
    private let started: ContinuousClock.Instant
    private let state: Mutex<State>

    private struct State {
        var shownAt: ContinuousClock.Instant?
        var done = 0
        var total = 0
        var note: String?
        var finished = false
        /// The steps counted by ``Progress/advance(of:)``.
        var counted = 0
    }

    /// A progress line `label done/count unit (detail)`.
    /// - Parameters:
    ///   - count: how many items the run covers, in `unit`; nil: the runner's own steps are shown.
    ///   - detail: what multiplies the work (back ends, repetitions), said after the count.
    ///   - write: where the text goes (standard error), exactly as given: lines end in a newline.
    ///   - now: the clock the intervals are measured with.
    /// In the `.lines` style the first line is written at once.
    init(label: String, count: Int?, unit: String, detail: String? = nil, style: Style,
         write: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.label = label
        self.count = count
        self.unit = unit
        self.detail = detail
        self.style = style
        self.write = write
        self.now = now
        started = now()
        state = Mutex(State())
        if style == .lines {
            state.withLock { $0.shownAt = started }
            write(line(done: 0, total: 0, note: nil) + "\n")
        }
    }

    /// Progress on `tool`'s standard error, in place when it is a terminal, else as whole lines.
    convenience init(label: String, count: Int?, unit: String, detail: String? = nil, in tool: ToolContext) {
        self.init(label: label, count: count, unit: unit, detail: detail, style: tool.standardErrorIsTerminal ? .inPlace : .lines,
                  write: tool.standardError, now: tool.clock)
    }

    /// The runner did step `done` of `total` (its own steps); `note` is said after the detail (the
    /// classes found so far). Writes when the style's interval has passed since the last write (on
    /// a terminal also at the last step); never after ``finish()``.
    func update(_ done: Int, of total: Int, note: String? = nil) {
        let time = now()
        let text: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.done = done
            state.total = total
            state.note = note
            let interval = style == .inPlace ? Self.terminalInterval : Self.logInterval
            let due = state.shownAt.map { time - $0 >= interval } ?? true
            guard due || (style == .inPlace && done >= total) else { return nil }
            state.shownAt = time
            return line(done: done, total: total, note: note)
        }
        guard let text else { return }
        write(style == .inPlace ? "\r\(text)\u{1B}[K" : text + "\n")
    }

    /// One more step of `total` done, for a runner that does not count its own steps.
    func advance(of total: Int) {
        let done = state.withLock { state in
            state.counted += 1
            return state.counted
        }
        update(done, of: total)
    }

    /// The end of the run: on a terminal the line is erased; otherwise the last line is written,
    /// with the time the run took. Only the first call writes.
    func finish() {
        let time = now()
        let last: State? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            return state
        }
        guard let last else { return }
        switch style {
        case .inPlace:
            write("\r\u{1B}[K")
        case .lines:
            write(line(done: last.done, total: last.total, note: last.note) + ", \(Self.format(time - started))\n")
        }
    }

    /// `label done/count unit (detail; note)`, the runner's steps turned into items (without a
    /// count, the runner's steps as they are).
    private func line(done: Int, total: Int, note: String?) -> String {
        let shown: String
        if let count {
            let items = total > 0 ? Int((Int64(min(done, total)) * Int64(count)) / Int64(total)) : 0
            shown = "\(items)/\(count)"
        } else {
            // The runner's own steps; before its first, how many is not known yet.
            shown = total > 0 ? "\(done)/\(total)" : "\(done)"
        }
        let said = [detail, note].compactMap { $0 }.joined(separator: "; ")
        return "\(label) \(shown) \(unit)" + (said.isEmpty ? "" : " (\(said))")
    }

    /// A duration for people: `0.4 s`, `12 s`, `3 min 05 s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds < 10 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 60 ? "\(whole) s" : String(format: "%d min %02d s", whole / 60, whole % 60)
    }

    /// `3 back ends` or `1 back end`: the detail of every command that runs back ends.
    static func backends(_ count: Int) -> String {
        count == 1 ? "1 back end" : "\(count) back ends"
    }

    /// `each asked once`, `each asked 5 times`: how often a command asks every request.
    static func asked(_ times: Int) -> String {
        times == 1 ? "each asked once" : "each asked \(times) times"
    }
}
