import Foundation
import TrustProbe

/// Everything one package of back ends brings to a tool that runs it beside others: its registry
/// entries, the raw loops `bench` compares them with, its own deviations file, and optionally a
/// loopback TLS server.
///
/// `BuiltInBackends.package` is the root package's; each package under `Backends/` exposes one, and
/// the `AllBackends` package builds a tool from all of them with `TrustHarnessTool.main(packages:)`
/// (in `TrustHarnessCLI`), in the order given.
///
/// A package's deviations file is a resource of its back-end target, found through its bundle
/// (``bundledDeviations(_:named:)``), so a tool installed anywhere still finds it:
///
/// ```swift
/// public static let package = BackendPackage(
///     name: "Mine",
///     entries: [BackendRegistry.Entry { _ in MyBackend() }],
///     deviations: BackendPackage.bundledDeviations(Bundle.module)
/// )
/// ```
public struct BackendPackage: Sendable {
    /// The package's name, for messages (`NSS`, `Botan`).
    public var name: String
    /// Its back ends and variants, in report order.
    public var entries: [BackendRegistry.Entry]
    /// The raw library loops and floors `bench` compares its back ends with, by back-end name.
    public var benchmarks: BenchmarkBaselines
    /// Its deviations files (`Vectors/deviations.json`'s format): where its back ends answer other
    /// than the standards, with the reasons. The vectors' own file covers the built-in back ends.
    public var deviations: [URL]
    /// A TLS server on 127.0.0.1 for `probe --vector` and `run --handshake`, if the package has one
    /// (`LoopbackServerMaker` is `TrustProbe`'s: import it to make one).
    public var loopbackServer: LoopbackServerMaker?
    /// How to reproduce a finding with each back end's library alone (its tool or a few lines of its
    /// API), by back-end name: what `trust-harness findings` writes beside the certificates.
    public var reproductions: [String: Reproduction]

    /// A package named `name` with `entries` in report order. The rest is optional: without
    /// `benchmarks` its back ends get `bench`'s cold and warm figures and no ratio; without
    /// `deviations` every departure from the standards is reported as unexpected.
    public init(name: String, entries: [BackendRegistry.Entry], benchmarks: BenchmarkBaselines = BenchmarkBaselines(), deviations: [URL] = [], loopbackServer: LoopbackServerMaker? = nil, reproductions: [String: Reproduction] = [:]) {
        self.name = name
        self.entries = entries
        self.benchmarks = benchmarks
        self.deviations = deviations
        self.loopbackServer = loopbackServer
        self.reproductions = reproductions
    }

    /// The deviations file `deviations.json` bundled with a back-end target (`resources:
    /// [.copy("deviations.json")]`, read as `Bundle.module`), as ``deviations`` wants it; none when the
    /// bundle has no such file. A missing file is not an error here: the test kit's conformance suite
    /// then reports every deviation of the back end as unexpected, which names the problem.
    public static func bundledDeviations(_ bundle: Bundle, named name: String = "deviations") -> [URL] {
        bundle.url(forResource: name, withExtension: "json").map { [$0] } ?? []
    }

    /// The registry of every package's entries, in the order given.
    /// - Throws: ``BackendRegistryError`` when two packages' back ends share a name.
    public static func registry(of packages: [BackendPackage]) throws(BackendRegistryError) -> BackendRegistry {
        try BackendRegistry(packages.flatMap(\.entries))
    }

    /// Every package's baselines (a later package wins on a shared back-end name).
    public static func benchmarks(of packages: [BackendPackage]) -> BenchmarkBaselines {
        packages.reduce(BenchmarkBaselines()) { $0.merging($1.benchmarks) }
    }
}
