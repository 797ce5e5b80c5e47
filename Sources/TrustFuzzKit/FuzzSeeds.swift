import Foundation
import TrustPolicy
import TrustVectors

/// The seed corpus: one input per chain vector (with its CRLs and OCSP responses), policy vector and
/// bad-input case of the vectors folder (up to 8 certificates), each with the anchor set, host and policy settings it is judged with.
enum FuzzSeeds {
    static func all() throws -> [FuzzInput] {
        let suite = try VectorSuite.load(from: FuzzFixture.vectors)
        let corpus = try BadInputCorpus.load(vectors: FuzzFixture.vectors)
        let roots = Set(FuzzFixture.roots)
        var seeds: [FuzzInput] = []
        for vector in suite.vectors {
            let anchorSet: UInt8 = Set(vector.anchors).isSubset(of: roots) ? 0 : 1
            seeds.append(FuzzInput(flags: anchorSet | 0x10, host: vector.entry.host, chain: vector.chain, revocation: vector.revocationLists + vector.ocspResponses))
        }
        for vector in suite.policies {
            let policy = vector.policy
            let mode: UInt8 = policy.pinningMode == .publicKey ? 1 : policy.pinningMode == .certificate ? 2 : 0
            let flags: UInt8 = (Set(vector.anchors).isSubset(of: roots) ? 0 : 1) | mode << 1
                | (policy.allowInvalidCertificates ? 0x08 : 0) | (policy.validatesDomainName ? 0x10 : 0)
            seeds.append(FuzzInput(flags: flags, host: vector.domain, chain: vector.chain))
        }
        for testcase in corpus.cases {
            guard let input = try? corpus.input(for: testcase), input.chain.count <= FuzzInput.maximumChainLength else { continue }
            seeds.append(FuzzInput(flags: 0x10, host: testcase.host, chain: input.chain))
        }
        return seeds
    }

    /// Writes every seed into `folder` as `seed-N`, creating the folder.
    /// - Returns: how many seeds were written.
    /// - Throws: the vectors' loading errors, or ``FileProblem`` for a file that cannot be written.
    static func write(into folder: String) throws -> Int {
        let seeds = try all()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, seed) in seeds.enumerated() {
            guard FileManager.default.createFile(atPath: "\(folder)/seed-\(index)", contents: Data(seed.bytes)) else {
                throw FileProblem(file: "\(folder)/seed-\(index)", problem: "cannot be written")
            }
        }
        return seeds.count
    }
}
