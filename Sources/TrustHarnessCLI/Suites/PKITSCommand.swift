import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// NIST PKITS, through the same runner, reports, record and result files as x509-limbo.
struct PKITSCommand: ToolCommand, SuiteHelp {
    static let configuration = CommandConfiguration(
        commandName: "pkits",
        _superCommandName: "trust-harness",
        abstract: "Run NIST PKITS (RFC 5280 path validation, 249 entries) on every back end.",
        discussion: """
        Each entry is validated for any purpose (no extended key usage required, no host) at PKITS's \
        validation time, with its trust anchor, its intermediates as a pool, its CRLs and its RFC 5280 \
        policy inputs (initial policy set, explicit policy, policy-mapping inhibit, inhibit-anyPolicy). \
        A back end that cannot do what an entry needs (validation for any purpose, CRLs, certificate \
        policy processing for §4.8-4.12 or non-default inputs) SKIPS it with the reason; none is run \
        with a check silently off. The summary counts per back end and PKITS section: passed; accepted \
        although PKITS expects FAILURE; rejected although it expects SUCCESS; skipped.

        Exit status: 0 when every result equals the committed record (Vectors/pkits/observed.json) or \
        there is no record for this suite; 1 when a result changed; 2 for bad input.
        Examples:
          trust-harness pkits            # the vendored Vectors/pkits/pkits.json
          trust-harness pkits --id 'pkits::4.8.*' --backend openssl
          trust-harness pkits --format html --report pkits.html
          trust-harness pkits --results-dir results/
        """
    )

    static let pathHelp = "A PKITS suite in x509-limbo's format (pkits.json), or a folder holding one (default: the vendored pkits/pkits.json of the vectors folder)."
    static let idHelp = "Only entries whose id matches this pattern (* and ? wildcards, e.g. 'pkits::4.8.*' or 'pkits::4.1.1-*'); repeatable. --vector is the same."
    static let profileHelp = "The profile the report names: rfc5280 or webpki. PKITS judges RFC 5280 path validation alone (no webpki:: entries), so either runs every entry."
    static let recordHelp = "The record to compare with (default: pkits/observed.json of the vectors folder)."

    @OptionGroup var file: SuiteFileOption
    @OptionGroup var options: SuiteRunOptions<PKITSCommand>

    func run(in tool: ToolContext) async throws {
        try await options.execute(.pkits, file: file.path(besides: options.path, kind: .pkits), in: tool)
    }
}
