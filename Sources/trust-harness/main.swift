// The composition root of `trust-harness`: the only place that names the back ends it runs.
import GnuTLSBackend
import OpenSSLBackend
import TrustHarness
import TrustHarnessCLI

let registry = try BackendRegistry([
    .init(name: "openssl", baseline: CLoop.openssl) { OpenSSLBackend(configuration: $0) },
    .init(name: "gnutls", baseline: CLoop.gnutls) { GnuTLSBackend(configuration: $0) },
])
await TrustHarnessTool.main(registry: registry, signatureFloor: CLoop.opensslSignatures)
