import Foundation
import TrustCore
import TrustVectors
import TrustProbe

/// Every chain vector served on 127.0.0.1 by a real TLS server, and each back end's TLS client
/// against it: the handshake's verdict beside the evaluator's verdict on the same chain. Where they
/// differ the difference must be recorded (`Vectors/handshake.json`, with its reason), as deviations
/// are; a recorded difference that is no longer seen fails too.
///
/// An OCSP revocation vector is served with its response stapled (none for a vector without one),
/// and each client asks for status as an application can. Its handshake is judged against the
/// vector's answer (RFC 6960 and RFC 6066, the caller's mode included), not against the evaluator:
/// a library may judge OCSP only inside a TLS session, and a client has no setting for the mode, so
/// the chain's verdict is shown beside it but decides nothing. A vector whose answer is open is shown
/// and not judged. CRL vectors are left out: a handshake carries no CRL.
public struct HandshakeComparison: Sendable {
    /// One vector on one back end.
    public struct Row: Sendable, Codable, Hashable {
        public var vector: String
        public var backend: String
        /// `trusted` or `rejected [classes]`, or `failed: why` when no handshake was made.
        public var handshake: String
        public var chain: String
        /// For an OCSP vector, what the standards call for (`trusted`, `rejected [allowed classes]`,
        /// or `open`), which its handshake is judged against; nil for other vectors.
        @ExplicitNull public var expected: String?
        /// For an OCSP vector, the response served stapled (a file of `Vectors/`, or `none`) and
        /// whether the client received it: `ocsp/p256/ocsp-leaf-good.der, received`.
        @ExplicitNull public var staple: String?
        public var differs: Bool
        /// The recorded reason when the difference is known.
        @ExplicitNull public var recorded: String?
    }

    /// A recorded difference (the file's format).
    public struct Difference: Sendable, Codable, Hashable {
        public var backend: String
        public var vector: String
        public var handshake: String
        public var reason: String

        public init(backend: String, vector: String, handshake: String, reason: String) {
            self.backend = backend
            self.vector = vector
            self.handshake = handshake
            self.reason = reason
        }
    }

    /// The record's file format.
    public typealias Record = DifferenceRecord<Difference>

    public let backends: [any TrustBackend]
    public let serve: LoopbackServerMaker
    public let vectorsDirectory: URL

    public init(backends: [any TrustBackend], vectorsDirectory: URL, serve: @escaping LoopbackServerMaker) {
        self.backends = backends
        self.vectorsDirectory = vectorsDirectory
        self.serve = serve
    }

    static func describe(_ verdict: Verdict) -> String {
        verdict.isTrusted ? "trusted" : "rejected [\(verdict.failures.map(\.rawValue).sorted().joined(separator: ", "))]"
    }

