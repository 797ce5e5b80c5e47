import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// What a suite command (`limbo`, `pkits`, `bettertls`) says of its own suite in the help of the
/// options the three share (``SuiteRunOptions``): its files, its ids, its record. Each command's
/// help then describes that command's suite, not another's.
protocol SuiteHelp {
    /// The positional path's help: which file the command reads, and its default.
    static var pathHelp: String { get }
    /// `--id`'s help, with ids of this suite as examples.
    static var idHelp: String { get }
    /// `--profile`'s help: which of this suite's cases each profile runs.
    static var profileHelp: String { get }
    /// `--record-file`'s help, naming this suite's default record.
    static var recordHelp: String { get }
}

/// `--suite PATH` of `limbo` and `pkits`: the suite file as a flag, like `--vectors`, instead of
/// the positional path. (`bettertls` and `fidelity` name a suite with `--suite NAME`.)
struct SuiteFileOption: ParsableArguments {
    @Option(name: .customLong("suite"), help: ArgumentHelp("The same as the positional path, as a flag like --vectors.", valueName: "path"), completion: .file())
    var suitePath: String?

    /// The suite file given, as the positional `path` or as `--suite`, or nil for the vendored one.
    /// - Throws: a usage error when the two name different files.
    func path(besides path: String?, kind: SuiteKind) throws -> String? {
        if let path, let suitePath, path != suitePath {
            throw ValidationError("give the \(kind.fileName) once: as the path or as --suite, not both")
        }
        return path ?? suitePath
    }
}

/// The options and the run of a suite command (`limbo`, `pkits`, `bettertls`), with the help
/// `Command` gives for its own suite (``SuiteHelp``).
struct SuiteRunOptions<Command: SuiteHelp>: ParsableArguments {
    @Argument(help: ArgumentHelp(Command.pathHelp, valueName: "path"), completion: .file())
    var path: String?

    @OptionGroup var backendOption: BackendOption

    /// The profile the suite's cases are judged against: x509-limbo's `webpki::` cases judge the
    /// Baseline Requirements, which RFC 5280 does not; its other cases judge RFC 5280 (and RFC 9525).
    @Option(name: .customLong("profile"), help: ArgumentHelp(Command.profileHelp, valueName: "profile"))
    var profileName: String?

    var profile: StandardsProfile? { profileName.flatMap(StandardsProfile.init(rawValue:)) }

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp(Command.idHelp, valueName: "pattern"))
    var idPatterns: [String] = []

    @Option(name: .customLong("results-dir"), help: ArgumentHelp("Write one x509-limbo results file per back end into this folder (created if missing), as x509-limbo's own harnesses do; the report goes to --report.", valueName: "dir"), completion: .directory)
    var resultsDirectory: String?

    @OptionGroup var output: OutputOption

    @OptionGroup var formatOption: FormatOption<SuiteFormat>
    var format: SuiteFormat { formatOption.value }

    @OptionGroup var location: VectorsOption

    @Option(help: ArgumentHelp(Command.recordHelp, valueName: "file"), completion: .file())
    var recordFile: String?

    @Flag(help: "Write the observed results into the record instead of comparing: every case must be selected; the selected back ends' results replace theirs, other back ends' are kept.")
    var record = false

    func validate() throws {
        if let profileName, StandardsProfile(rawValue: profileName) == nil {
            throw ValidationError("--profile \"\(profileName)\" is not one of \(StandardsProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if resultsDirectory == "-" || resultsDirectory == "" { throw ValidationError("--results-dir names the folder for x509-limbo result files; the report goes to standard output unless --report FILE is given") }
    }

    /// Runs `kind`'s suite (`file`, else the vendored or made one) and writes its report.
    func execute(_ kind: SuiteKind, file: String?, in tool: ToolContext) async throws {
        let suite = try loadSuite(kind, file: file, in: tool)
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

        let impacts = try ImpactCatalogue.load(from: location.directory())
        let progress = Progress(label: "\(kind)", count: testcases.count, unit: "cases", detail: Progress.backends(backends.count), in: tool)
        let results = await SuiteRunner(backends: backends).run(testcases) { done, total in progress.update(done, of: total) }.map { result in
            var result = result
            if result.outcome == .acceptedExpectedFailure || result.outcome == .rejectedExpectedSuccess {
                result.impact = impacts.suiteCase(kind.impactKey, id: result.id, group: result.group, accepted: result.actual == .success).impact
            }
            return result
        }
        progress.finish()
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
            let place = recordURL.map { Provenance.reportPath($0.path) } ?? "no record location"
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
            let document = SuiteDocument.make(suite: "\(Provenance.reportPath(suite.file)) (\(suite.testcases.count) cases, \(testcases.count) selected)", backends: infos, results: results, recordChanges: changes,
                                              title: "TrustHarness: \(kind.title)", provenance: provenance, record: stored, kind: kind.title, notes: notes)
            switch format {
            case .junit: try output.write(in: tool, DocumentWriter.junit(document))
            case .markdown: try output.write(in: tool, DocumentWriter.markdown(document))
            case .html: try output.write(in: tool, DocumentWriter.html(document))
            default: try output.write(in: tool, DocumentWriter.text(document))
            }
        case .json:
            let summary = SuiteJSONReport.Suite(file: Provenance.reportPath(suite.file), sha256: suite.digest, cases: suite.testcases.count)
            let document = DocumentedJSON(provenance: provenance, body: SuiteJSONReport(suite: summary, backends: infos, results: results, recordChanges: changes, record: stored))
            try output.write(in: tool, try JSONText.encode(document) + "\n")
        }
        let hangs = results.filter { $0.outcome == .error }
        for hang in hangs.prefix(5) { tool.error(hang.context ?? "\(hang.id) on \(hang.backend): no answer") }
        if let changes, !changes.isEmpty {
            tool.error("\(changes.count) result(s) differ from the record")
            throw ExitCode(1)
        }
        if !hangs.isEmpty {
            tool.error("\(hangs.count) evaluation(s) did not return (hangs): errors, not skips")
            throw ExitCode(1)
        }
    }

    /// The suite's vendored copy in the vectors folder, if it is there.
    func vendoredSuite(_ kind: SuiteKind) throws -> URL? {
        let url = try location.directory().appendingPathComponent(kind.vendoredPath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    func loadSuite(_ kind: SuiteKind, file: String?, in tool: ToolContext) throws -> LimboSuite {
        if case .bettertls = kind, file == nil {
            // Made at run time: faster than reading the 9,491 cases' certificates from a file.
            return try kind.madeLimboSuite()
        }
        guard let url = try file.map({ URL(fileURLWithPath: $0) }) ?? vendoredSuite(kind) else {
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
