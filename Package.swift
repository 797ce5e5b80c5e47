// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TrustHarness",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "TrustCore", targets: ["TrustCore"]),
        .library(name: "TrustBackendKit", targets: ["TrustBackendKit"]),
        .library(name: "TrustDER", targets: ["TrustDER"]),
        .library(name: "TrustPolicy", targets: ["TrustPolicy"]),
        .library(name: "TrustProbe", targets: ["TrustProbe"]),
        .library(name: "OpenSSLBackend", targets: ["OpenSSLBackend"]),
        .library(name: "GnuTLSBackend", targets: ["GnuTLSBackend"]),
        .library(name: "SwiftCertificatesBackend", targets: ["SwiftCertificatesBackend"]),
        .library(name: "TrustVectors", targets: ["TrustVectors"]),
        .library(name: "TrustHarness", targets: ["TrustHarness"]),
        .library(name: "TrustExplore", targets: ["TrustExplore"]),
        .library(name: "TrustHarnessCLI", targets: ["TrustHarnessCLI"]),
        .library(name: "TrustHarnessTestKit", targets: ["TrustHarnessTestKit"]),
        .library(name: "BuiltInBackends", targets: ["BuiltInBackends"]),
        .executable(name: "trust-harness", targets: ["trust-harness"]),
        .executable(name: "TrustFuzz", targets: ["TrustFuzz"]),
        .library(name: "TrustFuzzKit", targets: ["TrustFuzzKit"]),
        .library(name: "CBaselines", targets: ["CBaselines"]),
        .library(name: "BaselineLoops", targets: ["BaselineLoops"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        // The back-end contract: the protocol, requests, verdicts, the failure taxonomy, features,
        // settings. No C, no dependencies, no I/O.
        .target(name: "TrustCore"),
        // The strict-DER checker (RFC 5280 certificates, byte for byte): pure computation.
        .target(name: "TrustDER", dependencies: ["TrustCore"]),
        // The back-end kit: what a back end in any package depends on, and nothing of the harness,
        // its vectors or its reports. The contract and strict DER (re-exported), the package
        // description (BackendPackage, BackendRegistry, benchmark loops), the one preflight every
        // back end shares (GuardedBackend), and helpers for C bridges (certificate cache, C buffer
        // arrays, the Debian package of a loaded library).
        .target(name: "TrustBackendKit", dependencies: ["TrustCore", "TrustDER", "TrustProbe"]),
        // The AFNetworking-style pinning policy (SecurityPolicy) over any back end: pure computation
        // (swift-certificates for signature links, swift-crypto for SHA-256).
        .target(
            name: "TrustPolicy",
            dependencies: [
                "TrustCore", "TrustDER",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // TLS probing: TCP connections, the TLS client capability a back end may adopt, handshake
        // reports. The I/O lives here.
        .target(name: "TrustProbe", dependencies: ["TrustCore"]),

        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "OpenSSLBackend", dependencies: ["TrustCore", "TrustBackendKit", "TrustDER", "TrustProbe", "COpenSSL"]),

        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        .target(name: "GnuTLSBackend", dependencies: ["TrustCore", "TrustBackendKit", "TrustDER", "TrustProbe", "CGnuTLS"]),

        // swift-certificates' Verifier: the pure-Swift back end, no C library.
        .target(
            name: "SwiftCertificatesBackend",
            dependencies: [
                "TrustCore", "TrustBackendKit", "TrustDER",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            plugins: ["LibraryVersion"]
        ),
        // Records the resolved swift-certificates version for the back end's libraryVersion.
        .plugin(name: "LibraryVersion", capability: .buildTool()),

        // The committed vectors as a resource bundle (see Vectors/TrustVectorsResources.swift).
        .target(
            name: "TrustVectorsResources",
            path: "Vectors",
            exclude: ["keys", "pyca-disagreements.json", "bettertls", "standards"],
            sources: ["TrustVectorsResources.swift"],
            resources: [
                .copy("manifest.json"), .copy("deviations.json"), .copy("certs"), .copy("crls"), .copy("ocsp"), .copy("bad-input"), .copy("limbo"), .copy("explored"), .copy("pkits"), .copy("handshake.json"), .copy("fidelity.json"), .copy("impacts.json"), .copy("situations.json"),
            ]
        ),
        // The system's zlib (BetterTLS's published results are gzip): Debian's zlib1g-dev, among the
        // Swift toolchain's own Debian dependencies.
        .systemLibrary(
            name: "CTrustZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "TrustVectors",
            dependencies: [
                "TrustCore", "TrustDER", "TrustPolicy", "TrustVectorsResources", "CTrustZlib",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Runners, judgement and reports: they know back ends only as values they are given.
        .target(
            name: "TrustHarness",
            dependencies: ["TrustCore", "TrustBackendKit", "TrustDER", "TrustPolicy", "TrustProbe", "TrustVectors", "CTrapReport", "CCallgrind"],
            // The HTML reports' CSS and JavaScript, compiled into the module (see ReportAssets).
            resources: [.embedInCode("Resources/document.css"), .embedInCode("Resources/document.js")]
        ),
        // The explorer: mutants of chains, run on every back end, disagreements grouped and minimised.
        .target(
            name: "TrustExplore",
            dependencies: [
                "TrustHarness", "TrustVectors", "TrustCore", "TrustBackendKit", "CGnuTLS",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The command-line tool as a library, entered with the back ends to use.
        .target(
            name: "TrustHarnessCLI",
            dependencies: [
                "TrustHarness", "TrustVectors", "TrustCore", "TrustBackendKit", "TrustPolicy", "TrustProbe", "TrustExplore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The conformance, bad-input and contract suites as functions any package's tests can call.
        .target(
            name: "TrustHarnessTestKit",
            dependencies: ["TrustHarness", "TrustVectors", "TrustCore", "TrustBackendKit"]
        ),
        // The one list of the built-in back ends and their variants, with their raw C loops for
        // `bench` and the loopback TLS server: what the tool, the fuzzer and the tests all use.
        .target(
            name: "BuiltInBackends",
            dependencies: [
                "TrustHarness", "TrustCore", "TrustBackendKit", "TrustProbe", "OpenSSLBackend", "GnuTLSBackend", "SwiftCertificatesBackend", "BaselineLoops",
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // The composition root: the built-in back ends, entered into the tool.
        .executableTarget(
            name: "trust-harness",
            dependencies: ["TrustHarnessCLI", "BuiltInBackends"]
        ),

        // libFuzzer target (see Sources/TrustFuzz/main.swift): swift build -c release --product TrustFuzz
        // -Xswiftc -sanitize=fuzzer,address. CFuzzerDriver reaches libFuzzer's driver through a weak
        // symbol, so a plain build links too (then the binary replays the files it is given).
        .executableTarget(
            name: "TrustFuzz",
            dependencies: ["TrustFuzzKit", "BuiltInBackends"]
        ),
        // The fuzz target over any back ends (TrustFuzzTool.main(packages:)), so that a tool with
        // other packages' back ends (scripts/all-backends' all-backends-fuzz) fuzzes them too.
        .target(name: "TrustFuzzKit", dependencies: ["TrustCore", "TrustBackendKit", "TrustPolicy", "TrustVectors", "TrustHarness", "CFuzzerDriver"]),
        .target(name: "CFuzzerDriver"),
        // Names the evaluation a thread was running when the process dies of a signal (GuardedEvaluation).
        .target(name: "CTrapReport"),
        // Valgrind's callgrind client requests as C functions (`bench --instructions` counts with them).
        .target(name: "CCallgrind", exclude: ["valgrind"]),

        // The raw C loops the back ends are benchmarked against (OpenSSL and GnuTLS called as the back
        // ends call them), here so that the Benchmarks package and `trust-harness bench` share them.
        .target(
            name: "CBaselines",
            path: "Benchmarks/CBaselines",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("gnutls")]
        ),
        // The C loops called with Swift arrays (`RawBaseline`), for `bench` and the benchmark suites.
        .target(
            name: "BaselineLoops",
            dependencies: ["CBaselines", "GnuTLSBackend", .product(name: "X509", package: "swift-certificates")],
            path: "Benchmarks/BaselineLoops"
        ),

        // The one test PKI (root > intermediate > leaf, every date relative to one fixed instant) the
        // test targets that mint certificates share.
        .target(name: "TestPKI", dependencies: [.product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"), .product(name: "SwiftASN1", package: "swift-asn1")], path: "Tests/TestPKI"),
        .testTarget(name: "TrustBackendKitTests", dependencies: ["TrustBackendKit", "TrustVectors", "OpenSSLBackend"]),
        .testTarget(name: "TrustCoreTests", dependencies: ["TrustCore"]),
        .testTarget(name: "TrustDERTests", dependencies: ["TrustDER", "TrustVectors", "TestPKI", .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "TrustPolicyTests", dependencies: ["TrustPolicy", "TrustDER", "TestPKI", .product(name: "Crypto", package: "swift-crypto"), .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "OpenSSLBackendTests", dependencies: ["OpenSSLBackend", "TrustCore", "TrustVectors", "TrustHarnessTestKit", "TestPKI", .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "GnuTLSBackendTests", dependencies: ["GnuTLSBackend", "TrustCore", "TrustDER", "TrustHarnessTestKit", "TestPKI", .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "TrustVectorsTests", dependencies: ["TrustVectors", "TrustCore", "TrustPolicy", .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "SwiftCertificatesBackendTests", dependencies: ["SwiftCertificatesBackend", "TrustCore", "TestPKI", .product(name: "X509", package: "swift-certificates")]),
        .testTarget(name: "TrustExploreTests", dependencies: ["TrustExplore", "TrustHarness", "TrustVectors", "TrustCore", "TrustBackendKit", "TrustPolicy", "OpenSSLBackend", "GnuTLSBackend", "SwiftCertificatesBackend"]),
        .testTarget(name: "TrustHarnessCLITests", dependencies: ["TrustHarnessCLI", "BuiltInBackends", "TrustVectors"]),
        .testTarget(name: "TrustHarnessTests", dependencies: ["TrustHarness", "TrustVectors", "TrustCore", "TrustBackendKit", "TrustPolicy", "TrustProbe", "TrustHarnessTestKit", "BuiltInBackends", "OpenSSLBackend", "GnuTLSBackend", "SwiftCertificatesBackend"]),
    ]
)
