import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Sharded exploration: a run's mutant sequence cut into N interleaved parts, each explored on its
/// own (another process, another machine, a batch job's array task), and the parts merged into
/// exactly the report one unsharded run gives.
///
/// Every shard makes the whole plan (the bases re-keyed and evaluated once, the mutant sequence the
/// seed draws, cut at `cases`) and evaluates the mutants whose index `i` has `i % count == index`.
/// A shard keeps only its own classes, each with the index of the mutant that first fell in it and
/// of its example; the merge adds their counts, keeps the smallest example (the earliest of equal
/// size) and orders classes by their first mutant, which is what one pass in order does. So the
/// merged classes, examples and answers do not depend on the number of shards or their order. Every
/// signature is deterministic (Ed25519 and RSA PKCS #1 v1.5 by construction, ECDSA by RFC 6979,
/// ``ReproducibleECDSA``), so every shard makes the same bytes for a mutant as any other run.
extension Explorer {
    /// Part `index` (from 0) of `count`.
    public struct Shard: Sendable, Codable, Equatable, CustomStringConvertible {
        public var index: Int
        public var count: Int

        /// - Throws: ``ShardError/badShard(_:)`` unless `0 <= index < count`.
        public init(index: Int, count: Int) throws(ShardError) {
            guard count >= 1, (0..<count).contains(index) else { throw .badShard("shard \(index + 1) of \(count): give K/N with 1 <= K <= N") }
            self.index = index
            self.count = count
        }

