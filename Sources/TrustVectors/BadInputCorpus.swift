import Foundation
import TrustCore

/// The bad-input corpus (`Vectors/bad-input/`): hostile and broken chains, files and host names,
/// each with the answer the standards require (a specific input error, a rejection of one failure
/// class, or, where the input is odd but valid, trusted). Every back end must give exactly that
/// answer, so bad input gets the same class of answer everywhere.
public struct BadInputCorpus: Sendable {
    public struct Case: Sendable, Decodable {
        public var id: String
        public var description: String
        public var chain: [Part]
        /// nil: the corpus's default anchors.
        public var anchors: [Part]?
        public var host: String?
        public var expect: Expectation
    }

    /// Where the bytes of a chain element come from.
    public indirect enum Part: Sendable, Decodable {
        /// A generated file taken whole as one DER element, whatever it holds.
        case file(String)
        /// A generated file read as a user's certificate file (PEM or DER), with its errors.
        case pem(String)
        /// A certificate file of the vectors (`certs/<key type>/<name>.pem`).
        case vector(String)
        case repeated(Part, count: Int)

        enum CodingKeys: String, CodingKey { case file, pem, vector, `repeat`, count }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let name = try c.decodeIfPresent(String.self, forKey: .file) {
                self = .file(name)
            } else if let name = try c.decodeIfPresent(String.self, forKey: .pem) {
                self = .pem(name)
            } else if let path = try c.decodeIfPresent(String.self, forKey: .vector) {
                self = .vector(path)
            } else if let part = try c.decodeIfPresent(Part.self, forKey: .repeat) {
                let count = try c.decode(Int.self, forKey: .count)
                guard (0...100_000).contains(count) else {
                    throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "a repeat count is 0 to 100,000")
                }
                self = .repeated(part, count: count)
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "a part is {\"file\"}, {\"pem\"}, {\"vector\"} or {\"repeat\", \"count\"}"))
            }
        }
    }

    /// The answer every back end must give.
    public struct Expectation: Sendable, Decodable {
        /// `trusted`, `rejected` (with exactly ``failures``) or `inputError` (the files cannot be
        /// read as certificates: nothing reaches a back end; the message contains ``message``).
        public var verdict: String
        public var failures: [FailureClass]?
        public var message: String?
    }

    /// A case's input, ready for a back end.
    public struct Input: Sendable {
        public var chain: [[UInt8]]
        public var anchors: [[UInt8]]
        public var host: HostIdentity?
        public var time: Date
        /// The leaf's private key, when the vectors' keys have it (for back ends that serve the chain).
        public var leafPrivateKey: [UInt8]?

        /// The request a back end is asked.
        public var request: EvaluationRequest {
            var request = EvaluationRequest(chain: chain, host: host, time: time)
            request.leafPrivateKey = leafPrivateKey
            return request
        }
    }

    public var cases: [Case]
    public var time: Date
    public var anchors: [Part]
    /// `Vectors/`, which `vector` parts are relative to.
    public var vectors: URL
    /// The vectors' keys, to find a case's leaf key.
    let keys: VectorKeys.Index

    /// Loads `Vectors/bad-input/manifest.json` of the vectors folder `vectors`.
    /// - Throws: ``FileProblem`` when the manifest cannot be read or has the wrong shape.
    public static func load(vectors: URL) throws -> BadInputCorpus {
        struct Document: Decodable {
            var time: String
            var anchors: [Part]
            var cases: [Case]
        }
        let url = vectors.appendingPathComponent("bad-input/manifest.json")
        let document = try FileProblem.decodeJSON(Document.self, from: url, shape: "a bad-input manifest")
        guard let time = Timestamp.parse(document.time) else {
            throw FileProblem(file: url.path, problem: "time \"\(document.time)\" is not an ISO 8601 date-time")
        }
        return BadInputCorpus(cases: document.cases, time: time, anchors: document.anchors, vectors: vectors, keys: VectorKeys.Index(directory: vectors))
    }

    /// The chain, anchors, host and time of `testcase`, or the ``FileProblem`` a user would get for
    /// its files (the expected outcome of an `inputError` case).
    public func input(for testcase: Case) throws -> Input {
        let chain = try testcase.chain.flatMap(read)
        return Input(
            chain: chain,
            anchors: try (testcase.anchors ?? anchors).flatMap(read),
            host: testcase.host.map(HostIdentity.init),
            time: time,
            leafPrivateKey: chain.first.flatMap(keys.privateKey(for:))
        )
    }

    private func read(_ part: Part) throws -> [[UInt8]] {
        let generated = vectors.appendingPathComponent(BadInputFiles.folder)
        switch part {
        case .file(let name):
            return [Array(try FileProblem.contents(of: generated.appendingPathComponent(name)))]
        case .pem(let name):
            return try CertificateFile.read(generated.appendingPathComponent(name))
        case .vector(let path):
            return try CertificateFile.read(vectors.appendingPathComponent(path))
        case .repeated(let part, let count):
            let one = try read(part)
            return Array(repeating: one, count: count).flatMap { $0 }
        }
    }
}
