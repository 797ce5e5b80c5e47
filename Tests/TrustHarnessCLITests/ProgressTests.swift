import Foundation
import Synchronization
import Testing
@testable import TrustHarnessCLI

/// Progress is counted in what was asked for, says what multiplies the work, and is timed by a
/// clock the tests move by hand: no test sleeps.
@Suite struct ProgressTests {
    /// A clock that moves only when told to.
    final class Clock: Sendable {
        private let time = Mutex(ContinuousClock.now)
        var now: @Sendable () -> ContinuousClock.Instant { { [self] in time.withLock { $0 } } }
        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    }

    /// What a progress wrote, in order.
    final class Written: Sendable {
        private let parts = Mutex<[String]>([])
        var write: @Sendable (String) -> Void { { [self] text in parts.withLock { $0.append(text) } } }
        var all: [String] { parts.withLock { $0 } }
    }

    /// Away from a terminal: a line at once, then none until ten seconds have passed, then one, and
    /// one at the end with the time taken.
    @Test func aLogGetsALineAtMostEveryTenSeconds() {
        let clock = Clock(), written = Written()
        // 741 vectors on 3 back ends, each asked 3 times: 6,669 requests.
        let progress = Progress(label: "evaluating", count: 741, unit: "vectors", detail: "3 back ends, each asked 3 times",
                                style: .lines, write: written.write, now: clock.now)
        #expect(written.all == ["evaluating 0/741 vectors (3 back ends, each asked 3 times)\n"])
        for done in 1...100 {
            clock.advance(.milliseconds(99))
            progress.update(done * 9, of: 6_669)
        }
        #expect(written.all.count == 1, "\(written.all)")
        clock.advance(.milliseconds(100))
        progress.update(1_000, of: 6_669)
        #expect(written.all.last == "evaluating 111/741 vectors (3 back ends, each asked 3 times)\n")
        clock.advance(.seconds(9))
        progress.update(6_669, of: 6_669)
        #expect(written.all.count == 2, "the last step is said by finish, not twice")
        clock.advance(.seconds(3))
        progress.finish()
        progress.finish()
        #expect(written.all.count == 3)
        #expect(written.all.last == "evaluating 741/741 vectors (3 back ends, each asked 3 times), 22 s\n")
        progress.update(1, of: 2)
        #expect(written.all.count == 3, "nothing after the end")
    }

    /// On a terminal: one line in place, at most ten times a second, the last step always, erased
    /// at the end.
    @Test func aTerminalGetsOneLineInPlace() {
        let clock = Clock(), written = Written()
        let progress = Progress(label: "limbo", count: 200, unit: "cases", detail: "2 back ends", style: .inPlace, write: written.write, now: clock.now)
        #expect(written.all.isEmpty)
        progress.update(1, of: 400)
        clock.advance(.milliseconds(50))
        progress.update(2, of: 400)
        #expect(written.all == ["\rlimbo 0/200 cases (2 back ends)\u{1B}[K"])
        clock.advance(.milliseconds(60))
        progress.update(3, of: 400)
        progress.update(400, of: 400)
        #expect(written.all.count == 3 && written.all.last == "\rlimbo 200/200 cases (2 back ends)\u{1B}[K", "\(written.all)")
        progress.finish()
        #expect(written.all.last == "\r\u{1B}[K")
    }

    /// A runner's own steps when there is no item count, and a note that changes (explore's classes).
    @Test func stepsAndANote() {
        let clock = Clock(), written = Written()
        let progress = Progress(label: "explore", count: nil, unit: "mutants", detail: "2 back ends", style: .lines, write: written.write, now: clock.now)
        #expect(written.all == ["explore 0 mutants (2 back ends)\n"], "before its first step, the runner has not said how many")
        clock.advance(.seconds(10))
        progress.update(40, of: 2_000, note: "3 classes")
        #expect(written.all.last == "explore 40/2000 mutants (2 back ends; 3 classes)\n")
        progress.advance(of: 5)
        clock.advance(.milliseconds(400))
        progress.finish()
        #expect(written.all.last == "explore 1/5 mutants (2 back ends), 10 s\n", "\(written.all)")
        #expect(Progress.format(.milliseconds(2_400)) == "2.4 s" && Progress.format(.seconds(185)) == "3 min 05 s")
    }

    /// A run in process (standard error is not a terminal) says its start and its end, in vectors.
    @Test func aRunSaysItsProgressInVectors() async throws {
        let run = try await ToolRun.of(["run", "--id", "valid-chain/*", "--repeat", "1", "--backend", "openssl", "--backend", "gnutls", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        #expect(run.errors.contains("evaluating 0/3 vectors (2 back ends, each asked 3 times)\n"), "\(run)")
        #expect(run.errors.contains("evaluating 3/3 vectors (2 back ends, each asked 3 times), "), "\(run)")
        #expect(!run.output.contains("evaluating"), "progress goes to standard error only")
        let limbo = try await ToolRun.of(["limbo", "--id", "cve::*", "--backend", "gnutls"])
        #expect(limbo.errors.contains("limbo 0/") && limbo.errors.contains(" cases (1 back end), "), "\(limbo)")
    }
}
