import TrustBackendKit
import BaselineLoops
import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import TrustCore
import TrustHarness
import TrustProbe

/// The back ends TrustHarness ships, named in this one place: OpenSSL, GnuTLS and swift-certificates
/// hardened as a careful client configures them (run by default), and each as a plain client gets it
/// (run when named; README, "Variants: what the hardening buys"). The `trust-harness` executable,
/// the fuzzer, the tests and any outside package that wants them beside its own back ends
/// (`BackendRegistry(BuiltInBackends.registry.entries + mine)`) use this list.
public enum BuiltInBackends {
    /// Every built-in back end and variant, in report order.
    public static let registry: BackendRegistry = {
        do {
            return try BackendRegistry([
                .init { OpenSSLBackend(configuration: $0) },
                .init { GnuTLSBackend(configuration: $0) },
                .init { SwiftCertificatesBackend(configuration: $0) },
                .init(isDefault: false) { OpenSSLBackend(configuration: $0, settings: .clientDefault) },
                .init(isDefault: false) { GnuTLSBackend(configuration: $0, settings: .clientDefault) },
                .init(isDefault: false) { SwiftCertificatesBackend(configuration: $0, settings: .withServerAuthentication) },
            ])
        } catch {
            preconditionFailure("the built-in back ends have distinct names: \(error)")
        }
    }()

    /// What `bench` compares the built-in back ends with: OpenSSL's and GnuTLS's raw C loops (the
    /// hardened settings only, so the variants have none), swift-crypto's signature verifications as
    /// the floor of the pure-Swift back end, and OpenSSL's as everyone else's. The loops are also the
    /// references `fidelity` compares the columns with; swift-certificates' is its `Verifier` called
    /// plainly (``SwiftCertificatesReference``).
    public static let benchmarks = BenchmarkBaselines(
        loops: [OpenSSLBackend.Settings.hardened.name: CLoop.openssl, GnuTLSBackend.Settings.hardened.name: CLoop.gnutls],
        floors: [SwiftCertificatesBackend.Settings.standard.name: CLoop.swiftCryptoSignatures],
        signatureFloor: CLoop.opensslSignatures,
        references: [SwiftCertificatesBackend.Settings.standard.name: SwiftCertificatesReference(),
                     OpenSSLBackend.Settings.clientDefault.name: LoopReference(CLoop.opensslPlainClient),
                     GnuTLSBackend.Settings.clientDefault.name: LoopReference(CLoop.gnutlsPlainClient),
                     SwiftCertificatesBackend.Settings.withServerAuthentication.name: SwiftCertificatesReference()]
    )

    /// The loopback TLS server `probe --vector` and `run --handshake` serve chains with (OpenSSL).
    public static let loopbackServer: LoopbackServerMaker = { chain, key in
        try LoopbackTLSServer(chain: chain, privateKey: key)
    }

    /// The built-ins as one package among others, for a tool that runs them beside outside back ends
    /// (`TrustHarnessTool.main(packages: [BuiltInBackends.package, ...])`, as `scripts/all-backends`
    /// does). Their deviations are the vectors' own file, so it names none.
    public static let package = BackendPackage(name: "TrustHarness", entries: registry.entries, benchmarks: benchmarks, loopbackServer: loopbackServer, reproductions: Reproductions.all)
}
