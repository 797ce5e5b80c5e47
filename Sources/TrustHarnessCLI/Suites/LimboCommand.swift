import Synchronization
import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

struct LimboCommand: ToolCommand {
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

    @OptionGroup var options: SuiteRunOptions

    func run(in tool: ToolContext) async throws {
        try await options.execute(.limbo, in: tool)
    }
}

/// NIST PKITS, through the same runner, reports, record and result files as x509-limbo.
struct PKITSCommand: ToolCommand {
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

    @OptionGroup var options: SuiteRunOptions

    func run(in tool: ToolContext) async throws {
        try await options.execute(.pkits, in: tool)
    }
}

/// BetterTLS's suites, made at run time in x509-limbo's format, through the same runner, reports,
/// record and result files as x509-limbo.
struct BetterTLSCommand: ToolCommand {
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
        the reason its edges are invalid. A path given instead is read as an x509-limbo file (e.g. one \
        --export wrote, or BetterTLS's export-tests made and x509-limbo converted).

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
          trust-harness bettertls --test-suite pathbuilding
          trust-harness bettertls --id 'bettertls::nameconstraints::tc1?' --format json
          trust-harness bettertls --published
          trust-harness bettertls --revision december2021 --export a738c20.json
        """
    )

    @Option(name: .customLong("test-suite"), help: ArgumentHelp("nameconstraints or pathbuilding.", valueName: "name"))
    var testSuite: BetterTLSTestSuite = .nameconstraints

    @Option(help: ArgumentHelp("The suite's cases at BetterTLS's current revision (current, 081fb7c) or at the one its authors' December 2021 results were made with (december2021, a738c20).", valueName: "revision"))
    var revision: BetterTLSRevisionOption = .current

    @Option(help: ArgumentHelp("Write the suite made here as an x509-limbo file and run nothing.", valueName: "file"), completion: .file())
    var export: String?

    @Flag(help: "Compare each back end with the results BetterTLS's authors published for the closest library, on the cases of their revision, and list every difference with its explanation.")
    var published = false

    @Option(name: .customLong("published-file"), help: ArgumentHelp("With --published: compare BACKEND with this published file (a name under Vectors/bettertls/published, e.g. nss=dec_2021/firefox_linux64_95.0.json, or a path); repeatable.", valueName: "backend=file"))
    var publishedFiles: [String] = []

    @OptionGroup var options: SuiteRunOptions

    func validate() throws {
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
        try await options.execute(kind, in: tool)
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

/// Which public suite a suite command runs: where its vendored copy and record live and how it reads.
enum SuiteKind: CustomStringConvertible {
    case limbo, pkits
    case bettertls(BetterTLSTestSuite, BetterTLSNameConstraints.Revision)

    /// Each suite's title, file name, vendored copy and record in the vectors folder, and an id.
    private var facts: (title: String, fileName: String, vendoredPath: String, recordPath: String, idExample: String) {
        switch self {
        case .limbo: return ("x509-limbo", "limbo.json", "limbo/limbo.json", "limbo/observed.json", "'rfc5280::nc::permitted-dn-match'")
        case .pkits: return ("NIST PKITS", "pkits.json", "pkits/pkits.json", "pkits/observed.json", "'pkits::4.1.1-ValidSignaturesTest1'")
        case .bettertls(let suite, let revision):
            // The current revision's record is the one CI checks; an older revision's ids name other
            // cases, so it has a record of its own (none is committed).
            let record = revision == .current ? "bettertls/\(suite.rawValue)-observed.json" : "bettertls/\(suite.rawValue)-\(revision.rawValue.prefix(7))-observed.json"
            let title = suite == .nameconstraints ? "BetterTLS name constraints" : "BetterTLS path building"
            return (title, "bettertls-\(suite.rawValue).json", "bettertls/\(suite.rawValue).json", record, "'bettertls::\(suite.rawValue)::tc42'")
        }
    }

    var title: String { facts.title }
    /// The suite's name in the impact catalogue's suite rules.
    var impactKey: String {
        switch self {
        case .limbo: return "limbo"
        case .pkits: return "pkits"
        case .bettertls(let suite, _): return "bettertls-\(suite.rawValue)"
        }
    }
    var fileName: String { facts.fileName }
    var vendoredPath: String { facts.vendoredPath }
    var recordPath: String { facts.recordPath }
    var idExample: String { facts.idExample }

    var description: String {
        switch self {
        case .limbo: return "limbo"
        case .pkits: return "pkits"
        case .bettertls(let suite, _): return "bettertls \(suite.rawValue)"
        }
    }

    /// The fixed validation time of the BetterTLS cases made here.
    static let betterTLSTime = Date(timeIntervalSince1970: 1_767_225_600)

    /// A BetterTLS suite made here, as an x509-limbo document.
    func madeSuite() throws -> Data {
        guard case .bettertls(let suite, let revision) = self else { preconditionFailure("only BetterTLS's suites are made here") }
        switch suite {
        case .nameconstraints: return try BetterTLSExport.nameConstraints(revision, at: Self.betterTLSTime)
        case .pathbuilding:
            // Made once per process (81 cases, the same bytes every time): the in-process CLI tests
            // ask for it in several commands, each making it again (a second in a debug build).
            if let made = Self.madePathBuilding.withLock({ $0 }) { return made }
            let made = try BetterTLSExport.pathBuilding(seed: 1, at: Self.betterTLSTime)
            Self.madePathBuilding.withLock { $0 = made }
            return made
        }
    }

    /// Path building's suite once made in this process.
    private static let madePathBuilding = Mutex<Data?>(nil)

    /// A BetterTLS suite made here, with each case's summary row (its feature).
    func madeLimboSuite() throws -> LimboSuite {
        guard case .bettertls(let suite, let revision) = self else { preconditionFailure("only BetterTLS's suites are made here") }
        var made = try LimboSuite.decode(try madeSuite(), file: "BetterTLS \(suite.rawValue) (made here, revision \(revision.rawValue.prefix(7)))")
        let groups = suite.facts(revision).groups
        for index in made.testcases.indices where index < groups.count {
            made.testcases[index].group = groups[index]
        }
        return made
    }

    func load(_ url: URL) throws -> LimboSuite {
        switch self {
        case .limbo, .bettertls: return try LimboSuite.load(from: url)
        case .pkits:
            var isFolder: ObjCBool = false
            let file = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
                ? url.appendingPathComponent(fileName) : url
            return try PKITSSuite.load(from: file)
        }
    }
}

/// The options and the run of a suite command (`limbo`, `pkits`).
struct SuiteRunOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The suite file (limbo.json, pkits.json), or a folder holding one (default: the vendored copy in the vectors folder).", valueName: "path"), completion: .file())
    var path: String?

    @Option(name: .customLong("suite"), help: ArgumentHelp("The same as the positional path, as a flag like --vectors.", valueName: "path"), completion: .file())
    var suitePath: String?

    @OptionGroup var backendOption: BackendOption

    /// The profile the suite's cases are judged against: x509-limbo's `webpki::` cases judge the
    /// Baseline Requirements, which RFC 5280 does not; its other cases judge RFC 5280 (and RFC 9525).
    @Option(name: .customLong("profile"), help: ArgumentHelp("rfc5280: only the cases that judge RFC 5280 and RFC 9525 (x509-limbo's webpki:: cases, which judge the CA/Browser Forum's Baseline Requirements, are left out); webpki: every case. Default: every case, as x509-limbo expects it.", valueName: "profile"))
    var profileName: String?

    var profile: StandardsProfile? { profileName.flatMap(StandardsProfile.init(rawValue:)) }

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp("Only cases whose id matches this pattern (--vector is the same) (* and ? wildcards, e.g. 'webpki::*' or 'pkits::4.8.*'); repeatable.", valueName: "pattern"))
    var idPatterns: [String] = []

    @Option(name: .customLong("results-dir"), help: ArgumentHelp("Write one x509-limbo results file per back end into this folder (created if missing), as x509-limbo's own harnesses do; the report goes to --report.", valueName: "dir"), completion: .directory)
    var resultsDirectory: String?

    @OptionGroup var output: OutputOption

    @OptionGroup var formatOption: FormatOption<SuiteFormat>
    var format: SuiteFormat { formatOption.value }

    @OptionGroup var location: VectorsOption

    @Option(help: ArgumentHelp("The record to compare with (default: limbo/observed.json or pkits/observed.json of the vectors folder).", valueName: "file"), completion: .file())
    var recordFile: String?

    @Flag(help: "Write the observed results into the record instead of comparing: every case must be selected; the selected back ends' results replace theirs, other back ends' are kept.")
    var record = false

    func validate() throws {
        if let profileName, StandardsProfile(rawValue: profileName) == nil {
            throw ValidationError("--profile \"\(profileName)\" is not one of \(StandardsProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if resultsDirectory == "-" || resultsDirectory == "" { throw ValidationError("--results-dir names the folder for x509-limbo result files; the report goes to standard output unless --report FILE is given") }
    }

    func execute(_ kind: SuiteKind, in tool: ToolContext) async throws {
        let suite = try loadSuite(kind, in: tool)
        let backends: [any TrustBackend]
        do {
            backends = try backendOption.backends(configuration: .uncached, in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        if let note = suite.newerVersionNote { tool.error("warning: \(note)") }
        guard !suite.testcases.isEmpty else {
            throw ValidationError("\(suite.file) holds no test cases: nothing to run")
        }
        let matching = idPatterns.isEmpty ? suite.testcases
            : suite.testcases.filter { testcase in idPatterns.contains { Glob.matches($0, testcase.id) } }
        guard !matching.isEmpty else {
            throw ValidationError("--id: no case id matches \(idPatterns.map { "'\($0)'" }.joined(separator: ", ")); ids look like \(kind.idExample)")
        }
        let testcases = matching.filter { profile != .rfc5280 || $0.namespace != "webpki" }
        guard !testcases.isEmpty else {
            throw ValidationError("--profile rfc5280 leaves out every selected case (all are webpki:: cases, which judge the Baseline Requirements): use --profile webpki")
        }
        if record && testcases.count != suite.testcases.count {
            throw ValidationError("--record records every case of the suite: drop --id and --profile")
        }

        let progress = Progress.onTerminal(label: "\(kind)")
        var report: (@Sendable (Int, Int) -> Void)?
        if let progress { report = { done, total in progress.update(done, total) } }
        let impacts = try ImpactCatalogue.load(from: location.directory())
        let results = await SuiteRunner(backends: backends).run(testcases, progress: report).map { result in
            var result = result
            if result.outcome == .acceptedExpectedFailure || result.outcome == .rejectedExpectedSuccess {
                result.impact = impacts.suiteCase(kind.impactKey, id: result.id, group: result.group, accepted: result.actual == .success).impact
            }
            return result
        }
        progress?.finish()
        let infos = backends.map(BackendInfo.init)

        if let resultsDirectory { try writeResultFiles(to: resultsDirectory, infos: infos, results: results, in: tool) }

        let recordURL = recordFile.map { URL(fileURLWithPath: $0) } ?? (try? location.directory())?.appendingPathComponent(kind.recordPath)
        if record {
            guard let recordURL else { throw ValidationError("no record location: pass --record-file") }
            var updated = SuiteRecord(suite: suite.digest, backends: infos, results: results)
            if FileManager.default.fileExists(atPath: recordURL.path) {
                do {
                    updated = try SuiteRecord.read(recordURL).merging(updated)
                } catch {
                    tool.error("error: \(error) (move it away to start a new record)")
                    throw ExitCode(2)
                }
            }
            try updated.encoded().write(to: recordURL)
            tool.error("recorded \(results.count) results of \(infos.map(\.name).joined(separator: ", ")) in \(recordURL.path)")
        }
        let stored = record ? nil : try storedRecord(recordURL, suite: suite, in: tool)
        let changes = stored?.changes(results)
        let unrecorded = stored.map { stored in infos.map(\.name).filter { stored.backends[$0] == nil } } ?? []

        let provenance = profile.map { tool.provenance(judging: $0) } ?? tool.provenance
        // What the record comparison leaves to say: no record, another build of the suite, cases or
        // back ends the record does not hold.
        var notes: [String] = []
        if !record && stored == nil {
            let place = recordURL.map { $0.path } ?? "no record location"
            notes.append("Not compared with a record: there is none at \(place); pass --record-file FILE to compare with another record, or --record to make one.")
        }
        if let stored, stored.suite != suite.digest {
            let changed = stored.changedExpectations(results).count
            notes.append("The record was made from another build of the suite (sha256 \(stored.suite.prefix(16))..., this one \(suite.digest.prefix(16))...): compared case by case, by id and expected result; \(changed) case(s) expect another result now.")
        }
        // A result that changed on a library build other than the one recorded: name both builds,
        // so a reader sees the build changed before suspecting the library's answer.
        if let stored, let changes, !changes.isEmpty {
            for info in infos {
                guard let recordedBuild = stored.backends[info.name]?.library, recordedBuild != info.version else { continue }
                let count = changes.filter { $0.backend == info.name }.count
                if count > 0 {
                    notes.append("\(info.name): \(count) result(s) changed; the record was made with \(recordedBuild), the loaded build is \(info.version).")
                }
            }
        }
        if let new = stored?.unrecorded(results), !new.isEmpty {
            notes.append("\(new.count) case(s) not in the record, so not compared (new to it; add them with --record): \(new.prefix(5).joined(separator: ", "))\(new.count > 5 ? ", ..." : "")")
        }
        if !unrecorded.isEmpty {
            notes.append("Not in the record, so not compared: \(unrecorded.joined(separator: ", ")) (add with --record \(unrecorded.map { "--backend \($0)" }.joined(separator: " ")); a back end of your own package records into its own file with --record-file FILE)")
        }
        switch format {
        case .text, .junit, .markdown, .html:
            let document = SuiteDocument.make(suite: "\(suite.file) (\(suite.testcases.count) cases, \(testcases.count) selected)", backends: infos, results: results, recordChanges: changes,
                                              title: "TrustHarness: \(kind.title)", provenance: provenance, record: stored, kind: kind.title, notes: notes)
            switch format {
            case .junit: try output.write(in: tool, DocumentWriter.junit(document))
            case .markdown: try output.write(in: tool, DocumentWriter.markdown(document))
            case .html: try output.write(in: tool, DocumentWriter.html(document))
            default: try output.write(in: tool, DocumentWriter.text(document))
            }
        case .json:
            let summary = SuiteJSONReport.Suite(file: suite.file, sha256: suite.digest, cases: suite.testcases.count)
            let document = DocumentedJSON(provenance: provenance, body: SuiteJSONReport(suite: summary, backends: infos, results: results, recordChanges: changes, record: stored))
            try output.write(in: tool, try JSONText.encode(document) + "\n")
        }
        if let changes, !changes.isEmpty {
            tool.error("\(changes.count) result(s) differ from the record")
            throw ExitCode(1)
        }
    }

    /// The suite's vendored copy in the vectors folder, if it is there.
    func vendoredSuite(_ kind: SuiteKind) throws -> URL? {
        let url = try location.directory().appendingPathComponent(kind.vendoredPath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    func loadSuite(_ kind: SuiteKind, in tool: ToolContext) throws -> LimboSuite {
        if path != nil && suitePath != nil && path != suitePath {
            throw ValidationError("give the \(kind.fileName) once: as the path or as --suite, not both")
        }
        if case .bettertls = kind, path == nil && suitePath == nil {
            // Made at run time: faster than reading the 9,491 cases' certificates from a file.
            return try kind.madeLimboSuite()
        }
        guard let url = try (path ?? suitePath).map({ URL(fileURLWithPath: $0) }) ?? vendoredSuite(kind) else {
            throw ValidationError("no \(kind.vendoredPath) in the vectors folder; pass the path of a \(kind.fileName)")
        }
        do {
            return try kind.load(url)
        } catch let error as FileProblem {
            tool.error("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The record to compare with, or nil when there is none for this suite.
    func storedRecord(_ url: URL?, suite: LimboSuite, in tool: ToolContext) throws -> SuiteRecord? {
        guard let url, FileManager.default.fileExists(atPath: url.path) else {
            if recordFile != nil { throw ValidationError("no record at \(recordFile!)") }
            return nil
        }
        let stored: SuiteRecord
        do {
            stored = try SuiteRecord.read(url)
        } catch {
            tool.error("error: \(error)")
            throw ExitCode(2)
        }
        // Matched by case id and expected result, whatever build of the suite it was made from
        // (SuiteRecord.changes): a suite compiled again with new keys is still compared.
        return stored
    }

    func writeResultFiles(to folder: String, infos: [BackendInfo], results: [SuiteResult], in tool: ToolContext) throws {
        let directory = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for info in infos {
                let file = directory.appendingPathComponent("trustharness-\(info.name).json")
                try SuiteResultFile(backend: info, results: results).encoded().write(to: file)
                tool.error("wrote \(file.path)")
            }
        } catch {
            tool.error("error: cannot write results into \(folder): \(FileProblem.systemReason(error))")
            throw ExitCode(2)
        }
    }
}
