// The composition root of `trust-harness`: the only place that names the back ends it runs.
import GnuTLSBackend
import OpenSSLBackend
import TrustHarness
import TrustHarnessCLI

let registry = try BackendRegistry([
    .init(name: "openssl", baseline: CLoop.openssl) { OpenSSLBackend(configuration: $0) },
    .init(name: "gnutls", baseline: CLoop.gnutls) { GnuTLSBackend(configuration: $0) },
    // What a plain client gets (README, "Variants: what the hardening buys"): run when named. The C
    // loops implement the hardened settings only, so these have no baseline.
    .init(name: OpenSSLBackend.Settings.clientDefault.name, isDefault: false) {
        OpenSSLBackend(configuration: $0, settings: .clientDefault)
    },
    .init(name: GnuTLSBackend.Settings.clientDefault.name, isDefault: false) {
        GnuTLSBackend(configuration: $0, settings: .clientDefault)
    },
])
await TrustHarnessTool.main(registry: registry, signatureFloor: CLoop.opensslSignatures)
