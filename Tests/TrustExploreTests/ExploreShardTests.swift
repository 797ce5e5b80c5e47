import Foundation
import GnuTLSBackend
import OpenSSLBackend
import Testing
import TrustCore
import TrustBackendKit
@testable import TrustExplore
import TrustHarness
@testable import TrustVectors

/// Shards that add up (issue 48): 1, 3 and 8 shards of one run, each written to JSON and read back,
/// merged in any order, give the unsharded run's report byte for byte; and what cannot be merged is
/// refused with the file named.
@Suite struct ExploreShardTests {
    static let backends: [any TrustBackend] = [OpenSSLBackend(configuration: .uncached), GnuTLSBackend(configuration: .uncached)]

    /// Every eighth mutation of the catalogue, key and signature mutations included: enough for
    /// pairs, shared classes and competing examples, in a second or two of swift test. Mutants are
    /// signed with P-256 (ECDSA, deterministic by RFC 6979) and, for the key mutations, Ed25519, P-384
    /// and RSA, so a signer that drew its nonce at random would make the shards' bytes differ.
    static func sample() -> [Mutation] {
        MutationCatalogue.all.enumerated().filter { $0.offset % 8 == 0 }.map(\.element)
    }

    static let options = Explorer.Options(seed: 11, pairs: 60, keyTypes: [.p256])

    static func explorer() throws -> Explorer {
        let bases = ChainModel.bases(from: try ExploreFixtures.suite.get(), matching: ["valid-chain/p256", "valid-chain/rsa2048"])
        return Explorer(backends: backends, bases: bases, mutations: sample())
    }

