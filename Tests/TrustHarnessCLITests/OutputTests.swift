import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Where reports and result files go, and what happens when they cannot be written.
@Suite struct OutputTests {
    /// Every suite command writes the same five formats to `--report FILE`, each with its provenance.
    @Test(arguments: [["run", "--id", "valid-chain/p256"], ["compare", "--id", "valid-chain/p256"], ["limbo", "--id", "cve::*"], ["bad-input", "--id", "empty-*"]])
    func everySuiteCommandWritesEveryFormatToItsReportFile(_ command: [String]) async throws {
        for format in ["text", "json", "junit", "markdown", "html"] {
            let file = Files.scratch("\(command[0])-report.\(format)")
            let run = try await ToolRun.of(command + ["--format", format, "--report", file])
            #expect(run.status == 0, "\(format): \(run)")
            #expect(run.output.isEmpty, "\(format): the report went to standard output too")
            let report = try String(contentsOfFile: file, encoding: .utf8)
            #expect(report.contains("trust-harness 0"), "\(command[0]) --format \(format): no provenance")
            if format == "junit" { #expect(XMLParser(data: Data(report.utf8)).parse(), "\(command[0]): the JUnit report is not well-formed XML") }
        }
    }

    /// A report that cannot be written in full is an error naming where and why, never a success:
    /// reports, help, the version and completion scripts alike.
    @Test(arguments: [
        ["run", "--format", "junit", "--vector", "valid-chain/*"], ["run", "--format", "html", "--vector", "valid-chain/*"],
        ["evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--format", "json"], ["pins", root], ["limbo", "--id", "cve::*"],
        ["--help"], ["run", "--help"], ["help", "run"], ["--version"], ["--generate-completion-script", "bash"],
    ])
    func anUnwritableReportIsAnError(_ arguments: [String]) async throws {
        let run = try await ToolRun.of(arguments, failingOutput: true)
        #expect(run.status == 2, "\(run)")
        #expect(run.errors.contains("cannot write the report to standard output"), "\(run)")
    }

    @Test func limboWritesItsResultFilesIntoTheResultsFolder() async throws {
        let folder = Files.scratch("limbo-results")
        let run = try await ToolRun.of(["limbo", "--id", "pathlen::*", "--backend", "gnutls", "--results-dir", folder])
        #expect(run.status == 0, "\(run)")
        let file = try String(contentsOfFile: folder + "/trustharness-gnutls.json", encoding: .utf8)
        #expect(file.contains("\"harness\" : \"trustharness-gnutls-"), "not x509-limbo's results format")
    }

    @Test func pkitsWritesItsResultFilesIntoTheResultsFolder() async throws {
        let folder = Files.scratch("pkits-results")
        let run = try await ToolRun.of(["pkits", "--id", "pkits::4.1.*", "--backend", "openssl", "--results-dir", folder])
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: folder + "/trustharness-openssl.json"), "\(run)")
    }

    /// A flag given twice selects once: one suite, three cases.
    @Test func aRepeatedBackendOrVectorSelectsOnce() async throws {
        let run = try await ToolRun.of(["run", "--backend", "gnutls", "--backend", "gnutls", "--vector", "valid-chain/*", "--vector", "valid-chain/*", "--format", "junit"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.components(separatedBy: "<testsuite ").count - 1 == 1)
        #expect(run.output.components(separatedBy: "<testcase ").count - 1 == 3)
    }

    /// `-` is standard input, and only one flag may take it.
    @Test func standardInputIsReadOnce() async throws {
        let bundle = Array(try Data(contentsOf: URL(fileURLWithPath: leaf)) + Data(contentsOf: URL(fileURLWithPath: intermediate)))
        let trusted = try await ToolRun.of(["evaluate", "--chain", "-", "--anchors", root, "--host", host, "--at", at], input: bundle)
        #expect(trusted.status == 0 && trusted.output.contains("TRUSTED"), "\(trusted)")
        let twice = try await ToolRun.of(["evaluate", "--chain", "-", "--anchors", "-"], input: bundle)
        #expect(twice.status == 2 && twice.errors.contains("standard input can be read only once"), "\(twice)")
    }

    /// Pins written by `pins` are read back by `evaluate --pin`.
    @Test func pinsRoundTripThroughEvaluate() async throws {
        let pins = try await ToolRun.of(["pins", root])
        #expect(pins.status == 0, "\(pins)")
        let file = Files.scratch("pins.txt")
        try Data(pins.output.utf8).write(to: URL(fileURLWithPath: file))
        let run = try await ToolRun.of(["evaluate", "--chain", leaf, "--chain", intermediate, "--anchors", root, "--host", host, "--at", at, "--pinning", "public-key", "--pin", file])
        #expect(run.status == 0 && run.output.contains("publicKeyPinMatched"), "\(run)")
    }

    /// Completion scripts offer --version, complete files for --chain.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsOfferTheToolsOptions(_ shell: String) async throws {
        let run = try await ToolRun.of(["--generate-completion-script", shell])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("version") && run.output.contains("chain"), "\(shell)")
    }

    /// explore writes every class as files with the `evaluate` command that reproduces it.
    @Test func exploreFindingsNameTheCommandThatReproducesThem() async throws {
        let folder = Files.scratch("findings")
        let run = try await ToolRun.of(["explore", "--cases", "60", "--pairs", "0", "--backend", "openssl", "--backend", "gnutls", "--results-dir", folder])
        #expect(run.status == 0 && run.output.contains("classes"), "\(run)")
        var reproduced = 0
        // Five of them: what reproducing every finding shows is TrustExploreTests' (through the library).
        // A class whose host evaluate refuses as uncheckable (a label of 64 octets: status 2, with
        // the reason) is not counted: evaluate checks hosts before asking anything.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where reproduced < 5 {
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)/finding.json"),
                  let finding = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let command = finding["reproduce"] as? String else { continue }
            // A class asked with CRLs or OCSP responses is reproduced by `run` of its folder
            // (TrustExploreTests' RevocationExplorationTests check it); here, evaluate's.
            guard command.hasPrefix("trust-harness evaluate ") else { continue }
            let arguments = Self.words(command).dropFirst()
            let again = try await ToolRun.of(Array(arguments) + ["--backend", "openssl", "--backend", "gnutls"])
            if again.status == 2 && again.output.isEmpty { continue }
            let want = String(decoding: data, as: UTF8.self).components(separatedBy: "\"trusted\" : true").count - 1
            let got = again.output.components(separatedBy: ")  verdict TRUSTED").count - 1
            #expect(want == got, "\(name): \(want) trusted answers recorded, evaluate gave \(got): \(again)")
            reproduced += 1
        }
        #expect(reproduced > 0, "no finding to reproduce: \(run)")
    }

    /// A command line split as a shell splits it (double quotes, backslash escapes).
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, escaped = false, started = false
        for character in line {
            if escaped { current.append(character); escaped = false; continue }
            switch character {
            case "\\": escaped = true; started = true
            case "\"": quoted.toggle(); started = true
            case " " where !quoted:
                if started { words.append(current) }
                current = ""; started = false
            default: current.append(character); started = true
            }
        }
        if started { words.append(current) }
        return words
    }
}
