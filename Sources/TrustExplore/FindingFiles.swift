import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Writes each finding as files: `<folder>/<NN>-<slug>/chain.pem`, `anchors.pem` and `finding.json`
/// (the answers, the native diagnostics and the `trust-harness evaluate` command that reproduces
/// it), and `<folder>/candidates.json`, every finding as a candidate vector in the manifest's format
/// with `expected` left null: set it from the standard (never from a back end) to make it a
/// catalogue entry (README: "From a finding to a vector").
public enum FindingFiles {
    /// A candidate vector: a manifest entry without its expectation, with what each back end said.
    public struct Candidate: Codable, Sendable {
        public var id: String
        public var description: String
        public var chain: [String]
        public var anchors: [String]
        public var host: String?
        public var time: String
        /// RFC 5280's answer (with RFC 9525); null where no answer can be justified or where the
        /// standards leave it open (then ``open`` quotes the sentence that does).
        @ExplicitNull public var expected: Expectation?
        public var references: [String]
        /// The sentence that leaves RFC 5280's answer open, if it is.
        public var open: String? = nil
        /// The Web PKI profile's answer where it differs from RFC 5280's.
        public var webpki: ProfileAnswer? = nil
        public var observed: [Explorer.Answer]
        public var reproduce: String
    }

    public struct CandidateList: Codable, Sendable {
        public var version = 1
        public var vectors: [Candidate]
    }

    /// The folder name of the finding at `index`: its number and ``name(_:)``.
    public static func slug(_ finding: Explorer.Finding, index: Int) -> String {
        String(format: "%03d-", index + 1) + name(finding)
    }

    /// The finding's mutations and places, file-name safe: its candidate's id is `explored/` and
    /// this, without the report's number (of any width), so that two classes of the same mutations
    /// are one candidate id, the first listed kept.
    public static func name(_ finding: Explorer.Finding) -> String {
        var name = finding.steps.map { "\($0.mutation.replacingOccurrences(of: "/", with: "-"))\($0.role == .chain ? "" : "-at-\($0.role.rawValue)")" }.joined(separator: "+")
        // An Ed25519 base departs from the Web PKI profile (BR §6.1.5): the id says so.
        if finding.keyType == nil { name += "+" + ExploredAnswers.ed25519Base }
        return String(name.map { $0.isLetter || $0.isNumber || "-+.".contains($0) ? $0 : "_" })
    }

    /// The evaluate command that reproduces the finding from its files (paths as written).
    public static func command(_ finding: Explorer.Finding, folder: String) -> String {
        var parts = ["trust-harness", "evaluate", "--chain", "\(folder)/chain.pem", "--anchors", "\(folder)/anchors.pem"]
        if let host = finding.host { parts += ["--host", host] }
        parts += ["--at", finding.time]
        return parts.map(Provenance.quoted).joined(separator: " ")
    }

    /// Writes each certificate as `chain-N.pem` or `anchor-N.pem` into `directory`, the form a manifest
    /// entry names; the names with `prefix/` before them.
    static func singleFiles(chain: [[UInt8]], anchors: [[UInt8]], in directory: URL, prefix: String) throws -> (chain: [String], anchors: [String]) {
        var names: (chain: [String], anchors: [String]) = ([], [])
        for (role, certificates) in [("chain", chain), ("anchor", anchors)] {
            for (position, der) in certificates.enumerated() {
                let file = "\(role)-\(position + 1).pem"
                try Data(PEMText.encode(type: "CERTIFICATE", der: der).utf8).write(to: directory.appendingPathComponent(file))
                if role == "chain" { names.chain.append("\(prefix)/\(file)") } else { names.anchors.append("\(prefix)/\(file)") }
            }
        }
        return names
    }

    /// Writes every finding into `folder` (created if missing).
    /// - Throws: the file system's error, naming the file.
    public static func write(_ report: Explorer.Report, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var candidates: [Candidate] = []
        for (index, finding) in report.findings.enumerated() {
            let name = slug(finding, index: index)
            let directory = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let pem = { (certificates: [[UInt8]]) in certificates.map { PEMText.encode(type: "CERTIFICATE", der: $0) }.joined() }
            try Data(pem(finding.chain).utf8).write(to: directory.appendingPathComponent("chain.pem"))
            try Data(pem(finding.anchors).utf8).write(to: directory.appendingPathComponent("anchors.pem"))
            // One certificate per file as well, the form a manifest entry names.
            let singles = try singleFiles(chain: finding.chain, anchors: finding.anchors, in: directory, prefix: name)
            let reproduce = command(finding, folder: directory.path)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            struct FindingFile: Encodable {
                var finding: Explorer.Finding
                var reproduce: String
                enum Key: String, CodingKey { case kind, steps, summary, base, answers, host, time, occurrences, reproduce, key }
                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(finding.kind, forKey: .kind)
                    try c.encode(finding.key, forKey: .key)
                    try c.encode(finding.steps, forKey: .steps)
                    try c.encode(finding.summary, forKey: .summary)
                    try c.encode(finding.base, forKey: .base)
                    try c.encode(finding.answers, forKey: .answers)
                    try c.encode(finding.host, forKey: .host)
                    try c.encode(finding.time, forKey: .time)
                    try c.encode(finding.occurrences, forKey: .occurrences)
                    try c.encode(reproduce, forKey: .reproduce)
                }
            }
            try encoder.encode(FindingFile(finding: finding, reproduce: reproduce)).write(to: directory.appendingPathComponent("finding.json"))
            // The standards' answers the explorer attached (RFC-derived, never from a back end).
            let answer = finding.rfc5280
            let webpki = answer.flatMap { answer in finding.webpki.flatMap { $0 == answer ? nil : $0 } }
            candidates.append(Candidate(
                id: "explored/\(Self.name(finding))",
                description: finding.summary + (finding.steps.count == 1 && finding.steps[0].role != .chain ? " (on the \(finding.steps[0].role.rawValue))" : "") + "; found by trust-harness explore",
                chain: singles.chain,
                anchors: singles.anchors,
                host: finding.host,
                time: finding.time,
                expected: answer.flatMap { $0.open == nil ? $0.expected : nil },
                references: answer?.references ?? [],
                open: answer?.open,
                webpki: webpki,
                observed: finding.answers,
                reproduce: reproduce
            ))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(CandidateList(vectors: candidates)).write(to: folder.appendingPathComponent("candidates.json"))
    }
}
