import TrustBackendKit
import ArgumentParser
import TrustCore
import TrustHarness

/// `--backend NAME`, declared once for every subcommand that runs back ends: the registered names in
/// its help and completions, repeatable, every default back end when absent.
struct BackendOption: ParsableArguments {
    @Option(
        name: .customLong("backend"),
        help: ArgumentHelp("A back end to use (\(TrustHarnessTool.registry.names.joined(separator: ", "))); repeatable. Default: every back end that runs by default (\(TrustHarnessTool.registry.defaultNames.joined(separator: ", "))).", valueName: "name"),
        completion: .list(TrustHarnessTool.registry.names)
    )
    var names: [String] = []

    /// The chosen back ends, made with `configuration`, guarded; an unknown name is a usage error
    /// naming `--backend` and the registered names.
    func backends(configuration: BackendConfiguration = .default) throws -> [any TrustBackend] {
        do {
            return try TrustHarnessTool.registry.named(names, configuration: configuration)
        } catch {
            throw ValidationError("--backend: \(error)")
        }
    }

    /// The chosen registry entries (for `bench`, which measures and names them itself).
    func entries() throws -> [BackendRegistry.Entry] {
        do {
            return try TrustHarnessTool.registry.selection(names)
        } catch {
            throw ValidationError("--backend: \(error)")
        }
    }
}
