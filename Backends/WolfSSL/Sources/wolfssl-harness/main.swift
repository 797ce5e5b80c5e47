// This package's own `trust-harness`: the built-in back ends beside wolfSSL (`swift run
// wolfssl-harness run --backend wolfssl`). `scripts/all-backends` builds one tool with every package
// under Backends/.
import BuiltInBackends
import TrustHarnessCLI
import WolfSSLBackend

await TrustHarnessTool.main(packages: [BuiltInBackends.package, WolfSSLBackend.package])
