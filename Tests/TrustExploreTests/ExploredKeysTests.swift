import Foundation
import Testing
@testable import TrustExplore
import TrustVectors

/// Every leaf the explorer makes can be presented by a TLS server: its key is the one the explorer
/// signed it with, is made again from its type, slot and the run's seed, and once kept in
/// `explored/keys/` is found by the leaf's public key, whatever its type or encoding.
@Suite struct ExploredKeysTests {
    @Test func everyLeafKeyTheExplorerMakesIsKeptOnceAndFoundByItsLeaf() throws {
        let model = try ExploreFixtures.validChain()
        let keys = try ExploreFixtures.keys.get()
        let leafNode = try #require(model.node(for: .leaf))
        var leaves: [(name: String, leaf: [UInt8], key: SigningKey)] = []
        for kind in SigningKey.Kind.allCases {
            let rendered = try MutantDraft(model, slotKind: kind).render(keys: keys)
            leaves.append(("a base re-keyed to \(kind.rawValue)", rendered.chain[0], try #require(rendered.leafKey)))
        }
        for name in ["key/p256", "key/p384", "key/rsa2048", "key/rsa1024", "key/p256-compressed", "key/p256-explicit-parameters"] {
            var draft = MutantDraft(model)
            let mutation = try #require(MutationCatalogue.all.first { $0.name == name })
            #expect(mutation.edit(&draft, leafNode))
            let rendered = try draft.render(keys: keys)
            leaves.append((name, rendered.chain[0], try #require(rendered.leafKey)))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explored-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var kept = ExploredKeys(vectors: folder)
        for leaf in leaves {
            // Made again as FindingFiles makes it for a finding's folder.
            let again = try FindingFiles.privateKey(Explorer.LeafKey(type: leaf.key.kind.rawValue, slot: leaf.key.slot), seed: keys.seed)
            #expect(again == leaf.key.pkcs8, "\(leaf.name): the key is made again from its type, slot and seed")
            try kept.keep(again)
        }
        let index = VectorKeys.Index(directory: folder)
        for leaf in leaves {
            #expect(index.privateKey(for: leaf.leaf) == leaf.key.pkcs8, "\(leaf.name): the kept key is found by the leaf's public key")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(ExploredKeys.folder).path)
        #expect(files.count == Set(leaves.map(\.key.pkcs8)).count, "one file per key: \(files.sorted())")
        // Kept again, from a new reading of the folder: nothing is added.
        var again = ExploredKeys(vectors: folder)
        for leaf in leaves { try again.keep(leaf.key.pkcs8) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(ExploredKeys.folder).path).count == files.count)
        #expect(files.allSatisfy { name in ["ed25519-", "p256-", "p384-", "rsa2048-", "rsa1024-"].contains { name.hasPrefix($0) } }, "\(files.sorted())")
    }

    /// The committed keys are named as adoption names them (type and public key), so that the
    /// folder reads alike whoever wrote a file, and a key kept again finds its file.
    @Test func theCommittedKeysAreNamedByTypeAndPublicKey() throws {
        let folder = try #require(VectorSuite.locate()).appendingPathComponent(ExploredKeys.folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        for file in files {
            let key = try #require(VectorKeys.keyFile(folder.appendingPathComponent(file)), "\(file) is a PEM private key")
            #expect(file == ExploredKeys.name(key.der, spki: key.spki))
        }
    }
}
