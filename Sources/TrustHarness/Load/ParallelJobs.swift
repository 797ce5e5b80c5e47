import Foundation

/// Runs independent jobs on every core, a bounded number in flight, and returns their results in
/// job order whatever order they finish in: how the conformance and x509-limbo runners spread
/// evaluations.
package enum ParallelJobs {
    /// `work(0) ... work(count - 1)`, concurrently, at most `width` at once (default: two per core,
    /// so every core stays busy); `progress(done, count)` after each one.
    package static func run<Result: Sendable>(
        count: Int,
        width: Int? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        _ work: @escaping @Sendable (Int) async -> Result
    ) async -> [Result] {
        var results = [Result?](repeating: nil, count: count)
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            var done = 0
            let width = max(1, width ?? max(2, ProcessInfo.processInfo.activeProcessorCount * 2))
            func submit() {
                guard next < count else { return }
                let index = next
                next += 1
                group.addTask { (index, await work(index)) }
            }
            for _ in 0..<width { submit() }
            for await (index, result) in group {
                results[index] = result
                done += 1
                progress?(done, count)
                submit()
            }
        }
        return results.map { $0! }
    }
}