    /// The comparison for `vectors` (each served with the key that fits its leaf; one without is
    /// left out) on every back end that has a TLS client.
    public func run(_ vectors: [LoadedVector], record: Record? = nil, timeout: Duration = .seconds(5)) -> [Row] {
        var rows: [Row] = []
        for vector in vectors {
            let stapling = Self.isOCSPVector(vector)
            // A TLS handshake carries OCSP responses, not CRLs: a CRL vector asks the client another
            // question than the chain's request.
            if vector.entry.revocation != nil && !stapling { continue }
            guard let key = vector.leafPrivateKey, let server = try? serve(vector.chain, key) else { continue }
            defer { server.stop() }
            var staple: String?
            if stapling {
                let response = vector.entry.revocation?.ocspResponses.first
                staple = response ?? "none"
                guard let stapler = server as? any OCSPStapling else {
                    for backend in backends where TLSClients.of(backend) != nil {
                        rows.append(Row(vector: vector.id, backend: backend.name, handshake: "failed: the loopback server cannot staple an OCSP response", chain: "not evaluated",
                                        expected: Self.expectation(vector), staple: staple, differs: true, recorded: nil))
                    }
                    continue
                }
                stapler.staple(vector.ocspResponses.first)
            }
            let target = TLSTarget(address: "127.0.0.1", port: server.port, serverName: vector.host.flatMap { $0.isDNS ? $0.description : nil })
            var request = vector.request
            request.chain = []
            // The stapled response is the handshake's; the client is given no mode (it has no setting).
            request.ocspResponses = []
            request.revocationMode = nil
            for backend in backends {
                guard let client = TLSClients.of(backend) else { continue }
                let report = client.handshake(target, anchors: vector.anchors, request: request, timeout: timeout)
                let handshake = report.failure.map { $0.userError ? "failed: \($0)" : Self.describe(report.verdict) } ?? Self.describe(report.verdict)
                let chain = (try? backend.makeEvaluator(anchors: vector.anchors)).map { Self.describe($0.evaluate(vector.request)) } ?? "anchors refused"
                let recorded = record?.differences.first { $0.backend == backend.name && $0.vector == vector.id }
                if stapling {
                    let answer = Self.answer(vector)
                    let failed = report.failure?.userError == true
                    let admitted = answer.open != nil || answer.expected.admits(trusted: report.verdict.isTrusted, failures: report.verdict.isTrusted ? [] : report.verdict.failures)
                    let received = staple == "none" ? nil : (report.stapledResponse == nil ? ", not received" : ", received")
                    rows.append(Row(vector: vector.id, backend: backend.name, handshake: handshake, chain: chain, expected: Self.expectation(vector),
                                    staple: staple.map { $0 + (received ?? "") }, differs: failed || !admitted, recorded: recorded?.reason))
                } else {
                    rows.append(Row(vector: vector.id, backend: backend.name, handshake: handshake, chain: chain, expected: nil, staple: nil, differs: handshake != chain, recorded: recorded?.reason))
                }
            }
        }
        return rows
    }

    /// An OCSP revocation vector: revocation inputs without CRLs (one response, or none for a
    /// missing one).
    static func isOCSPVector(_ vector: LoadedVector) -> Bool {
        guard let revocation = vector.entry.revocation else { return false }
        return revocation.crls.isEmpty
    }

    /// What the standards call for on `vector`, in the rows' words.
    static func expectation(_ vector: LoadedVector) -> String {
        describe(answer(vector))
    }

    /// What a TLS client that asked for status must do with `vector` served: its handshake answer
    /// where it has one (must-staple), else the chain's.
    static func answer(_ vector: LoadedVector) -> ProfileAnswer {
        vector.entry.handshake ?? vector.entry.answer(for: .rfc5280)
    }

    /// An answer in the rows' words: `trusted`, `rejected [allowed classes]`, or `open`.
    public static func describe(_ answer: ProfileAnswer) -> String {
        if answer.open != nil { return "open" }
        return answer.expected.trusted ? "trusted" : "rejected [\(answer.expected.failures.map(\.rawValue).sorted().joined(separator: ", "))]"
    }

    /// Problems with `rows` against `record`: an unrecorded difference, a recorded one that changed
    /// or is no longer seen.
    public static func problems(_ rows: [Row], record: Record) -> [String] {
        var problems: [String] = []
        for row in rows {
            let recorded = record.differences.first { $0.backend == row.backend && $0.vector == row.vector }
            switch (row.differs, recorded) {
            case (true, nil): problems.append("\(row.vector) on \(row.backend): the handshake gives \(row.handshake), " + (row.expected.map { "the standards \($0)" } ?? "the chain \(row.chain)") + "; record it with its reason")
            case (true, let recorded?) where recorded.handshake != row.handshake:
                problems.append("\(row.vector) on \(row.backend): recorded handshake \(recorded.handshake), now \(row.handshake)")
            case (false, _?): problems.append("\(row.vector) on \(row.backend): the recorded difference is no longer seen (handshake \(row.handshake), " + (row.expected.map { "the standards \($0)" } ?? "chain \(row.chain)") + "); remove it")
            default: break
            }
        }
        return problems
    }

    /// `Vectors/handshake.json`.
    public static func readRecord(_ url: URL) throws -> Record {
        try FileProblem.decodeJSON(Record.self, from: url, shape: "a handshake record")
    }
}
