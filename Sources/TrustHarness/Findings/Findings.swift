import Foundation
import TrustBackendKit
import TrustCore
import TrustVectors

/// Findings a maintainer can act on: for every accept of the most serious impact classes, a
/// self-contained folder with the certificates, the host, the address, the time, the exact call
/// with the library's own tool or a few lines of its API, the observed and the expected answer and
/// the sentence it rests on. Written by `trust-harness findings`.
public enum Findings {
    /// One finding: a result that trusts what the standards reject, with an impact at least as
    /// serious as asked.
    public struct Finding: Sendable {
        public var result: ConformanceResult
        public var vector: LoadedVector
        public var answer: ProfileAnswer
        public var impact: Impact
        public var libraryVersion: String
    }

    /// The accepts in `results` whose impact is at least `severity` (critical first), each with its
    /// vector's profile answer, most serious first.
    public static func select(_ results: [ConformanceResult], suite: VectorSuite, profile: StandardsProfile, backends: [BackendInfo], severity: ImpactCatalogue.Severity) -> [Finding] {
        let vectors = Dictionary(suite.vectors.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let versions = Dictionary(backends.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
        return ConformanceResult.byImpact(results).compactMap { result in
            guard let impact = result.impact, impact.direction == .accepts, impact.severity <= severity,
                  result.observed?.trusted == true, let vector = vectors[result.id] else { return nil }
            return Finding(result: result, vector: vector, answer: vector.entry.answer(for: profile), impact: impact, libraryVersion: versions[result.backend] ?? "version unknown")
        }
    }

    /// The folder of a finding under the output folder: `<back end>/<vector id with / as __>`.
    public static func folderName(_ finding: Finding) -> String {
        "\(finding.result.backend)/\(finding.result.id.replacingOccurrences(of: "/", with: "__"))"
    }

    /// Writes every finding's folder under `directory` and an index (`README.md`), replacing
    /// folders of the same names; returns the folders written, relative to `directory`.
    /// - Throws: a ``FileProblem`` naming the path that could not be written.
    public static func write(_ findings: [Finding], to directory: URL, catalogue: ImpactCatalogue, reproductions: [String: Reproduction], profile: StandardsProfile, command: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileProblem(file: directory.path, problem: "cannot be made: \(FileProblem.systemReason(error))")
        }
        var written: [String] = []
        var index = ["# TrustHarness findings", "",
                     "Accepts of impact \(findings.isEmpty ? "critical or high" : Set(findings.map(\.impact.severity.rawValue)).sorted().joined(separator: ", ")) under profile \(profile.rawValue), most serious first, written by `\(command)`. Each folder holds the certificates, the request, the library's own call and what the standards say.", ""]
        index.append("| impact | back end | vector | folder |")
        index.append("|---|---|---|---|")
        for finding in findings {
            let name = folderName(finding)
            let folder = directory.appendingPathComponent(name)
            try write(finding, to: folder, catalogue: catalogue, reproduction: reproductions[finding.result.backend], profile: profile)
            written.append(name)
            index.append("| \(finding.impact.label) | \(finding.result.backend) | `\(finding.result.id)` | [\(name)](\(name)/README.md) |")
        }
        if findings.isEmpty { index.append("| | | none | |") }
        try save(index.joined(separator: "\n") + "\n", to: directory.appendingPathComponent("README.md"))
        return written
    }

    static func write(_ finding: Finding, to folder: URL, catalogue: ImpactCatalogue, reproduction: Reproduction?, profile: StandardsProfile) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileProblem(file: folder.path, problem: "cannot be made: \(FileProblem.systemReason(error))")
        }
        let vector = finding.vector
        try save(pem(Array(vector.chain.prefix(1))), to: folder.appendingPathComponent("leaf.pem"))
        try save(pem(Array(vector.chain.dropFirst())), to: folder.appendingPathComponent("intermediates.pem"))
        try save(pem(vector.chain), to: folder.appendingPathComponent("chain.pem"))
        try save(pem(vector.anchors), to: folder.appendingPathComponent("anchors.pem"))
        var keyFile: String?
        if let key = vector.leafPrivateKey {
            try save(PEMText.encode(type: "PRIVATE KEY", der: key), to: folder.appendingPathComponent("leaf-key.pem"))
            keyFile = "leaf-key.pem"
        }
        let host = vector.entry.host
        let input = Reproduction.Input(leafKey: keyFile, host: host, hostIsIPAddress: host.flatMap(IPAddressParser.parse) != nil,
                                       connectedAddress: vector.entry.address, time: vector.time, isoTime: vector.entry.time)
        let harness = "trust-harness evaluate --backend \(finding.result.backend) --chain chain.pem --anchors anchors.pem --at \(vector.entry.time)"
            + (host.map { " --host \(Reproduction.quoted($0))" } ?? "") + (vector.entry.address.map { " --address \($0)" } ?? "")
        if let reproduction {
            try save(reproduction.make(input), to: folder.appendingPathComponent(reproduction.fileName))
        }
        let impactClass = catalogue.impactClass(finding.impact.class)
        let observed = finding.result.observed
        var lines = [
            "# \(finding.result.backend) trusts `\(vector.id)`", "",
            "**\(finding.impact.severity.rawValue) · \(impactClass?.title ?? finding.impact.class)** (\(finding.impact.cwe)\(impactClass.map { " \($0.cweName)" } ?? "")). \(impactClass?.consequence ?? "")", "",
            "- Library: \(finding.libraryVersion) (TrustHarness back end `\(finding.result.backend)`)",
            "- What the chain is: \(vector.entry.description)",
            "- Presented (leaf first): `chain.pem` (`leaf.pem`, then `intermediates.pem`); trust anchors: `anchors.pem`\(keyFile.map { "; the leaf's key: `\($0)`" } ?? "")",
            "- Host checked: \(host.map { "`\($0)`" } ?? "none")" + (vector.entry.address.map { "; the client connected to `\($0)`" } ?? ""),
            "- Validation time: \(vector.entry.time) (\(input.unixTime) seconds since 1970)", "",
            "## Observed", "",
            "Trusted\(observed?.pathLength.map { " (a path of \($0) certificates)" } ?? "").", "",
            "## Expected", "",
            "Rejected (\(finding.answer.expected.failures.map(\.rawValue).joined(separator: " or "))), under the \(profile.rawValue) profile (\(profile.summary)), because:", "",
        ]
        lines += finding.answer.references.map { "> \($0)" }.flatMap { [$0, ""] }
        lines += ["The impact class comes from the rule `\(finding.impact.rule)` (Vectors/impacts.json).", ""]
        if let precedent = impactClass?.precedents.first {
            lines += ["A precedent: \(precedent.id), \(precedent.library): \(precedent.behaviour) (\(precedent.severity); \(precedent.url)).", ""]
        }
        lines += ["## The library's reason, as recorded", "", finding.result.judgement.detail, "", "## Reproduce", ""]
        if let reproduction {
            lines += ["With the library alone: `\(reproduction.fileName)` (\(reproduction.howToRun)).", ""]
        }
        lines += ["With TrustHarness's column for it (equal to the library called plainly, `trust-harness fidelity`):", "", "```sh", harness, "```", ""]
        try save(lines.joined(separator: "\n"), to: folder.appendingPathComponent("README.md"))
    }

    static func pem(_ certificates: [[UInt8]]) -> String {
        certificates.map { PEMText.encode(type: "CERTIFICATE", der: $0) }.joined()
    }

    static func save(_ text: String, to url: URL) throws {
        do {
            try Data(text.utf8).write(to: url)
        } catch {
            throw FileProblem(file: url.path, problem: "cannot be written: \(FileProblem.systemReason(error))")
        }
    }
}
