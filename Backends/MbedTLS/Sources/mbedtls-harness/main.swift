// This package's own `trust-harness`: the built-in back ends beside mbedTLS (`swift run mbedtls-harness
// run --backend mbedtls`). `scripts/all-backends` builds one tool with every package under Backends/.
import BuiltInBackends
import MbedTLSBackend
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, MbedTLSBackend.package])
