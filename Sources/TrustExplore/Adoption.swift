import Foundation
import TrustCore
import TrustVectors

/// The documented step from findings to the catalogue: `trust-harness explore --adopt
/// DIR/candidates.json` brings every candidate whose `expected` is set (from the standard; the
/// explorer pre-fills it from the mutation's declared answer, ``MutationCatalogue/answer(_:role:host:)``)
/// into `Vectors/explored/`: its certificates, its leaf's private key (in `explored/keys/`, one file
/// per key: ``ExploredKeys``), an entry in `explored/manifest.json`, and for every
/// back end given that answers otherwise, a deviation in `explored/deviations.json` with the
/// library's own diagnostic as its reason, so the conformance matrix shows the difference and a
/// test fails when it changes. Candidates with `expected` null stay where they are.
public enum Adoption {
    public struct Summary: Sendable {
        public var adopted: [String]
        public var leftOut: [String]
        public var deviations: Int
        /// Why candidates were left out, with how many each.
        public var leftOutBecause: [String: Int] = [:]

        /// Why each id was left out, until another candidate of the id is adopted.
        var reasons: [String: String] = [:]
        var order: [String] = []

        mutating func leave(_ id: String, because reason: String) {
            if reasons.updateValue(reason, forKey: id) == nil { order.append(id) }
        }

        mutating func finish() {
            let adopted = Set(self.adopted)
            leftOut = order.filter { !adopted.contains($0) }
            leftOutBecause = [:]
            for id in leftOut { leftOutBecause[reasons[id]!, default: 0] += 1 }
        }
    }

    /// The candidates in the order adoption tries them: as listed, except that the candidates of one
    /// id (one mutation at one place, several classes) are tried together, the one asked of the most
    /// back ends first (its example comes from the plainest base), so that a later one stands in
    /// when an earlier one cannot be adopted.
    static func tryingOrder(_ candidates: [FindingFiles.Candidate]) -> [FindingFiles.Candidate] {
        var groups: [String: [(offset: Int, candidate: FindingFiles.Candidate)]] = [:]
        var ids: [String] = []
        for (offset, candidate) in candidates.enumerated() {
            if groups[candidate.id] == nil { ids.append(candidate.id) }
            groups[candidate.id, default: []].append((offset, candidate))
        }
        return ids.flatMap { id in
            groups[id]!.sorted { ($0.candidate.observed.count, -$0.offset) > ($1.candidate.observed.count, -$1.offset) }.map(\.candidate)
        }
    }

