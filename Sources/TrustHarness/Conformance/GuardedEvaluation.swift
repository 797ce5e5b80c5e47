internal import CTrapReport
import Foundation

/// How the harness runs one evaluation of a back end it does not trust to return: on a thread of its
/// own, labelled with the vector and back end, and watched.
///
/// - **A hang is an outcome.** The caller waits at most `limit` seconds; an evaluation that has not
///   returned by then is reported (``ConformanceRunner`` makes it an ``Outcome/error`` naming the
///   vector and back end) and the run goes on. Its worker thread is left to finish or to hang: a
///   thread cannot be stopped from outside, and the process ends with the run.
/// - **A trap names its evaluation.** Before the evaluation the thread's label is set, and a handler
///   installed once per process writes `trust-harness: the process died (signal N) while evaluating
///   <label>` to standard error when the process dies of SIGILL, SIGTRAP (a Swift trap), SIGABRT,
///   SIGSEGV, SIGBUS or SIGFPE, before the signal goes on to Swift's backtracer or the default action.
public enum GuardedEvaluation {
    /// The longest one evaluation may take before it is reported as a hang, unless the
    /// `TRUST_HARNESS_EVALUATION_LIMIT` environment variable gives another number of seconds.
    public static let limit: TimeInterval = {
        if let text = ProcessInfo.processInfo.environment["TRUST_HARNESS_EVALUATION_LIMIT"], let seconds = TimeInterval(text), seconds > 0 { return seconds }
        return 60
    }()

    /// The result of `body`, or nil when it did not return within `limit` seconds.
    ///
    /// The work runs on a worker thread from a pool (a thread start per evaluation would cost more
    /// than many an evaluation): an idle worker is taken, or a new one made, and given back when the
    /// work returns. A worker whose work never returns is simply never given back.
    public static func run<Value: Sendable>(label: String, limit: TimeInterval = GuardedEvaluation.limit, _ body: @escaping @Sendable () -> Value) -> Value? {
        ctrapreport_install()
        let box = Box<Value>()
        Worker.take().start {
            label.withCString { ctrapreport_set($0) }
            let value = body()
            ctrapreport_set(nil)
            box.finish(value)
        }
        return box.wait(seconds: limit)
    }

    /// A thread that runs one job at a time and goes back to the idle pool after each.
    private final class Worker: @unchecked Sendable {
        /// Idle workers; guarded by `poolLock`.
        nonisolated(unsafe) private static var idle: [Worker] = []
        private static let poolLock = NSLock()

        private let condition = NSCondition()
        private var job: (@Sendable () -> Void)?

        static func take() -> Worker {
            poolLock.lock()
            if let worker = idle.popLast() {
                poolLock.unlock()
                return worker
            }
            poolLock.unlock()
            let worker = Worker()
            let thread = Thread { worker.loop() }
            // The evaluations of a 10,000-certificate chain recurse: as much stack as the main thread's.
            thread.stackSize = 8 << 20
            thread.start()
            return worker
        }

        func start(_ work: @escaping @Sendable () -> Void) {
            condition.lock()
            job = work
            condition.signal()
            condition.unlock()
        }

        private func loop() {
            while true {
                condition.lock()
                while job == nil { condition.wait() }
                let work = job!
                job = nil
                condition.unlock()
                work()
                Self.poolLock.lock()
                Self.idle.append(self)
                Self.poolLock.unlock()
            }
        }
    }

    /// `evaluate` on `backend` for `vector`, as a label.
    public static func label(vector: String, backend: String) -> String { "vector \(vector) on back end \(backend)" }

    /// The hang's message for a report.
    public static func hangMessage(_ label: String, limit: TimeInterval = GuardedEvaluation.limit) -> String {
        "HANG: the evaluation of \(label) did not return within \(String(format: "%g", limit)) s; reported, and the run went on without it (TRUST_HARNESS_EVALUATION_LIMIT sets the limit)"
    }

    /// The value, handed from the evaluating thread to the waiting one under a condition.
    private final class Box<Value>: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: Value?
        private var done = false

        func finish(_ value: Value) {
            condition.lock()
            self.value = value
            done = true
            condition.signal()
            condition.unlock()
        }

        func wait(seconds: TimeInterval) -> Value? {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !done {
                guard condition.wait(until: deadline) else { return nil }
            }
            return value
        }
    }
}
