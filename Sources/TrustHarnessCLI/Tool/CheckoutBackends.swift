import Foundation
import TrustBackendKit
import TrustHarness
import TrustVectors

/// The back ends of the packages under the checkout's `Backends/` (each its own package, as a
/// user's would be), which `scripts/all-backends` runs beside the built-in ones and a tool of
/// other packages may not register: what an unknown `--backend` name is looked up in, so that
/// `--backend nss` in `trust-harness` says where NSS is and the exact command that runs it.
///
/// Nothing here names a back end: every name is read from the packages' own files. A package's
/// `all-backends.conf` (which `scripts/all-backends` reads too) says that it is one and which Debian
/// packages it needs (`apt=`); the deviations file its back-end target bundles
/// (`Sources/*/deviations.json`, the record every back end of the package is judged with) names its
/// back ends. The checkout is found as the vectors are: beside `$TRUST_HARNESS_VECTORS`, else
/// `./Backends`, else the source checkout this tool was built from.
struct CheckoutBackends: Sendable {
    /// One package under `Backends/`.
    struct Package: Sendable, Equatable {
        /// Its folder under `Backends/` (`NSS`).
        var folder: String
        /// The back ends it registers, as its deviations file names them, without `+checks`.
        var names: [String]
        /// The Debian packages its `all-backends.conf` names (`apt=`).
        var debianPackages: [String]
    }

    /// The checkout: the folder holding `Backends/` and `scripts/all-backends`.
    var checkout: URL
    /// Every package under `Backends/` with an `all-backends.conf`, in folder order.
    var packages: [Package]

    /// How long the first `scripts/all-backends` takes on a 2-core machine: every `Backends/`
    /// package, their dependencies (BoringSSL among them, compiled from source), the root package
    /// and the tool, in a debug build. Measured (2026-11-28) in a new build folder with the Swift packages in
    /// SwiftPM's cache: 5 min 10 s wall clock, about 8 CPU-minutes (the two halves of one build,
    /// 4 min 24 s and 46 s); the downloads (apt-get's, SwiftPM's of a first checkout) come on top.
    static let firstBuild = "about 5 minutes on a 2-core machine, plus the downloads"

    /// The checkout's packages, or nil when no checkout with `Backends/*/all-backends.conf` is at
    /// hand (an installed tool): then an unknown name is only unknown.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> CheckoutBackends? {
        let candidates = [
            VectorSuite.named(by: environment)?.deletingLastPathComponent(),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            VectorSuite.locate()?.deletingLastPathComponent(),
        ]
        for case let checkout? in candidates {
            if let found = read(checkout: checkout.standardizedFileURL), !found.packages.isEmpty { return found }
        }
        return nil
    }

    /// The packages of `checkout`'s `Backends/`, or nil when it has no such folder.
    static func read(checkout: URL) -> CheckoutBackends? {
        let folder = checkout.appendingPathComponent("Backends")
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var packages: [Package] = []
        for name in entries.sorted() {
            let package = folder.appendingPathComponent(name)
            guard let conf = try? String(contentsOf: package.appendingPathComponent("all-backends.conf"), encoding: .utf8) else { continue }
            let apt = conf.split(separator: "\n").first { $0.hasPrefix("apt=") }.map { $0.dropFirst("apt=".count).split(separator: " ").map(String.init) } ?? []
            var names: [String] = []
            let sources = package.appendingPathComponent("Sources")
            for target in ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted() {
                let file = sources.appendingPathComponent("\(target)/deviations.json")
                guard let data = FileManager.default.contents(atPath: file.path),
                      let list = try? JSONDecoder().decode(DeviationList.self, from: data) else { continue }
                for deviation in list.deviations {
                    let name = deviation.backend.hasSuffix(HarnessChecks.columnSuffix) ? String(deviation.backend.dropLast(HarnessChecks.columnSuffix.count)) : deviation.backend
                    if !names.contains(name) { names.append(name) }
                }
            }
            packages.append(Package(folder: name, names: names, debianPackages: apt))
        }
        return CheckoutBackends(checkout: checkout, packages: packages)
    }

    /// The package whose back end `name` is (`NAME+checks` is `NAME`'s), unless `registered` (the
    /// tool's own names) has it.
    func package(of name: String, besides registered: [String]) -> Package? {
        let library = name.hasSuffix(HarnessChecks.columnSuffix) ? String(name.dropLast(HarnessChecks.columnSuffix.count)) : name
        guard !registered.contains(library) else { return nil }
        return packages.first { $0.names.contains(library) }
    }

    /// `scripts/all-backends` as the user can type it from the current directory: relative when
    /// that is short, else absolute.
    var script: String {
        let path = checkout.appendingPathComponent("scripts/all-backends").path
        return Provenance.relativePath(path, from: FileManager.default.currentDirectoryPath) ?? path
    }

    /// What to add to "unknown back end" for `names` (the unknown ones asked for), in a tool that
    /// registers `registered` and was run with `arguments`: for a name of a `Backends/` package, the
    /// package, the exact `scripts/all-backends` command (these arguments) and what its first
    /// build does and takes; for any other, the back ends `scripts/all-backends` would add.
    func hint(for names: [String], registered: [String], arguments: [String]) -> String {
        let elsewhere = packages.flatMap(\.names).filter { !registered.contains($0) }
        guard !elsewhere.isEmpty else { return "" }
        let found = names.compactMap { name in package(of: name, besides: registered).map { (name, $0) } }
        guard !found.isEmpty else {
            return "; scripts/all-backends runs these too: \(elsewhere.joined(separator: ", ")) (the packages under Backends/)"
        }
        let which = found.map { "\($0.0) is a back end of Backends/\($0.1.folder)" }.joined(separator: ", ")
        let command = ([script] + arguments).map(Provenance.quoted).joined(separator: " ")
        let debian = packages.flatMap(\.debianPackages).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return "\n\(which), a package of its own that this tool does not include: scripts/all-backends runs it beside the built-in back ends, with every subcommand and option as here:\n"
            + "  \(command)\n"
            + "Its first run installs what the Backends/ packages need and the machine lacks (apt-get, with sudo when not root: \(debian.joined(separator: ", "))) "
            + "and builds every Backends/ package, their dependencies and the all-backends tool (a debug build): \(Self.firstBuild). Later runs rebuild only what changed."
    }
}
