import TrustBackendKit
import ArgumentParser
import TrustCore
import TrustHarness

/// `--backend NAME`, declared once for every subcommand that runs back ends: repeatable, every
/// default back end when absent; an unknown name is refused with the registered ones, and, for a
/// back end of a package under the checkout's `Backends/` that this tool does not include, with
/// the `scripts/all-backends` command that runs it (``CheckoutBackends``).
struct BackendOption: ParsableArguments {
    @Option(
        name: .customLong("backend"),
        help: ArgumentHelp("A back end to use (trust-harness --version lists them all; scripts/all-backends adds the packages under Backends/); repeatable. Default: every back end that runs by default.", valueName: "name")
    )
    var names: [String] = []

    /// The chosen back ends, made with `configuration`, guarded; an unknown name is a usage error
    /// naming `--backend`, the registered names and where the name is if not here.
    func backends(configuration: BackendConfiguration = .default, in tool: ToolContext) throws -> [any TrustBackend] {
        do {
            return try tool.registry.named(names, configuration: configuration)
        } catch {
            throw Self.refusal(error, in: tool)
        }
    }

    /// The chosen registry entries (for `bench`, which measures and names them itself).
    func entries(in tool: ToolContext) throws -> [BackendRegistry.Entry] {
        do {
            return try tool.registry.selection(names)
        } catch {
            throw Self.refusal(error, in: tool)
        }
    }

    /// The usage error for a name `tool` does not register: the registered names, then, when the
    /// checkout's `Backends/` packages are at hand, the package the name is in with the exact
    /// `scripts/all-backends` command to run (these very arguments) and what its first build takes,
    /// or the back ends `scripts/all-backends` would add.
    static func refusal(_ error: UnknownBackendError, in tool: ToolContext) -> ValidationError {
        let hint = CheckoutBackends.find()?.hint(for: [error.name], registered: tool.registry.names, arguments: tool.arguments) ?? ""
        return ValidationError("--backend: \(error)\(hint)")
    }
}
