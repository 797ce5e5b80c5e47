import ArgumentParser
import Foundation
import TrustVectors

struct GenerateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        _superCommandName: "trust-harness",
        abstract: "Rewrite Vectors/ from the catalogue, or check that the committed set matches it.",
        discussion: """
        Keys and unchanged certificates are reused, so regenerating is stable. deviations.json is never \
        touched. Exit status: 0 done (or, with --check, matching), 1 differences, 2 bad input.
        Examples:
          trust-harness generate --check
          trust-harness generate
        """
    )

    @OptionGroup var location: VectorsOption

    @Flag(help: "Only check: exit 1 and list the differences when Vectors/ is not exactly what the catalogue describes.")
    var check = false

    func run(in tool: ToolContext) async throws {
        let directory = try location.directory()
        if check {
            let differences = try VectorGenerator.check(directory)
            if differences.isEmpty {
                tool.error("\(directory.path) matches the catalogue")
                return
            }
            differences.forEach { print($0) }
            tool.error("\(differences.count) difference(s) between \(directory.path) and the catalogue; run `trust-harness generate` to rewrite it")
            throw ExitCode(1)
        }
        try VectorGenerator.generate(into: directory, reusingFrom: directory)
        tool.error("wrote \(directory.path)")
    }
}
