// swift-tools-version: 6.1
// Mozilla's NSS (Debian libnss3-dev) as a TrustHarness back end, plugged in from outside: its own
// package, reaching TrustHarness only through its public products, as a user's package would.
import Foundation
import PackageDescription

/// The identity SwiftPM gives `.package(path: "../..")`: the TrustHarness checkout's folder name,
/// lowercased (it differs between clones), so it is derived rather than written down.
let trustHarness: String = {
    var name = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

let package = Package(
    name: "NSSBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "NSSBackend", targets: ["NSSBackend"]),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .systemLibrary(name: "CNSS", pkgConfig: "nss", providers: [.apt(["libnss3-dev"])]),
        .target(name: "CNSSBridge", dependencies: ["CNSS"]),
        .target(
            name: "NSSBackend",
            dependencies: [
                "CNSSBridge",
                .product(name: "TrustBackendKit", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .testTarget(
            name: "NSSBackendTests",
            dependencies: [
                "NSSBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
