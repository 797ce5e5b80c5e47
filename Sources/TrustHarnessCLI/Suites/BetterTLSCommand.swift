import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// BetterTLS's suites, made at run time in x509-limbo's format, through the same runner, reports,
/// record and result files as x509-limbo.
struct BetterTLSCommand: ToolCommand, SuiteHelp {
    static let configuration = CommandConfiguration(
        commandName: "bettertls",
        _superCommandName: "trust-harness",
        abstract: "Run a Netflix BetterTLS suite (name constraints: 9,491 cases; path building: 81) on every back end.",
        discussion: """
        The cases are made here from BetterTLS's design (BetterTLSNameConstraints, BetterTLSPathBuilding: \
        the same cases, ids and expected results as BetterTLS's own manifests), as x509-limbo test cases \
        (bettertls::nameconstraints::tcN, bettertls::pathbuilding::tcN), with P-256 keys from a fixed \
        seed, evaluated at 2026-01-01T00:00:00Z. A result BetterTLS expects to be a soft pass or fail \
        counts by its direction (SUCCESS for a soft pass, FAILURE for a soft fail); another result on \
        it is a warning, as BetterTLS reports it. The summary has a row per feature: for name \
        constraints the host's type and the kinds of constraint, for path building the trust graph and \
        the reason its edges are invalid. --suite chooses the suite (nameconstraints, the default, or \
        pathbuilding). A path given instead is read as an x509-limbo file (e.g. one --export wrote, or \
        BetterTLS's export-tests made and x509-limbo converted).

        --published compares each back end with the results BetterTLS's authors published for the \
        closest library, as the record pairs them (Vectors/bettertls/published-<suite>-differences.json, \
        its "against": OpenSSL 3.0.1 for openssl and openssl-default, GnuTLS 3.7.2 for gnutls, \
        BoringSSL a406ad7 for swift-nio-ssl; --published-file nss=dec_2021/firefox_linux64_95.0.json \
        pairs NSS with Firefox 95), on the cases of the revision they were made with, and lists every \
        case where the verdicts differ with the explanation recorded for it in that file.

        Exit status: 0 when every result equals the committed record \
        (Vectors/bettertls/<suite>-observed.json) or there is none, and with --published when every \
        difference is explained; 1 when a result changed or a difference is not explained; 2 for bad input.
        Examples:
          trust-harness bettertls --backend openssl
          trust-harness bettertls --suite pathbuilding
          trust-harness bettertls --id 'bettertls::nameconstraints::tc1?' --format json
          trust-harness bettertls --published
          trust-harness bettertls --revision december2021 --export a738c20.json
        """
    )

    static let pathHelp = "An x509-limbo file to run instead of the suite made here (e.g. one --export wrote)."
    static let idHelp = "Only cases whose id matches this pattern (* and ? wildcards, e.g. 'bettertls::nameconstraints::tc1?' or 'bettertls::pathbuilding::tc7*'); repeatable. --vector is the same."
    static let profileHelp = "The profile the report names: rfc5280 or webpki. BetterTLS's cases judge RFC 5280 and RFC 9525 alone (no webpki:: cases), so either runs every case."
    static let recordHelp = "The record to compare with (default: bettertls/<suite>-observed.json of the vectors folder)."

    @Option(name: .customLong("suite"), help: ArgumentHelp("Which BetterTLS suite: nameconstraints (9,491 cases; the default) or pathbuilding (81).", valueName: "name"))
    var suite: BetterTLSTestSuite?

    /// `--test-suite`, this option's name before `fidelity` and `bettertls` shared `--suite`: kept,
    /// hidden, so that scripts written then still run.
    @Option(name: .customLong("test-suite"), help: .hidden)
    var testSuiteAlias: BetterTLSTestSuite?

    /// The suite chosen (`--suite`, or its older name `--test-suite`), name constraints by default.
    var testSuite: BetterTLSTestSuite { suite ?? testSuiteAlias ?? .nameconstraints }

    @Option(help: ArgumentHelp("The suite's cases at BetterTLS's current revision (current, 081fb7c) or at the one its authors' December 2021 results were made with (december2021, a738c20).", valueName: "revision"))
    var revision: BetterTLSRevisionOption = .current

    @Option(help: ArgumentHelp("Write the suite made here as an x509-limbo file and run nothing.", valueName: "file"), completion: .file())
    var export: String?

    @Flag(help: "Compare each back end with the results BetterTLS's authors published for the closest library, on the cases of their revision, and list every difference with its explanation.")
    var published = false

    @Option(name: .customLong("published-file"), help: ArgumentHelp("With --published: compare BACKEND with this published file (a name under Vectors/bettertls/published, e.g. nss=dec_2021/firefox_linux64_95.0.json, or a path); repeatable.", valueName: "backend=file"))
    var publishedFiles: [String] = []

    @OptionGroup var options: SuiteRunOptions<BetterTLSCommand>

    func validate() throws {
        if let suite, let testSuiteAlias, suite != testSuiteAlias {
            throw ValidationError("--suite \(suite.rawValue) and --test-suite \(testSuiteAlias.rawValue) name two suites: give --suite once")
        }
        if !publishedFiles.isEmpty && !published { throw ValidationError("--published-file pairs a back end for --published: add --published") }
        if published && revision != .current { throw ValidationError("--published compares on the revision the published files name: drop --revision") }
    }

    func run(in tool: ToolContext) async throws {
        if published { return try await runPublished(in: tool) }
        let kind = SuiteKind.bettertls(testSuite, revision.revision)
        if let export {
            let data = try kind.madeSuite()
            do {
                try data.write(to: URL(fileURLWithPath: export))
            } catch {
                tool.error("error: cannot write \(export): \(FileProblem.systemReason(error))")
                throw ExitCode(2)
            }
            // Path building's cases are the same at both revisions; its certificates are made as
            // BetterTLS's master makes them (the leaf's extendedKeyUsage serverAuth came in 859af10).
            let made = testSuite == .pathbuilding ? "its cases at \(revision.revision.rawValue.prefix(7)), its certificates as BetterTLS's master (859af10 and later) makes them"
                                                  : "at \(revision.revision.rawValue.prefix(7))"
            tool.error("wrote \(export): BetterTLS \(testSuite.rawValue) \(made), as x509-limbo test cases")
            return
        }
        try await options.execute(kind, file: options.path, in: tool)
    }
}

/// BetterTLS's test suites.
enum BetterTLSTestSuite: String, CaseIterable, ExpressibleByArgument {
    case nameconstraints, pathbuilding

    /// The suite's cases at `revision`, as the runner and the reports read them.
    func facts(_ revision: BetterTLSNameConstraints.Revision) -> BetterTLSCaseFacts {
        self == .nameconstraints ? .nameConstraints(revision) : .pathBuilding()
    }
}

/// The revisions of BetterTLS's suites, as `--revision` names them.
enum BetterTLSRevisionOption: String, CaseIterable, ExpressibleByArgument {
    case current, december2021

    var revision: BetterTLSNameConstraints.Revision {
        switch self {
        case .current: return .current
        case .december2021: return .december2021
        }
    }
}

