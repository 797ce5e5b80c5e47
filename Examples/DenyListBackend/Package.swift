// swift-tools-version: 6.1
// A back end plugged into TrustHarness from outside: its own package, its own back end, its own
// command-line tool and its own conformance record. Nothing in TrustHarness names it.
import Foundation
import PackageDescription

/// The identity SwiftPM gives `.package(path: "../..")`: the TrustHarness checkout's folder name,
/// lowercased (it differs between clones), so it is derived rather than written down. A package
/// depending on TrustHarness by URL writes `package: "TrustHarness"` (or the repository's name).
let trustHarness: String = {
    var name = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

let package = Package(
    name: "DenyListBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DenyListBackend", targets: ["DenyListBackend"]),
        .executable(name: "deny-harness", targets: ["deny-harness"]),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .target(
            name: "DenyListBackend",
            dependencies: [
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustPolicy", package: trustHarness),
                .product(name: "OpenSSLBackend", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .executableTarget(
            name: "deny-harness",
            dependencies: [
                "DenyListBackend",
                .product(name: "TrustHarnessCLI", package: trustHarness),
                .product(name: "BuiltInBackends", package: trustHarness),
            ]
        ),
        .testTarget(
            name: "DenyListBackendTests",
            dependencies: [
                "DenyListBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustPolicy", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
                .product(name: "OpenSSLBackend", package: trustHarness),
            ]
        ),
    ]
)
