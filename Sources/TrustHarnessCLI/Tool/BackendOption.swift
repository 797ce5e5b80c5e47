import TrustBackendKit
import ArgumentParser
import TrustCore
import TrustHarness

/// `--backend NAME`, declared once for every subcommand that runs back ends: repeatable, every
/// default back end when absent; an unknown name is refused with the registered ones.
struct BackendOption: ParsableArguments {
    @Option(
        name: .customLong("backend"),
        help: ArgumentHelp("A back end to use (trust-harness --version lists them all); repeatable. Default: every back end that runs by default.", valueName: "name")
    )
    var names: [String] = []

    /// The chosen back ends, made with `configuration`, guarded; an unknown name is a usage error
    /// naming `--backend` and the registered names.
    func backends(configuration: BackendConfiguration = .default, in tool: ToolContext) throws -> [any TrustBackend] {
        do {
            return try tool.registry.named(names, configuration: configuration)
        } catch {
            throw ValidationError("--backend: \(error)")
        }
    }

    /// The chosen registry entries (for `bench`, which measures and names them itself).
    func entries(in tool: ToolContext) throws -> [BackendRegistry.Entry] {
        do {
            return try tool.registry.selection(names)
        } catch {
            throw ValidationError("--backend: \(error)")
        }
    }
}
