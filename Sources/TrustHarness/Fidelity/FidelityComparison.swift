import Foundation
import TrustBackendKit
import TrustCore
import TrustVectors

/// Each back end's column beside its library called the plain way (its ``FidelityReference``: the
/// raw loop of `bench`, or a reference of its own), on the same requests: the evidence that a column
/// is the library. Every difference must be named: a layer of ours (`NAME+checks`), a limit that
/// stopped the library, a request the harness could not ask, or a difference recorded in
/// `Vectors/fidelity.json` with its reason (an API default the back end sets otherwise than the
/// reference, a reference's own limit). Anything else is unexplained, and a recorded difference that
/// changed or is no longer seen is a problem too, so the record is kept deliberately.
public struct FidelityComparison: Sendable {
    /// How a column's answer stands beside its reference's.
    public enum Agreement: String, Sendable, Codable, Hashable, CaseIterable, CodingKeyRepresentable {
        /// The same answer (trusted or not).
        case agrees
        /// Different, because a named layer of ours decided (the column is `NAME+checks`).
        case layer
        /// Different, because a limit stopped the library before it answered.
        case limit
        /// Different, because the harness could not put the request to the library.
        case notAsked
        /// Different, as recorded in the fidelity record with its reason.
        case recorded
        /// Different, and nothing explains it.
        case unexplained
        /// The reference has no answer for this request (or the back end has no reference).
        case noReference
    }

    /// One request on one back end.
    public struct Row: Sendable, Codable, Hashable {
        public var vector: String
        public var backend: String
        /// The reference's label, or nil when the back end has none.
        @ExplicitNull public var reference: String?
        /// The column's answer: `trusted` or `rejected [classes]`, with who decided when not the library.
        public var column: String
        /// The reference's answer: `trusted`, `rejected`, or `no answer`.
        public var referenceAnswer: String
        public var agreement: Agreement
        /// Why, for anything but ``Agreement/agrees``: the layer's, limit's or harness's diagnostic,
        /// or the recorded reason.
        @ExplicitNull public var why: String?
    }

    /// A recorded difference (`Vectors/fidelity.json`).
    public struct Difference: Sendable, Codable, Hashable {
        public var backend: String
        public var vector: String
        /// What the reference answers: `trusted` or `rejected`.
        public var reference: String
        /// Why the column differs from the plain call, with the source line behind it.
        public var reason: String

        public init(backend: String, vector: String, reference: String, reason: String) {
            self.backend = backend
            self.vector = vector
            self.reference = reference
            self.reason = reason
        }
    }

    /// The record's file format.
    public typealias Record = DifferenceRecord<Difference>

    /// One back end's counts.
    public struct Summary: Sendable, Codable, Hashable {
        public var backend: String
        @ExplicitNull public var reference: String?
        public var requests = 0
        public var counts: [Agreement: Int] = [:]

        /// Requests the reference answered.
        public var compared: Int { requests - (counts[.noReference] ?? 0) }
        /// Answers that are the same as the reference's, in percent of those compared.
        public var agreementPercent: Double {
            compared == 0 ? 0 : 100 * Double(counts[.agrees] ?? 0) / Double(compared)
        }
    }

    public let backends: [any TrustBackend]
    public let baselines: BenchmarkBaselines

    /// A comparison of `backends` with the references `baselines` gives them.
    public init(backends: [any TrustBackend], baselines: BenchmarkBaselines) {
        self.backends = backends
        self.baselines = baselines
    }

    /// The reference of `backend`: its own, or for `NAME+checks` the library's (`NAME`'s).
    public func reference(for backend: String) -> (any FidelityReference)? {
        if let own = baselines.reference(for: backend) { return own }
        guard backend.hasSuffix(HarnessChecks.columnSuffix) else { return nil }
        return baselines.reference(for: String(backend.dropLast(HarnessChecks.columnSuffix.count)))
    }

    /// What one back end is asked for one subject: a request, or the reason it is not asked.
    public enum Input: Sendable {
        case ask(anchors: [[UInt8]], request: EvaluationRequest)
        case skip(String)
    }

    /// Every chain vector on every back end beside its reference, rows in vector then back-end order.
    public func run(_ vectors: [LoadedVector], record: Record = Record(differences: [])) async -> [Row] {
        await run(ids: vectors.map(\.id), record: record) { index, _ in .ask(anchors: vectors[index].anchors, request: vectors[index].request) }
    }

    /// The subjects `ids` on every back end beside its reference, each back end asked what `input`
    /// gives for the subject's index (a suite's case, made for that back end), rows in subject then
    /// back-end order.
    public func run(ids: [String], record: Record = Record(differences: []), input: @escaping @Sendable (Int, any TrustBackend) -> Input) async -> [Row] {
        let jobs = ids.indices.flatMap { subject in backends.indices.map { (subject, $0) } }
        let references = backends.map { reference(for: $0.name) }
        return await ParallelJobs.run(count: jobs.count) { index in
            let (subject, backendIndex) = jobs[index]
            let backend = backends[backendIndex]
            let id = ids[subject]
            let recorded = Self.recorded(in: record, backend: backend.name, vector: id)
            switch input(subject, backend) {
            case .ask(let anchors, let request):
                return await Self.compare(id, anchors: anchors, request: request, on: backend, reference: references[backendIndex], recorded: recorded)
            case .skip(let reason):
                return Row(vector: id, backend: backend.name, reference: references[backendIndex]?.label, column: "not asked", referenceAnswer: "no answer", agreement: .noReference, why: reason)
            }
        }
    }

