// swift-tools-version: 6.1
// The HTTP clients Swift applications fetch with on Linux, as TrustHarness back ends judged by real
// HTTPS requests: Foundation's URLSession (FoundationNetworking: libcurl with OpenSSL) and
// AsyncHTTPClient (SwiftNIO, swift-nio-ssl's BoringSSL). Each request is made by the client in a
// child process (`trust-http-client`) whose clock libfaketime sets to the vector's time, against a
// loopback HTTPS server presenting the vector's chain. Its own package, reaching TrustHarness only
// through its public products, as a user's package would.
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
    name: "HTTPClientBackends",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "HTTPClientBackends", targets: ["HTTPClientBackends"]),
        .executable(name: "trust-http-client", targets: ["trust-http-client"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.98.0"),
    ],
    targets: [
        // What the harness and the child say to each other: one request, one outcome, as JSON.
        .target(name: "HTTPClientWire"),
        // The two back ends, the loopback HTTPS server with its CONNECT front, the child's launcher.
        .target(
            name: "HTTPClientBackends",
            dependencies: [
                "HTTPClientWire",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "TrustBackendKit", package: trustHarness),
            ],
            resources: [.copy("deviations.json")]
        ),
        // The client: one HTTPS request through URLSession or AsyncHTTPClient, set up as an
        // application sets it up, its outcome printed as JSON. Nothing of TrustHarness in it.
        .executableTarget(
            name: "trust-http-client",
            dependencies: [
                "HTTPClientWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HTTPClientBackendsTests",
            dependencies: [
                "HTTPClientBackends",
                .product(name: "TrustBackendKit", package: trustHarness),
                .product(name: "TrustHarnessTestKit", package: trustHarness),
            ]
        ),
    ]
)
