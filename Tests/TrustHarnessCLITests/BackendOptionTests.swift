import BuiltInBackends
import Foundation
import Testing
import TrustVectors
@testable import TrustHarnessCLI

/// `--backend` names a back end of a `Backends/` package, which `trust-harness` does not include,
/// with the exact `scripts/all-backends` command that runs it, in every subcommand that takes it;
/// the names come from the packages' own files, checked here against the checkout.
@Suite struct BackendOptionTests {
    /// This checkout's root.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every subcommand with a `--backend` option, as ArgumentParser describes the tool.
    static let subcommands: [String] = (TrustHarnessTool.toolInfo.command.subcommands ?? []).filter { command in
        (command.arguments ?? []).contains { $0.names?.contains { $0.kind == "long" && $0.name == "backend" } == true }
    }.map(\.commandName)

    /// What a subcommand needs besides `--backend` to get as far as choosing its back ends.
    static let needs: [String: [String]] = [
        "evaluate": ["--chain", Files.leaf, "--anchors", Files.root],
        "probe": ["--vector", "valid-chain/p256"],
        "findings": ["--output", Files.scratch("findings-unknown")],
        "compare": ["--backend", "openssl"],
    ]

    /// A back end of a `Backends/` package, read from the checkout as the tool reads it.
    static func packaged() throws -> (name: String, folder: String) {
        let found = try #require(CheckoutBackends.read(checkout: checkout))
        let package = try #require(found.packages.first { !$0.names.isEmpty })
        return (package.names[0], package.folder)
    }

    @Test func everySubcommandWithBackendIsAsked() {
        #expect(Set(Self.subcommands).isSuperset(of: ["run", "compare", "evaluate", "limbo", "pkits", "bettertls", "fidelity", "explore", "bench", "stress", "probe", "bad-input", "findings"]), "\(Self.subcommands)")
    }

    @Test(arguments: subcommands)
    func aPackagedBackEndIsNamedWithTheCommandThatRunsIt(_ subcommand: String) async throws {
        let (name, folder) = try Self.packaged()
        let arguments = [subcommand, "--backend", name] + (Self.needs[subcommand] ?? [])
        let run = try await ToolRun.of(arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.errors.contains("unknown back end \"\(name)\""), "\(run)")
        #expect(run.errors.contains("\(name) is a back end of Backends/\(folder)"), "\(run)")
        #expect(run.errors.contains("\n  scripts/all-backends \(arguments.joined(separator: " "))\n"), "\(run)")
        #expect(run.errors.contains("apt-get") && run.errors.contains(CheckoutBackends.firstBuild), "\(run)")
    }

    /// A name no package has lists what scripts/all-backends would add.
    @Test func anUnknownNameListsWhatAllBackendsAdds() async throws {
        let (name, _) = try Self.packaged()
        let run = try await ToolRun.of(["run", "--backend", "no-such-library"])
        #expect(run.status == 2 && run.errors.contains("scripts/all-backends runs these too: ") && run.errors.contains(name), "\(run)")
        // NAME+checks of a packaged back end is that package's too.
        let checked = try await ToolRun.of(["limbo", "--backend", name + "+checks"])
        #expect(checked.errors.contains("scripts/all-backends limbo --backend \(name)+checks"), "\(checked)")
    }

    /// The data the names are read from holds: every package under Backends/ describes itself
    /// (all-backends.conf) and names its back ends (its deviations file), AllBackends/ includes it,
    /// no name is a built-in one, and every back end of the committed records (made with
    /// scripts/all-backends) is a built-in one or a package's.
    @Test func theNamesAreThePackagesOwn() throws {
        let found = try #require(CheckoutBackends.read(checkout: Self.checkout))
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.checkout.appendingPathComponent("Backends").path)
            .filter { FileManager.default.fileExists(atPath: Self.checkout.appendingPathComponent("Backends/\($0)/Package.swift").path) }
        #expect(Set(found.packages.map(\.folder)) == Set(folders), "a package under Backends/ without an all-backends.conf")
        let manifest = try String(contentsOf: Self.checkout.appendingPathComponent("AllBackends/Package.swift"), encoding: .utf8)
        let builtIn = Set(BuiltInBackends.registry.names)
        for package in found.packages {
            #expect(!package.names.isEmpty, "Backends/\(package.folder): its deviations file names no back end")
            #expect(manifest.contains("(\"\(package.folder)\","), "AllBackends/Package.swift does not include Backends/\(package.folder)")
            #expect(builtIn.isDisjoint(with: package.names), "Backends/\(package.folder) names a built-in back end")
        }
        let packaged = Set(found.packages.flatMap(\.names))
        for record in ["limbo/observed.json", "pkits/observed.json", "bettertls/pathbuilding-observed.json", "bettertls/nameconstraints-observed.json"] {
            let data = try Data(contentsOf: Self.checkout.appendingPathComponent("Vectors/\(record)"))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let names = Set((json["backends"] as? [String: Any])?.keys.map { $0 } ?? [])
            #expect(!names.isEmpty, "\(record) names no back end")
            #expect(names.subtracting(builtIn).subtracting(packaged).isEmpty, "\(record): \(names.subtracting(builtIn).subtracting(packaged).sorted()) are neither built in nor in a Backends/ package's deviations file")
        }
    }
}
