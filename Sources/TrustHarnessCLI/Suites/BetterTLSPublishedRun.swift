import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// `bettertls --published`: each back end beside the results BetterTLS's authors published for the
/// closest library, on the cases of the revision those results were made with.
extension BetterTLSCommand {
    func runPublished(in tool: ToolContext) async throws {
        guard options.format != .junit else {
            throw ValidationError("--published writes text, json, markdown or html, not junit")
        }
        guard options.path == nil && options.idPatterns.isEmpty && !options.record && options.resultsDirectory == nil else {
            throw ValidationError("--published runs the suite made here, every case, and compares: drop the path, --id, --record and --results-dir")
        }
        let folder = try options.location.directory().appendingPathComponent("bettertls")
        let suite = testSuite.rawValue
        let explanationsURL = folder.appendingPathComponent("published-\(suite)-differences.json")
        var explanations: BetterTLSExplanations?
        if FileManager.default.fileExists(atPath: explanationsURL.path) {
            do {
                explanations = try BetterTLSExplanations.read(explanationsURL)
            } catch {
                tool.error("error: \(explanationsURL.path): \(error)")
                throw ExitCode(2)
            }
        }
        // The pairs are the record's (`against`), one place; --published-file adds or replaces one.
        var counterparts = explanations?.against ?? [:]
        for pair in publishedFiles {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--published-file takes BACKEND=FILE (e.g. nss=dec_2021/firefox_linux64_95.0.json), not \"\(pair)\"")
            }
            counterparts[parts[0]] = parts[1]
        }
        let registry = tool.registry.includingVariants
        var names = registry.names.filter { counterparts[$0] != nil }
        if !options.backendOption.names.isEmpty {
            let unpaired = options.backendOption.names.filter { counterparts[$0] == nil }
            guard unpaired.isEmpty else {
                throw ValidationError("--published: no published results paired with \(unpaired.joined(separator: ", ")); pair one with --published-file BACKEND=FILE")
            }
            names = options.backendOption.names
        }
        let absent = counterparts.keys.filter { !registry.names.contains($0) }.sorted()
        if !absent.isEmpty {
            tool.error("note: not in this tool, so not compared: \(absent.joined(separator: ", ")) (scripts/all-backends bettertls --published has every back end)")
        }
        guard !names.isEmpty else { throw ValidationError("--published: none of the paired back ends (\(counterparts.keys.sorted().joined(separator: ", "))) is in this tool") }

        // The published files, and the one revision they were all made at.
        // Each file read and decoded once, however many back ends it is paired with.
        var published: [String: BetterTLSPublished] = [:]
        var decoded: [String: BetterTLSPublished] = [:]
        for name in names {
            let file = counterparts[name]!
            let url = file.hasPrefix("/") || FileManager.default.fileExists(atPath: file) ? URL(fileURLWithPath: file) : folder.appendingPathComponent("published/\(file)")
            if let known = decoded[url.path] {
                published[name] = known
                continue
            }
            do {
                let results = try BetterTLSPublished(json: FileProblem.contents(of: url))
                decoded[url.path] = results
                published[name] = results
            } catch let problem as FileProblem {
                tool.error("error: \(problem)")
                throw ExitCode(2)
            } catch {
                tool.error("error: \(url.path): \(error)")
                throw ExitCode(2)
            }
        }
        let revisions = Set(published.values.map(\.revision))
        guard revisions.count == 1, let revision = BetterTLSNameConstraints.Revision(rawValue: revisions.first!) else {
            throw ValidationError("--published: the files are of BetterTLS \(revisions.sorted().joined(separator: ", ")); compare files of one revision this tool knows (\(BetterTLSNameConstraints.Revision.allCases.map { String($0.rawValue.prefix(7)) }.joined(separator: ", ")))")
        }

        let backends: [any TrustBackend]
        do {
            backends = try registry.named(names, configuration: .uncached)
        } catch {
            throw BackendOption.refusal(error, in: tool)
        }
        let kind = SuiteKind.bettertls(testSuite, revision)
        let made = try kind.madeLimboSuite()
        let progress = Progress(label: "\(kind) \(revision.rawValue.prefix(7))", count: made.testcases.count, unit: "cases", detail: Progress.backends(backends.count), in: tool)
        let results = await SuiteRunner(backends: backends).run(made.testcases) { done, total in progress.update(done, of: total) }
        progress.finish()

        let facts = testSuite.facts(revision)
        let comparisons = backends.map { backend in
            BetterTLSComparison.compare(
                suite: suite, backend: BackendInfo(backend), results: results, publishedFile: Provenance.reportPath(counterparts[backend.name]!),
                published: published[backend.name]!, facts: facts, explanations: explanations
            )
        }
        let document = BetterTLSComparison.document(comparisons, provenance: tool.provenance)
        switch options.format {
        case .json:
            try options.output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: BetterTLSComparison.Report(comparisons: comparisons))) + "\n")
        case .markdown: try options.output.write(in: tool, DocumentWriter.markdown(document))
        case .html: try options.output.write(in: tool, DocumentWriter.html(document))
        case .text, .junit: try options.output.write(in: tool, DocumentWriter.text(document))
        }
        let problems = comparisons.reduce(0) { $0 + $1.problems.count }
        if problems > 0 {
            tool.error("\(problems) problem(s) with the explanations of the differences (\(explanationsURL.path))")
            throw ExitCode(1)
        }
    }
}
