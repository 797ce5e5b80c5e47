import Foundation
import TrustVectors

/// What every input is evaluated against, read once from the vectors folder: the two anchor sets,
/// the pinned certificates and the four validation times. A missing or unreadable vectors folder
/// stops the program with the file and the problem.
enum FuzzFixture {
    static let vectors: URL = {
        guard let url = VectorSuite.locate() else {
            fail("no Vectors/ folder (set \(VectorSuite.environmentVariable) to one)")
        }
        return url
    }()

    static let keyTypes = ["rsa2048", "p256", "ed25519"]
    static let roots = keyTypes.map { der("\($0)/root") }
    static let allAnchors = keyTypes.flatMap { key in
        ["root", "intermediate", "leaf", "self-signed-leaf", "expired-intermediate", "expired-intermediate-leaf"].map { der("\(key)/\($0)") }
    }
    /// [anchor set]: the three roots, then 18 certificates of the vectors (leaves and expired ones too).
    static let anchorSets = [roots, allAnchors]
    static let pinned = keyTypes.flatMap { [der("\($0)/root"), der("\($0)/intermediate")] }
    static let vectorTime: TimeInterval = 1_748_736_000  // 2025-06-01T00:00:00Z, the vectors' time
    static let times = [vectorTime, 0, 253_402_300_799, vectorTime + 10 * 365 * 86_400].map(Date.init(timeIntervalSince1970:))

    static func der(_ relative: String) -> [UInt8] {
        let url = vectors.appendingPathComponent("certs/\(relative).pem")
        do {
            guard let first = try CertificateFile.read(url).first else { fail("\(url.path): no certificate") }
            return first
        } catch {
            fail("\(url.path): \(error)")
        }
    }

    /// The executable's name, for messages.
    static var program: String {
        (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "fuzz"
    }

    /// Stops the program with `message` on standard error, naming the program.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(2)
    }
}
