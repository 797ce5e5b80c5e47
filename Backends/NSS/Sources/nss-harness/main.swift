// This package's own `trust-harness`: the built-in back ends beside NSS (`swift run nss-harness run
// --backend nss`). `scripts/all-backends` builds one tool with every package under Backends/.
import BuiltInBackends
import NSSBackend
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, NSSBackend.package])
