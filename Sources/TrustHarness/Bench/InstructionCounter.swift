import Foundation
internal import CCallgrind

/// Instructions counted by Valgrind's callgrind around a piece of work in this process: the count the
/// simulated CPU executed, every thread's added, which is the same from run to run for the same
/// binary and inputs whatever else the machine does (unlike time). `trust-harness bench
/// --instructions` starts itself again under callgrind (``commandLine(executable:arguments:dumps:)``)
/// and counts there.
///
/// Each count zeroes callgrind's counters, runs the work, and has callgrind write them to its next
/// dump file (`<dumps>.<n>`, complete when the request returns), whose `totals:` line is read back
/// and, unless kept, removed. Counting is single-threaded: the caller counts one piece at a time.
public struct InstructionCounter: ~Copyable {
    /// The environment variable naming the dump file stem the parent gave callgrind
    /// (`--callgrind-out-file`): set, and callgrind running, means this process counts.
    public static let environmentKey = "TRUST_HARNESS_CALLGRIND_OUT"

    /// The dump file stem callgrind writes to: dump n is `<stem>.<n>`.
    let stem: String
    /// Whether dump files stay after they were read (`callgrind_annotate` on one shows where its
    /// instructions went).
    let keep: Bool
    /// Dumps written so far.
    private var dumps = 0
    /// The labels of the dumps, in order (dump n is `labels[n - 1]`).
    private(set) var labels: [String] = []

    /// The counter of this process when it runs under Valgrind with ``environmentKey`` set; nil
    /// otherwise (no counting is possible here).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment, keep: Bool = false) {
        guard let stem = environment[Self.environmentKey], !stem.isEmpty, ccallgrind_running_on_valgrind() != 0 else { return nil }
        self.stem = stem
        self.keep = keep
    }

    /// The instructions `body` executed, in every thread of the process, named `label` in the dump.
    ///
    /// - Throws: ``BenchmarkError`` (kind ``BenchmarkError/Kind/countFailed``) when callgrind wrote no
    ///   dump or one without a `totals:` line (another Valgrind tool, or a dump written elsewhere).
    public mutating func count(_ label: String, _ body: () throws(BenchmarkError) -> Void) throws(BenchmarkError) -> UInt64 {
        ccallgrind_zero_stats()
        try body()
        label.withCString { ccallgrind_dump_stats_at($0) }
        dumps += 1
        labels.append(label)
        let file = "\(stem).\(dumps)"
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw BenchmarkError(kind: .countFailed, message: "callgrind wrote no dump \(file) for \(label): is this process running under `valgrind --tool=callgrind --callgrind-out-file=\(stem)`?")
        }
        if !keep { try? FileManager.default.removeItem(atPath: file) }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) { return value }
        }
        throw BenchmarkError(kind: .countFailed, message: "callgrind's dump \(file) for \(label) has no totals line")
    }

    /// The command that runs `executable` with `arguments` under callgrind, writing its dumps to
    /// `<dumps>.<n>` and nothing else: no cache simulation (instructions only), collection from the
    /// start so that zeroing and dumping delimit each count, and Valgrind's own
    /// messages kept to errors. The environment to give it is ``environment(dumps:)``.
    public static func commandLine(valgrind: String, executable: String, arguments: [String], dumps: String) -> [String] {
        [valgrind, "--tool=callgrind", "-q", "--callgrind-out-file=\(dumps)", "--compress-strings=no", "--compress-pos=no",
         executable] + arguments
    }

    /// The environment of the counting process: this one's, with the dump stem, and with Swift's
    /// hashing made deterministic so that dictionaries probe alike in every run.
    public static func environment(dumps: String, base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment[environmentKey] = dumps
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        return environment
    }
}