    /// The report as JSON with its measured fields (seconds, the cores' time) set aside.
    static func json(_ report: Explorer.Report) throws -> String {
        var report = report
        report.seconds = 0
        report.coreTime = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// A shard as a file holds it: encoded and decoded again.
    static func roundTrip(_ shard: Explorer.ShardResult) throws -> Explorer.ShardResult {
        try JSONDecoder().decode(Explorer.ShardResult.self, from: JSONEncoder().encode(shard))
    }

    static func shards(_ count: Int, of explorer: Explorer) async throws -> [(file: String, result: Explorer.ShardResult)] {
        var shards: [(file: String, result: Explorer.ShardResult)] = []
        for index in 0..<count {
            let shard = try await explorer.runShard(options, shard: try Explorer.Shard(index: index, count: count), producer: "test")
            shards.append(("shard-\(index + 1)-of-\(count).json", try roundTrip(shard)))
        }
        return shards
    }

    /// The unsharded run, made once for this suite and the ranking's.
    static let whole = Task { () throws -> Explorer.Report in try await explorer().run(options) }

    @Test func oneThreeAndEightShardsMergeIntoTheUnshardedReport() async throws {
        let explorer = try Self.explorer()
        let whole = try await Self.whole.value
        #expect(whole.findings.count >= 10, "\(whole.findings.count) classes")
        #expect(whole.findings.contains { $0.steps.count == 2 }, "a pair class, so that pairs are merged too")
        #expect(whole.findings.contains { $0.occurrences > 1 }, "a class of several mutants, so that examples compete")
        // Two bases, both re-keyed to P-256 (their names differ): a class found on both has examples
        // of the same size and other bytes, so which one is kept shows.
        #expect(whole.bases.count == 2)
        for count in [1, 3, 8] {
            let shards = try await Self.shards(count, of: explorer)
            #expect(shards.map(\.result.evaluated).reduce(0, +) == whole.mutants + whole.notApplicable)
            let merged = try Explorer.merge(shards)
            #expect(try Self.json(merged) == Self.json(whole), "\(count) shards")
            // The cores' time is measured, but each back end's number of evaluations is counted:
            // the shards' add up to the run's.
            #expect(merged.coreTime?.evaluations == whole.coreTime?.evaluations, "\(count) shards")
            #expect(whole.coreTime?.evaluations.keys.sorted() == ["gnutls", "openssl"])
            if count == 8 {
                // One mutant at a time (a scheduler's task of one CPU) finds the same shard.
                var one = Self.options
                one.jobs = 1
                let alone = try await explorer.runShard(one, shard: try Explorer.Shard(index: 0, count: 8), producer: "test")
                let mixed = [(file: "alone.json", result: try Self.roundTrip(alone))] + shards.dropFirst()
                #expect(try Self.json(Explorer.merge(mixed)) == Self.json(whole), "a shard run with --jobs 1")
            }

            // Any order of the files.
            let reversed = try Explorer.merge(shards.reversed())
            #expect(try Self.json(reversed) == Self.json(whole), "\(count) shards, reversed")
        }
    }

    @Test func whatCannotBeMergedIsRefusedWithTheFileNamed() async throws {
        let explorer = try Self.explorer()
        var small = Self.options
        small.cases = 60
        small.pairs = 0
        let shards = try await (0..<3).asyncMap { index in
            (file: "s\(index + 1).json", result: try await explorer.runShard(small, shard: try Explorer.Shard(index: index, count: 3), producer: "test"))
        }
        func refusal(_ list: [(file: String, result: Explorer.ShardResult)]) -> String? {
            do {
                _ = try Explorer.merge(list)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal(shards) == nil)
        // Merged twice, missing, from another seed, cut otherwise, another format, nothing.
        #expect(refusal(shards + [(file: "again.json", result: shards[1].result)])?.contains("again.json: shard 2/3 is given twice (also s2.json)") == true)
        #expect(refusal(Array(shards.prefix(2))) == "shard 3/3 missing: 2 of 3 given")
        var otherSeed = small
        otherSeed.seed = 12
        let foreign = try await explorer.runShard(otherSeed, shard: try Explorer.Shard(index: 2, count: 3), producer: "test")
        #expect(refusal(Array(shards.prefix(2)) + [(file: "foreign.json", result: foreign)])?.hasPrefix("foreign.json: from another run than s1.json (seed 12, not 11)") == true)
        let cutInTwo = try await explorer.runShard(small, shard: try Explorer.Shard(index: 1, count: 2), producer: "test")
        #expect(refusal(Array(shards.prefix(2)) + [(file: "two.json", result: cutInTwo)])?.hasPrefix("two.json: shard 2/2 of a run cut in 2") == true)
        var otherFormat = shards[2].result
        otherFormat.version = 99
        #expect(refusal(Array(shards.prefix(2)) + [(file: "new.json", result: otherFormat)])?.hasPrefix("new.json: a trust-harness explore shard file of version 99") == true)
        #expect(refusal([]) == "no shard to merge")
        // No time budget in a shard, and K/N read as people write it.
        var timed = small
        timed.seconds = 5
        await #expect(throws: Explorer.ShardError.self) { try await explorer.runShard(timed, shard: try Explorer.Shard(index: 0, count: 2), producer: "test") }
        #expect(try Explorer.Shard(parsing: "3/8") == Explorer.Shard(index: 2, count: 8))
        for bad in ["0/8", "9/8", "3", "a/b", "3/0", "-1/4"] {
            #expect(throws: Explorer.ShardError.self, "\(bad)") { try Explorer.Shard(parsing: bad) }
        }
    }
}

extension Range where Bound == Int {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for index in self { out.append(try await transform(index)) }
        return out
    }
}

/// The ranking (issue 48): security-relevant classes first, every class once.
@Suite struct ExploreRankingTests {
    @Test func acceptedWhereRejectedComesFirstByHowManyBackEndsThenNewBeforeAdopted() async throws {
        let report = try await ExploreShardTests.whole.value
        #expect(report.foldedPairs > 0, "pairs one of whose mutations gives the same answers alone are folded and counted")
        #expect(report.findings.compactMap(\.foldedPairs).reduce(0, +) == report.foldedPairs)
        #expect(report.findings.filter { $0.steps.count == 2 }.allSatisfy { $0.foldedPairs == nil })
        let adopted = Set(report.findings.prefix(3).map { "explored/\(FindingFiles.name($0))" })
        let ranking = Explorer.rank(report, adopted: adopted)
        #expect(ranking.map(\.finding).sorted() == Array(report.findings.indices), "every class once")
        #expect(ranking.contains { $0.tier == 1 }, "a class accepted against the standards in this run")
        for (a, b) in zip(ranking, ranking.dropFirst()) {
            #expect(a.tier <= b.tier)
            if a.tier == b.tier {
                #expect(a.backends.count >= b.backends.count)
                if a.backends.count == b.backends.count { #expect(!a.adopted || b.adopted, "new before adopted") }
            }
        }
        for entry in ranking {
            let finding = report.findings[entry.finding]
            #expect(entry.adopted == adopted.contains(entry.candidate))
            if entry.tier == 1 {
                #expect(finding.standard?.trusted == false && entry.backends == finding.answers.filter(\.trusted).map(\.backend))
            } else {
                #expect(!(finding.standard?.trusted == false && finding.answers.contains(where: \.trusted)), "an accept against the standards outside tier 1")
            }
        }
    }

    /// With the impact catalogue, each tier puts its gravest departures first: within tiers 1 and 2
    /// the impact's rank never falls back, every accepted class has a class (the answers cite rules the
    /// catalogue knows), and the ranking holds every class once, as without it.
    @Test func withinATierTheGravestImpactComesFirst() async throws {
        let report = try await ExploreShardTests.whole.value
        let impacts = try ImpactCatalogue.load(from: try #require(VectorSuite.locate()))
        let ranking = Explorer.rank(report, adopted: [], impacts: impacts)
        #expect(ranking.map(\.finding).sorted() == Array(report.findings.indices))
        #expect(ranking.filter { $0.tier == 1 }.allSatisfy { $0.impact?.direction == .accepts }, "every accept against the standards weighed")
        for (a, b) in zip(ranking, ranking.dropFirst()) where a.tier == b.tier && a.tier <= 2 {
            #expect((a.impact?.rank ?? Int.max) <= (b.impact?.rank ?? Int.max))
        }
        // Without the catalogue the order is the counts' alone, and no class carries an impact.
        #expect(Explorer.rank(report, adopted: []).allSatisfy { $0.impact == nil })
    }

    /// A page of a large run lists the classes ranked highest, in the ranking's order under their
    /// class numbers, and says so; a run within the cap lists every class in report order.
    @Test func aCappedPageListsTheClassesRankedHighest() async throws {
        var report = try await ExploreShardTests.whole.value
        report.ranking = Explorer.rank(report, adopted: [])
        let ranking = try #require(report.ranking)
        func listed(_ listing: Int?) -> (numbers: [Int], blocks: [ReportDocument.Block]) {
            let document = ExploreReports.document(report, backends: report.backends.map { BackendInfo(name: $0, version: "") }, provenance: nil, folders: nil, listing: listing)
            let blocks = document.sections.first { $0.id == "classes" }?.blocks ?? []
            for case .table(let table) in blocks {
                return (table.rows.map { Int($0[0].text.prefix { $0 != "." })! - 1 }, blocks)
            }
            return ([], blocks)
        }
        let capped = listed(5)
        #expect(capped.numbers == ranking.prefix(5).map(\.finding))
        #expect(capped.blocks.contains { if case .paragraph(let text) = $0 { text.hasPrefix("The 5 classes ranked highest of \(report.findings.count),") } else { false } })
        #expect(listed(nil).numbers == Array(report.findings.indices))
        #expect(listed(report.findings.count).numbers == Array(report.findings.indices), "a run within the cap keeps report order")
    }
}
