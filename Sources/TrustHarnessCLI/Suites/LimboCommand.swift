import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// x509-limbo (C2SP/x509-limbo), the vendored copy or any file of its format, on every back end.
struct LimboCommand: ToolCommand, SuiteHelp {
    static let configuration = CommandConfiguration(
        commandName: "limbo",
        _superCommandName: "trust-harness",
        abstract: "Run an x509-limbo suite (C2SP/x509-limbo) on every back end.",
        discussion: """
        Each case's trusted certificates are the anchors, its untrusted intermediates follow the peer \
        certificate, its expected peer name (DNS or IP) is the host, its validation time (or now) the time, \
        its maximum chain depth a request constraint. A case whose constraints a back end cannot honour \
        faithfully is SKIPPED with the reason. The summary counts, per back end and id namespace: passed; \
        accepted although the suite expects FAILURE; rejected although it expects SUCCESS; skipped.

        Exit status: 0 when every result equals the committed record (Vectors/limbo/observed.json, for \
        the suite it was made from) or there is no record for this suite; 1 when a result changed; 2 for \
        bad input.
        Examples:
          trust-harness limbo            # the vendored Vectors/limbo/limbo.json
          trust-harness limbo ../x509-limbo/limbo.json --results-dir results/
          trust-harness limbo --id 'pathlen::*' --backend openssl
          trust-harness limbo --format html --report limbo.html
          trust-harness limbo --format junit --report limbo.xml   # for CI
        """
    )

    static let pathHelp = "An x509-limbo suite (limbo.json), or a folder holding one (default: the vendored limbo/limbo.json of the vectors folder)."
    static let idHelp = "Only cases whose id matches this pattern (* and ? wildcards, e.g. 'pathlen::*' or 'webpki::san::*'); repeatable. --vector is the same."
    static let profileHelp = "rfc5280: only the cases that judge RFC 5280 and RFC 9525 (the webpki:: cases, which judge the CA/Browser Forum's Baseline Requirements, are left out); webpki: every case. Default: every case, as x509-limbo expects it."
    static let recordHelp = "The record to compare with (default: limbo/observed.json of the vectors folder)."

    @OptionGroup var file: SuiteFileOption
    @OptionGroup var options: SuiteRunOptions<LimboCommand>

    func run(in tool: ToolContext) async throws {
        try await options.execute(.limbo, file: file.path(besides: options.path, kind: .limbo), in: tool)
    }
}
