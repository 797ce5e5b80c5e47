// swift-tools-version: 6.1
// wolfSSL 5.5 (Debian libwolfssl-dev) as a TrustHarness back end, plugged in from outside: its own
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
    name: "WolfSSLBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WolfSSLBackend", targets: ["WolfSSLBackend"]),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        // wolfSSL's certificate manager and X.509 accessors behind a C interface with no wolfSSL
        // types (see cwolfssl_bridge.h). Debian installs the headers in /usr/include/wolfssl, on the
        // default search path, so only the library is named.
        .target(
            name: "CWolfSSLBridge",
            linkerSettings: [.linkedLibrary("wolfssl")]
        ),
        .target(
            name: "WolfSSLBackend",
            dependencies: [
                "CWolfSSLBridge",
                .product(name: "TrustBackendKit", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .testTarget(
            name: "WolfSSLBackendTests",
            dependencies: [
                "WolfSSLBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
