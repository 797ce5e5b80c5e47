import BuiltInBackends
import Foundation
import Synchronization
import Testing
import TrustHarnessCLI
import TrustVectors

/// What one run of the tool in this process gave: its exit status, standard output and standard error.
struct ToolRun: Sendable, CustomStringConvertible {
    var status: Int32
    var output: String
    var errors: String

    /// Both streams, as a person at a terminal reads them.
    var text: String { output + errors }

    var description: String { "status \(status)\n--- stdout\n\(output.prefix(2_000))\n--- stderr\n\(errors.prefix(2_000))" }

    /// Runs `trust-harness arguments` in this process with the built-in back ends; `input` is its
    /// standard input; `failingOutput` makes standard output fail as a full disk does.
    static func of(_ arguments: [String], input: [UInt8] = [], failingOutput: Bool = false) async throws -> ToolRun {
        let output = Sink(), errors = Sink()
        var context = try ToolContext(
            packages: [BuiltInBackends.package],
            standardOutput: { text in
                if failingOutput { throw CocoaError(.fileWriteOutOfSpace) }
                output.append(text)
            },
            standardError: { errors.append($0) },
            standardInput: { input }
        )
        context.loadVectors = { try Self.vectors.load($0) }
        let status = await TrustHarnessTool.execute(arguments, in: context)
        return ToolRun(status: status, output: output.text, errors: errors.text)
    }

    /// The committed vectors folder, read once for every run: it does not change during the tests.
    static let vectors = VectorsCache()

    final class VectorsCache: Sendable {
        private let loaded = Mutex<[URL: VectorSuite]>([:])
        func load(_ directory: URL) throws -> VectorSuite {
            if let suite = loaded.withLock({ $0[directory.standardizedFileURL] }) { return suite }
            let suite = try VectorSuite.load(from: directory)
            loaded.withLock { $0[directory.standardizedFileURL] = suite }
            return suite
        }
    }

    /// A stream captured in memory.
    final class Sink: Sendable {
        private let buffer = Mutex("")
        func append(_ text: String) { buffer.withLock { $0 += text } }
        var text: String { buffer.withLock { $0 } }
    }
}

/// Files the cases refer to: the committed vectors, and bad input written once per run.
enum Files {
    static let vectors = "Vectors/certs/p256"
    static let leaf = "\(vectors)/leaf.pem"
    static let intermediate = "\(vectors)/intermediate.pem"
    static let root = "\(vectors)/root.pem"

    /// A folder of bad and derived input, made once: `garbage.der`, `broken.pem`, `key.pem`,
    /// `leaf.der`, `bad-pins.txt`, `pins.txt` (the root's pin) and `tampered.json` (the x509-limbo
    /// record with one result flipped).
    static let scratch: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-harness-cli-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) { try? Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        write("garbage.der", "not a certificate")
        write("broken.pem", "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n")
        write("key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        write("bad-pins.txt", "sha256/tooshort\n")
        if let pem = try? String(contentsOfFile: leaf, encoding: .utf8) {
            let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            try? Data(base64Encoded: base64)?.write(to: folder.appendingPathComponent("leaf.der"))
        }
        if let record = try? String(contentsOfFile: "Vectors/limbo/observed.json", encoding: .utf8) {
            write("tampered.json", record.replacingOccurrences(of: "\"rfc5280::ca-as-leaf\" : \"FAILURE\"", with: "\"rfc5280::ca-as-leaf\" : \"SUCCESS\""))
        }
        if let data = FileManager.default.contents(atPath: "Vectors/limbo/limbo.json"),
           var suite = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            suite["version"] = 2
            if let newer = try? JSONSerialization.data(withJSONObject: suite) { try? newer.write(to: folder.appendingPathComponent("newer-limbo.json")) }
        }
        write("empty-limbo.json", #"{"version": 1, "testcases": []}"#)
        return folder
    }()

    /// A path in the scratch folder.
    static func scratch(_ name: String) -> String { scratch.appendingPathComponent(name).path }
}
