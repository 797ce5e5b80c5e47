// The composition root of this package's own `trust-harness`: the standard back ends plus ours.
import DenyListBackend
import Foundation
import GnuTLSBackend
import OpenSSLBackend
import TrustCore
import TrustHarness
import TrustHarnessCLI

let registry = try BackendRegistry([
    .init(name: "openssl") { OpenSSLBackend(configuration: $0) },
    .init(name: "gnutls") { GnuTLSBackend(configuration: $0) },
    .init(name: "openssl-denylist") { DenyListBackend(name: "openssl-denylist", wrapping: OpenSSLBackend(configuration: $0), denied: DenyList.keys, configuration: $0) },
])
// This package's own record of where its back end deviates from the standards, beside its tests.
let deviations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/DenyListBackendTests/deviations.json").standardized
await TrustHarnessTool.main(registry: registry, deviations: [deviations])
