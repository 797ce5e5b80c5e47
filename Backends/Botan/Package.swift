// swift-tools-version: 6.1
// Botan 2 (Debian libbotan-2-dev) as a TrustHarness back end, plugged in from outside: its own
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
    name: "BotanBackend",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "BotanBackend", targets: ["BotanBackend"]),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        // Botan's path validation behind a C interface, in C++ (Botan 2 is a C++ library and its C
        // interface validates for no usage; see cbotan_shim.h). Botan's pkg-config file adds flags
        // SwiftPM refuses (-fstack-protector -m64 -pthread: a system-library target with
        // pkgConfig "botan-2" warns on every build), so the shim names Debian's include folder itself
        // and links the library by name.
        .target(
            name: "CBotanShim",
            cxxSettings: [.unsafeFlags(["-I/usr/include/botan-2"])],
            linkerSettings: [.linkedLibrary("botan-2"), .linkedLibrary("stdc++")]
        ),
        .target(
            name: "BotanBackend",
            dependencies: [
                "CBotanShim",
                .product(name: "TrustBackendKit", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        .testTarget(
            name: "BotanBackendTests",
            dependencies: [
                "BotanBackend",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
