import ArgumentParser
import Foundation
import Testing
@testable import TrustHarnessCLI

/// The manual says what the help says, and each subcommand's help describes that subcommand.
@Suite struct CommandReferenceTests {
    /// docs/cli.md of this checkout.
    static let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/cli.md")

    static let names = CommandReference.subcommands.map { $0._commandName }

    /// docs/cli.md's table of subcommands and every subcommand's help are the tool's help as it is
    /// now; `TRUST_HARNESS_WRITE_DOCS=1` writes them instead of failing.
    @Test func theManualSaysWhatTheHelpSays() throws {
        let text = try String(contentsOf: Self.manual, encoding: .utf8)
        let made = try CommandReference.update(text)
        if made != text, ProcessInfo.processInfo.environment["TRUST_HARNESS_WRITE_DOCS"] == "1" {
            try Data(made.utf8).write(to: Self.manual)
            return
        }
        let first = zip(made.split(separator: "\n", omittingEmptySubsequences: false), text.split(separator: "\n", omittingEmptySubsequences: false))
            .enumerated().first { $0.element.0 != $0.element.1 }
        let same = made == text
        #expect(same, """
            docs/cli.md differs from the tool's help\(first.map { " at line \($0.offset + 1): the help says \"\($0.element.0)\", the file \"\($0.element.1)\"" } ?? ""); \
            write it again with TRUST_HARNESS_WRITE_DOCS=1 swift test --filter CommandReferenceTests
            """)
    }

    /// Every subcommand has a row in the table, linking to its help, and its help in the manual.
    @Test func everySubcommandIsInTheManual() throws {
        let text = try String(contentsOf: Self.manual, encoding: .utf8)
        for command in CommandReference.subcommands {
            let row = text.contains("| [`\(command._commandName)`](#\(CommandReference.anchor(command))) |")
            let help = text.contains("### `trust-harness \(command._commandName)`")
            #expect(row, "no row for \(command._commandName) in docs/cli.md")
            #expect(help, "no help of \(command._commandName) in docs/cli.md")
        }
        #expect(Set(Self.names).isSuperset(of: ["bettertls", "bench", "report", "fidelity", "findings"]))
    }

    /// A part of the manual that lost its closing comment is an error naming it, not a page eaten.
    @Test func aCutBlockIsNamed() {
        #expect(throws: CommandReference.MissingBlock.self) { try CommandReference.update("<!-- help: table -->\n") }
    }

    /// Every subcommand's help opens with its own abstract and has examples of itself.
    @Test(arguments: names)
    func everySubcommandsHelpIsItsOwn(_ name: String) async throws {
        let run = try await ToolRun.of(["help", name])
        #expect(run.status == 0, "\(run)")
        let command = try #require(CommandReference.subcommands.first { $0._commandName == name })
        #expect(run.output.contains("OVERVIEW: " + command.configuration.abstract.prefix(30)), "\(run)")
        #expect(run.output.contains("Example") && run.output.contains("trust-harness \(name)"), "\(name)'s help has no example of itself")
    }

    /// The suite commands share their options, not their words: each help names its own files and ids.
    @Test func eachSuiteCommandsHelpDescribesItsOwnSuite() async throws {
        let others: [String: [String]] = [
            "limbo": ["pkits::", "pkits.json", "bettertls::"],
            "pkits": ["limbo.json", "bettertls::", "'webpki::"],
            "bettertls": ["pkits::", "pkits.json", "limbo.json", "limbo/observed.json", "--test-suite"],
        ]
        for (name, foreign) in others {
            let help = try await ToolRun.of(["help", name]).output
            for word in foreign { #expect(!help.contains(word), "\(name)'s help says \(word)") }
        }
        #expect(try await ToolRun.of(["help", "bettertls"]).output.contains("--suite <name>"))
        #expect(try await ToolRun.of(["help", "limbo"]).output.contains("'pathlen::*'"))
        // --deviations only where results are judged against recorded deviations.
        for name in ["limbo", "pkits", "bettertls", "fidelity", "stress", "bench", "explore", "probe", "generate"] {
            #expect(!(try await ToolRun.of(["help", name]).output.contains("--deviations")), "\(name) takes no deviations")
        }
        // --format and --benchmarks only where there is a report to format.
        let findings = try await ToolRun.of(["help", "findings"]).output
        #expect(!findings.contains("--format") && !findings.contains("--benchmarks"))
        #expect(!(try await ToolRun.of(["help", "compare"]).output.contains("--benchmarks")))
    }
}
