import ArgumentParser
import Foundation

/// The parts of docs/cli.md made from the tool's own help, so the manual lists every subcommand
/// and says of each exactly what `trust-harness help NAME` says: the table of subcommands (each
/// one's abstract, linking to its help) and every subcommand's help at ``columns`` columns.
///
/// Each part sits between two HTML comments, `<!-- help: table -->` and `<!-- help: subcommands -->`,
/// each ending at the next `<!-- /help -->`; the prose around them is written by hand.
/// `TrustHarnessCLITests` compares the file with ``update(_:)`` (and writes it when
/// `TRUST_HARNESS_WRITE_DOCS=1`), so a help that changes without the manual fails `swift test`.
enum CommandReference {
    /// The width help is rendered at: a terminal's, and `scripts/help-check`'s.
    static let columns = 80

    /// Every subcommand, in the tool's order.
    static var subcommands: [any ParsableCommand.Type] { TrustHarnessCommand.configuration.subcommands }

    /// `name`'s help, as `trust-harness help NAME` prints it `columns` wide, without trailing spaces.
    static func help(_ command: any ParsableCommand.Type) -> String {
        TrustHarnessCommand.helpMessage(for: command, columns: columns)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The table of subcommands: each name (linking to its help below, with its positional
    /// arguments as the usage line gives them) and its abstract.
    static func table() -> String {
        var lines = ["| subcommand | what it does |", "|---|---|"]
        for command in subcommands {
            let name = command._commandName
            let abstract = command.configuration.abstract.replacingOccurrences(of: "|", with: "\\|")
            lines.append("| [`\(name)`](#\(anchor(command))) | \(abstract) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Every subcommand's help under a heading of its own (the table's links point there).
    static func subcommandHelp() -> String {
        subcommands.map { command in
            "### `trust-harness \(command._commandName)`\n\n```text\n\(help(command))\n```"
        }.joined(separator: "\n\n")
    }

    /// The anchor GitHub gives the heading of `command`'s help (`trust-harness-bad-input`).
    static func anchor(_ command: any ParsableCommand.Type) -> String {
        "trust-harness-\(command._commandName)"
    }

    /// A generated part of the manual that is missing or cut.
    struct MissingBlock: Error, CustomStringConvertible {
        var marker: String
        var description: String {
            "docs/cli.md has no \(marker) ... <!-- /help --> block: put the two comments where the generated part belongs"
        }
    }

    /// `markdown` (docs/cli.md) with its generated parts made again from the help; the rest as it is.
    /// - Throws: ``MissingBlock`` when a part's opening comment or its `<!-- /help -->` is missing.
    static func update(_ markdown: String) throws -> String {
        var text = markdown
        for (name, content) in [("table", table()), ("subcommands", subcommandHelp())] {
            let open = "<!-- help: \(name) -->"
            guard let start = text.range(of: open), let end = text.range(of: "<!-- /help -->", range: start.upperBound..<text.endIndex) else {
                throw MissingBlock(marker: open)
            }
            text.replaceSubrange(start.upperBound..<end.lowerBound, with: "\n" + content + "\n")
        }
        return text
    }
}
