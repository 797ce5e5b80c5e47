// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The identity SwiftPM gives `.package(path: "../")`: the root checkout's folder name, lowercased
/// (without a `.git` suffix). It differs between clones (`main`, `trustharness`, ...), so it is derived
/// from where this package sits rather than written down.
let trustHarness: String = {
    var name = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

let package = Package(
    name: "TrustHarnessBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(path: "../"),
    ],
    targets: [
        // The vectors as DER and the C baselines on Swift arrays, shared by the suites and the test.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "TrustCore", package: trustHarness),
                .product(name: "TrustVectors", package: trustHarness),
                .product(name: "GnuTLSBackend", package: trustHarness),
                .product(name: "BaselineLoops", package: trustHarness),
            ]
        ),
        .executableTarget(
            name: "TrustBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TrustCore", package: trustHarness),
                .product(name: "TrustPolicy", package: trustHarness),
                .product(name: "OpenSSLBackend", package: trustHarness),
                .product(name: "GnuTLSBackend", package: trustHarness),
                .product(name: "SwiftCertificatesBackend", package: trustHarness),
            ],
            path: "Benchmarks/TrustBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RawBaselines",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/RawBaselines",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(
            name: "CBaselinesTests",
            dependencies: ["BenchmarkSupport"]
        ),
    ]
)
