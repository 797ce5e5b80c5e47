import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

/// `report`: the libraries compared on one page, from the JSON reports of other commands.
struct ReportCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        _superCommandName: "trust-harness",
        abstract: "Compare the back ends on one page from the JSON reports of run, limbo, pkits, bettertls, explore and bench.",
        discussion: """
        Reads each FILE (a `--format json` report of run, limbo, pkits, bettertls, explore or bench; the kind is \
        told by its shape) and writes one document: per run report, a heat map of back ends against \
        families of the standards (how many of each family's vectors a back end answers against the \
        standards, in which direction, each cell linking to its vectors); the same for explore's \
        classes, with the ones every back end accepts against the standards; the suites side by side; \
        speed against each library's own C loop. HTML is one self-contained page (no network); text, \
        Markdown and JSON hold the same document. scripts/report makes the reports on all eight \
        libraries and the page.

        Exit status: 0 when the document is written; 2 when a file cannot be read or is no such report.
        Examples:
          trust-harness run --format json --report run.json
          trust-harness report run.json --format html --report compare.html
          trust-harness report run.json limbo.json bench.json --format markdown
        """
    )

    @Argument(help: "JSON reports of run, limbo, pkits, bettertls, explore or bench.", completion: .file())
    var files: [String] = []

    @OptionGroup var formatOption: FormatOption<DocumentFormat>
    var format: DocumentFormat { formatOption.value }

    @OptionGroup var output: OutputOption

    @OptionGroup var location: VectorsOption

    /// Which page to write.
    enum Page: String, ExpressibleByArgument, CaseIterable {
        case compare, choosing
    }

    @Option(help: "compare: the whole comparison page, the decision first; choosing: the decision page alone (docs/choosing.md).")
    var page: Page = .compare

    func run(in tool: ToolContext) async throws {
        guard !files.isEmpty else { throw ValidationError("give at least one JSON report (e.g. of trust-harness run --format json)") }
        var inputs: [(name: String, input: ComparisonReport.Input)] = []
        for file in files {
            let data: Data
            do {
                data = try FileProblem.contents(of: URL(fileURLWithPath: file))
            } catch {
                tool.error("error: \(error)")
                throw ExitCode(2)
            }
            guard let input = ComparisonReport.input(data) else {
                tool.error("error: \(file): not a JSON report of run, limbo, pkits, bettertls, explore or bench (--format json)")
                throw ExitCode(2)
            }
            inputs.append((URL(fileURLWithPath: file).lastPathComponent, input))
        }
        // Each vector's family, from its references; without the vectors, from its id alone, saying so.
        var families: [String: String] = [:]
        let suite: VectorSuite?
        do {
            suite = try tool.loadVectors(try location.directory())
        } catch {
            tool.error("note: the vectors cannot be read (\(error)); catalogue vectors are grouped by their ids only")
            suite = nil
        }
        if let suite {
            for vector in suite.vectors {
                families[vector.id] = ComparisonReport.family(vector: vector.id, references: vector.entry.references)
            }
        }
        for case .run(let run) in inputs.map(\.input) {
            for result in run.results where families[result.vector] == nil {
                families[result.vector] = ComparisonReport.family(vector: result.vector, references: [])
            }
        }
        // The decision: which column to use in each situation (Vectors/situations.json), from the
        // same reports; without the situations file there is none, saying so.
        var decision: Decision?
        if let suite {
            do {
                decision = Decision(situations: try Situations.load(from: suite.directory), inputs: inputs, families: families)
            } catch {
                tool.error("note: \(error); the page has no decision section")
            }
        }
        var document: ReportDocument
        switch page {
        case .choosing:
            guard let decision else {
                tool.error("error: the decision page needs the vectors folder's situations.json (--vectors)")
                throw ExitCode(2)
            }
            document = decision.document(provenance: nil)
        case .compare:
            document = ComparisonReport.document(inputs, families: families, provenance: tool.provenance)
            if let decision {
                // The answer first; each situation's evidence after the rest of the page.
                document.sections.insert(decision.answerSection, at: 0)
                document.sections += decision.situationSections + [decision.unknownSection]
            }
        }
        // JSON here is the document itself (the page has no data of its own).
        try output.write(in: tool, try format.render(document) ?? DocumentWriter.json(document))
    }
}


