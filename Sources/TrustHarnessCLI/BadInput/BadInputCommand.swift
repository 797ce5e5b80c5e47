import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import TrustPolicy

struct BadInputCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bad-input",
        _superCommandName: "trust-harness",
        abstract: "Run the bad-input corpus (Vectors/bad-input): broken, hostile and odd inputs on every back end and through the SecurityPolicy.",
        discussion: """
        Each case states the answer the standards require (an input error, a rejection of one failure class, or \
        trusted where odd input is still valid). Shows, per case and back end, the answer, the time the evaluation \
        took and the library's message. A back end known to answer otherwise has a recorded deviation (a `bad-input/<id>` \
        entry of deviations.json or a --deviations file), shown as `dev` with its reason; it fails when the answer changes \
        either way. Exit status: 0 when every answer is the stated or recorded one, 1 otherwise, 2 for bad input.
        Examples:
          trust-harness bad-input
          trust-harness bad-input --id 'truncated-*' --backend gnutls
          trust-harness bad-input --format junit --report bad-input.xml
        """
    )


    @OptionGroup var location: VectorsOption

    @OptionGroup var deviationsOption: DeviationsOption

    @OptionGroup var backendOption: BackendOption

    @Option(name: [.customLong("id"), .customLong("vector")], help: ArgumentHelp("Only cases whose id matches this pattern (* and ? wildcards, e.g. 'truncated-*' or 'host-*'); repeatable. --vector is the same.", valueName: "pattern"))
    var idPatterns: [String] = []

    @OptionGroup var formatOption: FormatOption<SuiteFormat>
    var format: SuiteFormat { formatOption.value }

    @OptionGroup var output: OutputOption

    func run(in tool: ToolContext) async throws {
        let corpus: BadInputCorpus
        do {
            corpus = try BadInputCorpus.load(vectors: try location.directory())
        } catch let error as FileProblem {
            tool.error("error: \(error)")
            throw ExitCode(2)
        }
        // The recorded deviations (`bad-input/<id>` entries of deviations.json and --deviations files).
        let deviations = try deviationsOption.load(location, in: tool).deviations
        let backends: [any TrustBackend]
        do {
            backends = try backendOption.backends(in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        let ids = corpus.cases.map(\.id).filter { id in idPatterns.isEmpty || idPatterns.contains { Glob.matches($0, id) } }
        guard !ids.isEmpty else { throw ValidationError("--id: no case id matches \(idPatterns.map { "'\($0)'" }.joined(separator: ", "))") }
        let results = await BadInputRunner(backends: backends, corpus: corpus, deviations: deviations).run(ids)
        let infos = backends.map(BackendInfo.init)
        let provenance = tool.provenance
        let descriptions = Dictionary(corpus.cases.map { ($0.id, $0.description) }, uniquingKeysWith: { first, _ in first })
        let document = BadInputReports.document(backends: infos, results: results, descriptions: descriptions, provenance: provenance)
        switch format {
        case .junit:
            try output.write(in: tool, DocumentWriter.junit(document))
        case .markdown:
            try output.write(in: tool, DocumentWriter.markdown(document))
        case .html:
            try output.write(in: tool, DocumentWriter.html(document))
        case .json:
            try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: provenance, body: BadInputReports.JSONBody(backends: infos, results: results))) + "\n")
        case .text:
            try output.write(in: tool, DocumentWriter.text(document))
        }
        if results.contains(where: { !$0.conforms }) {
            tool.error("\(results.filter { !$0.conforms }.count) answer(s) differ from the corpus")
            throw ExitCode(1)
        }
    }
}
