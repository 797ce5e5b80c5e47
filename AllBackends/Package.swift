// swift-tools-version: 6.1
// Every back end side by side: the root package's built-in back ends and every package under
// Backends/, in one trust-harness tool (`all-backends`) and one fuzz target (`all-backends-fuzz`).
// A package SwiftPM resolves and builds like any other; scripts/all-backends installs the Debian
// packages the back ends need (their all-backends.conf) and runs it. Adding a package under
// Backends/ means a line in `backends` below and one in each main.swift; scripts/all-backends
// refuses to run while a Backends/ package is missing here.
import Foundation
import PackageDescription

/// The identity SwiftPM gives `.package(path: "..")`: the checkout's folder name, lowercased
/// (without a `.git` suffix), which differs between clones, so it is derived, not written down.
let trustHarness: String = {
    var name = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

/// Each package under Backends/: its folder and the library product it exposes.
let backends: [(folder: String, product: String)] = [
    ("Botan", "BotanBackend"),
    ("HTTPClients", "HTTPClientBackends"),
    ("MbedTLS", "MbedTLSBackend"),
    ("NIOSSL", "NIOSSLBackend"),
    ("NSS", "NSSBackend"),
    ("WolfSSL", "WolfSSLBackend"),
]

let backendProducts: [Target.Dependency] = backends.map { .product(name: $0.product, package: $0.folder.lowercased()) }

let package = Package(
    name: "AllBackends",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "all-backends", targets: ["all-backends"]),
        .executable(name: "all-backends-fuzz", targets: ["all-backends-fuzz"]),
    ],
    dependencies: [.package(path: "..")] + backends.map { .package(path: "../Backends/\($0.folder)") },
    targets: [
        .executableTarget(
            name: "all-backends",
            dependencies: [
                .product(name: "TrustHarnessCLI", package: trustHarness),
                .product(name: "BuiltInBackends", package: trustHarness),
            ] + backendProducts
        ),
        .executableTarget(
            name: "all-backends-fuzz",
            dependencies: [
                .product(name: "TrustFuzzKit", package: trustHarness),
                .product(name: "BuiltInBackends", package: trustHarness),
            ] + backendProducts
        ),
    ]
)
