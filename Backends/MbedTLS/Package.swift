// swift-tools-version: 6.1
// Mbed TLS 2.28 (Debian libmbedtls-dev) as a TrustHarness back end, plugged in from outside: its own
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
    name: "MbedTLSBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "MbedTLSBackend", targets: ["MbedTLSBackend"]),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        // mbedTLS's verification behind a C interface with no mbedTLS types, and the per-thread
        // validation clock (cmbedtls_clock.c). Debian ships no pkg-config file for mbedTLS 2.28; its
        // headers are in the default include path, so the libraries are linked by name.
        .target(
            name: "CMbedTLSBridge",
            linkerSettings: [.linkedLibrary("mbedtls"), .linkedLibrary("mbedx509"), .linkedLibrary("mbedcrypto")]
        ),
        .target(
            name: "MbedTLSBackend",
            dependencies: [
                "CMbedTLSBridge",
                .product(name: "TrustBackendKit", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .testTarget(
            name: "MbedTLSBackendTests",
            dependencies: [
                "MbedTLSBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
