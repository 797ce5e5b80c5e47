import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

struct FidelityCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        _superCommandName: "trust-harness",
        abstract: "Compare each back end's column with its library called the plain way, on every chain vector or a public suite.",
        discussion: """
        A column must be what an application gets from the library's public API. Each back end is compared \
        with its reference (its raw `bench` loop in C, or a reference of its own): the same request, the same \
        anchors, host and time. Every difference must be named: a layer of ours (NAME+checks), a limit that \
        stopped the library, a request the harness could not ask, or a difference recorded in \
        Vectors/fidelity.json with its reason. Exit status: 0 when every difference is named and every \
        record still holds, 1 otherwise, 2 for bad input.
        --suite runs x509-limbo's vendored cases or a BetterTLS suite instead of the chain vectors (the same \
        record; a case a back end does not evaluate, or one that sets what a plain TLS server check does not, \
        such as a depth or CRLs, has no reference answer).
        Examples:
          trust-harness fidelity
          trust-harness fidelity --backend gnutls --backend gnutls+checks
          trust-harness fidelity --suite bettertls-pathbuilding
          trust-harness fidelity --format json --report fidelity.json
        """
    )

    @OptionGroup var location: VectorsOption

    @OptionGroup var backendOption: BackendOption

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp("Only the chain vectors (with --suite, the cases) whose id matches this pattern (* and ? wildcards, e.g. 'valid-chain/*' or 'pathlen::*'); repeatable. --vector is the same.", valueName: "pattern"))
    var vectorPatterns: [String] = []

    /// What the columns are compared on.
    enum Subjects: String, CaseIterable, ExpressibleByArgument {
        case vectors, limbo
        case bettertlsNameConstraints = "bettertls-nameconstraints"
        case bettertlsPathBuilding = "bettertls-pathbuilding"
    }

    @Option(name: .customLong("suite"), help: ArgumentHelp("What to compare on: vectors (the chain vectors, default), limbo (x509-limbo's vendored cases), bettertls-nameconstraints or bettertls-pathbuilding.", valueName: "suite"))
    var subjects: Subjects = .vectors

    @OptionGroup var formatOption: FormatOption<DocumentFormat>
    var format: DocumentFormat { formatOption.value }

    @OptionGroup var output: OutputOption

    func run(in tool: ToolContext) async throws {
        let suite = try location.load(in: tool)
        let directory = try location.directory()
        let backends: [any TrustBackend]
        do {
            backends = try backendOption.backends(in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        func selected(_ id: String) -> Bool { vectorPatterns.isEmpty || vectorPatterns.contains { Glob.matches($0, id) } }
        let recordURL = directory.appendingPathComponent("fidelity.json")
        let record: FidelityComparison.Record
        do {
            record = FileManager.default.fileExists(atPath: recordURL.path) ? try FidelityComparison.readRecord(recordURL) : FidelityComparison.Record(differences: [])
        } catch {
            tool.error("error: \(error)")
            throw ExitCode(2)
        }
        let comparison = FidelityComparison(backends: backends, baselines: tool.benchmarks)
        let rows: [FidelityComparison.Row]
        switch subjects {
        case .vectors:
            let vectors = suite.vectors.filter { selected($0.id) }
            guard !vectors.isEmpty else { throw ValidationError("--id: no chain vector id matches \(vectorPatterns.map { "'\($0)'" }.joined(separator: ", "))") }
            let progress = Progress(label: "comparing", count: vectors.count, unit: "vectors", detail: Progress.backends(backends.count), in: tool)
            // Counted as each request is handed to a back end and its reference.
            rows = await comparison.run(ids: vectors.map(\.id), record: record) { index, _ in
                progress.advance(of: vectors.count * backends.count)
                return .ask(anchors: vectors[index].anchors, request: vectors[index].request)
            }
            progress.finish()
        case .limbo, .bettertlsNameConstraints, .bettertlsPathBuilding:
            let limbo: LimboSuite
            do {
                switch subjects {
                case .bettertlsNameConstraints: limbo = try SuiteKind.bettertls(.nameconstraints, .current).madeLimboSuite()
                case .bettertlsPathBuilding: limbo = try SuiteKind.bettertls(.pathbuilding, .current).madeLimboSuite()
                default: limbo = try LimboSuite.load(from: directory.appendingPathComponent(SuiteKind.limbo.vendoredPath))
                }
            } catch {
                tool.error("error: \(error)")
                throw ExitCode(2)
            }
            let testcases = limbo.testcases.filter { selected($0.id) }
            guard !testcases.isEmpty else { throw ValidationError("--id: no case id matches \(vectorPatterns.map { "'\($0)'" }.joined(separator: ", "))") }
            let runner = SuiteRunner(backends: backends)
            let progress = Progress(label: "comparing", count: testcases.count, unit: "cases", detail: Progress.backends(backends.count), in: tool)
            rows = await comparison.run(ids: testcases.map(\.id), record: record) { index, backend in
                progress.advance(of: testcases.count * backends.count)
                let testcase = testcases[index]
                if let reason = runner.skipReason(testcase, backend: backend) { return .skip("not evaluated by the suite runner: \(reason)") }
                do {
                    let input = try runner.input(testcase, on: backend)
                    return .ask(anchors: input.anchors, request: input.request)
                } catch {
                    return .skip("the case's input cannot be used: \(error)")
                }
            }
            progress.finish()
        }
        let problems = FidelityComparison.problems(rows, record: record)
        let infos = backends.map(BackendInfo.init)
        let provenance = tool.provenance
        let document = FidelityDocument.make(backends: infos, rows: rows, problems: problems, provenance: provenance)
        switch format {
        case .markdown: try output.write(in: tool, DocumentWriter.markdown(document))
        case .html: try output.write(in: tool, DocumentWriter.html(document))
        case .json: try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: provenance, body: FidelityDocument.JSONBody(backends: infos, rows: rows, problems: problems))) + "\n")
        case .text: try output.write(in: tool, DocumentWriter.text(document))
        }
        if !problems.isEmpty {
            tool.error("\(problems.count) difference(s) from the libraries called plainly are not named")
            throw ExitCode(1)
        }
    }
}
