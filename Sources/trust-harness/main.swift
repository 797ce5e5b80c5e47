// The composition root of `trust-harness`: the only place that names the back ends it runs.
import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import TrustHarness
import TrustHarnessCLI

let registry = try BackendRegistry([
    .init(name: "openssl", baseline: CLoop.openssl) { OpenSSLBackend(configuration: $0) },
    .init(name: "gnutls", baseline: CLoop.gnutls) { GnuTLSBackend(configuration: $0) },
    // Pure Swift: no C loop to compare with; its floor is swift-crypto's signature verifications.
    .init(name: SwiftCertificatesBackend.Settings.standard.name, floor: CLoop.swiftCryptoSignatures) { SwiftCertificatesBackend(configuration: $0) },
    // What a plain client gets (README, "Variants: what the hardening buys"): run when named. The C
    // loops implement the hardened settings only, so these have no baseline.
    .init(name: OpenSSLBackend.Settings.clientDefault.name, isDefault: false) {
        OpenSSLBackend(configuration: $0, settings: .clientDefault)
    },
    .init(name: GnuTLSBackend.Settings.clientDefault.name, isDefault: false) {
        GnuTLSBackend(configuration: $0, settings: .clientDefault)
    },
    .init(name: SwiftCertificatesBackend.Settings.libraryPoliciesOnly.name, isDefault: false) {
        SwiftCertificatesBackend(configuration: $0, settings: .libraryPoliciesOnly)
    },
])
await TrustHarnessTool.main(registry: registry, signatureFloor: CLoop.opensslSignatures, loopbackServer: { chain, key in
    try LoopbackTLSServer(chain: chain, privateKey: key)
})
