// swift-tools-version: 6.1
// swift-nio-ssl (BoringSSL embedded) as a TrustHarness back end, plugged in from outside: its own
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
    name: "NIOSSLBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "NIOSSLBackend", targets: ["NIOSSLBackend"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.98.0"),
    ],
    targets: [
        .target(
            name: "NIOSSLBackend",
            dependencies: [
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustProbe", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .testTarget(
            name: "NIOSSLBackendTests",
            dependencies: [
                "NIOSSLBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
