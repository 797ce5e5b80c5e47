import Foundation
import TrustCore
import TrustVectors

/// The adopted vectors' answers derived again from the rules: RFC 5280's from the mutations their id
/// names (``MutationCatalogue/answer(steps:baseAspects:host:)``), the Web PKI's from their
/// certificates (``WebPKIRules``). An adopted vector keeps the answer it was adopted with until the
/// rules change; then `trust-harness explore --reanswer` brings every vector to the rules, and a test
/// fails until it has, so that no vector keeps an answer its rule no longer gives.
public enum ExploredAnswers {
    /// The steps an adopted vector's id names (`explored/<mutation>-at-<role>+...`), nil when a part
    /// names no mutation of the catalogue.
    public static func steps(of id: String) -> [Explorer.Step]? {
        guard id.hasPrefix("explored/") else { return nil }
        let parts = id.dropFirst("explored/".count).split(separator: "+").map(String.init)
        var steps: [Explorer.Step] = []
        for part in parts where part != ed25519Base {
            var found: Explorer.Step?
            for mutation in MutationCatalogue.all {
                let slug = mutation.name.replacingOccurrences(of: "/", with: "-")
                for role in mutation.roles {
                    let name = role == .chain ? slug : "\(slug)-at-\(role.rawValue)"
                    if name == part { found = Explorer.Step(mutation: mutation.name, role: role) }
                }
            }
            guard let found else { return nil }
            steps.append(found)
        }
        return steps.isEmpty ? nil : steps
    }

    /// The last part of the id of a vector made on an Ed25519 base (`...+on-ed25519`), which the
    /// Web PKI profile rejects whatever the mutation.
    public static let ed25519Base = "on-ed25519"

    /// RFC 5280's answer for `entry` from the rules, nil when its id names no mutations or the rules
    /// give none (the stored answer then stands).
    public static func rfc5280(for entry: VectorEntry) -> ProfileAnswer? {
        guard let steps = steps(of: entry.id) else { return nil }
        return MutationCatalogue.answer(steps: steps.map { ($0.mutation, $0.role) }, baseAspects: [], host: entry.host)?.profileAnswer
    }

    /// One answer that changed.
    public struct Change: Sendable {
        public var id: String
        public var profile: StandardsProfile
        public var before: String
        public var after: String
    }

    /// Rewrites `explored/manifest.json` of `vectors` with every answer the rules give; the changes.
    /// - Throws: ``FileProblem`` for an unreadable manifest or certificate.
    public static func reanswer(vectors: URL) throws -> [Change] {
        let url = vectors.appendingPathComponent(VectorSuite.exploredManifestPath)
        var manifest = try FileProblem.decodeJSON(VectorManifest.self, from: url, shape: "a vector manifest")
        let before = manifest.vectors.map { entry in StandardsProfile.allCases.map { entry.answer(for: $0) } }
        try manifest.deriveAnswers(in: vectors, rfc5280: Self.rfc5280(for:))
        // Descriptions too are made again from the mutations the id names, as adoption wrote them:
        // a description is the mutations' own words, never edited by hand, so it cannot drift from
        // what the vector is (and the mutations' words state facts, not verdicts).
        for index in manifest.vectors.indices {
            if let description = description(of: manifest.vectors[index].id) { manifest.vectors[index].description = description }
        }
        var changes: [Change] = []
        for (entry, old) in zip(manifest.vectors, before) {
            for (profile, old) in zip(StandardsProfile.allCases, old) where summary(old) != summary(entry.answer(for: profile)) {
                changes.append(Change(id: entry.id, profile: profile, before: summary(old), after: summary(entry.answer(for: profile))))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: url)
        return changes
    }

    /// The description adoption writes for the vector `id`: its mutations' summaries, the place of a
    /// single one, and where it came from; nil for an id that names no mutations.
    public static func description(of id: String) -> String? {
        guard let steps = steps(of: id) else { return nil }
        let byName = Dictionary(MutationCatalogue.all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let summaries = steps.compactMap { byName[$0.mutation]?.summary }
        guard summaries.count == steps.count else { return nil }
        let place = steps.count == 1 && steps[0].role != .chain ? " (on the \(steps[0].role.rawValue))" : ""
        return summaries.joined(separator: "; ") + place + "; found by trust-harness explore"
    }

    /// `trusted`, `rejected [classes]` or `open`.
    public static func summary(_ answer: ProfileAnswer) -> String {
        if answer.open != nil { return "open" }
        return answer.expected.trusted ? "trusted" : "rejected [\(answer.expected.failures.map(\.rawValue).joined(separator: ", "))]"
    }
}

extension ExploredAnswers {
    /// The result of making one adopted vector again on another base.
    public enum Rebased: Sendable {
        case rewritten(id: String, base: String)
        /// The id names no mutations, or one does not apply to the base.
        case notApplicable(id: String, why: String)
    }

    /// Makes each adopted vector whose id matches `patterns` again from its mutations on `base` (a
    /// catalogue chain that both profiles trust) re-keyed to `keyType`, with the keys of `seed` (the
    /// explorer's), and rewrites its certificates and manifest entry (answers derived again), keeping
    /// its leaf's private key in `explored/keys/` (``ExploredKeys``). Use it
    /// when a vector's base departs from a profile for something the id does not name. Deviations
    /// must be recorded again afterwards.
    /// - Throws: ``FileProblem`` for an unreadable manifest, or the file system's error.
    public static func rebase(_ patterns: [String], on base: ChainModel, keyType: Explorer.KeyType, seed: UInt64 = 1, vectors: URL) throws -> [Rebased] {
        let url = vectors.appendingPathComponent(VectorSuite.exploredManifestPath)
        var manifest = try FileProblem.decodeJSON(VectorManifest.self, from: url, shape: "a vector manifest")
        let keys = try KeySource(seed: seed, kinds: [keyType.kind])
        var leafKeys = ExploredKeys(vectors: vectors)
        var results: [Rebased] = []
        for index in manifest.vectors.indices where patterns.contains(where: { Glob.matches($0, manifest.vectors[index].id) }) {
            let entry = manifest.vectors[index]
            guard let steps = steps(of: entry.id) else {
                results.append(.notApplicable(id: entry.id, why: "its id names no mutations of the catalogue"))
                continue
            }
            var draft = MutantDraft(base, slotKind: keyType.kind)
            var applied = true
            for step in steps {
                guard let mutation = MutationCatalogue.all.first(where: { $0.name == step.mutation }), let node = base.node(for: step.role), mutation.edit(&draft, node) else {
                    applied = false
                    break
                }
            }
            guard applied, !draft.isUnchanged else {
                results.append(.notApplicable(id: entry.id, why: "a mutation does not apply to \(base.id)"))
                continue
            }
            let rendered = try draft.render(keys: keys)
            let slug = String(entry.id.dropFirst("explored/".count))
            let folder = vectors.appendingPathComponent("explored/\(slug)")
            for old in entry.chain + entry.anchors { try? FileManager.default.removeItem(at: vectors.appendingPathComponent(old)) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let files = try FindingFiles.singleFiles(chain: rendered.chain, anchors: rendered.anchors, in: folder, prefix: "explored/\(slug)")
            if let key = rendered.leafKey { try leafKeys.keep(key.pkcs8) }
            manifest.vectors[index].chain = files.chain
            manifest.vectors[index].anchors = files.anchors
            manifest.vectors[index].host = draft.host
            manifest.vectors[index].time = Timestamp.format(base.time)
            results.append(.rewritten(id: entry.id, base: "\(base.id) as \(keyType.rawValue)"))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: url)
        return results
    }
}