    /// - Throws: ``FileProblem`` for an unreadable candidates file or certificate, or the file
    ///   system's error.
    ///
    /// A candidate carries both profiles' answers (RFC 5280's in `expected`, or the sentence that
    /// leaves it open in `open`; the Web PKI's in `webpki` where it differs). One with neither is
    /// left out: no vector expects what nobody can justify, and none expects a majority's verdict.
    /// On a vector left open, every back end's verdict is recorded (neither pass nor fail, but a
    /// change is caught); elsewhere each back end that departs from a profile's answer has a
    /// deviation recorded under that profile (under both, as one record, when it departs alike).
    ///
    /// `deviationsFileOf` names, by back end, the deviations file of a package that keeps its own
    /// (a `Backends/` package): that back end's deviations are recorded there, the others' in
    /// `explored/deviations.json`. A candidate whose anchors a back end refuses to load is left out
    /// (the conformance run would report it as an error, not a verdict).
    public static func adopt(_ candidatesFile: URL, into vectors: URL, backends: [any TrustBackend], deviationsFileOf: [String: URL] = [:]) throws -> Summary {
        let list = try FileProblem.decodeJSON(FindingFiles.CandidateList.self, from: candidatesFile, shape: "an explore candidates.json")
        let source = candidatesFile.deletingLastPathComponent()
        let folder = vectors.appendingPathComponent("explored")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifestURL = vectors.appendingPathComponent(VectorSuite.exploredManifestPath)
        let deviationsURL = vectors.appendingPathComponent(VectorSuite.exploredDeviationsPath)
        var manifest = FileManager.default.fileExists(atPath: manifestURL.path)
            ? try FileProblem.decodeJSON(VectorManifest.self, from: manifestURL, shape: "a vector manifest") : VectorManifest(vectors: [])
        // Every deviations file written: the vectors' own and each package's that a back end names.
        var files: [URL: DeviationList] = [:]
        for url in Set([deviationsURL] + deviationsFileOf.values) {
            files[url] = FileManager.default.fileExists(atPath: url.path)
                ? try FileProblem.decodeJSON(DeviationList.self, from: url, shape: "a deviations file") : DeviationList(deviations: [])
        }
        func file(of backend: String) -> URL { deviationsFileOf[backend] ?? deviationsURL }
        var summary = Summary(adopted: [], leftOut: [], deviations: 0)
        var taken = Set<String>()
        var keys = ExploredKeys(vectors: vectors)
        for candidate in tryingOrder(list.vectors) {
            // Several classes can share a mutation and place (other bases, other answers): the
            // first that can be adopted is the one kept.
            guard !taken.contains(candidate.id) else { continue }
            // explored/manifest.json holds no revocation files: a CRL or OCSP class stays a finding.
            guard candidate.revocation == nil else {
                summary.leave(candidate.id, because: "it is asked with CRLs or OCSP responses, which explored vectors do not carry yet (reproduce it from its folder: trust-harness run --vectors FOLDER)")
                continue
            }
            guard candidate.expected != nil || candidate.open != nil else {
                summary.leave(candidate.id, because: "no standard answer can be justified (the mutations interact with each other or with the base, and no rule is written for that)")
                continue
            }
            // A vector whose record holds for some library builds only (a hand-written deviation
            // with `libraries`) is pinned to its own bytes: re-adopting would orphan that record.
            if files.values.contains(where: { $0.deviations.contains { $0.covered.contains(candidate.id) && $0.libraries != nil } }) {
                summary.leave(candidate.id, because: "a deviation recorded for some library builds only pins the vector's bytes")
                continue
            }
            let slug = String(candidate.id.dropFirst("explored/".count))
            let target = folder.appendingPathComponent(slug)
            func read(_ relative: String) throws -> (name: String, data: Data, der: [UInt8]) {
                let data = try FileProblem.contents(of: source.appendingPathComponent(relative))
                let certificates = try CertificateFile.decode([UInt8](data), file: relative)
                guard certificates.count == 1 else { throw FileProblem(file: relative, problem: "holds \(certificates.count) certificates; a vector file holds one") }
                return (URL(fileURLWithPath: relative).lastPathComponent, data, certificates[0])
            }
            let chain = try candidate.chain.map(read)
            let anchors = try candidate.anchors.map(read)
            // Every adopted chain can be presented by a TLS server (run --handshake, the HTTP
            // clients): its leaf's key comes with it.
            var leafKey: [UInt8]?
            if let first = chain.first {
                guard let file = candidate.leafKey else {
                    summary.leave(candidate.id, because: "its leaf's private key was not kept (candidates written before the explorer kept its keys: explore again)")
                    continue
                }
                guard let key = VectorKeys.keyFile(source.appendingPathComponent(file)) else {
                    throw FileProblem(file: source.appendingPathComponent(file).path, problem: "is not a PEM private key (the leaf key of \(candidate.id))")
                }
                guard VectorKeys.subjectPublicKeyInfo(ofCertificate: first.der) == key.spki else {
                    summary.leave(candidate.id, because: "its leaf's private key does not fit the leaf's public key")
                    continue
                }
                leafKey = key.der
            }
            guard let time = Timestamp.parse(candidate.time) else { throw FileProblem(file: candidatesFile.path, problem: "\(candidate.id) has time \(candidate.time)") }
            let request = EvaluationRequest(chain: chain.map(\.der), host: candidate.host.map(HostIdentity.init), time: time)
            // A back end that refuses the anchors would make `run` report an error: not a vector.
            guard let evaluators = try? backends.map({ try $0.makeEvaluator(anchors: anchors.map(\.der)) }) else {
                summary.leave(candidate.id, because: "a back end refuses its anchors (run would report an error, not a verdict)")
                continue
            }
            let verdicts = zip(backends, evaluators).map { backend, evaluator in (backend: backend, verdict: evaluator.evaluate(request)) }
            let rfc5280 = ProfileAnswer(expected: candidate.expected ?? Expectation(trusted: false), references: candidate.references, open: candidate.open)
            let webpki = candidate.webpki ?? rfc5280
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for file in chain + anchors { try file.data.write(to: target.appendingPathComponent(file.name)) }
            if let leafKey { try keys.keep(leafKey) }
            var entry = VectorEntry(id: candidate.id, description: candidate.description, chain: chain.map { "explored/\(slug)/\($0.name)" },
                                    anchors: anchors.map { "explored/\(slug)/\($0.name)" },
                                    host: candidate.host, time: candidate.time, expected: rfc5280.expected, references: rfc5280.references)
            entry.setAnswers(rfc5280: rfc5280, webpki: webpki)
            manifest.vectors.removeAll { $0.id == entry.id }
            manifest.vectors.append(entry)
            for url in files.keys { files[url]!.remove(vector: entry.id) }
            for (backend, verdict) in verdicts {
                let recorded = StandardsProfile.allCases.compactMap { profile in
                    deviation(backend: backend, verdict: verdict, vector: entry.id, answer: entry.answer(for: profile)).map { (profile, $0) }
                }
                // One record when both profiles record the same; else one per profile.
                let merged: [Deviation]
                if recorded.count == StandardsProfile.allCases.count, Set(recorded.map { $0.1.observed }).count == 1, Set(recorded.map { $0.1.reason }).count == 1 {
                    merged = [recorded[0].1]
                } else {
                    merged = recorded.map { profile, deviation in
                        var scoped = deviation
                        scoped.profiles = [profile]
                        return scoped
                    }
                }
                files[file(of: backend.name)]!.deviations += merged
                summary.deviations += merged.count
            }
            summary.adopted.append(entry.id)
            taken.insert(entry.id)
        }
        summary.finish()
        manifest.vectors.sort { $0.id < $1.id }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: manifestURL)
        for (url, var list) in files {
            list.deviations.sort { ($0.vector, $0.backend) < ($1.vector, $1.backend) }
            try (encoder.encode(list) + Data("\n".utf8)).write(to: url)
        }
        return summary
    }

    /// What to record for `backend`'s `verdict` on a vector under one profile's `answer`: its own
    /// verdict where the answer is left open; a deviation where it departs; nothing where it conforms.
    static func deviation(backend: any TrustBackend, verdict: Verdict, vector: String, answer: ProfileAnswer) -> Deviation? {
        let observed = ObservedOutcome(trusted: verdict.isTrusted, failures: verdict.isTrusted ? [] : verdict.failures)
        let native = verdict.diagnostics.first.map { "\($0.name) (\($0.code)): \($0.message)" } ?? "no diagnostic"
        let said = verdict.isTrusted ? "trusts it" : "rejects it as \(verdict.failures.map(\.rawValue).joined(separator: ", ")) (\(native))"
        if let open = answer.open {
            return Deviation(backend: backend.name, vector: vector, observed: observed,
                             reason: "Found by trust-harness explore. The standards leave this open (\(open)); \(backend.libraryVersion)'s own verdict, recorded so that a change is caught: it \(said).")
        }
        let expected = answer.expected
        guard !expected.admits(trusted: verdict.isTrusted, failures: verdict.failures) else { return nil }
        let wanted = expected.trusted ? "trusting it" : "rejecting it as \(expected.failures.map(\.rawValue).joined(separator: " or "))"
        return Deviation(backend: backend.name, vector: vector, observed: observed,
                         reason: "Found by trust-harness explore. \(backend.libraryVersion) \(said), where \(answer.references.first ?? "the standard") calls for \(wanted). \(verdict.isTrusted ? "Security relevant: it accepts what the standards reject." : expected.trusted ? "Conservative: it rejects what the standards allow." : "It rejects, for a reason the standards do not give.")")
    }
}
