import Foundation
import Testing
@testable import TrustVectors

/// The committed `Vectors/` folder is exactly what the catalogue describes, and the generator's
/// reuse, cleanup and difference reporting behave as promised.
@Suite struct VectorGeneratorTests {
    @Test func committedVectorsAreWhatTheCatalogueDescribes() throws {
        let differences = try VectorGenerator.check(try VectorsFolder.committed())
        #expect(differences == [], "Vectors/ is stale: regenerate it with VectorGenerator.generate(into:reusingFrom:)")
    }

    /// Regenerating in place, on a copy with a stray key file, a deviations file of its own, an
    /// adopted vector whose Web PKI answer is not the one its certificates give, and a policy vector
    /// whose sha256 pin is another real key's: the check reports exactly the two stale manifests and the stray file;
    /// generating writes the rules' answer and the computed pin back, removes the stray file, leaves
    /// the deviations alone and changes no other byte. (One generation for all of these promises:
    /// each costs a second of signing in a debug build, and swift test's time is issue 47's.)
    @Test func regeneratingInPlaceRepairsOnlyWhatIsStale() throws {
        let copy = try VectorsFolder.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let committed = try VectorsFolder.committed()
        let deviations = Data("{\"version\": 1, \"deviations\": []}\n".utf8)
        try deviations.write(to: copy.appendingPathComponent("deviations.json"))
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("keys/retired"), withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: copy.appendingPathComponent("keys/retired/old.pem"))
        let url = copy.appendingPathComponent(VectorSuite.exploredManifestPath)
        var explored = try JSONDecoder().decode(VectorManifest.self, from: Data(contentsOf: url))
        let index = try #require(explored.vectors.firstIndex { $0.webpki != nil })
        explored.vectors[index].webpki = nil
        try JSONEncoder().encode(explored).write(to: url)
        // Another real pin in place of the computed one: the manifest no longer matches the keys.
        var manifest = try Self.manifest(in: copy)
        var policies = try #require(manifest.policies)
        let pinned = try #require(policies.firstIndex { !$0.policy.pins.isEmpty }, "no policy vector with a sha256 pin")
        let otherPin = try #require(policies.lazy.flatMap(\.policy.pins).first { !policies[pinned].policy.pins.contains($0) })
        policies[pinned].policy.pins[0] = otherPin
        manifest.policies = policies
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: copy.appendingPathComponent("manifest.json"))

        let differences = try VectorGenerator.check(copy)
        #expect(differences == ["differs: \(VectorSuite.exploredManifestPath)", "extra: keys/retired/old.pem", "differs: manifest.json"], "\(differences)")

        try VectorGenerator.generate(into: copy, reusingFrom: copy)

        // Every generated file (the manifest with its pins among them) and the adopted vectors'
        // manifest are the committed ones again: what `check` would find empty, compared directly.
        try expectSameGeneratedFiles(copy, committed)
        #expect(try FileProblem.contents(of: url) == FileProblem.contents(of: committed.appendingPathComponent(VectorSuite.exploredManifestPath)))
        #expect(try FileProblem.contents(of: copy.appendingPathComponent("deviations.json")) == deviations)
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("keys/retired/old.pem").path))
    }

    @Test func generatingElsewhereReusesCommittedKeysAndSignatures() throws {
        let empty = try VectorsFolder.makeTemporary()
        defer { try? FileManager.default.removeItem(at: empty) }

        try VectorGenerator.generate(into: empty, reusingFrom: try VectorsFolder.committed())

        // Byte for byte the committed files, which committedVectorsAreWhatTheCatalogueDescribes
        // checks: a second generation here (check) would only repeat it.
        try expectSameGeneratedFiles(empty, try VectorsFolder.committed())
    }

    @Test func checkReportsMissingExtraAndDifferingFiles() throws {
        let copy = try VectorsFolder.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let manager = FileManager.default
        // A leaf replaced by another valid certificate, a deleted key, a stray file, an edited manifest.
        try manager.removeItem(at: copy.appendingPathComponent("certs/p256/leaf.pem"))
        try manager.copyItem(
            at: copy.appendingPathComponent("certs/p256/expired-leaf.pem"),
            to: copy.appendingPathComponent("certs/p256/leaf.pem")
        )
        try manager.removeItem(at: copy.appendingPathComponent("keys/ed25519/root.pem"))
        try Data("stray".utf8).write(to: copy.appendingPathComponent("certs/rsa2048/stray.pem"))
        try Data("{}\n".utf8).write(to: copy.appendingPathComponent("manifest.json"))

        let differences = try VectorGenerator.check(copy)

        #expect(differences.contains("differs: certs/p256/leaf.pem"))
        #expect(differences.contains("missing: keys/ed25519/root.pem"))
        #expect(differences.contains("differs: certs/ed25519/root.pem"), "a new root key changes the root certificate")
        #expect(differences.contains("extra: certs/rsa2048/stray.pem"))
        #expect(differences.contains("differs: manifest.json"))
        #expect(!differences.contains { $0.hasSuffix("certs/p256/intermediate.pem") }, "untouched files are not reported")
        #expect(differences == differences.sorted { $0.split(separator: " ")[1] < $1.split(separator: " ")[1] })
    }

    @Test func unusableKeyFilesAreReportedNotReplaced() throws {
        let copy = try VectorsFolder.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let target = copy.appendingPathComponent("keys/p256/leaf.pem")

        // An RSA key where a P-256 key belongs.
        try FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: copy.appendingPathComponent("keys/rsa2048/leaf.pem"), to: target)
        #expect {
            try VectorGenerator.generate(into: copy, reusingFrom: copy)
        } throws: { error in
            guard case .unusableKey(let path, _) = error as? VectorGeneratorError else { return false }
            return path == "keys/p256/leaf.pem"
        }

        // Not PEM at all.
        try Data("not a key".utf8).write(to: target)
        #expect {
            try VectorGenerator.check(copy)
        } throws: { error in
            guard case .unusableKey(let path, _) = error as? VectorGeneratorError else { return false }
            return path == "keys/p256/leaf.pem"
        }
        #expect(try FileProblem.contents(of: target) == Data("not a key".utf8))
    }

    /// New keys wherever none can be reused. Only the RSA keys are handed over (generating some fifty
    /// RSA-2048 keys took 40 s of this suite's time in a debug build); every P-256 and Ed25519 key,
    /// and so every certificate of those PKIs, is made anew.
    @Test func generatingWithoutReuseMakesNewKeysAndAConsistentSet() throws {
        let fresh = try VectorsFolder.makeTemporary()
        defer { try? FileManager.default.removeItem(at: fresh) }
        let rsaKeys = fresh.appendingPathComponent("keys/rsa2048")
        try FileManager.default.createDirectory(at: rsaKeys.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try VectorsFolder.committed().appendingPathComponent("keys/rsa2048"), to: rsaKeys)

        try VectorGenerator.generate(into: fresh, reusingFrom: fresh)

        // The impact catalogue is reviewed data, not generated: without it the check says so.
        #expect(try VectorGenerator.check(fresh) == ["impact: missing: impacts.json (every departure needs an impact class)"])
        try FileManager.default.copyItem(at: try VectorsFolder.committed().appendingPathComponent(ImpactCatalogue.fileName), to: fresh.appendingPathComponent(ImpactCatalogue.fileName))
        #expect(try VectorGenerator.check(fresh) == [])
        let committed = try VectorsFolder.committed()
        let key = "keys/p256/root.pem"
        #expect(try FileProblem.contents(of: fresh.appendingPathComponent(key)) != FileProblem.contents(of: committed.appendingPathComponent(key)))

        // The manifest is the same but for the policy vectors' sha256 pins, which follow the new keys.
        let freshManifest = try Self.manifest(in: fresh)
        let committedManifest = try Self.manifest(in: committed)
        #expect(freshManifest.vectors == committedManifest.vectors)
        let freshPolicies = freshManifest.policies ?? []
        let committedPolicies = committedManifest.policies ?? []
        #expect(freshPolicies.count == committedPolicies.count && !freshPolicies.isEmpty)
        for (new, old) in zip(freshPolicies, committedPolicies) {
            var withOldPins = new
            withOldPins.policy.pins = old.policy.pins
            #expect(withOldPins == old, "\(new.id) differs in more than its pins")
            #expect(new.policy.pins.count == old.policy.pins.count, "\(new.id)")
            for (newPin, oldPin) in zip(new.policy.pins, old.policy.pins) {
                // The reused RSA keys keep their pins; every other key is new.
                #expect((newPin != oldPin) == !new.id.hasSuffix("/rsa2048"), "\(new.id): a new key has a new pin, a reused one its old pin")
            }
        }
    }

    private static func manifest(in folder: URL) throws -> VectorManifest {
        try JSONDecoder().decode(VectorManifest.self, from: FileProblem.contents(of: folder.appendingPathComponent("manifest.json")))
    }

    private func expectSameGeneratedFiles(_ folder: URL, _ reference: URL) throws {
        let files = VectorFiles.generatedFiles(in: folder)
        #expect(files == VectorFiles.generatedFiles(in: reference))
        for path in files {
            let actual = try FileProblem.contents(of: folder.appendingPathComponent(path))
            let expected = try FileProblem.contents(of: reference.appendingPathComponent(path))
            #expect(actual == expected, "\(path) changed")
        }
    }
}
