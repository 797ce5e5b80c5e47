import Foundation
import TrustCore
import TrustVectors

/// The documented step from findings to the catalogue: `trust-harness explore --adopt
/// DIR/candidates.json` brings every candidate whose `expected` is set (from the standard; the
/// explorer pre-fills it from the mutation's declared answer, ``MutationCatalogue/answer(_:role:host:)``)
/// into `Vectors/explored/`: its certificates, an entry in `explored/manifest.json`, and for every
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

    /// The verdict most back ends give (trusted, or rejected with the most common classes); the
    /// first back end's on a tie.
    static func majority(_ verdicts: [Verdict]) -> Expectation {
        let answers = verdicts.map { Expectation(trusted: $0.isTrusted, failures: $0.isTrusted ? [] : Array(Set($0.failures)).sorted()) }
        var counts: [Expectation: Int] = [:]
        for answer in answers { counts[answer, default: 0] += 1 }
        return answers.max { counts[$0]! < counts[$1]! } ?? Expectation(trusted: false, failures: [.other])
    }

    /// - Throws: ``FileProblem`` for an unreadable candidates file or certificate, or the file
    ///   system's error.
    ///
    /// With `openClasses`, a candidate whose `expected` is null (the standards leave it open, or a
    /// pair of mutations) is adopted too, marked ``VectorEntry/noStandardAnswer``: its expectation is
    /// the verdict most of `backends` give (the first back end's on a tie), and every back end that
    /// answers otherwise has its own verdict recorded, so a change in any library is still caught.
    ///
    /// `deviationsFileOf` names, by back end, the deviations file of a package that keeps its own
    /// (a `Backends/` package): that back end's deviations are recorded there, the others' in
    /// `explored/deviations.json`. A candidate whose anchors a back end refuses to load is left out
    /// (the conformance run would report it as an error, not a verdict).
    public static func adopt(_ candidatesFile: URL, into vectors: URL, backends: [any TrustBackend], openClasses: Bool = false, deviationsFileOf: [String: URL] = [:]) throws -> Summary {
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
        for candidate in tryingOrder(list.vectors) {
            // Several classes can share a mutation and place (other bases, other answers): the
            // first that can be adopted is the one kept.
            guard !taken.contains(candidate.id) else { continue }
            guard candidate.expected != nil || openClasses else {
                summary.leave(candidate.id, because: "expected is null: set it from the standard first, or adopt it with --adopt-open as having no standard answer")
                continue
            }
            // A vector whose record holds for some library builds only (a hand-written deviation
            // with `libraries`) is pinned to its own bytes: re-adopting would orphan that record.
            if files.values.contains(where: { $0.deviations.contains { $0.vector == candidate.id && $0.libraries != nil } }) {
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
            guard let time = Timestamp.parse(candidate.time) else { throw FileProblem(file: candidatesFile.path, problem: "\(candidate.id) has time \(candidate.time)") }
            let request = EvaluationRequest(chain: chain.map(\.der), host: candidate.host.map(HostIdentity.init), time: time)
            // A back end that refuses the anchors would make `run` report an error: not a vector.
            guard let evaluators = try? backends.map({ try $0.makeEvaluator(anchors: anchors.map(\.der)) }) else {
                summary.leave(candidate.id, because: "a back end refuses its anchors (run would report an error, not a verdict)")
                continue
            }
            let verdicts = zip(backends, evaluators).map { backend, evaluator in (backend: backend, verdict: evaluator.evaluate(request)) }
            let open = candidate.expected == nil
            let expected = candidate.expected ?? majority(verdicts.map(\.verdict))
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for file in chain + anchors { try file.data.write(to: target.appendingPathComponent(file.name)) }
            let entry = VectorEntry(id: candidate.id, description: candidate.description, chain: chain.map { "explored/\(slug)/\($0.name)" },
                                    anchors: anchors.map { "explored/\(slug)/\($0.name)" },
                                    host: candidate.host, time: candidate.time, expected: expected,
                                    references: open ? ["no standard answer: RFC 5280, RFC 9525 and the CA/Browser Forum leave this open; the expectation is the majority's verdict at adoption"] : candidate.references,
                                    noStandardAnswer: open ? true : nil)
            manifest.vectors.removeAll { $0.id == entry.id }
            manifest.vectors.append(entry)
            for url in files.keys { files[url]!.deviations.removeAll { $0.vector == entry.id } }
            for (backend, verdict) in verdicts {
                guard !expected.admits(trusted: verdict.isTrusted, failures: verdict.failures) else { continue }
                let native = verdict.diagnostics.first.map { "\($0.name) (\($0.code)): \($0.message)" } ?? "no diagnostic"
                let answer = verdict.isTrusted ? "trusts it" : "rejects it as \(verdict.failures.map(\.rawValue).joined(separator: ", ")) (\(native))"
                let wanted = expected.trusted ? "trusting it" : "rejecting it as \(expected.failures.map(\.rawValue).joined(separator: " or "))"
                let observed = ObservedOutcome(trusted: verdict.isTrusted, failures: verdict.isTrusted ? [] : verdict.failures)
                if open {
                    files[file(of: backend.name)]!.deviations.append(Deviation(
                        backend: backend.name, vector: entry.id, observed: observed,
                        reason: "Found by trust-harness explore; no standard answer (the standards leave this case open), so this is \(backend.libraryVersion)'s own verdict, recorded so that a change is caught: it \(answer)."
                    ))
                    summary.deviations += 1
                    continue
                }
                files[file(of: backend.name)]!.deviations.append(Deviation(
                    backend: backend.name, vector: entry.id,
                    observed: observed,
                    reason: "Found by trust-harness explore. \(backend.libraryVersion) \(answer), where \(candidate.references.first ?? "the standard") calls for \(wanted). \(verdict.isTrusted ? "Security relevant: it accepts what the standards reject." : expected.trusted ? "Conservative: it rejects what the standards allow." : "It rejects, for a reason the standards do not give.")"
                ))
                summary.deviations += 1
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
}