    /// The difference recorded for `backend` on `vector`: its own, or for a `NAME+checks` column the
    /// library's (`NAME`'s), since the layer in front changes nothing where it lets a request through.
    static func recorded(in record: Record, backend: String, vector: String) -> Difference? {
        let library = backend.hasSuffix(HarnessChecks.columnSuffix) ? String(backend.dropLast(HarnessChecks.columnSuffix.count)) : backend
        return record.differences.first { $0.vector == vector && $0.backend == backend }
            ?? record.differences.first { $0.vector == vector && $0.backend == library }
    }

    /// One request on one back end beside its reference.
    static func compare(_ id: String, anchors: [[UInt8]], request: EvaluationRequest, on backend: any TrustBackend, reference: (any FidelityReference)?, recorded: Difference?) async -> Row {
        guard let reference else {
            // Nothing to compare with, so the column is not asked either.
            return Row(vector: id, backend: backend.name, reference: nil, column: "not asked", referenceAnswer: "no answer", agreement: .noReference, why: "no fidelity reference for \(backend.name)")
        }
        // The references verify for TLS server authentication with nothing else set but what they
        // take (FidelityReference.features): a request that needs more (a depth, CRLs, policy
        // inputs, any purpose) has no plain answer, so the column is not asked either.
        if let needed = request.requiredFeatures.subtracting(reference.features).map(\.rawValue).sorted().first {
            return Row(vector: id, backend: backend.name, reference: reference.label, column: "not asked", referenceAnswer: "no answer", agreement: .noReference,
                       why: "\(reference.label) verifies for a TLS server with nothing else set; this request sets \(needed)")
        }
        let verdict = backend.evaluatorFailingClosed(anchors: anchors).evaluate(request)
        var row = Row(vector: id, backend: backend.name, reference: reference.label, column: describe(verdict), referenceAnswer: "no answer", agreement: .noReference, why: nil)
        // A limit stopped the library, or the harness could not ask it: the library gave no answer
        // to compare, and the reference (with no limit) may take as long as the library would have.
        switch verdict.origin {
        case .limit:
            row.agreement = .limit
            row.why = verdict.diagnostics.first { $0.origin == .limit }.map(\.description)
            return row
        case .harness:
            row.agreement = .notAsked
            row.why = verdict.diagnostics.first.map(\.description)
            return row
        case .library, .layer:
            break
        }
        guard let trusts = await reference.trusts(request, anchors: anchors) else {
            row.why = "\(reference.label) cannot put this request (an IP address to a call that takes a DNS name)"
            return row
        }
        row.referenceAnswer = trusts ? "trusted" : "rejected"
        if trusts == verdict.isTrusted {
            row.agreement = .agrees
            return row
        }
        // Limits and the harness's refusals returned above: what differs is the layer's or the library's.
        if verdict.origin == .layer {
            row.agreement = .layer
            row.why = verdict.diagnostics.first { $0.origin == .layer }.map(\.description)
        } else if let recorded, recorded.reference == row.referenceAnswer {
            row.agreement = .recorded
            row.why = recorded.reason
        } else {
            row.agreement = .unexplained
        }
        return row
    }

    /// `trusted`, or `rejected [classes]` with who decided when it was not the library.
    static func describe(_ verdict: Verdict) -> String {
        guard !verdict.isTrusted else { return "trusted" }
        let failures = "rejected [\(verdict.failures.map(\.rawValue).joined(separator: ", "))]"
        switch verdict.origin {
        case .library: return failures
        case .layer: return failures + " by layer \(verdict.layer ?? "?")"
        case .limit: return failures + " by a limit"
        case .harness: return failures + " by the harness"
        }
    }

    /// Each back end's counts, in the order given.
    public static func summaries(_ rows: [Row], backends: [String]) -> [Summary] {
        backends.map { name in
            var summary = Summary(backend: name, reference: rows.first { $0.backend == name }?.reference)
            for row in rows where row.backend == name {
                summary.requests += 1
                summary.counts[row.agreement, default: 0] += 1
            }
            return summary
        }
    }

    /// Problems with `rows` against `record`: an unexplained difference, a recorded one that changed
    /// or is no longer seen. Empty when every difference is named.
    public static func problems(_ rows: [Row], record: Record) -> [String] {
        var problems: [String] = []
        for row in rows {
            let recorded = record.differences.first { $0.backend == row.backend && $0.vector == row.vector }
            switch (row.agreement, recorded) {
            case (.unexplained, nil):
                problems.append("\(row.vector) on \(row.backend): the column gives \(row.column), \(row.reference ?? "the reference") \(row.referenceAnswer); record the difference with its reason in fidelity.json")
            case (.unexplained, let recorded?):
                problems.append("\(row.vector) on \(row.backend): recorded reference answer \(recorded.reference), now \(row.referenceAnswer) (column \(row.column))")
            case (.agrees, _?), (.layer, _?), (.limit, _?), (.notAsked, _?):
                problems.append("\(row.vector) on \(row.backend): the recorded difference is no longer seen (\(row.agreement.rawValue)); remove it")
            default:
                break
            }
        }
        return problems
    }

    /// `Vectors/fidelity.json`.
    public static func readRecord(_ url: URL) throws -> Record {
        try FileProblem.decodeJSON(Record.self, from: url, shape: "a fidelity record")
    }
}
