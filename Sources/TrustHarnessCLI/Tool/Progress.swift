import Foundation
import Synchronization

/// A one-line progress counter on standard error, only when standard error is a terminal, so piped
/// and redirected output stays exactly the report.
final class Progress: Sendable {
    private let label: String
    private let last = Mutex<(shown: Int, at: Date)>((0, .distantPast))

    private init(label: String) {
        self.label = label
    }

    static func onTerminal(label: String) -> Progress? {
        isatty(STDERR_FILENO) == 1 ? Progress(label: label) : nil
    }

    func update(_ done: Int, _ total: Int) {
        let now = Date()
        let show = last.withLock { state -> Bool in
            guard done == total || now.timeIntervalSince(state.at) > 0.1 else { return false }
            state = (done, now)
            return true
        }
        if show {
            FileHandle.standardError.write(Data("\r\(label) \(done)/\(total)".utf8))
        }
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
