import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Writes each finding as files: `<folder>/<NN>-<slug>/chain.pem`, `anchors.pem`, `leaf-key.pem`
/// (the private key of the first certificate presented, made again from the run's seed, for a TLS
/// server to present the chain) and `finding.json` (the answers, the native diagnostics and the
/// `trust-harness evaluate` command that reproduces it), and `<folder>/candidates.json`, every
/// finding as a candidate vector in the manifest's format with `expected` left null: set it from
/// the standard (never from a back end) to make it a catalogue entry (README: "From a finding to a
/// vector").
///
/// A finding asked with revocation data also has its CRLs (`crl-N.pem`) and OCSP responses
/// (`ocsp-N.der`), and a `manifest.json` of the one vector it is, with its revocation files and mode:
/// `evaluate` takes no revocation data, so `trust-harness run --vectors <its folder>` reproduces it.
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
        /// The CRLs and OCSP responses (files relative to candidates.json's folder) and the mode the
        /// finding was asked with; absent without any.
        public var revocation: RevocationFiles? = nil
        /// The PEM file (relative to candidates.json's folder) of the private key of the first
        /// certificate of `chain`; absent when the chain is empty (or in a file written before the
        /// explorer kept its keys).
        public var leafKey: String? = nil
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

    /// The evaluate command that reproduces the finding from its files (paths as written); for a
    /// finding asked with revocation data, which evaluate does not take, the run of its folder's
    /// one-vector manifest.
    public static func command(_ finding: Explorer.Finding, folder: String) -> String {
        if finding.revocation != nil {
            return ["trust-harness", "run", "--vectors", folder].map(Provenance.quoted).joined(separator: " ")
        }
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

    /// Writes the revocation data of a finding as `crl-N.pem` (PEM `X509 CRL`) and `ocsp-N.der` into
    /// `directory`, and a `manifest.json` of the one vector `entry` with them; the names with
    /// `prefix/` before them.
    static func revocationFiles(_ revocation: Explorer.Revocation, in directory: URL, prefix: String) throws -> RevocationFiles {
        var files = RevocationFiles(mode: revocation.mode)
        for (position, der) in revocation.crls.enumerated() {
            let file = "crl-\(position + 1).pem"
            try Data(PEMText.encode(type: "X509 CRL", der: der).utf8).write(to: directory.appendingPathComponent(file))
            files.crls.append("\(prefix)/\(file)")
        }
        for (position, der) in revocation.ocspResponses.enumerated() {
            let file = "ocsp-\(position + 1).der"
            try Data(der).write(to: directory.appendingPathComponent(file))
            files.ocspResponses.append("\(prefix)/\(file)")
        }
        return files
    }

    /// The one-vector manifest of a finding asked with revocation data, its files relative to its
    /// own folder: RFC 5280's answer where there is one, else left open with each library's verdict.
    static func manifest(_ finding: Explorer.Finding, id: String, description: String, singles: (chain: [String], anchors: [String]), revocation: RevocationFiles) -> VectorManifest {
        let answer = finding.rfc5280 ?? ProfileAnswer(expected: Expectation(trusted: false), references: [], open: "The explorer gives no standard answer for this mutant (its changes meet each other or the base, and no rule is written for that): run shows each library's own verdict.")
        func local(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
        var entry = VectorEntry(id: id, description: description, chain: singles.chain.map(local), anchors: singles.anchors.map(local), host: finding.host, time: finding.time,
                                expected: answer.expected, references: answer.references, open: answer.open)
        if let webpki = finding.webpki { entry.setAnswers(rfc5280: answer, webpki: webpki) }
        entry.revocation = RevocationFiles(crls: revocation.crls.map(local), ocspResponses: revocation.ocspResponses.map(local), mode: revocation.mode)
        return VectorManifest(vectors: [entry])
    }

    /// The private key (PKCS#8 DER) of `key`, made again as the run of `seed` made it.
    /// - Throws: ``TrustVectors/FileProblem`` for a key type the explorer does not make, or the
    ///   error of making the key.
    static func privateKey(_ key: Explorer.LeafKey, seed: UInt64) throws -> [UInt8] {
        guard let kind = SigningKey.Kind(rawValue: key.type) else {
            throw FileProblem(file: "leaf-key.pem", problem: "names the key type \(key.type), which the explorer does not make (\(SigningKey.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return try SigningKey(kind: kind, seed: seed, slot: key.slot).pkcs8
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
            var leafKey: String?
            if let key = finding.leafKey {
                try Data(PEMText.encode(type: "PRIVATE KEY", der: try privateKey(key, seed: report.seed)).utf8).write(to: directory.appendingPathComponent("leaf-key.pem"))
                leafKey = "\(name)/leaf-key.pem"
            }
            let reproduce = command(finding, folder: directory.path)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            struct FindingFile: Encodable {
                var finding: Explorer.Finding
                var reproduce: String
                enum Key: String, CodingKey { case kind, steps, summary, base, answers, host, time, revocation, leafKey, occurrences, reproduce, key }
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
                    try c.encodeIfPresent(finding.revocation, forKey: .revocation)
                    try c.encodeIfPresent(finding.leafKey, forKey: .leafKey)
                    try c.encode(finding.occurrences, forKey: .occurrences)
                    try c.encode(reproduce, forKey: .reproduce)
                }
            }
            try encoder.encode(FindingFile(finding: finding, reproduce: reproduce)).write(to: directory.appendingPathComponent("finding.json"))
            // The standards' answers the explorer attached (RFC-derived, never from a back end).
            let answer = finding.rfc5280
            let webpki = answer.flatMap { answer in finding.webpki.flatMap { $0 == answer ? nil : $0 } }
            let id = "explored/\(Self.name(finding))"
            let description = finding.summary + (finding.steps.count == 1 && finding.steps[0].role != .chain ? " (on the \(finding.steps[0].role.rawValue))" : "") + "; found by trust-harness explore"
            var revocation: RevocationFiles?
            if let data = finding.revocation {
                let files = try revocationFiles(data, in: directory, prefix: name)
                try encoder.encode(manifest(finding, id: id, description: description, singles: singles, revocation: files)).write(to: directory.appendingPathComponent("manifest.json"))
                revocation = files
            }
            candidates.append(Candidate(
                id: id,
                description: description,
                chain: singles.chain,
                anchors: singles.anchors,
                host: finding.host,
                time: finding.time,
                expected: answer.flatMap { $0.open == nil ? $0.expected : nil },
                references: answer?.references ?? [],
                open: answer?.open,
                webpki: webpki,
                revocation: revocation,
                leafKey: leafKey,
                observed: finding.answers,
                reproduce: reproduce
            ))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(CandidateList(vectors: candidates)).write(to: folder.appendingPathComponent("candidates.json"))
    }
}