        /// `K/N` with 1 <= K <= N, as `explore --shard` and a batch scheduler's array index write it.
        public init(parsing text: String) throws(ShardError) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
                throw .badShard("\"\(text)\" is not K/N (e.g. 3/8)")
            }
            try self.init(index: k - 1, count: n)
        }

        /// `K/N`, K from 1.
        public var description: String { "\(index + 1)/\(count)" }

        func contains(_ position: Int) -> Bool { position % count == index }
    }

    /// What makes two shards parts of one run: everything that decides the mutant sequence and the
    /// answers. Shards merge only when theirs are equal.
    public struct RunKey: Sendable, Codable, Equatable {
        public var seed: UInt64
        public var cases: Int?
        public var pairs: Int
        public var keyTypes: [KeyType]
        public var profile: StandardsProfile
        /// The back ends, by name, and the library each loaded (its version string): a shard run on
        /// another build of a library answers for that build.
        public var backends: [String]
        public var libraries: [String]
        /// The bases (vector ids, or your chain's) and the mutations drawn, by name.
        public var bases: [String]
        public var mutations: [String]
        /// The length of the mutant sequence.
        public var mutants: Int
    }

    /// One shard's output: its part of the run, to be merged (``Explorer/merge(_:)``).
    public struct ShardResult: Sendable, Codable {
        /// `trust-harness explore shard`, and the version of this format.
        public var format: String
        public var version: Int
        /// The tool that made it (free text, for people).
        public var producer: String
        public var run: RunKey
        public var shard: Shard
        /// The mutants this shard evaluated, and the seconds it took.
        public var evaluated: Int
        public var seconds: Double
        var header: Header
        var tally: Tally

        public static let formatName = "trust-harness explore shard"
        public static let currentVersion = 1
        /// The classes this shard found (before merging).
        public var classes: Int { tally.classes.count }
    }

    /// Why shards cannot be made or merged; every message names the file concerned.
    public enum ShardError: Error, Equatable, CustomStringConvertible {
        case badShard(String)
        case notMergeable(String)

        public var description: String {
            switch self {
            case .badShard(let text), .notMergeable(let text): text
            }
        }
    }

    /// Explores shard `shard` of the run `options` describe. `options.seconds` must be nil: a time
    /// budget would make the parts depend on each machine's speed.
    public func runShard(_ options: Options, shard: Shard, producer: String, progress: (@Sendable (Int, Int, Int) -> Void)? = nil) async throws -> ShardResult {
        guard options.seconds == nil else { throw ShardError.badShard("a sharded run has no time budget (--seconds): its parts would depend on each machine's speed") }
        let start = ContinuousClock.now
        let plan = try await prepare(options)
        var tally = Tally()
        let indices = plan.candidates.indices.filter(shard.contains)
        await explore(plan, indices: indices, options: options, deadline: nil, into: &tally, progress: progress)
        return ShardResult(
            format: ShardResult.formatName, version: ShardResult.currentVersion, producer: producer,
            run: runKey(options, plan: plan), shard: shard, evaluated: indices.count,
            seconds: Explorer.seconds(ContinuousClock.now - start),
            header: plan.header, tally: tally
        )
    }

    func runKey(_ options: Options, plan: Plan) -> RunKey {
        RunKey(
            seed: options.seed, cases: options.cases, pairs: options.pairs,
            keyTypes: options.keyTypes.isEmpty ? [.ed25519] : options.keyTypes, profile: options.profile,
            backends: backends.map(\.name), libraries: backends.map(\.libraryVersion),
            bases: bases.map(\.id), mutations: mutations.map(\.name), mutants: plan.candidates.count
        )
    }

    /// Merges every shard of one run into the report one unsharded run gives (its `seconds` is the
    /// shards' total). `shards` pairs each result with the name of the file it came from, for the
    /// messages.
    /// - Throws: ``ShardError/notMergeable(_:)`` when a file is of another format or version, from
    ///   another run, a shard of another count, given twice, or when a shard is missing: never a
    ///   report that silently lacks or repeats a part.
    public static func merge(_ shards: [(file: String, result: ShardResult)]) throws(ShardError) -> Report {
        guard let (firstFile, first) = shards.first else { throw .notMergeable("no shard to merge") }
        var seen: [Int: String] = [:]
        for (file, result) in shards {
            guard result.format == ShardResult.formatName, result.version == ShardResult.currentVersion else {
                throw .notMergeable("\(file): a \(result.format) file of version \(result.version), not a \(ShardResult.formatName) file of version \(ShardResult.currentVersion)")
            }
            if let difference = Self.difference(result.run, first.run) {
                throw .notMergeable("\(file): from another run than \(firstFile) (\(difference))")
            }
            guard result.shard.count == first.shard.count else {
                throw .notMergeable("\(file): shard \(result.shard) of a run cut in \(result.shard.count), \(firstFile) in \(first.shard.count)")
            }
            if let earlier = seen[result.shard.index] {
                throw .notMergeable("\(file): shard \(result.shard) is given twice (also \(earlier)): merging it twice would count its mutants twice")
            }
            seen[result.shard.index] = file
            guard result.header == first.header else {
                throw .notMergeable("\(file): its back ends trusted other bases than in \(firstFile) (another build of a library, or other vectors)")
            }
            let expected = (0..<first.run.mutants).filter(result.shard.contains).count
            guard result.evaluated == expected else {
                throw .notMergeable("\(file): shard \(result.shard) evaluated \(result.evaluated) mutants, not its \(expected)")
            }
        }
        let missing = (0..<first.shard.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw .notMergeable("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0 + 1)/\(first.shard.count)" }.joined(separator: ", ")) missing: \(shards.count) of \(first.shard.count) given")
        }
        var tally = Tally()
        var seconds = 0.0
        for (_, result) in shards.sorted(by: { $0.result.shard.index < $1.result.shard.index }) {
            tally.add(result.tally)
            seconds += result.seconds
        }
        return first.header.report(tally, seconds: seconds)
    }

    /// The first field in which two runs differ, said for people; nil when they are the same run.
    static func difference(_ a: RunKey, _ b: RunKey) -> String? {
        if a.seed != b.seed { return "seed \(a.seed), not \(b.seed)" }
        if a.cases != b.cases { return "cases \(a.cases.map(String.init) ?? "all"), not \(b.cases.map(String.init) ?? "all")" }
        if a.pairs != b.pairs { return "pairs \(a.pairs), not \(b.pairs)" }
        if a.keyTypes != b.keyTypes { return "key types \(a.keyTypes.map(\.rawValue)), not \(b.keyTypes.map(\.rawValue))" }
        if a.profile != b.profile { return "profile \(a.profile.rawValue), not \(b.profile.rawValue)" }
        if a.backends != b.backends { return "back ends \(a.backends), not \(b.backends)" }
        if a.libraries != b.libraries { return "libraries \(a.libraries), not \(b.libraries)" }
        if a.bases != b.bases { return "other bases (\(a.bases.count) against \(b.bases.count))" }
        if a.mutations != b.mutations { return "other mutations (\(a.mutations.count) against \(b.mutations.count))" }
        if a.mutants != b.mutants { return "\(a.mutants) mutants, not \(b.mutants)" }
        return nil
    }
}
