// swift-tools-version: 6.1
// A back end for an async library, plugged into TrustHarness from outside: swift-certificates'
// `Verifier` (its `validate` is async) run from the synchronous `evaluate` with the kit's
// `AsyncEvaluator`. The second example of the DocC article "Adding a back end"; CI builds and tests it.
import Foundation
import PackageDescription

/// The identity SwiftPM gives `.package(path: "../..")`: the TrustHarness checkout's folder name,
/// lowercased (it differs between clones). A package depending on TrustHarness by URL writes
/// `package: "TrustHarness"`.
let trustHarness: String = {
    var name = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

let package = Package(
    name: "AsyncVerifierBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AsyncVerifierBackend", targets: ["AsyncVerifierBackend"]),
        .executable(name: "async-harness", targets: ["async-harness"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.0.0"),
    ],
    targets: [
        // The back end: TrustBackendKit (the contract and the kit) and the library it wraps, nothing else.
        .target(
            name: "AsyncVerifierBackend",
            dependencies: [
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("deviations.json")]
        ),
        // The tool: the harness's command line with the built-in back ends and this one.
        .executableTarget(
            name: "async-harness",
            dependencies: [
                "AsyncVerifierBackend",
                .product(name: "TrustHarnessCLI", package: trustHarness),
                .product(name: "BuiltInBackends", package: trustHarness),
            ]
        ),
        .testTarget(
            name: "AsyncVerifierBackendTests",
            dependencies: [
                "AsyncVerifierBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
