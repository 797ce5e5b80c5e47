import Foundation

/// Runs an `async` operation to completion on the calling thread, for the synchronous
/// ``TrustCore/TrustEvaluator/evaluate(_:)``.
///
/// swift-certificates' `Verifier.validate` is `async` only because a policy may be: with the
/// policies this back end uses nothing in it waits for anything but its own code. The operation runs
/// as a task whose executor preference (SE-0417) is this executor, so the task's first job and
/// every job after an `await` are enqueued here, and the calling thread runs them itself until the
/// task has finished. No other thread is asked to do the work, so the calling thread never waits
/// for a cooperative-pool thread (the deadlock of a semaphore around a `Task` under load), and a
/// request costs no thread hop.
///
/// If a job ever went to another executor (an actor the operation awaited on) and did not come back
/// within ``timeout``, ``run(_:)`` gives up and returns nil: the caller fails closed.
final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards ``jobs`` and ``finished``; signalled on every enqueue and on completion.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    /// How long the calling thread waits for a job that went elsewhere before giving up.
    static let timeout: TimeInterval = 10

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// The operation's result, or nil when it did not finish in time.
    static func run<Value: Sendable>(_ operation: sending @escaping () async -> Value) -> Value? {
        let executor = CallerThreadExecutor()
        let result = ResultBox<Value>()
        Task(executorPreference: executor) {
            result.value = await operation()
            executor.finish()
        }
        let unowned = executor.asUnownedTaskExecutor()
        while true {
            executor.condition.lock()
            let deadline = Date(timeIntervalSinceNow: timeout)
            while executor.jobs.isEmpty && !executor.finished {
                guard executor.condition.wait(until: deadline) else {
                    executor.condition.unlock()
                    return nil
                }
            }
            if executor.jobs.isEmpty {
                executor.condition.unlock()
                return result.value
            }
            let job = executor.jobs.removeFirst()
            executor.condition.unlock()
            job.runSynchronously(on: unowned)
        }
    }

    /// Written by the task before it signals completion, read by the calling thread after it sees
    /// it under the lock, so the lock orders the two.
    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Value?
    }
}
