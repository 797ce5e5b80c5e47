import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

struct FindingsCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        _superCommandName: "trust-harness",
        abstract: "Write a reproducer folder for every serious accept: the certificates, the request, the library's own call, what the standards say.",
        discussion: """
        Evaluates the selected vectors (as run does) and, for every result that trusts what the \
        profile's standards reject with an impact of at least --severity (docs/impact.md: critical, \
        then high), writes <output>/<back end>/<vector>/ with leaf.pem, intermediates.pem, chain.pem, \
        anchors.pem (and leaf-key.pem when known), a README with the host, the connected address, the \
        time, the observed and expected answers, the sentences the answer rests on and the impact, and \
        the library's own reproduction (reproduce.sh or Reproduce.swift) where its package gives one; \
        an index in <output>/README.md. Exit status: 0 written (with or without findings), 2 bad input.
        Examples:
          trust-harness findings --output findings
          trust-harness findings --backend gnutls --id 'cn-only-no-san/*' --output f
        """
    )

    @OptionGroup var options: ReportOptions

    @Option(help: ArgumentHelp("The folder to write (made when missing; folders of the same names are replaced).", valueName: "dir"), completion: .directory)
    var output: String

    @Option(help: ArgumentHelp("The least serious impact written: critical, high (the default: the two highest), medium, low.", valueName: "severity"))
    var severity: String = ImpactCatalogue.Severity.high.rawValue

    func run(in tool: ToolContext) async throws {
        guard let threshold = ImpactCatalogue.Severity(rawValue: severity), threshold != .info else {
            throw ValidationError("--severity takes critical, high, medium or low, not \"\(severity)\"")
        }
        let suite = try options.load(in: tool)
        let run = try await options.run(in: tool)
        let profile = options.profileOption.profile
        let findings = Findings.select(run.results, suite: suite, profile: profile, backends: run.infos, severity: threshold)
        let directory = URL(fileURLWithPath: output)
        let command = (["trust-harness"] + tool.arguments).joined(separator: " ")
        let written = try Findings.write(findings, to: directory, catalogue: suite.impacts, reproductions: tool.reproductions, profile: profile, command: command)
        try tool.standardOutput("\(written.count) finding\(written.count == 1 ? "" : "s") of impact \(threshold.rawValue) or higher under profile \(profile.rawValue) in \(Provenance.reportPath(directory.path))\n"
            + findings.map { "  \($0.impact.label)  \($0.result.backend)  \($0.result.id)\n" }.joined())
    }
}
