// The composition root of this package's own `trust-harness`: the built-in back ends plus ours.
import BuiltInBackends
import DenyListBackend
import Foundation
import OpenSSLBackend
import TrustHarness
import TrustHarnessCLI

let registry = try BackendRegistry(BuiltInBackends.registry.entries + [
    .init { DenyListBackend(name: "openssl-denylist", wrapping: OpenSSLBackend(configuration: $0), denied: DenyList.keys, configuration: $0) },
])
// This package's own record of where its back end deviates from the standards, beside its tests.
let deviations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/DenyListBackendTests/deviations.json").standardized
await TrustHarnessTool.main(registry: registry, benchmarks: BuiltInBackends.benchmarks, deviations: [deviations])
